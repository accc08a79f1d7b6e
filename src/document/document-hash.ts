// A digest of what a document says, once it is loaded: the same files give the same digest on any
// machine, wherever the checkout sits. Shard reports carry it (a merge refuses parts of different
// documents), and the mock's Redis keys are namespaced by it (two documents can share one Redis).
import { stringifyJson } from '../json/exact-json.ts';
import { sha256Hex } from '../platform/host.ts';
import type { LoadedSpec } from './loaded-spec.ts';

const hashes = new WeakMap<LoadedSpec, string>();

/** The first 16 hex digits of the SHA-256 of the bundled document's JSON text. */
export function documentHash(spec: LoadedSpec): string {
  let hash = hashes.get(spec);
  if (hash === undefined) {
    // The bundled form is one tree with its $refs kept, so its text is finite and says everything.
    hash = sha256Hex(stringifyJson(spec.bundled)).slice(0, 16);
    hashes.set(spec, hash);
  }
  return hash;
}
