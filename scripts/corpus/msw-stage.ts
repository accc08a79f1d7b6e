// The MSW stage: the document prepared as `plantstore msw` writes it (through a JSON round trip, as
// the written module holds it), its handlers behind msw/node's setupServer, and the very probes the
// engine stage sends, through fetch. Each answer is compared with a fresh in-process engine's answer
// to the same request, the two fed the same sequence from an empty state. Bodies are compared
// byte for byte; where they differ, a 2xx still agrees when the judge finds both correct (a value the
// engine stamps, such as a creation time, need not repeat), and any other difference is a disagreement.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { isDeepStrictEqual } from 'node:util';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { createHandlers } from '../../src/msw/handlers.ts';
import { prepareDocument } from '../../src/msw/prepare.ts';
import type { HttpRequest } from '../../src/http/types.ts';
import type { LoadedDocument } from './document.ts';
import { judgeAnswer, type Answer } from './judge.ts';
import type { ProbeRequest } from './probe-request.ts';
import type { SchemaJudge } from './schema-judge.ts';

export const MSW_BASE = 'http://corpus.test';
/** A header no real answer carries: the fallback handler names there the URL plantstore's handlers left alone. */
const UNHANDLED = 'x-corpus-unhandled';

export interface Disagreement {
  operation: string;
  engineStatus?: number;
  mswStatus?: number;
  reason: string;
}

export interface MswResult {
  /** Why the stage could not run for this document (prepare, round trip or createHandlers failed). */
  error?: string;
  probed: number;
  agreed: number;
  /** Of the agreements, those whose bodies differ and both are judged correct. */
  bothValid: number;
  disagreements: Disagreement[];
}

interface Probe {
  label: string;
  request: ProbeRequest;
}

const snippet = (body: Buffer) => body.toString('utf8', 0, 120).replace(/\s+/g, ' ').trim();
const mediaOf = (type: string | undefined) => type?.split(';')[0].trim().toLowerCase();

export async function runMswStage(
  file: string,
  loaded: LoadedDocument,
  probes: Probe[],
  responses: SchemaJudge,
): Promise<MswResult> {
  const result: MswResult = { probed: 0, agreed: 0, bothValid: 0, disagreements: [] };
  let server: ReturnType<typeof setupServer> | undefined;
  try {
    const spec = await loadSpec(file);
    const prepared = await prepareDocument(spec);
    const text = JSON.stringify(prepared);
    const written = JSON.parse(text);
    if (!isDeepStrictEqual(written, prepared)) {
      result.error = `the prepared document changes in a JSON round trip (${firstDifference(prepared, written)})`;
      return result;
    }
    const handlers = await createHandlers({ spec: written, baseUrl: MSW_BASE });
    // The engine `plantstore mock` runs, with its defaults, on a document loaded again: nothing shared.
    const engine = createMockEngine({ spec: await loadSpec(file) });
    server = setupServer(
      ...handlers,
      http.all('*', ({ request }) => new Response(null, { status: 599, headers: { [UNHANDLED]: request.url } })),
    );
    server.listen({ onUnhandledRequest: 'bypass' });
    for (const [index, probe] of probes.entries()) {
      result.probed++;
      const expected = await engineAnswer(engine, probe.request);
      const got = await fetchAnswer(probe.request);
      const disagree = (reason: string) =>
        result.disagreements.push({
          operation: probe.label,
          engineStatus: expected.status,
          mswStatus: 'status' in got ? got.status : undefined,
          reason,
        });
      if ('error' in got) {
        disagree(got.error);
        continue;
      }
      if (got.unhandled) {
        disagree(`unhandled: ${got.unhandled}`);
        continue;
      }
      if (got.status !== expected.status) {
        disagree(`status: engine ${snippet(expected.body)} / msw ${snippet(got.body)}`);
        continue;
      }
      if (mediaOf(got.contentType) !== mediaOf(expected.contentType)) {
        disagree(`content-type: engine ${expected.contentType ?? 'none'}, msw ${got.contentType ?? 'none'}`);
        continue;
      }
      if (got.body.equals(expected.body)) {
        result.agreed++;
        continue;
      }
      const op = loaded.operations[index];
      if (
        got.status < 300 &&
        judgeAnswer(loaded.doc, responses, op, expected).ok &&
        judgeAnswer(loaded.doc, responses, op, got).ok
      ) {
        result.agreed++;
        result.bothValid++;
        continue;
      }
      disagree(`bodies differ: engine ${snippet(expected.body)} / msw ${snippet(got.body)}`);
    }
  } catch (error) {
    result.error = (error as Error).message.split('\n')[0].slice(0, 300);
  } finally {
    server?.close();
  }
  return result;
}

function toMockRequest(probe: ProbeRequest): HttpRequest {
  const [path, query = ''] = splitTarget(probe.target);
  const headers: Record<string, string> = { host: new URL(MSW_BASE).host };
  for (const [name, value] of Object.entries(probe.headers)) headers[name.toLowerCase()] = value;
  const body = probe.body === undefined ? '' : typeof probe.body === 'string' ? probe.body : new Uint8Array(probe.body);
  if (probe.body !== undefined) headers['content-length'] = String(Buffer.byteLength(probe.body));
  return { method: probe.method, path, query, headers, body };
}

function splitTarget(target: string): [string, string?] {
  const at = target.indexOf('?');
  return at === -1 ? [target] : [target.slice(0, at), target.slice(at + 1)];
}

async function engineAnswer(engine: ReturnType<typeof createMockEngine>, probe: ProbeRequest): Promise<Answer> {
  const answer = await engine.handle(toMockRequest(probe));
  const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
  const type = Object.entries(answer.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return { status: answer.status, contentType: type, body };
}

async function fetchAnswer(probe: ProbeRequest): Promise<(Answer & { unhandled?: string }) | { error: string }> {
  try {
    const response = await fetch(`${MSW_BASE}${probe.target}`, {
      method: probe.method,
      headers: probe.headers,
      // Bytes, not a string: fetch then adds no Content-Type of its own.
      body: probe.body === undefined ? undefined : new Uint8Array(Buffer.from(probe.body)),
      // The answer itself, as the engine gives it: a redirect is compared, not followed (and msw's
      // interceptor follows a 3xx without Location forever: see docs/compatibility.md).
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const body = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? undefined,
      body,
      unhandled: response.headers.get(UNHANDLED) ?? undefined,
    };
  } catch (error) {
    const cause = (error as { cause?: Error }).cause;
    return { error: `fetch: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}` };
  }
}

/** Where two JSON-ish values first differ, as a pointer, for the round-trip message. */
function firstDifference(a: unknown, b: unknown, at = ''): string {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return `${at || '/'}: ${String(a)} became ${String(b)}`;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]];
    if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, `${at}/${key}`);
  }
  return `${at || '/'}: not the same kind of object`;
}
