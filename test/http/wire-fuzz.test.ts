// A short, seeded fuzz of the mock's socket (fast-check): valid pipelined streams cut at random
// places must be answered exactly as when written at once, and valid requests with random bytes
// changed must never get a 500, never hang past the deadline, never stop the mock serving, and
// store something exactly when bare node:http (the reference, test/helpers/probe-wire.ts) would,
// but for the differences hostile-probes.test.ts asserts on purpose. Bounded runs, a fixed seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { runProbe, startReference, type ReferenceServer, type Step } from '../helpers/probe-wire.ts';

const SEED = 20;
// Short deadlines, so that a request a mutation left incomplete is refused soon; not shorter: Node's
// header clock starts when a connection is accepted, so a loaded machine that stalls the event loop
// for longer than the deadline had the clean request after a probe refused 408.
const DEADLINES = { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 };

let nextId = 6_000_000;
const HEADERS = ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json'];
const message = (lines: string[], body = '') =>
  Buffer.from(`${lines.map((line) => `${line}\r\n`).join('')}\r\n${body}`, 'latin1');
/** Valid requests, each with a fresh id where it creates (the answers carry no id). */
const TEMPLATES: Record<string, () => Buffer> = {
  create: () => {
    const body = JSON.stringify({ id: nextId++, name: 'Fuzz', tag: 'f' });
    return message(['POST /plants HTTP/1.1', ...HEADERS, `Content-Length: ${body.length}`], body);
  },
  'chunked create': () => {
    const body = JSON.stringify({ id: nextId++, name: 'Chunks' });
    return message(
      ['POST /plants HTTP/1.1', ...HEADERS, 'Transfer-Encoding: chunked'],
      `a\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)};x=y\r\n${body.slice(10)}\r\n0\r\n\r\n`,
    );
  },
  'absolute-form create': () => {
    const body = JSON.stringify({ id: nextId++, name: 'Abs' });
    return message(['POST http://h.test/plants?q=1 HTTP/1.1', ...HEADERS, `Content-Length: ${body.length}`], body);
  },
  'HTTP/1.0 create': () => {
    const body = JSON.stringify({ id: nextId++, name: 'Old' });
    return message(['POST /plants HTTP/1.0', ...HEADERS.slice(1), `Content-Length: ${body.length}`], body);
  },
  'invalid create': () => message(['POST /plants HTTP/1.1', ...HEADERS, 'Content-Length: 14'], '{"id":"seven"}'),
  'create without a token': () =>
    message(['POST /plants HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 2'], '{}'),
  health: () => message(['GET /__mock/health HTTP/1.1', 'Host: x']),
  'unknown path': () => message(['GET /nowhere?x=%20 HTTP/1.1', 'Host: x']),
};
const HEAD = () => message(['HEAD /plants HTTP/1.1', 'Host: x']);

let mock: MockServer;
let reference: ReferenceServer;
beforeAll(async () => {
  [mock, reference] = await Promise.all([
    startMockServer({ port: 0, maxBodyBytes: 4096, ...DEADLINES }),
    startReference({ deadlines: DEADLINES }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock.close(), reference.close()]);
});

/**
 * Statuses and bodies of everything the mock answers to `steps`, read until it closes after the client's half-close.
 *
 */
async function answersTo(steps: Step[], head: number[] = []) {
  const { statuses, bodies } = await runProbe(mock.port, [...steps, { end: true }], Number.POSITIVE_INFINITY, { head });
  // The health answer's uptime is the one thing that may differ between two runs.
  return statuses.map((status, i) => `${status} ${bodies[i].replace(/"uptimeSeconds": *\d+/, '"uptimeSeconds": N')}`);
}

describe('pipelined valid streams cut at random places', () => {
  /** Creates (plain, chunked, absolute-form), refusals, a HEAD (answer 4) and reads, with fresh ids. */
  const stream = () =>
    Buffer.concat([
      TEMPLATES.create(),
      TEMPLATES['chunked create'](),
      TEMPLATES['absolute-form create'](),
      TEMPLATES['invalid create'](),
      HEAD(),
      TEMPLATES['create without a token'](),
      TEMPLATES.health(),
      TEMPLATES['unknown path'](),
      TEMPLATES.create(),
    ]);

  it('are answered exactly as when written at once', async () => {
    const whole = await answersTo([{ write: stream() }], [4]);
    expect(whole.map((answer) => Number(answer.slice(0, 3)))).toEqual([200, 200, 200, 400, 405, 401, 200, 404, 200]);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 12 }),
        async (cuts) => {
          const bytes = stream();
          const at = [...new Set(cuts.map((cut) => cut % bytes.length))].filter((cut) => cut > 0).sort((a, b) => a - b);
          const pieces = [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length));
          const steps = pieces.flatMap((piece): Step[] => [{ write: piece }, { turn: true }]);
          expect(await answersTo(steps, [4])).toEqual(whole);
        },
      ),
      { seed: SEED, numRuns: 40, endOnFailure: true },
    );
  });
});

