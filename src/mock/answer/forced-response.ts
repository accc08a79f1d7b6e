// Prism-compatible response selection: `Prefer: code=400, example=NAME, dynamic=true` or the
// query forms `__code`, `__example`, `__dynamic`. Prism's own negotiator picks the response, so the
// semantics match Prism's; it is loaded on the first forced request only (prism-negotiator.ts).
import type { ForcedChoiceTable, ForcedCode, LoadedSpec } from '../../document/loaded-spec.ts';
import { loadPrism, type Prism, type PrismOperation } from './prism-negotiator.ts';
import type { MediaContent, Operation } from '../../document/operations.ts';
import type { HttpRequest } from '../../http/types.ts';

export interface Preferences {
  code?: number;
  exampleKey?: string;
  dynamic: boolean;
  /**
   * How the code was asked for, as the client wrote it (`Prefer: code=500`, `__code=500`): forced error bodies quote
   * it.
   */
  forcedBy?: string;
  /** A code that is no HTTP status (`code=5xx`): refused, naming what was sent. */
  badCode?: string;
}

const PREFERENCE_QUERY = /(?:^|&)__(?:code|example|dynamic)=/;

/** The preferences a request states, or undefined when it states none (the common case). */
export function readPreferences(request: HttpRequest): Preferences | undefined {
  // A fault (faults.ts) is a forced answer: its status, or the document's own answer, never a state change.
  if (request.fault !== undefined) return { code: request.fault.status, dynamic: false, forcedBy: request.fault.by };
  const header = request.headers.prefer;
  const inQuery = request.query !== '' && PREFERENCE_QUERY.test(request.query);
  if (header === undefined && !inQuery) return undefined;
  const found: Record<string, string> = {};
  for (const part of (header ?? '').split(/[,;]/)) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name && value !== undefined) found[name.toLowerCase()] = value.replace(/^"|"$/g, '');
  }
  // The header wins over the query form, as in Prism.
  const codeInHeader = found.code !== undefined;
  if (inQuery) {
    for (const [name, value] of new URLSearchParams(request.query)) {
      if (name.startsWith('__')) found[name.slice(2)] ??= value;
    }
  }
  const asked = found.code;
  const code = asked !== undefined && /^[1-5]\d\d$/.test(asked) ? Number(asked) : undefined;
  const forcedBy = asked === undefined ? undefined : codeInHeader ? `Prefer: code=${asked}` : `__code=${asked}`;
  const preferences: Preferences = { code, exampleKey: found.example, dynamic: found.dynamic === 'true', forcedBy };
  if (asked !== undefined && code === undefined) preferences.badCode = asked;
  return asked !== undefined || preferences.exampleKey !== undefined || preferences.dynamic ? preferences : undefined;
}

/** Prism's choice of status; the media type (by Accept) and the example (by name) are chosen per content afterwards. */
export type ForcedChoice = { ok: true; status: number } | { ok: false; message: string };

const silentLogger: Record<string, unknown> = {};
for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'success', 'log'])
  silentLogger[level] = () => undefined;
silentLogger.child = () => silentLogger;

const operationKey = (operation: Operation) => `${operation.method} ${operation.path}`;

/**
 * The forced-answer chooser of a document: from its table of Prism's choices when it has one
 * (forcedChoiceTable, for hosts without Prism), else Prism's negotiator itself, loaded once on
 * first use, over one operation at a time: Prism's transform of a whole document takes seconds
 * for GitHub's 1,200 operations (the first answer must not), so each operation is handed over
 * alone, in a document of its own, the first time it is forced.
 */
export function createForcedResponder(
  spec: LoadedSpec,
): (operation: Operation, preferences: Preferences) => Promise<ForcedChoice> {
  const table = spec.forcedChoices;
  if (table) return async (operation, preferences) => fromTable(table[operationKey(operation)], operation, preferences);
  return prismChooser(spec);
}

function prismChooser(spec: LoadedSpec) {
  let prism: Prism | undefined;
  const prismOperations = new Map<Operation, Promise<PrismOperation | undefined>>();
  const prismOperationFor = (operation: Operation, loaded: Prism) => {
    let found = prismOperations.get(operation);
    if (!found) {
      found = loaded
        .transform(structuredClone(singleOperationDocument(spec, operation)))
        .then((operations) =>
          operations.find((op) => op.method.toUpperCase() === operation.method && op.path === operation.path),
        );
      prismOperations.set(operation, found);
    }
    return found;
  };

  return async (operation: Operation, preferences: Preferences): Promise<ForcedChoice> => {
    prism ??= loadPrism();
    if (!prism)
      return {
        ok: false,
        message:
          'forced answers here need the choices worked out ahead of time: use the module `plantstore msw` writes',
      };
    const prismOperation = await prismOperationFor(operation, prism);
    if (!prismOperation)
      return { ok: false, message: `Prism found no operation for ${operation.method} ${operation.path}` };
    // Prism picks the response; its media type and example are chosen by the mock for every
    // declared content (Prism would look for the example only in its JSON one).
    const result = prism.negotiator.negotiateOptionsForValidRequest(prismOperation, {
      code: preferences.code === undefined ? undefined : String(preferences.code),
      dynamic: false,
    })(silentLogger);
    if (result._tag === 'Left') {
      // Prism refuses only a code that no response (exact, range or default) covers; its own words otherwise.
      if (preferences.code !== undefined) return refusedCode(operation, preferences.code);
      return refusal(operation, (result.left.detail || result.left.message).replace(/\.$/, ''));
    }
    const status = Number(result.right.code);
    // Prism falls back to `default` (or a range) for an undeclared code; the status is then the asked one.
    return { ok: true, status: Number.isInteger(status) ? status : (preferences.code ?? 200) };
  };
}

