// The browser's compiled-cache.ts: there is no disk, so schemas compile on first use, as without a cache.
import type { ValidateFunction } from 'ajv';

export const canCache = (_spec: object): boolean => false;
export const readCompiled = (
  _spec: object,
  _runtime: Record<string, unknown>,
): Map<string, ValidateFunction> | undefined => undefined;
export const writeCompiled = (_spec: object, _code: string): boolean => false;
