// One MSW measurement in a fresh Node process, started by bench/msw/measure.ts with its settings as one JSON
// argument; it prints one JSON line (a MswChildResult) and exits. Every module (msw, the handlers'
// library, the prepared document) is imported after the process starts, so its loading counts.
//   first:  the handlers made (timed from that call) and one request answered through setupServer;
//   steady: after a warm-up, requests one after another through `fetch` for a few seconds.
// The driver is the same for every kind of handlers: global fetch, intercepted by setupServer.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'msw';

export type HandlerKind = 'plantstore-prepared' | 'plantstore-path' | 'mswjs-source';

/** One request; each `$id` in its body becomes the request's number. */
export interface ChildRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface MswChildSettings {
  mode: 'first' | 'steady';
  kind: HandlerKind;
  /** The document file (YAML or JSON). */
  file: string;
  /** plantstore-prepared: the module `plantstore msw` wrote for `file`. */
  module: string;
  /** plantstore-path: the compiled `plantstore/msw` entry. */
  entry: string;
  request: ChildRequest;
  /**
   * mswjs-source: hand it the document with its server URLs' trailing slashes removed. @mswjs/source
   * 0.5 joins `https://api.stripe.com/` and `/v1/account` into `https://api.stripe.com//v1/account`,
   * which no request matches; a user meets that and trims the slash, so the figures are the trimmed ones.
   */
  trimServers: boolean;
  warmupSeconds: number;
  seconds: number;
}

export interface MswChildResult {
  /**
   * first: ms from the process's start (performance.timeOrigin) to the handler creation call, and to the first whole
   * answer.
   */
  createCallMs?: number;
  firstAnswerMs?: number;
  /** steady: every measured request's ms, and the measured wall time. */
  latencies?: number[];
  wallMs?: number;
  statuses: Record<string, number>;
  /** Why there is no figure: the handlers could not be made, or a request had no answer. */
  failed?: string;
}

async function handlersMaker(settings: MswChildSettings): Promise<() => Promise<RequestHandler[]>> {
  if (settings.kind === 'mswjs-source') {
    const { fromOpenApi } = await import('@mswjs/source/open-api');
    const { parse } = await import('yaml');
    // As a user has it: the document imported or parsed already, handed over as an object.
    const text = readFileSync(settings.file, 'utf8');
    const document = settings.file.endsWith('.json') ? JSON.parse(text) : parse(text);
    if (settings.trimServers)
      for (const server of document.servers ?? []) server.url = String(server.url).replace(/(.)\/+$/, '$1');
    return () => fromOpenApi(document);
  }
  if (settings.kind === 'plantstore-prepared') {
    const prepared = (await import(pathToFileURL(settings.module).href)) as {
      createHandlers(): Promise<RequestHandler[]>;
    };
    return () => prepared.createHandlers();
  }
  const library = (await import(pathToFileURL(settings.entry).href)) as {
    createHandlers(options: { spec: string }): Promise<RequestHandler[]>;
  };
  return () => library.createHandlers({ spec: settings.file });
}

let counter = 0;
async function send(request: ChildRequest): Promise<number> {
  counter++;
  const body = request.body?.replaceAll('$id', String(counter));
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body });
  await response.arrayBuffer();
  return response.status;
}

async function measure(settings: MswChildSettings): Promise<MswChildResult> {
  const { setupServer } = await import('msw/node');
  const make = await handlersMaker(settings);
  const statuses: Record<string, number> = {};
  const createCallMs = performance.now();
  let handlers: RequestHandler[];
  try {
    handlers = await make();
  } catch (error) {
    return { statuses, failed: `the handlers could not be made: ${(error as Error).message.split('\n')[0]}` };
  }
  // 'error': a request no handler takes fails the fetch, instead of going out to the network.
  setupServer(...handlers).listen({ onUnhandledRequest: 'error' });
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  try {
    if (settings.mode === 'first') {
      count(await send(settings.request));
      return { createCallMs, firstAnswerMs: performance.now(), statuses };
    }
    const warmupEnd = performance.now() + settings.warmupSeconds * 1000;
    while (performance.now() < warmupEnd) await send(settings.request);
    const latencies: number[] = [];
    const started = performance.now();
    const end = started + settings.seconds * 1000;
    while (performance.now() < end) {
      const t = performance.now();
      const status = await send(settings.request);
      latencies.push(performance.now() - t);
      count(status);
    }
    return { latencies, wallMs: performance.now() - started, statuses };
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message.split('\n')[0];
    const request = `${settings.request.method} ${settings.request.url}`;
    return {
      statuses,
      failed: cause.includes('onUnhandledRequest')
        ? `no handler matched ${request}`
        : `no answer to ${request}: ${cause}`,
    };
  }
}

const result = await measure(JSON.parse(process.argv[2]) as MswChildSettings);
process.stdout.write(`${JSON.stringify(result)}\n`);
// MSW's interceptors and an engine's timers must not keep a finished measurement alive.
process.exit(0);
