// The Plant Store's request mixes: one kind of request repeated per scenario, so that the figures stay
// readable (a mixed load would average a fast refusal with a slow create). A body with `$id` gets a
// fresh id on every request: the mock and the baseline keep what is created, and a repeated id would
// measure the duplicate path. wrk builds each body the same way (bench/lib/wrk-load.lua).

export type ScenarioName = 'valid' | 'valid-int64' | 'invalid-body' | 'missing-token';

export interface Scenario {
  name: ScenarioName;
  title: string;
  /** The status every answer should have; others are counted as unexpected. */
  expectedStatus: number;
  auth: boolean;
  /** The body; each `$id` is replaced by the request's id. */
  body: string;
  /** An id is this prefix, then the request's counter zero-padded to idWidth digits. */
  idPrefix: string;
  idWidth: number;
}

const CREATE = '{"id":$id,"name":"Fern $id","tag":"green"}';
const make = (
  name: ScenarioName,
  title: string,
  expectedStatus: number,
  auth: boolean,
  body: string,
  idPrefix = '',
  idWidth = 1,
) => ({ name, title, expectedStatus, auth, body, idPrefix, idWidth }) satisfies Scenario;

export const SCENARIOS: readonly Scenario[] = [
  make('valid', 'valid creates', 200, true, CREATE),
  // 19 digits from 9007199200000000000: past 2^53 (JSON.parse alone would merge neighbouring ids), under 2^63.
  make('valid-int64', 'valid creates, ids > 2^53', 200, true, CREATE, '90071992', 11),
  // Prism never answers malformed JSON (the connection hangs), so the invalid body is well-formed.
  make('invalid-body', 'invalid bodies', 400, true, '{"id":"x"}'),
  make('missing-token', 'missing tokens', 401, false, '{"id":1,"name":"Fern"}'),
];

/** The request headers of a scenario besides Host and Content-Length. */
export const headersOf = (scenario: Scenario): Record<string, string> =>
  scenario.auth
    ? { 'content-type': 'application/json', authorization: 'Bearer bench-token' }
    : { 'content-type': 'application/json' };

/** The body of the request numbered `counter`. */
export const bodyOf = (scenario: Scenario, counter: bigint): string =>
  scenario.body.replaceAll('$id', `${scenario.idPrefix}${String(counter).padStart(scenario.idWidth, '0')}`);

export function scenario(name: ScenarioName): Scenario {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return found;
}
