// Debian's redis-server for the tests of the Redis store (.ci/run installs it): each test file
// starts its own on a free port, in a temporary folder, with an append-only file fsynced at every
// write (so a restart keeps every acknowledged write). A machine without it skips those tests,
// loudly: a skipped Redis test must not pass unseen.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp-dir.ts';

/** The redis-server binary: $PLANTSTORE_REDIS_SERVER, else the one on PATH. Undefined when there is none. */
export const REDIS_SERVER = [process.env.PLANTSTORE_REDIS_SERVER, 'redis-server'].find(
  (bin) => bin && spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0,
);

/** Says on stderr, once per test file, that `testFile` (its import.meta.url) skips for want of redis-server. */
export function warnIfNoRedis(testFile: string): void {
  if (REDIS_SERVER) return;
  console.warn(
    `\n*** SKIPPED ${relative(process.cwd(), fileURLToPath(testFile))}: no redis-server on PATH (install it: apt-get install -y redis-server, or set PLANTSTORE_REDIS_SERVER) ***\n`,
  );
}

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops it (SIGKILL: as a crash, when `crash`), and waits until it is gone. */
  stop(crash?: boolean): Promise<void>;
  /** Starts it again on the same port and folder (its append-only file brings the data back). */
  restart(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing is answered, until resume(). */
  pause(): void;
  resume(): void;
}

export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Starts a redis-server of its own; resolves once it accepts connections. */
export async function startRedis(): Promise<RunningRedis> {
  if (!REDIS_SERVER) throw new Error('no redis-server');
  const dir = tempDir('plantstore-redis-');
  const port = await freePort();
  let child: ChildProcess;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      child = spawn(
        REDIS_SERVER!,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'yes',
          '--appendfsync',
          'always',
          '--daemonize',
          'no',
          '--loglevel',
          'notice',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) {
          child.stdout!.off('data', onData);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    async stop(crash = false) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((done) => child.once('exit', done));
      child.kill(crash ? 'SIGKILL' : 'SIGTERM');
      await gone;
    },
    restart: start,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}
