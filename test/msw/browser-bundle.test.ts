// plantstore/msw bundled for a browser as a user's Vite build bundles it: from the package as it
// ships (dist/, its "exports" and its "browser" field), not from src/. No Node built-in may be
// imported anywhere in the graph: the browser field swaps each Node-only engine module for its
// .browser.js twin, and a new Node-only import reached from the handlers fails here.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtPackage } from '../../bench/msw/built-package.ts';
import {
  bundleForBrowser,
  HANDLERS_ENTRY,
  mswFolder,
  PAGE_ENTRY,
  type BrowserBundle,
} from '../../bench/msw/browser-bundle.ts';

const NODE_SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](?:node:[^"']+|fs|path|url|crypto|module|v8|vm|buffer|util|os|stream|http|https|net|tls|zlib|worker_threads|child_process)["']/;

let packageDir: string;
let browserField: Record<string, string>;
let own: BrowserBundle;
let whole: BrowserBundle;
let withoutBrowserField: BrowserBundle;

describe('plantstore/msw in a browser bundle (Vite)', () => {
  beforeAll(async () => {
    packageDir = builtPackage();
    browserField = (
      JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { browser: Record<string, string> }
    ).browser;
    const common = { packageDir, mswDir: mswFolder(resolve('.')) };
    own = await bundleForBrowser({ ...common, entry: HANDLERS_ENTRY, mswExternal: true });
    whole = await bundleForBrowser({ ...common, entry: PAGE_ENTRY, mswExternal: false });
    withoutBrowserField = await bundleForBrowser({
      ...common,
      entry: HANDLERS_ENTRY,
      mswExternal: true,
      browserField: false,
    });
  }, 120_000);

  it('imports no Node built-in, anywhere in the graph, with msw left out or bundled in', () => {
    expect(own.nodeImports).toEqual([]);
    expect(whole.nodeImports).toEqual([]);
  });

  it('leaves no node: or built-in import in the code it writes, and imports nothing but msw at run time', () => {
    expect(own.code).not.toMatch(NODE_SPECIFIER);
    expect(whole.code).not.toMatch(NODE_SPECIFIER);
    expect(own.imports).toEqual(['msw']);
    expect(whole.imports).toEqual([]);
  });

  it("takes every module the package's browser field maps, never its Node original", () => {
    const mapped = Object.entries(browserField).map(([node, browser]) => [
      node.replace(/^\.\//, ''),
      browser.replace(/^\.\//, ''),
    ]);
    expect(mapped.length).toBeGreaterThan(0);
    for (const [node, browser] of mapped) {
      expect(own.modules, `${browser} (for ${node})`).toContain(browser);
      expect(own.modules).not.toContain(node);
    }
  });

  it('would see a Node-only import: without the browser field the same entry pulls node:crypto, node:fs and the loader', () => {
    expect(withoutBrowserField.nodeImports).toEqual(
      expect.arrayContaining([
        { source: 'node:crypto', importer: 'dist/platform/host.js' },
        { source: 'node:fs', importer: 'dist/document/load-spec.js' },
      ]),
    );
  });

  it('carries no YAML library: the mock reads prepared documents and writes no YAML', () => {
    expect(own.modules.filter((module) => module.startsWith('yaml/'))).toEqual([]);
  });

  it("keeps plantstore's part under the issue's 250 KB gzipped", () => {
    expect(own.gzipBytes).toBeLessThan(250 * 1024);
    expect(whole.gzipBytes).toBeGreaterThan(own.gzipBytes);
  });
});
