// The public API of plantstore: everything here is described in the README.
// First, so that an unsupported Node is named before any dependency fails to load on it.
import './node-version.ts';
export { startMockServer, type MockServer, type StartMockServerOptions } from './mock/server.ts';
export { startProxyServer, type ProxyServer, type StartProxyServerOptions } from './proxy/proxy-server.ts';
export type { ProxyOptions } from './proxy/options.ts';
export type { Violation } from './proxy/violations.ts';
export { createMockEngine, type MockEngine, type EngineSetup } from './mock/engine.ts';
export type { HttpRequest, HttpAnswer, MockRequest, MockResponse } from './http/types.ts';
export { DEFAULT_MOCK_OPTIONS, type MockOptions, type LogFormat } from './mock/options.ts';
export { createLogger, silentLogger, type Logger } from './log/logger.ts';
export { createMemoryStore, StateFullError, type MemoryStoreLimits, type StateStore } from './state/store.ts';
export { loadAuditedSpec as loadSpec } from './example/load-audited-spec.ts';
export { DEFAULT_SPEC_PATH, type LoadedSpec } from './document/loaded-spec.ts';
export { listOperations, type Operation } from './document/operations.ts';
export {
  createValidators,
  type Validators,
  type ValidationResult,
  type ValidationIssue,
} from './validation/validator.ts';
export { parseJson, stringifyJson, type JsonValue } from './json/exact-json.ts';
export { PlantstoreError, type PlantstoreErrorCode } from './errors.ts';
export {
  verify,
  loadFixtures,
  REPORTERS,
  OFF_CONTRACT_STATUSES,
  FIXTURE_SCHEMA_PATH,
  type VerifyInput,
  type VerifyReport,
  type CaseResult,
  type Finding,
  type ReporterTarget,
} from './runner/index.ts';
