// Decides, from the document alone, whether an answer to a valid request is a correct one. A valid
// request deserves a declared success (2xx/3xx: exact, class or default); the one refusal a
// stateful mock may rightly give it is a declared 404 (exact, 4XX or default) for a resource named
// in the path that it does not hold (counted apart, so a mock cannot hide behind it unseen). The answer's media type
// must be declared for that status, and a JSON body must match the declared schema (checked by the harness's own Ajv,
// see schema-judge.ts).
import { pointerOf, resolve, type Json, type Operation } from './document.ts';
import type { SchemaJudge } from './schema-judge.ts';

export interface Answer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

export type MissCode =
  | 'no-answer'
  | 'server-error'
  | 'refused'
  | 'status-undeclared'
  | 'content-type'
  | 'body-missing'
  | 'body-unexpected'
  | 'body-invalid'
  | 'judge-error';
/** `notFound`: a declared 404 for a resource the path names and the server does not hold. */
export type Judgement = { ok: true; notFound?: boolean } | { ok: false; code: MissCode; detail: string };

const miss = (code: MissCode, detail: string): Judgement => ({ ok: false, code, detail });
const snippet = (body: Buffer) => body.toString('utf8', 0, 400).replace(/\s+/g, ' ').trim();
const mediaTypeOf = (value: string) => value.split(';')[0].trim().toLowerCase();
export const isJsonMedia = (media: string) =>
  /^application\/(.+\+)?json$/.test(media) || media === '*/*' || /\+json$/.test(media);

/** The key of `responses` that declares `status`: exact, then its class (`2XX`), then `default`. */
export function declaredResponseKey(responses: Json, status: number): string | undefined {
  const keys = Object.keys(responses ?? {});
  return (
    keys.find((k) => k === String(status)) ??
    keys.find((k) => k.toUpperCase() === `${String(status)[0]}XX`) ??
    keys.find((k) => k === 'default')
  );
}

/** The declared media type (a key of `content`) that a sent Content-Type matches, wildcards included. */
export function matchMediaType(content: Json, sent: string): string | undefined {
  const media = mediaTypeOf(sent);
  const keys = Object.keys(content ?? {});
  return (
    keys.find((k) => mediaTypeOf(k) === media) ??
    keys.find((k) => mediaTypeOf(k).endsWith('/*') && media.startsWith(mediaTypeOf(k).slice(0, -1))) ??
    keys.find((k) => mediaTypeOf(k) === '*/*')
  );
}

export function judgeAnswer(doc: Json, schemas: SchemaJudge, op: Operation, answer: Answer): Judgement {
  const responses = op.operation.responses ?? {};
  const key = declaredResponseKey(responses, answer.status);
  if (answer.status >= 500) return miss('server-error', `${answer.status} ${snippet(answer.body)}`);
  // OpenAPI 3.1 lets an operation declare no responses: then any success is on-contract, whatever its body.
  if (Object.keys(responses).length === 0)
    return answer.status < 400 ? { ok: true } : miss('refused', `${answer.status} ${snippet(answer.body)}`);
  if (key === undefined)
    return miss(
      'status-undeclared',
      `${answer.status} not declared (declared: ${Object.keys(responses).join(', ') || 'none'}) ${snippet(answer.body)}`,
    );
  // A 404 declared by the operation (exact, 4XX or default) for a path naming a resource is the
  // truth from a stateful mock that does not hold it; any other refusal of a valid request is a miss.
  const notFound = answer.status === 404 && op.path.includes('{');
  if (answer.status >= 400 && !notFound) return miss('refused', `${answer.status} ${snippet(answer.body)}`);
  const response = resolve(doc, responses[key], `${op.pointer}/responses/${pointerOf(key).slice(2)}`);
  const content = response.value?.content;
  const declaresBody = content && typeof content === 'object' && Object.keys(content).length > 0;
  const bodyless = op.method === 'head' || answer.status === 204 || answer.status === 304;
  const ok: Judgement = notFound ? { ok: true, notFound } : { ok: true };
  if (!declaresBody)
    return answer.body.length === 0 || bodyless
      ? ok
      : miss(
          'body-unexpected',
          `${answer.status} declares no content, got ${answer.contentType ?? 'no type'} ${snippet(answer.body)}`,
        );
  if (bodyless) return ok;
  if (answer.contentType === undefined)
    return answer.body.length === 0
      ? miss('body-missing', `${answer.status} declares ${Object.keys(content).join(', ')}, got an empty answer`)
      : miss('content-type', `${answer.status} has a body but no Content-Type`);
  const mediaKey = matchMediaType(content, answer.contentType);
  if (mediaKey === undefined)
    return miss(
      'content-type',
      `${answer.status} ${mediaTypeOf(answer.contentType)} not declared (declared: ${Object.keys(content).join(', ')})`,
    );
  const media = resolve(doc, content[mediaKey], '').value;
  if (!media?.schema || !isJsonMedia(mediaTypeOf(answer.contentType))) return ok;
  if (answer.body.length === 0) return miss('body-missing', `${answer.status} ${mediaKey}: empty body`);
  let value: unknown;
  try {
    value = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return miss('body-invalid', `${answer.status} ${mediaKey}: not JSON: ${snippet(answer.body)}`);
  }
  const verdict = schemas.validate(`${response.pointer}/content/${pointerOf(mediaKey).slice(2)}/schema`, value);
  if (verdict.ok) return ok;
  return miss(
    verdict.reason.startsWith('the judge') ? 'judge-error' : 'body-invalid',
    `${answer.status} ${verdict.reason}`,
  );
}
