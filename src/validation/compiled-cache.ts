// The compiled validators of a document, kept on disk next to its cached document (Ajv's
// standalone code). Compiling costs more than anything else in a large document's first answers
// (docs/performance.md §10.16), for a result that only changes with the document: a start that
// finds this entry compiles nothing.
// The entry is one JavaScript module, its first line a header: the document's version (the file
// hashes the document cache checks), Ajv's version, and the sha256 of the code, so that an entry
// of another document, another Ajv or a damaged file is ignored (and rewritten by the next warm-up).
// A large document's module takes V8 long to parse: V8's own code cache of it is kept beside it
// (`.v8`, made on the first start that reads the module, headed by the module's digest: V8 only
// checks a source's length), which cuts reading it to a fraction (docs/performance.md §10.16).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { derivedCacheOf, writeAtomically } from '../document/spec-cache.ts';

// Bump when the view of the document (schema-view.ts), the Ajv options or the keywords change.
const FORMAT = 3;
const SUFFIX = '.validators.js';
const V8_SUFFIX = '.validators.v8';
const DIGEST_BYTES = 32;
const HEADER = '// plantstore validators ';

const requireHere = createRequire(import.meta.url);
const ajvVersion = (requireHere('ajv/package.json') as { version: string }).version;

interface Header {
  format: number;
  version: string;
  ajv: string;
  sha256: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** V8's code cache for the module whose digest is given, if one was kept for it. */
function readCodeCache(path: string, sha256: string): Buffer | undefined {
  try {
    const data = readFileSync(path);
    return data.subarray(0, DIGEST_BYTES).toString('hex') === sha256 ? data.subarray(DIGEST_BYTES) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a loaded document has a cache to keep its compiled validators in. */
export const canCache = (spec: object): boolean => derivedCacheOf(spec) !== undefined;

/**
 * The validate functions cached for this loaded document, by pointer into its bundled form;
 * undefined when there is no entry for this version of it. `runtime` names the toolkit's own
 * values the code requires (its formats, its keywords); Ajv's runtime modules are required as they are.
 */
export function readCompiled(
  spec: object,
  runtime: Record<string, unknown>,
): Map<string, ValidateFunction> | undefined {
  const cache = derivedCacheOf(spec);
  if (!cache) return undefined;
  try {
    const text = readFileSync(cache.base + SUFFIX, 'utf8');
    const lineEnd = text.indexOf('\n');
    if (!text.startsWith(HEADER) || lineEnd < 0) return undefined;
    const header = JSON.parse(text.slice(HEADER.length, lineEnd)) as Header;
    const code = text.slice(lineEnd + 1);
    if (
      header.format !== FORMAT ||
      header.version !== cache.version ||
      header.ajv !== ajvVersion ||
      header.sha256 !== digest(code)
    )
      return undefined;
    const exports: Record<string, ValidateFunction> = {};
    const load = (name: string): unknown => {
      if (Object.hasOwn(runtime, name)) return runtime[name];
      if (name.startsWith('ajv/') || name.startsWith('ajv-formats/')) return requireHere(name);
      throw new Error(`unexpected module ${name}`);
    };
    // The code is Ajv's, written by this toolkit, and checked against its digest above.
    const cachedData = readCodeCache(cache.base + V8_SUFFIX, header.sha256);
    const script = new Script(`(function (exports, require) {${code}\n})`, {
      filename: cache.base + SUFFIX,
      cachedData,
    });
    (script.runInThisContext() as (exports: object, require: (name: string) => unknown) => void)(exports, load);
    if (cachedData === undefined || script.cachedDataRejected) {
      try {
        writeAtomically(
          cache.base + V8_SUFFIX,
          Buffer.concat([Buffer.from(header.sha256, 'hex'), script.createCachedData()]),
        );
      } catch {
        // a read-only cache: the next start parses the module again
      }
    }
    return new Map(Object.entries(exports).filter((entry) => typeof entry[1] === 'function'));
  } catch {
    return undefined; // no entry, or one that cannot be read: compile as if there were none
  }
}

/**
 * Stores the standalone code of a document's compiled validators; a failure to write only costs the next start its
 * compiling.
 */
export function writeCompiled(spec: object, code: string): boolean {
  const cache = derivedCacheOf(spec);
  if (!cache) return false;
  try {
    const header: Header = { format: FORMAT, version: cache.version, ajv: ajvVersion, sha256: digest(code) };
    writeAtomically(cache.base + SUFFIX, `${HEADER}${JSON.stringify(header)}\n${code}`);
    return true;
  } catch {
    return false;
  }
}
