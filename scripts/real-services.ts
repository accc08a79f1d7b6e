// The real-service stage: `verify --generate 20` against open-source REST services nobody here
// wrote, the Node apps of the EvoMaster Benchmark (WebFuzzing/EMB, js_npm/rest/): ncs, scs and
// disease-sh-api (with Debian's redis-server loading the app's own em/db/dump.rdb). It prints the
// distinct faults per service, and checks that disease-sh-api's two known faults are found: a
// repeated query key (Redis "wrong number of arguments for 'hexists'") and a huge lastdays
// ("RangeError: Invalid time value"); both leave a request without an answer.
//
// Where the apps come from, first found wins: $PLANTSTORE_EMB_DIR (a checkout of EMB), a git
// mirror of EMB at $PLANTSTORE_EMB_MIRROR (default /work/.mirror/WebFuzzing+EMB/repo), GitHub's
// tarball of EMB. They are unpacked once into the cache folder, and their npm dependencies
// installed there (the registry). Without the apps, npm or redis-server the stage says so loudly
// and exits 0 (skipped), so CI without them stays green; --require makes a skip exit 1.
//
//   npm run real-services [-- --generate 20 --only disease-sh-api --timeout 3000 --concurrency 4 --require]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { verify, type VerifyReport } from '../src/runner/index.ts';
import { freePort } from './corpus/processes.ts';

const USAGE = `Usage: npm run real-services [-- options]

Runs verify --generate against open-source REST services (EMB's ncs, scs and disease-sh-api) and prints the
distinct faults per service. Skipped (exit 0) when the apps, npm or redis-server are missing.

Options:
  --generate N       cases per operation (default 20)
  --only NAME        run only this service (repeatable): ncs, scs, disease-sh-api
  --timeout MS       per-request timeout (default 3000)
  --concurrency N    requests in flight (default 4)
  --cache DIR        where the apps are unpacked (default $PLANTSTORE_REAL_SERVICES_CACHE or ~/.cache/plantstore-real-services)
  --json FILE        also write the reports as JSON
  --require          a skip exits 1
  -h, --help         print this and exit
`;

