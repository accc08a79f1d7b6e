// The package as `npm pack` would ship it (dist/ compiled by tsc, package.json with its "exports"
// and "browser" field, bin/, openapi/, fixtures/), built into node_modules/.cache and not into this
// checkout's dist/: tests run in parallel, and one that reads dist/ while another's `npm pack`
// rewrites it would flake. Built once per state of the sources, reused by every test file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const CACHE = join(root, 'node_modules', '.cache', 'plantstore-package');
const SHIPPED = ['package.json', 'README.md', 'bin', 'openapi', 'fixtures'];
const INPUTS = ['src', 'bin', 'openapi', 'fixtures', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function filesOf(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.map((input) => join(root, input))
    .filter((path) => existsSync(path))
    .flatMap(filesOf))
    hash.update(file.slice(root.length)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The folder of the built package. Inside node_modules/.cache, its imports resolve to this
 * checkout's node_modules as an installed package's would. Another test file
 * building the same sources at the same time is harmless: each builds aside and renames into place.
 */
export function builtPackage(): string {
  const hash = sourcesHash();
  const target = join(CACHE, hash);
  if (existsSync(join(target, 'dist', 'msw', 'index.js'))) return target;
  const building = `${target}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  mkdirSync(building, { recursive: true });
  for (const name of SHIPPED)
    if (existsSync(join(root, name))) cpSync(join(root, name), join(building, name), { recursive: true });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', join(building, 'dist')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`tsc failed (${built.status}):\n${built.stdout}${built.stderr}`);
  // Older builds go: one per state of the sources would pile up.
  for (const old of existsSync(CACHE) ? readdirSync(CACHE) : [])
    if (!old.startsWith(hash)) rmSync(join(CACHE, old), { recursive: true, force: true });
  try {
    renameSync(building, target);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another file won the race: its build is the same
  }
  return target;
}
