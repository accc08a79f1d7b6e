import { isPlantstoreError } from '../errors.ts';

/**
 * Exit code of a server `verify` cannot reach (refused, unresolved, no connection in time): not a broken contract (1),
 * not a usage error (2).
 */
export const EXIT_UNREACHABLE = 3;

/**
 * Prints a fatal error as clear lines (no stack trace for expected errors) and sets exit code 2 (3 for an unreachable
 * target).
 */
export function reportFatal(error: unknown): void {
  if (isPlantstoreError(error)) {
    process.stderr.write(`plantstore: ${error.message}\n${error.details.map((line) => `  ${line}\n`).join('')}`);
    process.exitCode = error.code === 'TARGET_UNREACHABLE' ? EXIT_UNREACHABLE : 2;
    return;
  }
  process.stderr.write(
    `plantstore: unexpected error (a bug; please report it):\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  process.exitCode = 2;
}
