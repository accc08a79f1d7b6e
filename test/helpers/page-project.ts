// A small Vite app around the packaged plantstore/msw, for tests that open it in Chromium: the
// package as it ships (bench/msw/built-package.ts) and msw linked into its node_modules, MSW's worker
// in public/ (as `npx msw init public` leaves it), the given files written, Vite's build() run,
// the result served on 127.0.0.1.
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'vite';
import { builtPackage } from '../../bench/msw/built-package.ts';
import { mswFolder } from '../../bench/msw/browser-bundle.ts';
import { serveFolder, type StaticServer } from './static-server.ts';
import { tempDir } from './temp-dir.ts';

// The page bundles the engine and MSW in one chunk (~1 MB minified, bench/msw/bundle-size.ts), past
// Vite's 500 kB advice; a test page has no reason to split it.
const CHUNK_WARNING_KB = 2048;

export interface PageProject {
  /** The project's folder, for files written before `build`. */
  dir: string;
  /** Builds every page (the HTML files named) and serves the result. */
  build(pages: string[]): Promise<StaticServer>;
}

/** A project with `files` (path below the project -> text). */
export function pageProject(files: Record<string, string>): PageProject {
  const dir = tempDir('plantstore-msw-page-');
  const msw = mswFolder(resolve('.'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(builtPackage(), join(dir, 'node_modules', 'plantstore'), 'dir');
  symlinkSync(msw, join(dir, 'node_modules', 'msw'), 'dir');
  mkdirSync(join(dir, 'public'));
  copyFileSync(join(msw, 'lib', 'mockServiceWorker.js'), join(dir, 'public', 'mockServiceWorker.js'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return {
    dir,
    async build(pages) {
      const input = Object.fromEntries(pages.map((page) => [page.replace(/\.html$/, ''), join(dir, page)]));
      await build({
        root: dir,
        configFile: false,
        logLevel: 'warn',
        build: { outDir: join(dir, 'dist'), rolldownOptions: { input }, chunkSizeWarningLimit: CHUNK_WARNING_KB },
      });
      return serveFolder(join(dir, 'dist'));
    },
  };
}
