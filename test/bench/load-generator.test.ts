// wrk sends what the scenario says (through bench/lib/wrk-load.lua, as bodyOf builds it): fresh ids in
// order from the load's first, the scenario's headers, and figures that count the answers by status;
// servers loaded at the same time each get their load. Runs where wrk is installed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWrk, loadAtOnce, parseWrkOutput, runLoad } from '../../bench/lib/load.ts';
import { bodyOf, scenario } from '../../bench/lib/scenarios.ts';
import type { RunningServer } from '../../bench/lib/server.ts';

let server: Server;
let url: string;
const received: { body: string; authorization?: string; contentType?: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ body, authorization: req.headers.authorization, contentType: req.headers['content-type'] });
      // Every third answer is a 409: the figures must tell it from the scenario's 200.
      res.statusCode = received.length % 3 === 0 ? 409 : 200;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.skipIf(!findWrk())('runLoad', () => {
  it('sends int64 creates with fresh ids in order and counts the answers by status', async () => {
    received.length = 0;
    const valid = scenario('valid-int64');
    const load = await runLoad('wrk', { url, scenario: valid, connections: 1, seconds: 1, idStart: 500n }, process.pid);
    expect(load.requests).toBeGreaterThan(10);
    // One connection: bodies arrive in the order they were made; answers after the deadline are not counted.
    expect(received.length).toBeGreaterThanOrEqual(load.requests);
    expect(received.map((r) => r.body)).toEqual(received.map((_, i) => bodyOf(valid, 500n + BigInt(i))));
    expect(received[0]).toMatchObject({ authorization: 'Bearer bench-token', contentType: 'application/json' });
    expect(load.statuses['409']).toBe(Math.floor(load.requests / 3));
    expect(load.unexpected).toBe(load.statuses['409']);
    expect(load.created).toBe(load.statuses['200']);
    expect(load.requestsPerSecond).toBeCloseTo(load.requests / load.seconds);
    expect(load.p50Ms).toBeLessThanOrEqual(load.p99Ms);
    expect(load.serverCpuMicrosPerRequest).toBeGreaterThan(0);
  });
});

describe.skipIf(!findWrk())('loadAtOnce', () => {
  const running = (title: string, exit?: string) => ({
    server: { title },
    running: { url, pid: process.pid, exit: () => exit, logFile: '/dev/null' } as unknown as RunningServer,
  });

  it('loads every server at the same time, with the connections shared out', async () => {
    received.length = 0;
    const settings = { generator: 'wrk', connections: 4, warmupSeconds: 0 } as const;
    const loads = await loadAtOnce([running('a'), running('b')], scenario('valid'), settings, 1);
    expect(loads).toHaveLength(2);
    expect(loads.every((load) => load.requests > 10)).toBe(true);
    // Two loads, two blocks of ids: no id is sent twice.
    const ids = received.map((r) => r.body.match(/"id":(\d+)/)?.[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('throws when a server exited during the load: its figures only counted refused connections', async () => {
    const settings = { generator: 'wrk', connections: 2, warmupSeconds: 0 } as const;
    await expect(loadAtOnce([running('gone', '1')], scenario('valid'), settings, 1)).rejects.toThrow(
      'gone exited during the load (1)',
    );
  });
});

describe('parseWrkOutput', () => {
  const summary = 'Running 5s test @ http://127.0.0.1:4010\n  1 threads and 50 connections\nRequests/sec:   4915.17\n';
  it("reads the script's line after wrk's summary", () => {
    const line =
      '{"requests":24926,"seconds":5.071,"p50Ms":7.54,"p99Ms":146.1,"maxMs":201,"statuses":{"200":24900,"400":26},"errors":1,"timeouts":2,"cpuSeconds":0.441}';
    expect(parseWrkOutput(`${summary}${line}\n`)).toEqual({
      requests: 24926,
      seconds: 5.071,
      p50Ms: 7.54,
      p99Ms: 146.1,
      maxMs: 201,
      statuses: { 200: 24900, 400: 26 },
      errors: 1,
      timeouts: 2,
      cpuSeconds: 0.441,
    });
  });

  it('says what wrk printed when the figures are missing', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:4010 Connection refused\n')).toThrow(
      /wrk printed no figures: unable to connect/,
    );
  });
});
