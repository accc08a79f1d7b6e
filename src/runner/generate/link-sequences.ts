// OpenAPI links (a response's `links`): for each link on a success or other numbered answer, one
// case of two steps: the source operation's first valid request, then the linked operation's, its
// parameters and body taken from the first exchange by the link's runtime expressions
// (`$response.body#/id`, `$response.header.Location`, `$request.path.userId`). The linked step gets
// the contract checks, and a GET linked from a POST must find what the POST made (2xx), as
// Schemathesis's resource-availability check asks. A source that answers another status than the
// link's stops the case with a warning. Links that cannot be followed (an unknown operationId, an
// expression that is no runtime expression, an operationRef to another file) are left out, each
// with a reason in the run's warnings.
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import type { Operation } from '../../document/operations.ts';
import { getAtPointer } from '../../document/json-pointer.ts';
import type { Case, FixtureRequest, FollowPlan } from '../fixture.ts';
import { parseLinkValue, type LinkValue } from '../runtime-expression.ts';
import { guarded } from './generation-guard.ts';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);
const PLACES = new Set(['path', 'query', 'header', 'cookie']);

export interface LinkCases {
  cases: Case[];
  /** Links left out, with why. */
  skipped: string[];
}

/** The link cases of a document, built on the single-step valid cases already generated (`cases`). */
export function generateLinkCases(spec: LoadedSpec, operations: Operation[], cases: Case[]): LinkCases {
  const out: Case[] = [];
  const skipped: string[] = [];
  const firstValid = (operation: Operation) => cases.find((c) => c.id === `generated/${operation.id}/valid-1`);
  for (const source of operations) {
    const sourceCase = firstValid(source);
    const responses = resolved(spec.document, getAtPointer(spec.document, `${source.pointer}/responses`));
    if (!isObj(responses) || !sourceCase) continue;
    for (const [status, rawResponse] of Object.entries(responses)) {
      const links = resolved(spec.document, resolved(spec.document, rawResponse)?.links);
      if (!isObj(links) || status === 'default') continue;
      for (const [name, rawLink] of Object.entries(links)) {
        const link = resolved(spec.document, rawLink);
        const about = `link ${name} on ${source.id} ${status}`;
        const built = link && guarded(() => linkCase(source, status, name, link, operations, sourceCase, firstValid));
        if (typeof built === 'string' || built === undefined) skipped.push(`${about}: ${built ?? 'not an object'}`);
        else out.push(built);
      }
    }
  }
  return { cases: out.map((c) => reached(c, out, cases, operations)), skipped };
}

/**
 * A link from an item operation (GET /users/{id} -> its posts) whose valid case names a random item reaches nothing:
 * where a link from an operation without path parameters leads to that item operation (POST /users -> GET
 * /users/{id}), the case starts there, and follows both links; else, where a sequence creates the item and reads it
 * with that operation, the case starts with the sequence's create and read.
 */
