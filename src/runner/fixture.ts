// The fixture format as TypeScript sees it once a file has passed fixtures/fixture.schema.json.
// A single-request fixture is a one-step sequence, so the runner only knows steps.
import type { JsonValue } from '../json/exact-json.ts';
import type { LinkValue } from './runtime-expression.ts';

export type StatusExpectation = number | `${1 | 2 | 3 | 4 | 5}xx`;

export interface FixtureRequest {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean | Array<string | number | boolean>>;
  headers?: Record<string, string>;
  body?: JsonValue;
  rawBody?: string;
  /**
   * Generated cases only, not in the fixture file format: query pieces already written in the
   * parameter's style ("ids=1,2", "filter%5Bcolor%5D=red"), sent after `query`.
   */
  rawQuery?: string[];
  /** Generated steps only: parts of the request taken, when the step runs, from an earlier step's exchange. */
  follow?: FollowPlan;
}

/**
 * What a step takes from the exchange of an earlier step (`step`): the item it created, whose key fills `{param}` in
 * the path from the answer's `field` (an inferred id field), else whose URL is the answer's Location header; and an
 * OpenAPI link's parameters and request body (runtime expressions such as `$response.body#/id`).
 */
export interface FollowPlan {
  step: string;
  /** `field`: a name at the top of the answer, or `envelope/name` inside a one-item envelope. */
  item?: { param: string; field?: string };
  parameters?: Array<{ in: 'path' | 'query' | 'header' | 'cookie'; name: string; value: LinkValue }>;
  body?: LinkValue;
  /** The link followed (`createUser -> getUser`), for messages. */
  link?: string;
  /** The response key the link is declared on (`201`, `2XX`): another answer from `step` has nothing to follow. */
  status?: string;
}

export interface FixtureExpectation {
  status?: StatusExpectation | StatusExpectation[];
  body?: JsonValue;
  bodyMatch?: 'subset' | 'exact';
  headers?: Record<string, string | boolean>;
  /**
   * Generated sequences only, not (yet) in the fixture file format: the body is an array with an
   * element containing `item` (subset match). When `limit` was sent and the page came back full,
   * the item may be on a later page: with `offsetParam` the runner asks for the next pages (up to
   * MAX_PAGES); without it, or past them, the item's absence is not a failure.
   */
  listContains?: { item: JsonValue; limit?: number; offsetParam?: string };
  /** Generated sequences only: the body, when an array, holds at most this many items (the `limit` sent). */
  listAtMost?: number;
  /** Generated hostile cases only: any answer but a 5xx will do, and an undeclared 4xx only warns. */
  hostile?: boolean;
  /**
   * Generated only: what this step expects is advice (an undeclared method's 405): unmet, it warns, unless --strict.
   *
   */
  advisory?: boolean;
}

export interface FixtureStep {
  name: string;
  request: FixtureRequest;
  expect: FixtureExpectation;
  /**
   * Generated steps only: the operation the request was built for, judged as that one even where look-alike paths
   * route elsewhere.
   */
  operationId?: string;
}

/** A runnable case: a fixture from a file, or one the runner generated from the document. */
export interface Case {
  id: string;
  name: string;
  source: string;
  steps: FixtureStep[];
  /**
   * Generated hostile cases: what was made hostile and how ("query lastdays: numbers"), part of a fault's signature.
   *
   */
  probe?: string;
}
