// One MSW measurement in a fresh Node process (bench/msw/msw.ts starts it with its settings as one JSON
// argument; it prints one JSON line), so that loading msw, the handlers and the document counts:
// first, the handlers made and one request answered; steady, the same request one after another.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'msw';

export type HandlerKind = 'plantstore-prepared' | 'plantstore-path' | 'mswjs-source';

export interface ChildSettings {
  mode: 'first' | 'steady';
  kind: HandlerKind;
  /** The document; the module `plantstore msw` wrote for it; the compiled `plantstore/msw` entry. */
  file: string;
  module: string;
  entry: string;
  /** One request; each `$id` in its body becomes the request's number. */
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  warmupSeconds: number;
  seconds: number;
}

export interface ChildResult {
  /** first: ms from the process's start to the handler creation call, and to the first whole answer. */
  createCallMs?: number;
  firstAnswerMs?: number;
  /** steady: answers per second, and the median and 99th percentile of their times. */
  answersPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  statuses: Record<string, number>;
  failed?: string;
}

async function handlersMaker(settings: ChildSettings): Promise<() => Promise<RequestHandler[]>> {
  if (settings.kind === 'mswjs-source') {
    const { fromOpenApi } = await import('@mswjs/source/open-api');
    const { parse } = await import('yaml');
    const text = readFileSync(settings.file, 'utf8');
    const document = settings.file.endsWith('.json') ? JSON.parse(text) : parse(text);
    // @mswjs/source 0.5 joins `https://api.stripe.com/` and `/v1/account` with a double slash, which no
    // request matches; a user meets that and trims the slash, so the figures are the trimmed ones.
    for (const server of document.servers ?? []) server.url = String(server.url).replace(/(.)\/+$/, '$1');
    return () => fromOpenApi(document);
  }
  const url = pathToFileURL(settings.kind === 'plantstore-prepared' ? settings.module : settings.entry).href;
  const library = (await import(url)) as { createHandlers(options?: { spec: string }): Promise<RequestHandler[]> };
  return settings.kind === 'plantstore-prepared'
    ? () => library.createHandlers()
    : () => library.createHandlers({ spec: settings.file });
}

let counter = 0;
async function send({ request }: ChildSettings): Promise<number> {
  const body = request.body?.replaceAll('$id', String(++counter));
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body });
  await response.arrayBuffer();
  return response.status;
}

async function measure(settings: ChildSettings): Promise<ChildResult> {
  const { setupServer } = await import('msw/node');
  const make = await handlersMaker(settings);
  const statuses: Record<string, number> = {};
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const createCallMs = performance.now();
  try {
    // 'error': a request no handler takes fails the fetch, instead of going out to the network.
    setupServer(...(await make())).listen({ onUnhandledRequest: 'error' });
    if (settings.mode === 'first') {
      count(await send(settings));
      return { createCallMs, firstAnswerMs: performance.now(), statuses };
    }
    for (const end = performance.now() + settings.warmupSeconds * 1000; performance.now() < end;) await send(settings);
    const latencies: number[] = [];
    const started = performance.now();
    for (let t = started; t < started + settings.seconds * 1000; t = performance.now()) {
      count(await send(settings));
      latencies.push(performance.now() - t);
    }
    const at = (p: number) => latencies.sort((a, b) => a - b)[Math.floor(p * latencies.length)];
    const answersPerSecond = (latencies.length * 1000) / (performance.now() - started);
    return { answersPerSecond, p50Ms: at(0.5), p99Ms: at(0.99), statuses };
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message.split('\n')[0];
    return { statuses, failed: `${settings.request.method} ${settings.request.url}: ${cause}` };
  }
}

process.stdout.write(`${JSON.stringify(await measure(JSON.parse(process.argv[2]) as ChildSettings))}\n`);
process.exit(0); // MSW's interceptors and an engine's timers must not keep a finished measurement alive
