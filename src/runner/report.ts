// The shape of a verification report: what `verify()` returns, what every reporter renders, and
// what `--json` writes. Requests and responses are the toolkit's shared plain shape
// (src/http/types.ts) as a reader wants them, with the body as a JSON value, so a report reads
// like a mock journal entry. Nothing in here ever holds the token (see redact.ts).
import type { JsonValue } from '../json/exact-json.ts';
import type { HttpRequest, HttpAnswer } from '../http/types.ts';
import type { ShardPart } from './shard.ts';

/** A request as the report shows it: credentials redacted, the body as a value. */
export interface PlainRequest extends Pick<HttpRequest, 'method' | 'path' | 'query'> {
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The JSON body as a value, a raw body as text, or undefined for none. */
  body?: JsonValue;
}

/** An answer as the report shows it: credentials redacted, the body as a value. */
export interface PlainResponse extends Pick<HttpAnswer, 'status' | 'headers'> {
  /** The parsed JSON body when it is JSON, else its text (cut to a few KiB); undefined when empty. */
  body?: JsonValue;
}

export type Severity = 'failure' | 'warning';

/** One judgement about one answer: a broken contract, an unmet expectation, a transport failure. */
export interface Finding {
  /** Stable code a user can grep for: 'undeclared-status', 'missing-required-field', 'timeout', ... */
  code: string;
  severity: Severity;
  message: string;
  /** JSON pointer into the response body, when the finding is about one place in it. */
  pointer?: string;
  /** The header a finding is about (lower case), when it is about one. */
  header?: string;
  expected?: JsonValue;
  actual?: JsonValue;
}

export interface StepResult {
  name: string;
  /** Undefined when the request could not even be built (an unresolved variable). */
  request?: PlainRequest;
  /** Undefined when no answer arrived (refused, timed out, reset). */
  response?: PlainResponse;
  /** The operation the request routes to in the document, e.g. "createPlant". */
  operationId?: string;
  durationMs: number;
  findings: Finding[];
  /** A curl command that sends the same request; the token appears as $PLANTSTORE_TOKEN. */
  curl?: string;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  /**
   * Unique within a run: "<fixture file>#<name>", "generated/<operation>/<n>" or
   * "generated/sequence/<collection>/<n>".
   */
  id: string;
  name: string;
  /** The fixture file (relative to the working directory) or 'generated'. */
  source: string;
  status: CaseStatus;
  durationMs: number;
  steps: StepResult[];
  failures: number;
  warnings: number;
  /** Why a case was skipped (--bail, or a server that stopped answering). */
  skipReason?: string;
  /** A hostile case's target and value class ("query lastdays: numbers"). */
  probe?: string;
}

/** An operation that --generate gave no case, and why (missing credentials, an unsupported media type, ...). */
export interface UncoveredOperation {
  operationId: string;
  method: string;
  path: string;
  reason: string;
}

export interface VerifySummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Cases that passed with warnings (documented off-contract statuses). */
  warned: number;
}

export interface VerifyReport {
  /** Bumped when the report's shape changes incompatibly. */
  reportVersion: 1;
  target: string;
  spec: string;
  /** A digest of the document (document-hash.ts), and the plantstore that ran: what shards of one run share. */
  documentHash?: string;
  plantstoreVersion?: string;
  /** With --shard: which part of the run this is (merge-reports joins the parts). */
  shard?: ShardPart;
  seed: number;
  strict: boolean;
  startedAt: string;
  durationMs: number;
  outcome: 'passed' | 'failed';
  summary: VerifySummary;
  /**
   * Set when the run stopped early because the server stopped answering (the cases not run are skipped with this
   * reason).
   */
  stopped?: string;
  cases: CaseResult[];
  /** With --generate: the operations that got no generated case, each with the reason. */
  uncovered: UncoveredOperation[];
  /**
   * The findings grouped into distinct faults (faults.ts), failures first; each failure shrunk to its smallest
   * request.
   */
  faults?: Fault[];
  /** Every declared operation by declared status: reached, failed or not reached (coverage.ts). */
  coverage?: OperationCoverage[];
  /** About the document or the run, said once (look-alike paths, a --time-limit that cut the run). */
  warnings?: string[];
}

/** Counts the cases of a run. */
export function summarize(cases: CaseResult[]): VerifySummary {
  const count = (status: CaseStatus) => cases.filter((c) => c.status === status).length;
  return {
    total: cases.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    warned: cases.filter((c) => c.status === 'passed' && c.warnings > 0).length,
  };
}

/** A distinct fault: the findings of a run grouped by operation, check and signature (faults.ts). */
export interface Fault {
  /** operation | check | signature: stable across runs of the same seed. */
  key: string;
  severity: Severity;
  /** The operation it was found on; '*' for a warning grouped over the whole run. */
  operationId: string;
  check: string;
  signature: string;
  /** Cases that showed it. */
  count: number;
  /** The first few of those cases' ids. */
  caseIds: string[];
  /** Operations it was seen on (a grouped warning spans several). */
  operations: string[];
  /** The first case's finding message, request and curl line. */
  example: { caseId: string; message: string; request?: PlainRequest; curl?: string; status?: number };
  /** The smallest request found that still shows the fault (shrink.ts), when shrinking ran. */
  shrunk?: { request?: PlainRequest; curl?: string; attempts: number };
}

export type CellState = 'reached' | 'failed' | 'not-reached';

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  /** Declared statuses ('200', '4XX', 'default') and what the run did with each. */
  statuses: Record<string, CellState>;
  /** Statuses answered that the operation does not declare. */
  undeclared: number[];
  /** Requests judged as this operation. */
  requests: number;
}
