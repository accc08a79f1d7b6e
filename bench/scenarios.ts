// The request mixes of the benchmark. One scenario is one kind of request repeated: the figures
// stay readable (a mixed load would average a fast refusal with a slow create).
// A body factory runs in the load generator for every request, so valid creates never collide:
// the mock and the baseline are stateful, and a repeated id would measure the duplicate path.

export type ScenarioName = 'valid' | 'valid-int64' | 'invalid-body' | 'missing-token';

export interface Scenario {
  name: ScenarioName;
  title: string;
  /** The status every answer should have; others are counted as unexpected. */
  expectedStatus: number;
  auth: boolean;
  /** A fixed body, or a factory called with a counter unique within the load generator. */
  body: string | ((n: bigint) => string);
}

// Past 2^53, so the exact-integer path of a JSON parser is taken (JSON.parse alone would merge
// 9007199254740993 into 9007199254740992); written as literals, never through a double.
const INT64_BASE = 9_007_199_254_740_993n;

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'valid',
    title: 'valid creates',
    expectedStatus: 200,
    auth: true,
    body: (n) => `{"id":${n},"name":"Fern ${n}","tag":"green"}`,
  },
  {
    name: 'valid-int64',
    title: 'valid creates, ids > 2^53',
    expectedStatus: 200,
    auth: true,
    body: (n) => `{"id":${INT64_BASE + n},"name":"Fern ${n}","tag":"green"}`,
  },
  // Prism never answers malformed JSON (the connection hangs), so the invalid body is well-formed.
  { name: 'invalid-body', title: 'invalid bodies', expectedStatus: 400, auth: true, body: '{"id":"x"}' },
  { name: 'missing-token', title: 'missing tokens', expectedStatus: 401, auth: false, body: '{"id":1,"name":"Fern"}' },
];

export function scenario(name: ScenarioName): Scenario {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return found;
}
