// The browser's side of host.ts (see there): Web APIs only, no Node built-in.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import ajvDraft04 from 'ajv-draft-04';
import statuses from 'statuses';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
export const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** A page's heap is the tab's: records stop at 64 MB, far beyond what a frontend's tests create. */
export const defaultStateBytes = (): number => 64 * 1048576;

export const afterIO = (step: () => void): unknown => setTimeout(step, 0);
export const cancelAfterIO = (handle: unknown): void => clearTimeout(handle as ReturnType<typeof setTimeout>);

/** There are no files in a browser: documents are handed over already loaded (`plantstore msw`). */
export const DEFAULT_SPEC_PATH = '';

/** Bundled with the page: a bundler has no lazy require. */
export const requireAjvDraft04 = (): unknown => ajvDraft04;

/** The reason phrase of a status (the `statuses` package's table, which Node's matches). */
export const reasonPhrase = (status: number): string | undefined =>
  (statuses.message as Record<number, string | undefined>)[status];
