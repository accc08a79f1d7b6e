// Each fault as a real client (undici) sees it, a fault never changes state, the journal records
// it, and --fault-rate draws the same faults again under the same seed.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

const DOC = 'test/documents/unhappy-path.yaml';
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What a client saw: the status and body, or the error codes it failed with (undici's and its cause's). */
async function seen(
  url: string,
  options: Parameters<typeof request>[1] = {},
): Promise<{ status?: number; body?: string; error?: string; headers?: Record<string, unknown> }> {
  try {
    const answer = await request(url, options);
    try {
      return { status: answer.statusCode, headers: answer.headers, body: await answer.body.text() };
    } catch (error) {
      return { status: answer.statusCode, error: codes(error) };
    }
  } catch (error) {
    return { error: codes(error) };
  }
}
const codes = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return [e.code, e.cause?.code].filter(Boolean).join('/');
};

const create = (url: string, id: number, headers: Record<string, string> = {}) =>
  seen(`${url}/plants`, {
    method: 'POST',
    body: JSON.stringify({ id, name: 'Fern' }),
    headers: { 'content-type': 'application/json', ...headers },
  });

const stored = async (url: string) =>
  ((await (await request(`${url}/__mock/state`)).body.json()) as { collections: Record<string, unknown[]> })
    .collections['/plants'] ?? [];

describe('faults a real client sees', () => {
  it('reset: the connection is reset before any byte (ECONNRESET)', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    expect(await seen(`${server.url}/plants`, { headers: { prefer: 'fault=reset' } })).toEqual({
      error: expect.stringMatching(/ECONNRESET/),
    });
  });

  it('close: the connection is closed before any byte (other side closed)', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    const answer = await seen(`${server.url}/plants?__fault=close`);
    expect(answer.status).toBeUndefined();
    expect(answer.error).toMatch(/UND_ERR_SOCKET/);
  });

  it('timeout: no answer at all, until the client gives up', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    const dispatcher = new Agent({ headersTimeout: 300 });
    expect(await seen(`${server.url}/plants`, { headers: { prefer: 'fault=timeout' }, dispatcher })).toEqual({
      error: 'UND_ERR_HEADERS_TIMEOUT',
    });
    await dispatcher.close();
  });

  it('timeout: a request left waiting does not hold up the mock stopping', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    const waiting = seen(`${server.url}/plants`, { headers: { prefer: 'fault=timeout' } });
    // The journal notes it as soon as it is decided: then it is waiting.
    await expect.poll(() => server!.engine.journal.entries().length).toBe(1);
    await server.close();
    server = undefined;
    expect((await waiting).error).toMatch(/UND_ERR_SOCKET/);
  });

  it("malformed: the document's answer's status and headers arrive, then its body cut short of its length", async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    // The document's own answer (its lowest 2xx): a fault reads no state, as a forced answer does.
    const answer = await seen(`${server.url}/plants/7`, { headers: { prefer: 'fault=malformed, delay=0' } });
    expect(answer.status).toBe(200);
    expect(answer.error).toMatch(/UND_ERR_RES_CONTENT_LENGTH_MISMATCH|UND_ERR_SOCKET/);
  });

  it('slow-body: the status at once, then the whole body in pieces', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    const answer = await request(`${server.url}/plants`, { headers: { prefer: 'fault=slow-body' } });
    expect(answer.statusCode).toBe(200);
    const pieces: Buffer[] = [];
    for await (const piece of answer.body) pieces.push(piece as Buffer);
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(Buffer.concat(pieces).toString())).toEqual(expect.any(Array));
  });

  it('refuses a fault it does not know with 400, naming the ones it does', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    const answer = await seen(`${server.url}/plants`, { headers: { prefer: 'fault=explode' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('use one of reset, close, timeout, malformed, slow-body');
  });
});

describe('a fault and the state', () => {
  it.each(['reset', 'close', 'malformed', 'slow-body'])(
    'a create answered with %s stores nothing, and the journal says so',
    async (fault) => {
      server = await startMockServer({ spec: DOC, port: 0 });
      await create(server.url, 1, { prefer: `fault=${fault}` });
      expect(await stored(server.url)).toEqual([]);
      const [entry] = server.engine.journal.entries();
      expect(entry).toMatchObject({
        method: 'POST',
        path: '/plants',
        fault: { kind: fault, by: `Prefer: fault=${fault}` },
      });
      // And the same create without the fault is stored.
      expect((await create(server.url, 1)).status).toBe(201);
      expect(await stored(server.url)).toHaveLength(1);
    },
  );
});

describe('--fault-rate', () => {
  const run = async (seed: number) => {
    server = await startMockServer({ spec: DOC, port: 0, faultRate: 0.5, seed });
    const outcomes: string[] = [];
    for (let id = 1; id <= 40; id++) {
      const answer = await create(server.url, id);
      outcomes.push(
        answer.error === undefined
          ? String(answer.status)
          : answer.status === undefined
            ? answer.error
            : `${answer.status}+cut`,
      );
    }
    for (let n = 0; n < 20; n++) {
      const answer = await seen(`${server.url}/plants`);
      outcomes.push(
        answer.error === undefined
          ? `${answer.status}${answer.status === 429 ? ` retry-after ${answer.headers?.['retry-after']}` : ''}`
          : answer.error,
      );
    }
    const records = await stored(server.url);
    const journal = server.engine.journal.entries();
    await server.close();
    server = undefined;
    return { outcomes, records, journal };
  };

  it('draws the same faults again under the same seed, and others under another', async () => {
    const first = await run(11);
    const again = await run(11);
    const other = await run(12);
    expect(again.outcomes).toEqual(first.outcomes);
    expect(other.outcomes).not.toEqual(first.outcomes);
    // Declared statuses and socket faults both come up; a 429 says when to retry.
    expect(first.outcomes).toContain('500');
    expect(first.outcomes.some((o) => /ECONNRESET|UND_ERR_SOCKET/.test(o))).toBe(true);
    expect(first.outcomes.filter((o) => o.startsWith('429')).every((o) => o === '429 retry-after 1')).toBe(true);
    expect(first.outcomes.some((o) => o === '503' || o.startsWith('429'))).toBe(true);
  });

  it('never stores what a faulted create sent: the records are the creates answered 201', async () => {
    const { outcomes, records, journal } = await run(5);
    const created = outcomes.slice(0, 40).filter((o) => o === '201').length;
    expect(created).toBeGreaterThan(5);
    expect(created).toBeLessThan(35);
    expect(records).toHaveLength(created);
    expect(
      journal
        .filter((entry) => entry.fault !== undefined)
        .every((entry) => entry.fault!.by === '--fault-rate 0.5 (--seed 5)'),
    ).toBe(true);
  });
});
