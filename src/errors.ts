/** Stable error codes a user can grep for; every fatal set-up error carries one. */
export type PlantstoreErrorCode =
  | 'SPEC_NOT_FOUND'
  | 'SPEC_INVALID'
  | 'SPEC_UNSUPPORTED'
  | 'SPEC_REMOTE_REF'
  | 'USAGE'
  | 'LISTEN_FAILED'
  | 'STATE_FILE_CORRUPT'
  | 'STATE_FULL'
  | 'STATE_UNAVAILABLE'
  | 'SHARD_MISMATCH'
  | 'FIXTURE_INVALID'
  | 'UNKNOWN_NAME'
  | 'TARGET_UNREACHABLE'
  | 'NODE_UNSUPPORTED';

/**
 * The one error type for fatal, expected failures (bad document, bad flag, port in use).
 * Expected per-request failures are values, not exceptions; this is for what stops a command.
 */
export class PlantstoreError extends Error {
  readonly code: PlantstoreErrorCode;
  /** Extra lines that tell the user where to look or what to do. */
  readonly details: string[];

  constructor(code: PlantstoreErrorCode, message: string, details: string[] = []) {
    super(message);
    this.name = 'PlantstoreError';
    this.code = code;
    this.details = details;
  }
}

export function isPlantstoreError(error: unknown): error is PlantstoreError {
  return error instanceof PlantstoreError;
}
