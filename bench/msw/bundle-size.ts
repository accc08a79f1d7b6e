// The browser bundle's size (aim: under 250 KB gzipped): plantstore/msw alone (msw left
// out, as a page that already uses MSW pays only this), and a whole page's mock (plantstore/msw,
// msw and msw/browser). Built from this checkout's sources (built-package.ts), bundled by
// Vite as a user's build would (browser-bundle.ts). Prints figures; asserts nothing.
// Run: node bench/msw/bundle-size.ts [--json]
import { resolve } from 'node:path';
import { builtPackage } from './built-package.ts';
import { bundleForBrowser, HANDLERS_ENTRY, mswFolder, PAGE_ENTRY } from './browser-bundle.ts';

export interface BundleSizes {
  /** plantstore/msw with msw external: bytes minified and gzipped. */
  plantstore: { bytes: number; gzipBytes: number };
  /** plantstore/msw + msw + msw/browser. */
  withMsw: { bytes: number; gzipBytes: number };
}

/** Both sizes, measured now. */
export async function measureBundleSizes(): Promise<BundleSizes> {
  const root = resolve(import.meta.dirname, '..', '..');
  const common = { packageDir: builtPackage(), mswDir: mswFolder(root) };
  const own = await bundleForBrowser({ ...common, entry: HANDLERS_ENTRY, mswExternal: true });
  const whole = await bundleForBrowser({ ...common, entry: PAGE_ENTRY, mswExternal: false });
  return {
    plantstore: { bytes: own.bytes, gzipBytes: own.gzipBytes },
    withMsw: { bytes: whole.bytes, gzipBytes: whole.gzipBytes },
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The lines the benchmark prints. */
export function formatBundleSizes(sizes: BundleSizes): string[] {
  return [
    `browser bundle (Vite, minified; gzip -9)`,
    `  plantstore/msw alone (msw external): ${kb(sizes.plantstore.gzipBytes)} gzipped (${kb(sizes.plantstore.bytes)} minified); aim < 250 KB`,
    `  with msw and msw/browser:            ${kb(sizes.withMsw.gzipBytes)} gzipped (${kb(sizes.withMsw.bytes)} minified)`,
  ];
}

if (import.meta.main) {
  const sizes = await measureBundleSizes();
  process.stdout.write(
    process.argv.includes('--json') ? `${JSON.stringify(sizes)}\n` : `${formatBundleSizes(sizes).join('\n')}\n`,
  );
}
