// Whether node_modules already holds what package-lock.json asks for, by npm's own record of what
// it installed (node_modules/.package-lock.json, the "hidden lockfile" that every `npm ci` and
// `npm install` writes). Plain JavaScript for Node 20, like scripts/setup.js, which uses it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const readJson = (path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
};

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const sameRanges = (a = {}, b = {}) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, range]) => b[name] === range);

/**
 * Whether npm's record of node_modules matches package-lock.json, and package-lock.json matches
 * package.json: every package the lock file names is installed at its version (an optional one,
 * such as another platform's binary, may be absent), nothing else is, and each one's folder is
 * there. Then `npm ci` would install nothing new.
 */
export function installedMatchesLock(projectRoot) {
  const manifest = readJson(join(projectRoot, 'package.json'));
  const lock = readJson(join(projectRoot, 'package-lock.json'));
  const installed = readJson(join(projectRoot, 'node_modules', '.package-lock.json'));
  if (!manifest || !lock?.packages || !installed?.packages) return false;
  // package.json edited since the lock file was written: npm install has work to do.
  if (!DEPENDENCY_FIELDS.every((field) => sameRanges(manifest[field], lock.packages['']?.[field]))) return false;
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '') continue;
    const have = installed.packages[path];
    if (!have) {
      if (entry.optional) continue;
      return false;
    }
    if (
      have.version !== entry.version ||
      have.resolved !== entry.resolved ||
      have.integrity !== entry.integrity ||
      have.link !== entry.link
    )
      return false;
  }
  return Object.keys(installed.packages).every(
    (path) => lock.packages[path] !== undefined && existsSync(join(projectRoot, path)),
  );
}