function readFlags() {
  try {
    return parseArgs({
      options: {
        generate: { type: 'string', default: '20' },
        only: { type: 'string', multiple: true },
        require: { type: 'boolean', default: false },
        timeout: { type: 'string', default: '3000' },
        concurrency: { type: 'string', default: '4' },
        cache: {
          type: 'string',
          default: process.env.PLANTSTORE_REAL_SERVICES_CACHE ?? join(homedir(), '.cache', 'plantstore-real-services'),
        },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    // parseArgs throws for an unknown or malformed flag: one line and the usage, no stack.
    process.stderr.write(`real-services: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

const flags = readFlags();
if (flags.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const EMB_TARBALL = 'https://codeload.github.com/WebFuzzing/EMB/tar.gz/refs/heads/master';
const MIRROR = process.env.PLANTSTORE_EMB_MIRROR ?? '/work/.mirror/WebFuzzing+EMB/repo';

interface Service {
  name: string;
  spec: string;
  start(dir: string, port: number, log: (chunk: string) => void): Promise<ChildProcess[]>;
  /** Faults the benchmark lists for this service, by the text the service logs for each. */
  known: Array<{ name: string; logged: RegExp }>;
}

const SERVICES: Service[] = [
  {
    name: 'ncs',
    spec: 'src/swagger.json',
    start: (dir, port, log) => startNode(dir, ['src/server.js'], { PORT: String(port) }, log),
    known: [],
  },
  {
    name: 'scs',
    spec: 'src/swagger.json',
    start: (dir, port, log) => startNode(dir, ['src/server.js'], { PORT: String(port) }, log),
    known: [],
  },
  {
    name: 'disease-sh-api',
    spec: 'src/public/apidocs/swagger_v3.json',
    start: async (dir, port, log) => {
      const redisPort = await freePort();
      const data = join(dir, 'em', 'db');
      // Debian's redis-server reads the app's own dump; nothing is saved back.
      const redis = spawn(
        'redis-server',
        [
          '--port',
          String(redisPort),
          '--bind',
          '127.0.0.1',
          '--dir',
          data,
          '--dbfilename',
          'dump.rdb',
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      redis.stdout!.on('data', (chunk: Buffer) => log(chunk.toString()));
      redis.stderr!.on('data', (chunk: Buffer) => log(chunk.toString()));
      await waitForPort(redisPort, 15_000);
      // Written for Node 12: on Node 15+ a failing async handler ends the process unless warned only.
      const app = await startNode(
        dir,
        ['--unhandled-rejections=warn', 'src/serverStart.js'],
        { PORT: String(port), SERVER_PORT: String(port), REDIS_HOST: '127.0.0.1', REDIS_PORT: String(redisPort) },
        log,
      );
      return [...app, redis];
    },
    known: [
      {
        name: "Redis: wrong number of arguments for 'hexists' (a repeated query key)",
        logged: /wrong number of arguments for 'hexists'/,
      },
      { name: 'RangeError: Invalid time value (a huge lastdays)', logged: /RangeError: Invalid time value/ },
    ],
  },
];

async function main(): Promise<number> {
  const skip = (why: string) => {
    console.log(`\n*** real-services: SKIPPED: ${why} ***\n`);
    return flags.require ? 1 : 0;
  };
  const wanted = SERVICES.filter((service) => !flags.only || flags.only.includes(service.name));
  if (spawnSync('npm', ['--version'], { stdio: 'ignore' }).status !== 0)
    return skip('npm is not on PATH (the apps install their dependencies with it)');
  if (
    wanted.some((s) => s.name === 'disease-sh-api') &&
    spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0
  )
    return skip('redis-server is not installed (apt-get install -y redis-server); disease-sh-api needs it');
  const root = resolve(flags.cache);
  const source = await obtainApps(root);
  if (typeof source === 'string') return skip(source);
  const rows: Array<{
    service: string;
    report?: VerifyReport;
    error?: string;
    known: Array<{ name: string; found: boolean }>;
  }> = [];
  for (const service of wanted) {
    const dir = join(root, 'js_npm', 'rest', service.name);
    const installed = install(dir);
    if (installed !== undefined) {
      rows.push({ service: service.name, error: installed, known: [] });
      continue;
    }
    let logged = '';
    const port = await freePort();
    console.log(`\n=== ${service.name}: starting on port ${port} ===`);
    const processes = await service.start(dir, port, (chunk) => (logged += chunk));
    try {
      await waitForPort(port, 30_000);
      const report = await verify({
        target: `http://127.0.0.1:${port}`,
        spec: join(dir, service.spec),
        generate: Number(flags.generate),
        timeoutMs: Number(flags.timeout),
        concurrency: Number(flags.concurrency),
        reporters: [{ name: 'console', stream: process.stdout, progress: process.stdout.isTTY === true }],
      });
      rows.push({
        service: service.name,
        report,
        known: service.known.map((k) => ({ name: k.name, found: k.logged.test(logged) })),
      });
    } catch (error) {
      rows.push({ service: service.name, error: `${(error as Error).message}\n${logged.slice(-2000)}`, known: [] });
    } finally {
      for (const child of processes) child.kill('SIGTERM');
    }
  }
  console.log('\n=== real services: distinct faults ===');
  let missed = 0;
  for (const row of rows) {
    if (!row.report) {
      console.log(`${row.service}: not run: ${row.error}`);
      missed++;
      continue;
    }
    const failures = (row.report.faults ?? []).filter((fault) => fault.severity === 'failure');
    const reached = (row.report.coverage ?? []).filter((c) => c.requests > 0).length;
    console.log(
      `${row.service}: ${failures.length} distinct faults in ${row.report.summary.total} cases (${row.report.summary.failed} failed); operations reached ${reached} of ${row.report.coverage?.length ?? 0}; ${(row.report.durationMs / 1000).toFixed(1)} s`,
    );
    const byCheck = new Map<string, number>();
    for (const fault of failures) byCheck.set(fault.check, (byCheck.get(fault.check) ?? 0) + 1);
    console.log(`  by check: ${[...byCheck].map(([check, n]) => `${check} ${n}`).join(', ') || 'none'}`);
    for (const known of row.known) {
      console.log(`  known fault ${known.found ? 'FOUND' : 'MISSED'}: ${known.name}`);
      if (!known.found) missed++;
    }
  }
  if (flags.json)
    writeFileSync(
      flags.json,
      JSON.stringify(
        rows.map((row) => ({
          ...row,
          report: row.report && { summary: row.report.summary, faults: row.report.faults },
        })),
        null,
        2,
      ),
    );
  return missed > 0 ? 1 : 0;
}

/** Unpacks EMB's three Node apps into `root` once; a string says why they cannot be had. */
async function obtainApps(root: string): Promise<true | string> {
  const marker = join(root, '.unpacked');
  if (existsSync(marker)) return true;
  mkdirSync(root, { recursive: true });
  const paths = SERVICES.map((s) => `js_npm/rest/${s.name}`);
  const local = process.env.PLANTSTORE_EMB_DIR;
  if (local && existsSync(join(local, 'js_npm', 'rest'))) {
    for (const path of paths) cpSync(join(local, path), join(root, path), { recursive: true });
  } else if (existsSync(MIRROR)) {
    // File by file: a mirror may lack its largest blobs (disease-sh-api's em/db/db.json, which
    // nothing here reads: Redis loads dump.rdb); a missing one is named, and only dump.rdb is needed.
    const git = (...args: string[]) => spawnSync('git', ['--git-dir', MIRROR, ...args], { maxBuffer: 1 << 30 });
    for (const path of paths) {
      const listed = git('ls-tree', '-r', '-z', 'HEAD', path);
      if (listed.status !== 0)
        return `git ls-tree of ${path} in the EMB mirror ${MIRROR} failed: ${listed.stderr.toString()}`;
      for (const line of listed.stdout.toString().split('\0').filter(Boolean)) {
        const [meta, file] = line.split('\t');
        const blob = git('cat-file', 'blob', meta.split(' ')[2]);
        if (blob.status !== 0) {
          if (file.endsWith('dump.rdb')) return `the EMB mirror lacks ${file}, which Redis needs`;
          console.log(`(the EMB mirror lacks ${file}; not needed)`);
          continue;
        }
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), blob.stdout);
      }
    }
  } else {
    console.log(`fetching ${EMB_TARBALL} ...`);
    let response: Response;
    try {
      response = await fetch(EMB_TARBALL, { signal: AbortSignal.timeout(60_000) });
    } catch (error) {
      return `the EMB apps are not here and GitHub cannot be reached (${(error as Error).message}); set PLANTSTORE_EMB_DIR to a checkout of https://github.com/WebFuzzing/EMB`;
    }
    if (!response.ok) return `GitHub answered ${response.status} for ${EMB_TARBALL}`;
    const file = join(tmpdir(), `emb-${process.pid}.tar.gz`);
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const untar = spawnSync('tar', [
      '-xzf',
      file,
      '-C',
      root,
      '--strip-components=1',
      ...paths.map((p) => `EMB-master/${p}`),
    ]);
    rmSync(file, { force: true });
    if (untar.status !== 0) return `unpacking the EMB tarball failed: ${untar.stderr.toString()}`;
  }
  writeFileSync(marker, new Date().toISOString());
  return true;
}

/**
 * Installs an app's runtime dependencies once; its devDependencies point at EMB's own instrumentation, which is left
 * out.
 */
function install(dir: string): string | undefined {
  if (existsSync(join(dir, 'node_modules', '.plantstore-installed'))) return undefined;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  delete manifest.devDependencies;
  delete manifest.scripts;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  // The lock names the instrumentation as a file: link; without devDependencies it is resolved afresh.
  rmSync(join(dir, 'package-lock.json'), { force: true });
  console.log(`installing ${dir} (npm install --omit=dev) ...`);
  const result = spawnSync(
    'npm',
    ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: dir, encoding: 'utf8' },
  );
  if (result.status !== 0) return `npm install failed in ${dir}: ${result.stderr.slice(-2000)}`;
  writeFileSync(join(dir, 'node_modules', '.plantstore-installed'), '');
  return undefined;
}

async function startNode(
  dir: string,
  args: string[],
  env: Record<string, string>,
  log: (chunk: string) => void,
): Promise<ChildProcess[]> {
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => log(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => log(chunk.toString()));
  return [child];
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on port ${port} after ${timeoutMs / 1000} s`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

process.exitCode = await main();
