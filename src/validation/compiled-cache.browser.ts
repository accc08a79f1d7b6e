// The browser's compiled-cache.ts: there is no disk. Validators compiled ahead of time come with
// the document instead (LoadedSpec.precompiled, read by validator.ts).
import type { ValidateFunction } from 'ajv';
import type * as NodeCache from './compiled-cache.ts';

export const canCache = (_spec: object): boolean => false;
export const readCompiled = (_spec: object, _runtime: Record<string, unknown>): Map<string, ValidateFunction> | undefined => undefined;
export const writeCompiled = (_spec: object, _code: string): boolean => false;

void (0 as unknown as typeof import('./compiled-cache.browser.ts') satisfies typeof NodeCache);
