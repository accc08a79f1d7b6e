// One measured start of a server: what it answered is recorded, and a server that fails is a result.
import { describe, expect, it } from 'vitest';
import { measureRun, type ServerCommand } from '../../bench/large-documents/large-documents.ts';
import type { BenchRequest } from '../../bench/lib/document-requests.ts';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const get = (target: string): BenchRequest => ({ operation: `GET ${target}`, method: 'GET', target, headers: {} });
const node = (script: string): ServerCommand => ({ args: (port) => ['-e', script, String(port)] });
const options = {
  logFile: join(tmpdir(), 'plantstore-large-server-run.log'),
  answerTimeoutMs: 20_000,
  requestTimeoutMs: 2_000,
};

const SERVER = `
const http = require('node:http');
http.createServer((req, res) => {
  if (req.url === '/hang') return;
  res.statusCode = req.url === '/missing' ? 404 : 200;
  res.end('{}');
}).listen(Number(process.argv[1]), '127.0.0.1');
`;

describe('measureRun', () => {
  it('times listening, the first answer and each operation, and stops the server with SIGTERM', async () => {
    const result = await measureRun(node(SERVER), get('/'), [get('/a'), get('/missing')], options);
    expect(result.listeningMs).toBeGreaterThan(0);
    expect(result.firstAnswerMs).toBeGreaterThanOrEqual(result.listeningMs as number);
    expect(result.probeStatus).toBe(200);
    expect(result.answers.map((a) => [a.operation, a.status])).toEqual([
      ['GET /a', 200],
      ['GET /missing', 404],
    ]);
    expect(result.rssBytes).toBeGreaterThan(1_000_000);
    expect(result.termMs).toBeDefined();
    expect(result.stalled).toBeUndefined();
  });

  it('ends the requests at the first operation without an answer, and says which', async () => {
    const result = await measureRun(node(SERVER), get('/'), [get('/hang'), get('/a')], options);
    expect(result.answers).toEqual([{ operation: 'GET /hang' }]);
    expect(result.termMs).toBeGreaterThanOrEqual(0);
    expect(result.stalled).toBe('no answer to GET /hang within 2 s');
  });

  it('reports a server that exits before listening instead of stopping the benchmark', async () => {
    const result = await measureRun(node('process.exit(3)'), get('/'), [get('/a')], options);
    expect(result.listeningMs).toBeUndefined();
    expect(result.stalled).toMatch(/^exited before listening \(3\)/);
    expect(result.answers).toEqual([]);
  });

  it('sends SIGTERM the given time after spawn, whatever the server is doing, and times its exit', async () => {
    const result = await measureRun(node(SERVER), get('/'), [get('/a')], { ...options, termAfterMs: 50 });
    expect(result.listeningMs).toBeUndefined();
    expect(result.answers).toEqual([]);
    expect(Number.isFinite(result.termMs)).toBe(true); // it exited on SIGTERM, not killed after the limit
  });
});
