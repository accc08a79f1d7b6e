// plantstore/msw bundled for a browser as a user's bundler does it: Vite's build() of a file importing the
// installed package by name, so its "exports" and "browser" fields decide what goes in. Used by the
// bundle tests (test/msw/) and the MSW suite's size figures (bundle-size.ts).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';

export interface BrowserBundle {
  /** Minified bytes, and gzipped (level 9, as a server would send it). */
  bytes: number;
  gzipBytes: number;
  /** Every module in the bundle, as a path below the node_modules folder it came from. */
  modules: string[];
  /** Node built-ins some module imported or required (Vite swaps them for an empty stub). */
  nodeImports: Array<{ source: string; importer: string }>;
  /** Packages left out of the bundle (imported at run time). */
  imports: string[];
  code: string;
}

export interface BundleOptions {
  /** The package's folder (its package.json, dist/): this checkout after `npm run build`, or a built copy. */
  packageDir: string;
  /** The entry's source: what a page imports. */
  entry: string;
  /** Leave msw out (`msw`, `msw/browser`), to measure plantstore's own part. */
  mswExternal: boolean;
  /** Where msw is installed (its package folder). */
  mswDir: string;
  /** Read packages' "browser" fields, as every browser bundler does (default true; off shows what they keep out). */
  browserField?: boolean;
}

/** What a page that starts the mock imports: plantstore's handlers, and MSW's worker. */
export const PAGE_ENTRY = `export { createHandlers } from 'plantstore/msw';\nexport { setupWorker } from 'msw/browser';\n`;
/** plantstore's part alone. */
export const HANDLERS_ENTRY = `export { createHandlers } from 'plantstore/msw';\n`;

const below = (id: string) =>
  id.replace(/^.*\/node_modules\/(?:\.cache\/plantstore-package\/[^/]+\/)?/, '').replace(/^\0/, '');

/** Bundles `entry` for a browser (ES module, minified) from a project with the package and msw installed. */
export async function bundleForBrowser(options: BundleOptions): Promise<BrowserBundle> {
  const project = mkdtempSync(join(tmpdir(), 'plantstore-bundle-'));
  try {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(options.packageDir, join(project, 'node_modules', 'plantstore'), 'dir');
    symlinkSync(options.mswDir, join(project, 'node_modules', 'msw'), 'dir');
    writeFileSync(join(project, 'entry.js'), options.entry);
    const nodeImports: BrowserBundle['nodeImports'] = [];
    const built = await build({
      root: project,
      configFile: false,
      logLevel: 'silent',
      // Vite's client defaults, or the same without 'browser'.
      resolve: {
        mainFields:
          options.browserField === false
            ? ['module', 'jsnext:main', 'jsnext']
            : ['browser', 'module', 'jsnext:main', 'jsnext'],
      },
      plugins: [
        {
          name: 'plantstore:node-imports',
          enforce: 'pre',
          resolveId(source, importer) {
            if (isBuiltin(source)) nodeImports.push({ source, importer: below(importer ?? '(entry)') });
            return null;
          },
        },
      ],
      build: {
        write: false,
        minify: true,
        lib: { entry: join(project, 'entry.js'), formats: ['es'], fileName: 'page' },
        rolldownOptions: {
          external: options.mswExternal ? [/^msw(\/|$)/] : [],
          // The engine loads the example generator lazily in Node and eagerly in the browser twin: said, not a fault.
          onwarn: () => undefined,
        },
      },
    });
    const chunks = (Array.isArray(built) ? built : [built as Rolldown.RolldownOutput]).flatMap((output) =>
      output.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk'),
    );
    const code = chunks.map((chunk) => chunk.code).join('\n');
    return {
      bytes: Buffer.byteLength(code),
      gzipBytes: gzipSync(code, { level: 9 }).length,
      modules: chunks.flatMap((chunk) => Object.keys(chunk.modules)).map(below),
      nodeImports,
      imports: [...new Set(chunks.flatMap((chunk) => chunk.imports))],
      code,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** msw's package folder, as this checkout installed it. */
export const mswFolder = (root: string) => dirname(join(root, 'node_modules', 'msw', 'package.json'));
