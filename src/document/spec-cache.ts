// A cache of validated, bundled documents and their warnings. Reading, bundling and validating a
// document against the official OpenAPI schema costs up to seconds (docs/performance.md §10.16),
// for a result that only changes when a file of the document changes. An entry records the sha256 of every
// file the document was read from; any change in any of them misses, and the document is validated again.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Bump when the cached shape, the loading rules or the generator the load's audit draws with change.
const CACHE_FORMAT = 7;

interface CacheEntry {
  format: number;
  files: Record<string, string>;
  dialect: '3.0' | '3.1';
  warnings: string[];
  badTypes: Array<{ pointer: string; type: string }>;
  /** The bundled document (internal $refs kept: a fraction of the dereferenced size). */
  document: unknown;
}

const cacheDir = (() => {
  const projectCache = join(
    dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    'node_modules',
    '.cache',
    'plantstore',
  );
  return process.env.PLANTSTORE_CACHE_DIR ?? projectCache;
})();

const fileHash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const entryPath = (root: string) =>
  join(cacheDir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);

/**
 * Where the artefacts made from one version of a document are cached (the compiled validators),
 * and that version: a digest of the sha256 of every file the document was read from.
 */
export interface DerivedCache {
  /** The cache entry's path without its extension: an artefact adds its own. */
  base: string;
  version: string;
}

const derived = new WeakMap<object, DerivedCache>();
const versionOf = (files: Record<string, string>) =>
  createHash('sha256')
    .update(`${CACHE_FORMAT}\0${JSON.stringify(files)}`)
    .digest('hex');

/** Notes that a loaded document was read from, or written to, the cache under `root` at `version`. */
export function noteDerivedCache(spec: object, root: string, version: string): void {
  derived.set(spec, { base: entryPath(root).slice(0, -'.json'.length), version });
}

/**
 * The cache of what is made from a loaded document; undefined when it was not cached (PLANTSTORE_NO_CACHE, a read-only
 * checkout).
 */
export function derivedCacheOf(spec: object): DerivedCache | undefined {
  return derived.get(spec);
}

/** The cached document for a root file (as JSON text), if every file it was read from is unchanged. */
export function readCachedSpec(root: string):
  | {
      dialect: '3.0' | '3.1';
      warnings: string[];
      badTypes: CacheEntry['badTypes'];
      documentText: string;
      version: string;
      files: string[];
    }
  | undefined {
  if (process.env.PLANTSTORE_NO_CACHE) return undefined;
  try {
    const text = readFileSync(entryPath(root), 'utf8');
    // The entry is written as {head...,"document":TEXT}: the head is parsed alone, and the
    // document's text handed over unparsed (the loader parses it twice anyway).
    const split = text.indexOf(',"document":');
    if (split < 0) return undefined;
    const head = JSON.parse(`${text.slice(0, split)}}`) as Omit<CacheEntry, 'document'>;
    if (head.format !== CACHE_FORMAT) return undefined;
    for (const [path, hash] of Object.entries(head.files)) if (fileHash(path) !== hash) return undefined;
    return {
      dialect: head.dialect,
      warnings: head.warnings,
      badTypes: head.badTypes,
      documentText: text.slice(split + ',"document":'.length, -1),
      version: versionOf(head.files),
      files: Object.keys(head.files),
    };
  } catch {
    return undefined; // no entry, an unreadable one, or a file that is gone: validate afresh
  }
}

/**
 * Writes a file whole or not at all (its folder made if missing): a concurrent reader, or a crash, sees the old file
 * or the new.
 */
export function writeAtomically(target: string, data: string | Uint8Array): void {
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, target);
}

/** Stores a freshly validated document and returns its version; failures to write only cost the next start-up time. */
export function writeCachedSpec(
  root: string,
  files: string[],
  dialect: '3.0' | '3.1',
  documentText: string,
  warnings: string[],
  badTypes: CacheEntry['badTypes'] = [],
): string | undefined {
  if (process.env.PLANTSTORE_NO_CACHE || files.length === 0) return undefined;
  try {
    const head: Omit<CacheEntry, 'document'> = {
      format: CACHE_FORMAT,
      files: Object.fromEntries(files.map((f) => [f, fileHash(f)])),
      dialect,
      warnings,
      badTypes,
    };
    // The document is already JSON text: spliced in, not serialized a second time.
    writeAtomically(entryPath(root), `${JSON.stringify(head).slice(0, -1)},"document":${documentText}}`);
    return versionOf(head.files);
  } catch {
    // A read-only checkout: the cache is only an optimisation, so start-up just stays slower.
    return undefined;
  }
}
