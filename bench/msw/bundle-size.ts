// The browser bundle's size (aim: under 250 KB gzipped): plantstore/msw alone (msw left out, as a page
// that already uses MSW pays only this) and a whole page's mock (with msw and msw/browser), from the
// package as it ships (built-package.ts), bundled by Vite as a user's build does (browser-bundle.ts).
// Run: node bench/msw/bundle-size.ts [--json]
import { resolve } from 'node:path';
import { builtPackage } from './built-package.ts';
import { bundleForBrowser, HANDLERS_ENTRY, mswFolder, PAGE_ENTRY } from './browser-bundle.ts';

type Size = { bytes: number; gzipBytes: number };

/** Both sizes, measured now. */
export async function measureBundleSizes(): Promise<{ plantstore: Size; withMsw: Size }> {
  const common = { packageDir: builtPackage(), mswDir: mswFolder(resolve(import.meta.dirname, '..', '..')) };
  const size = ({ bytes, gzipBytes }: Size) => ({ bytes, gzipBytes });
  return {
    plantstore: size(await bundleForBrowser({ ...common, entry: HANDLERS_ENTRY, mswExternal: true })),
    withMsw: size(await bundleForBrowser({ ...common, entry: PAGE_ENTRY, mswExternal: false })),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const formatBundleSizes = (sizes: { plantstore: Size; withMsw: Size }) => [
  'browser bundle (Vite, minified; gzip -9)',
  `  plantstore/msw alone (msw external): ${kb(sizes.plantstore.gzipBytes)} gzipped (${kb(sizes.plantstore.bytes)} minified); aim < 250 KB`,
  `  with msw and msw/browser:            ${kb(sizes.withMsw.gzipBytes)} gzipped (${kb(sizes.withMsw.bytes)} minified)`,
];

if (import.meta.main) {
  const sizes = await measureBundleSizes();
  process.stdout.write(
    `${process.argv.includes('--json') ? JSON.stringify(sizes) : formatBundleSizes(sizes).join('\n')}\n`,
  );
}