const refusal = (operation: Operation, why: string): ForcedChoice => ({
  ok: false,
  message: `${why} (declared responses: ${operation.responses.map((r) => r.status).join(', ')}; ask for one of them)`,
});
const refusedCode = (operation: Operation, code: number) =>
  refusal(operation, `${operation.method} ${operation.path} declares no ${code} response`);

function fromTable(
  entry: ForcedChoiceTable[string] | undefined,
  operation: Operation,
  preferences: Preferences,
): ForcedChoice {
  if (!entry)
    return { ok: false, message: `no forced answers were worked out for ${operation.method} ${operation.path}` };
  if (preferences.code === undefined)
    return typeof entry.none === 'number' ? { ok: true, status: entry.none } : refusal(operation, entry.none.refused);
  const choice = entry.codes[preferences.code] ?? entry.classes[Math.floor(preferences.code / 100)] ?? 'refused';
  if (choice === 'refused') return refusedCode(operation, preferences.code);
  return { ok: true, status: choice === 'asked' ? preferences.code : choice };
}

/**
 * Prism's choices for every operation, for a host that cannot load Prism (the module
 * `plantstore msw` writes): with no code, with each code the operation declares, and with one
 * undeclared code of each class (1xx to 5xx), which stands for every undeclared code of its
 * class: Prism answers those by the class's range (`4XX`) or `default`, or refuses them alike.
 */
export async function forcedChoiceTable(
  spec: LoadedSpec,
  operations: readonly Operation[],
): Promise<ForcedChoiceTable> {
  const choose = prismChooser(spec);
  const table: ForcedChoiceTable = {};
  const forced = async (operation: Operation, code: number): Promise<ForcedCode> => {
    const choice = await choose(operation, { code, dynamic: false });
    return !choice.ok ? 'refused' : choice.status === code ? 'asked' : choice.status;
  };
  for (const operation of operations) {
    const none = await choose(operation, { dynamic: false });
    const declared = new Set(operation.responses.map((response) => Number(response.status)).filter(Number.isInteger));
    const codes: Record<string, ForcedCode> = {};
    for (const code of declared) if (code >= 100 && code <= 599) codes[code] = await forced(operation, code);
    const classes: Record<string, ForcedCode> = {};
    for (let hundred = 1; hundred <= 5; hundred++) {
      const undeclared = Array.from({ length: 100 }, (_, i) => hundred * 100 + i).find((code) => !declared.has(code));
      if (undeclared !== undefined) classes[hundred] = await forced(operation, undeclared);
    }
    table[operationKey(operation)] = {
      none: none.ok ? none.status : { refused: none.message.replace(/ \(declared responses: .*$/, '') },
      codes,
      classes,
    };
  }
  return table;
}

/** The example a content answers with: the named one, else its first (undefined when it has none). */
export function exampleOf(content: MediaContent, exampleKey: string | undefined): { value: unknown } | undefined {
  if (exampleKey !== undefined)
    return content.examples.has(exampleKey) ? { value: content.examples.get(exampleKey) } : undefined;
  const [first] = content.examples.values();
  return content.examples.size > 0 ? { value: first } : undefined;
}

/**
 * A document holding one operation of the dereferenced document, for Prism to choose a status in:
 * its responses' statuses and media types alone. The choice reads nothing else (no example is
 * asked for by name, nothing is dynamic), and the rest costs: a circular schema's `$ref` brought
 * every component along, which Prism's transform then dereferenced again, for minutes per
 * operation of Stripe's document.
 */
export function singleOperationDocument(spec: LoadedSpec, operation: Operation): object {
  const { document } = spec;
  const own = (
    (document.paths?.[operation.path] ?? {}) as Record<string, { responses?: Record<string, { content?: object }> }>
  )[operation.method.toLowerCase()];
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(own?.responses ?? {})) {
    const content =
      response?.content === undefined
        ? undefined
        : Object.fromEntries(Object.keys(response.content).map((type) => [type, { schema: {} }]));
    responses[status] = { description: status, ...(content ? { content } : {}) };
  }
  return {
    openapi: document.openapi,
    info: document.info,
    paths: { [operation.path]: { [operation.method.toLowerCase()]: { responses } } },
  };
}
