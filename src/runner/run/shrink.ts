// Shrinking, the way property-based testers do it: a failing request is made smaller one step at
// a time (a query piece, a header, a body field dropped; a long value halved) and a step is kept
// only when the smaller request still shows the same fault. What is left is the smallest request
// found within the budget, printed as curl. Only one-step generated cases are shrunk: a step of a
// sequence depends on the steps before it, and a fixture is sent once, as its author wrote it.
import { parseJson, type JsonValue } from '../../json/exact-json.ts';
import type { Case, FixtureRequest } from '../fixture.ts';
import { faultOf, type Fault } from './faults.ts';
import type { CaseResult } from '../report.ts';

/** Requests sent at most to shrink one fault. */
export const SHRINK_ATTEMPTS = 30;
/** Values longer than this are halved while the fault holds. */
const LONG_VALUE = 64;

/** Shrinks each failure fault's first case; `run` sends a case and returns its result. */
export async function shrinkFaults(
  faults: Fault[],
  cases: Map<string, Case>,
  run: (testCase: Case) => Promise<CaseResult>,
  deadline = Infinity,
): Promise<void> {
  for (const fault of faults) {
    if (fault.severity !== 'failure' || Date.now() > deadline) continue;
    const original = cases.get(fault.example.caseId);
    // A fixture is the user's own request, sent once as written; only generated cases are shrunk.
    if (!original || original.source !== 'generated' || original.steps.length !== 1) continue;
    let best = original.steps[0].request;
    const keep = kept(original);
    let bestResult: CaseResult | undefined;
    let attempts = 0;
    const holds = async (request: FixtureRequest) => {
      attempts++;
      const result = await run({ ...original, steps: [{ ...original.steps[0], request }] });
      const step = result.steps[0];
      const same = step?.findings.some((finding) => {
        const { operationId, check, signature } = faultOf(result, step, finding);
        return `${operationId} | ${check} | ${signature}` === fault.key;
      });
      if (same) bestResult = result;
      return same === true;
    };
    let shrinking = true;
    while (shrinking && attempts < SHRINK_ATTEMPTS && Date.now() <= deadline) {
      shrinking = false;
      for (const candidate of smaller(best, keep)) {
        if (attempts >= SHRINK_ATTEMPTS || Date.now() > deadline) break;
        if (await holds(candidate)) {
          best = candidate;
          shrinking = true;
          break;
        }
      }
    }
    const step = bestResult?.steps[0];
    fault.shrunk = step
      ? { request: step.request, curl: step.curl, attempts }
      : { request: fault.example.request, curl: fault.example.curl, attempts };
  }
}

/** What a shrink must leave alone: the input a case is about, and a body that must stay invalid. */
export interface Kept {
  query?: string;
  header?: string;
  body?: boolean;
  /** Values stay whole (halving a value that breaks a rule may make it keep the rule). */
  values?: boolean;
}

/**
 * A case made to be refused fails the same way once its bad part is gone (the request is valid,
 * the answer is still not a 4xx): so its probed parameter stays, and its body is left whole.
 */
function kept(testCase: Case): Kept {
  const refused = testCase.steps[0].expect.status === '4xx';
  const [where, name] = (testCase.probe ?? '').split(':')[0].split(' ');
  return {
    ...(where === 'query' && { query: encodeURIComponent(name) }),
    ...(where === 'header' && { header: name.toLowerCase() }),
    body: refused || where === 'body',
    values: refused,
  };
}

/** Requests one step smaller than `request`, the biggest cuts first. */
export function* smaller(request: FixtureRequest, keep: Kept = {}): Generator<FixtureRequest> {
  const query = request.rawQuery ?? [];
  for (let i = 0; i < query.length; i++) {
    if (keep.query !== undefined && query[i].split('=')[0] === keep.query) continue;
    yield { ...request, rawQuery: query.filter((_, j) => j !== i) };
  }
  for (const name of Object.keys(request.headers ?? {})) {
    if (name === 'content-type' || name === 'authorization' || name === keep.header) continue;
    const headers = { ...request.headers };
    delete headers[name];
    yield { ...request, headers };
  }
  const body = keep.body
    ? undefined
    : (request.body ?? (request.rawBody === undefined ? undefined : jsonOf(request.rawBody)));
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const key of Object.keys(body)) {
      const rest = { ...body };
      delete rest[key];
      if (request.body !== undefined) yield { ...request, body: rest };
      else yield { ...request, rawBody: JSON.stringify(rest) };
    }
  }
  for (let i = 0; i < query.length && !keep.values; i++) {
    const [key, value = ''] = query[i].split(/=(.*)/s);
    if (value.length > LONG_VALUE)
      yield {
        ...request,
        rawQuery: query.map((piece, j) =>
          j === i ? `${key}=${value.slice(0, Math.ceil(value.length / 2)).replace(/%[0-9A-Fa-f]?$/, '')}` : piece,
        ),
      };
  }
  const segments = request.path.split('/');
  for (let i = 0; i < segments.length && !keep.values; i++) {
    if (segments[i].length > LONG_VALUE)
      yield {
        ...request,
        path: segments
          .map((segment, j) =>
            j === i ? segment.slice(0, Math.ceil(segment.length / 2)).replace(/%[0-9A-Fa-f]?$/, '') : segment,
          )
          .join('/'),
      };
  }
  if (
    !keep.body &&
    request.rawBody !== undefined &&
    request.rawBody.length > LONG_VALUE &&
    jsonOf(request.rawBody) === undefined
  ) {
    // Not JSON (a deep nesting, a cut document): half of it may still break the server the same way.
    const half = request.rawBody.length / 2;
    yield {
      ...request,
      rawBody:
        request.rawBody.slice(0, Math.ceil(half / 2)) +
        request.rawBody.slice(request.rawBody.length - Math.floor(half / 2)),
    };
  }
}

function jsonOf(text: string): JsonValue | undefined {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}
