// The request mixes of the benchmark. One scenario is one kind of request repeated: the figures
// stay readable (a mixed load would average a fast refusal with a slow create).
// A body with `$id` gets a fresh id on every request, so valid creates never collide: the mock and
// the baseline are stateful, and a repeated id would measure the duplicate path. Both load
// generators build the body the same way (bodyOf here, bench/lib/wrk-load.lua for wrk).

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

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'valid',
    title: 'valid creates',
    expectedStatus: 200,
    auth: true,
    body: '{"id":$id,"name":"Fern $id","tag":"green"}',
    idPrefix: '',
    idWidth: 1,
  },
  // 19 digits from 9007199200000000000, past 2^53, so the exact-integer path of a JSON parser is
  // taken (JSON.parse alone would merge 9007199254740993 into 9007199254740992), under 2^63.
  {
    name: 'valid-int64',
    title: 'valid creates, ids > 2^53',
    expectedStatus: 200,
    auth: true,
    body: '{"id":$id,"name":"Fern $id","tag":"green"}',
    idPrefix: '90071992',
    idWidth: 11,
  },
  // Prism never answers malformed JSON (the connection hangs), so the invalid body is well-formed.
  {
    name: 'invalid-body',
    title: 'invalid bodies',
    expectedStatus: 400,
    auth: true,
    body: '{"id":"x"}',
    idPrefix: '',
    idWidth: 1,
  },
  {
    name: 'missing-token',
    title: 'missing tokens',
    expectedStatus: 401,
    auth: false,
    body: '{"id":1,"name":"Fern"}',
    idPrefix: '',
    idWidth: 1,
  },
];

/** The request headers of a scenario besides Host and Content-Length. */
export const headersOf = (scenario: Scenario): Record<string, string> =>
  scenario.auth
    ? { 'content-type': 'application/json', authorization: 'Bearer bench-token' }
    : { 'content-type': 'application/json' };

/** The body of the request numbered `counter`. */
export function bodyOf(scenario: Scenario, counter: bigint): string {
  return scenario.body.replaceAll('$id', `${scenario.idPrefix}${String(counter).padStart(scenario.idWidth, '0')}`);
}

export function scenario(name: ScenarioName): Scenario {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return found;
}