function reached(linkCase: Case, links: Case[], cases: Case[], operations: Operation[]): Case {
  const sourceId = linkCase.steps[0].operationId;
  const source = operations.find((o) => o.id === sourceId);
  if (!source || !source.parameters.some((p) => p.in === 'path')) return linkCase;
  const into = links.find((c) => {
    const from = operations.find((o) => o.id === c.steps[0].operationId);
    return c.steps[1].operationId === sourceId && from !== undefined && !from.parameters.some((p) => p.in === 'path');
  });
  const last = linkCase.steps[1];
  if (!into) {
    // Else a sequence that creates the item and reads it (a collection's create and read) gets there.
    const read = new RegExp(`^${source.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const sequence = cases.find(
      (c) =>
        c.id.startsWith('generated/sequence/') &&
        c.steps[0]?.name === 'create' &&
        c.steps[1]?.name === 'read' &&
        c.steps[1].request.method === source.method &&
        read.test(c.steps[1].request.path),
    );
    if (!sequence) return linkCase;
    return {
      ...linkCase,
      name: `${sequence.steps[0].request.method} ${sequence.steps[0].request.path} -> ${linkCase.name}`,
      steps: [
        sequence.steps[0],
        { ...sequence.steps[1], name: 'via', operationId: source.id },
        { ...last, request: { ...last.request, follow: { ...last.request.follow!, step: 'via' } } },
      ],
    };
  }
  return {
    ...linkCase,
    name: `${into.steps[0].operationId} -> ${linkCase.name}`,
    steps: [
      into.steps[0],
      { ...into.steps[1], name: 'via' },
      { ...last, request: { ...last.request, follow: { ...last.request.follow!, step: 'via' } } },
    ],
  };
}

function linkCase(
  source: Operation,
  status: string,
  name: string,
  link: Obj,
  operations: Operation[],
  sourceCase: Case,
  firstValid: (operation: Operation) => Case | undefined,
): Case | string {
  const target =
    typeof link.operationId === 'string'
      ? operations.find((o) => o.id === link.operationId)
      : typeof link.operationRef === 'string'
        ? operations.find((o) => o.pointer === safeDecode(link.operationRef as string))
        : undefined;
  if (!target)
    return typeof link.operationId === 'string' || typeof link.operationRef === 'string'
      ? `no operation ${String(link.operationId ?? link.operationRef)} in this document`
      : 'names no operationId or operationRef';
  const targetCase = firstValid(target);
  if (!targetCase) return `${target.id} gets no valid case to build on`;
  const parameters: NonNullable<FollowPlan['parameters']> = [];
  for (const [key, raw] of Object.entries(isObj(link.parameters) ? link.parameters : {})) {
    // A parameter may be named with its place (`path.id`), as the specification allows for names used twice.
    const dot = key.indexOf('.');
    const placed = dot > 0 && PLACES.has(key.slice(0, dot));
    const parameterName = placed ? key.slice(dot + 1) : key;
    const declared = target.parameters.filter(
      (p) => p.name === parameterName && (!placed || p.in === key.slice(0, dot)),
    );
    if (declared.length !== 1)
      return `${target.id} has ${declared.length === 0 ? 'no' : 'more than one'} parameter "${key}"`;
    const value = parseLinkValue(raw);
    if (!value.ok) return value.message;
    parameters.push({
      in: declared[0].in as 'path' | 'query' | 'header' | 'cookie',
      name: parameterName,
      value: value.value,
    });
  }
  let body: LinkValue | undefined;
  if (link.requestBody !== undefined) {
    const value = parseLinkValue(link.requestBody);
    if (!value.ok) return value.message;
    body = value.value;
  }
  const base = targetCase.steps[0].request;
  const path = pathFor(target, base.path, new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name)));
  if (path === undefined) return `the path of ${target.id}'s valid case does not fit its template`;
  const linkName = `${source.id} -> ${target.id}`;
  const request: FixtureRequest = {
    ...base,
    path,
    follow: { step: 'source', status, link: `${name} (${linkName})`, parameters, ...(body !== undefined && { body }) },
  };
  return {
    id: `generated/links/${source.id}/${name}`,
    name: `${linkName}: follows the link ${name}`,
    source: 'generated',
    steps: [
      { ...sourceCase.steps[0], name: 'source' },
      {
        name: 'linked',
        request,
        // Resource availability, as Schemathesis checks it: what a POST made, a GET the link points to must find.
        // Other links may point at what no one made (GET /users/{id} -> owner_id of an item the mock invented).
        expect: source.method === 'POST' && target.method === 'GET' ? { status: '2xx' } : {},
        operationId: target.id,
      },
    ],
  };
}

/** The target's path with the link's path parameters left as `{name}` and the others as its valid case sent them. */
function pathFor(target: Operation, sent: string, linked: Set<string>): string | undefined {
  const names: string[] = [];
  const pattern = target.path.replace(/\{([^}]+)\}|[^{]+/g, (piece, param?: string) => {
    if (param === undefined) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(param);
    return '([^/]*)';
  });
  const match = new RegExp(`^${pattern}$`).exec(sent);
  if (!match) return undefined;
  let index = 0;
  return target.path.replace(/\{([^}]+)\}/g, (whole, param: string) => {
    const value = match[++index];
    return linked.has(param) ? whole : value;
  });
}

/** A local `$ref` followed (Link and Response objects may be references into components). */
function resolved(document: unknown, value: unknown): Obj | undefined {
  let node = value;
  for (let hops = 0; hops < 10 && isObj(node) && typeof node.$ref === 'string'; hops++)
    node = node.$ref.startsWith('#') ? getAtPointer(document, node.$ref) : undefined;
  return isObj(node) ? node : undefined;
}

/**
 * An operationRef's pointer as the document's operations name theirs (`%7B` written for `{`); as written if malformed.
 */
function safeDecode(ref: string): string {
  try {
    return decodeURI(ref);
  } catch {
    return ref;
  }
}