describe('valid requests with random bytes changed', () => {
  // Bytes that matter to a parser, and any byte.
  const byte = fc.oneof(
    fc.constantFrom(13, 10, 0, 32, 9, 58, 44, 59, 48, 49, 57, 97, 102, 127, 128, 255, 34, 123, 125, 45, 43, 47, 63, 37),
    fc.integer({ min: 0, max: 255 }),
  );
  const mutation = fc.oneof(
    fc.record({
      kind: fc.constant('replace' as const),
      at: fc.nat(),
      bytes: fc.array(byte, { minLength: 1, maxLength: 1 }),
    }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.array(byte, { minLength: 1, maxLength: 4 }),
    }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  );
  type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

  function mutate(bytes: Buffer, mutations: Mutation[]): Buffer {
    let out = bytes;
    for (const m of mutations) {
      const at = m.at % out.length;
      if (m.kind === 'replace') out = Buffer.concat([out.subarray(0, at), Buffer.from(m.bytes), out.subarray(at + 1)]);
      else if (m.kind === 'insert') out = Buffer.concat([out.subarray(0, at), Buffer.from(m.bytes), out.subarray(at)]);
      else if (m.kind === 'delete') out = Buffer.concat([out.subarray(0, at), out.subarray(at + m.length)]);
      else out = Buffer.concat([out.subarray(0, at + m.length), out.subarray(at)]);
    }
    return out;
  }

  it('never get a 500 or a hang, leave the mock serving, and are accepted exactly when node:http accepts them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(TEMPLATES)),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (template, mutations, halfClose) => {
          const bytes = mutate(TEMPLATES[template](), mutations);
          const [beforeMock, beforeReference] = [mock.engine.store.size(), reference.stored()];
          // Half-closed: everything is answered and the connection closed at once. Left open: the
          // first answer (or the close) comes by the request deadline; the bound only fails a hang.
          const steps: Step[] = halfClose ? [{ write: bytes }, { end: true }] : [{ write: bytes }];
          const expected = halfClose ? Number.POSITIVE_INFINITY : 1;
          const options = { canary: false, boundMs: DEADLINES.requestTimeoutMs + 4_000 };
          const [onMock] = await Promise.all([
            runProbe(mock.port, steps, expected, options),
            runProbe(reference.port, steps, expected, options),
          ]);
          // 501 and 505 are refusals of a coding or a version; any other 5xx is a mock bug.
          for (const status of onMock.statuses) expect([500, 502, 503, 504]).not.toContain(status);
          onMock.statuses.forEach((status, i) => {
            if (status >= 400)
              expect(JSON.parse(onMock.bodies[i])).toMatchObject({ error: status, message: expect.any(String) });
          });
          // A clean request on a new connection is served (and the mutated one has been dealt with).
          const clean = await runProbe(
            mock.port,
            [{ write: TEMPLATES.health() }, { end: true }],
            Number.POSITIVE_INFINITY,
          );
          expect(clean.statuses).toEqual([200]);
          const cleanReference = await runProbe(
            reference.port,
            [{ write: TEMPLATES.health() }, { end: true }],
            Number.POSITIVE_INFINITY,
          );
          expect(cleanReference.statuses).toEqual([200]);
          // Asserted difference: node:http reads a request line with another major version as a request.
          if (onMock.statuses.includes(505)) return;
          expect(mock.engine.store.size() - beforeMock).toBe(reference.stored() - beforeReference);
        },
      ),
      { seed: SEED, numRuns: 300, endOnFailure: true },
    );
  });
});
