import { isPlantstoreError } from '../errors.ts';

/** Prints a fatal error as clear lines (no stack trace for expected errors) and sets exit code 2. */
export function reportFatal(error: unknown): void {
  if (isPlantstoreError(error)) {
    process.stderr.write(`plantstore: ${error.message}\n${error.details.map((line) => `  ${line}\n`).join('')}`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`plantstore: unexpected error (a bug; please report it):\n${(error as Error)?.stack ?? String(error)}\n`);
  process.exitCode = 2;
}
