// The conformance runner's public face (re-exported by src/index.ts).
export { verify } from './verify.ts';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  parseHeaderFlags,
  type ReporterTarget,
  type VerifyInput,
  type VerifyOptions,
} from './verify-options.ts';
export { DEFAULT_FIXTURES_DIR, FIXTURE_SCHEMA_PATH, loadFixtures } from './load-fixtures.ts';
export { OFF_CONTRACT_STATUSES } from './run/contract-checks.ts';
export {
  REPORTERS,
  REPORTER_NAMES,
  type Reporter,
  type ReporterContext,
  type ReporterName,
} from './reporters/index.ts';
export { parseAuthFlags } from './generate/credentials.ts';
export { parseShard, type Shard } from './shard.ts';
export { mergeReports, writeMerged, type MergedRun } from './merge-reports.ts';
export type {
  UncoveredOperation,
  CaseResult,
  CaseStatus,
  Finding,
  PlainRequest,
  PlainResponse,
  Severity,
  StepResult,
  VerifyReport,
  VerifySummary,
} from './report.ts';
export type { Case, FixtureExpectation, FixtureRequest, FixtureStep, StatusExpectation } from './fixture.ts';
