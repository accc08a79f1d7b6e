// The version of plantstore that made a report: the package's own, read once from its package.json
// (two levels up from src/runner/ and from dist/runner/ alike).
import { createRequire } from 'node:module';

let version: string | undefined;

export function plantstoreVersion(): string {
  version ??= (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  return version;
}
