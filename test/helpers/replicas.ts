// Mock replicas as separate processes on one Redis (test/state/replica-process.ts), and a battery
// transport that sends each request to the next replica in turn, as a round-robin balancer would.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { stringifyJson, type JsonValue } from '../../src/json/exact-json.ts';
import type { MockOptions } from '../../src/mock/options.ts';
import type { BatteryJournalEntry, BatterySuite, BatteryTransport } from '../battery/contract-battery.ts';
import { exact, fetchAnswer } from '../battery/node-transports.ts';

export interface Replica {
  url: string;
  child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  log(): string;
  /** Resolves once its stderr has a line matching `pattern` (now or later). */
  logged(pattern: RegExp): Promise<void>;
  stop(): Promise<number | null>;
}

/** Starts a mock replica process with these options; resolves once it listens. */
export function startReplica(options: Partial<MockOptions>): Promise<Replica> {
  const child = spawn(process.execPath, [resolve('test/state/replica-process.ts'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  const waiting: Array<{ pattern: RegExp; done: () => void }> = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    for (const wait of waiting.splice(0))
      if (wait.pattern.test(errors)) wait.done();
      else waiting.push(wait);
  });
  return new Promise((resolveStart, reject) => {
    child.once('exit', (code) => reject(new Error(`a replica exited (${code}) before it listened:\n${errors}`)));
    child.stdout!.once('data', (chunk: Buffer) => {
      const url = chunk.toString().trim();
      resolveStart({
        url,
        child,
        log: () => errors,
        logged: (pattern) =>
          new Promise<void>((done) => (pattern.test(errors) ? done() : waiting.push({ pattern, done }))),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/**
 * The battery's transport over replicas: API requests go to each in turn; the state is seeded
 * through one and read through the next (so both must see one state); the journal, which stays
 * per replica, is each replica's in turn, joined.
 */
export function roundRobinTransport(replicas: Replica[]): BatteryTransport {
  let turn = 0;
  const next = () => replicas[turn++ % replicas.length].url;
  const admin = (base: string, method: string, path: string, body?: string) =>
    fetch(`${base}/__mock/${path}`, {
      method,
      body,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
    });
  return {
    kind: 'http',
    send: (request) => fetchAnswer(next(), request),
    async seed(collectionsJson) {
      const answer = await admin(next(), 'POST', 'state', collectionsJson);
      const text = await answer.text();
      return answer.status === 201
        ? { ok: true }
        : { ok: false, message: String((exact(text) as { message?: unknown }).message) };
    },
    async state() {
      const { collections } = exact(await (await admin(next(), 'GET', 'state')).text()) as { collections: JsonValue };
      return stringifyJson(collections);
    },
    async reset() {
      await admin(next(), 'DELETE', 'state');
      for (const replica of replicas) await admin(replica.url, 'DELETE', 'requests');
    },
    async journal() {
      const lists = await Promise.all(
        replicas.map(
          async (replica) =>
            (
              JSON.parse(await (await admin(replica.url, 'GET', 'requests')).text()) as {
                requests: BatteryJournalEntry[];
              }
            ).requests,
        ),
      );
      return lists.flat();
    },
  };
}

/** The replicas of one battery suite on one Redis (a namespace of their own: `prefix`). */
export function suiteReplicas(suite: BatterySuite, redisUrl: string, prefix: string, count = 2): Promise<Replica[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      startReplica({ spec: resolve(suite.document), ...suite.options, stateUrl: redisUrl, statePrefix: prefix }),
    ),
  );
}
