// A small server of test/documents/hostile-history.yaml, written for the runner's hostile-value
// and check tests: correct by default, or with one defect of the kinds real servers have (a
// repeated query key that hangs the handler, a huge number that throws, no input validation,
// wrong field types, a slow answer, 404 instead of 405).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HistoryDefect =
  'repeated-key-hangs' | 'huge-number-throws' | 'no-validation' | 'wrong-types' | 'slow' | 'no-405' | 'hang-everything';

export interface HistoryServer {
  url: string;
  /** Requests received, as "METHOD /path?query". */
  requests: string[];
  close(): Promise<void>;
}

export async function startHistoryServer(defect?: HistoryDefect): Promise<HistoryServer> {
  const requests: string[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (defect === 'hang-everything') return;
    if (defect === 'slow') await new Promise((done) => setTimeout(done, 300));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const allow = (methods: string) =>
      defect === 'no-405'
        ? json(res, 404, { error: 'not found' })
        : (res.writeHead(405, { allow: methods, 'content-type': 'application/json' }),
          res.end('{"error":"method not allowed"}'));

    if (url.pathname === '/history') {
      if (req.method !== 'GET') return allow('GET');
      const all = url.searchParams.getAll('lastdays');
      if (all.length > 1 && defect === 'repeated-key-hangs') return; // an unhandled rejection in a real app: no answer ever
      const region = url.searchParams.get('region');
      if (region !== null && !['north', 'south'].includes(region) && defect !== 'no-validation')
        return json(res, 400, { error: 'region is north or south' });
      const asked = Number(all[0]);
      if (defect === 'huge-number-throws' && asked > 100_000)
        return json(res, 500, { error: 'RangeError: Invalid time value\n    at Date.toISOString' });
      const days = Number.isSafeInteger(asked) && asked >= 0 && asked <= 10 ? asked : 3;
      const list = Array.from({ length: days }, (_, i) => ({
        day: `2024-01-0${i + 1}`,
        cases: defect === 'wrong-types' ? String(i) : i,
      }));
      return json(res, 200, list);
    }
    const country = /^\/countries\/([^/]+)$/.exec(url.pathname);
    if (country) {
      if (req.method !== 'GET') return allow('GET');
      const name = decodeURIComponent(country[1]);
      if ([...name].length > 20 && defect !== 'no-validation')
        return json(res, 400, { error: 'a country name has at most 20 characters' });
      return json(res, 200, { day: '2024-01-01', cases: 1 });
    }
    if (url.pathname === '/notes') {
      if (req.method !== 'POST') return allow('POST');
      if (defect === 'no-validation') return json(res, 201, {});
      if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
        return json(res, 400, { error: 'send JSON' });
      let note: unknown;
      try {
        note = JSON.parse(body);
      } catch {
        return json(res, 400, { error: 'not JSON' });
      }
      const ok =
        note !== null &&
        typeof note === 'object' &&
        !Array.isArray(note) &&
        Object.keys(note).every((key) => key === 'text' || key === 'stars') &&
        typeof (note as { text?: unknown }).text === 'string' &&
        [...(note as { text: string }).text].length <= 50 &&
        Number.isInteger((note as { stars?: unknown }).stars) &&
        (note as { stars: number }).stars >= 1 &&
        (note as { stars: number }).stars <= 5;
      return ok ? json(res, 201, {}) : json(res, 400, { error: 'a note is { text, stars 1..5 }' });
    }
    return json(res, 404, { error: 'no such path' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
