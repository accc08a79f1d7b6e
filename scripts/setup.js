#!/usr/bin/env node
// Brings the project's own set-up: runs before `npm start`, `npm test` and `npm run bench`.
// It must run on Node 20 (the machine's Node), so it is plain JavaScript with no dependencies.
// Installs (npm ci) unless node_modules already holds what package-lock.json asks for: either this
// script's own stamp says it installed from these very package.json and package-lock.json, or npm's
// record of what it installed (node_modules/.package-lock.json, written by every `npm ci` and
// `npm install`) matches the lock file, so that a user's own `npm ci` is not done a second time.
// The "node" dependency puts a Node 24 binary in node_modules/.bin, which npm scripts put first
// on PATH for the command that follows.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedMatchesLock } from './installed-matches-lock.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'node_modules', '.plantstore-setup');
const lockFile = join(root, 'package-lock.json');
const nodeBin = join(root, 'node_modules', '.bin', 'node');

function manifestHash() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    const path = join(root, file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

function main() {
  const want = manifestHash();
  if (existsSync(nodeBin) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want) return 0;
  if (existsSync(nodeBin) && installedMatchesLock(root)) {
    writeFileSync(stampFile, want); // the next start needs only the stamp
    return 0;
  }
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const args = [existsSync(lockFile) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'];
  console.error(`plantstore: installing dependencies (npm ${args.join(' ')}) ...`);
  const result = spawnSync(npm[0], [...npm.slice(1), ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('plantstore: npm install failed; see the output above.');
    return result.status ?? 1;
  }
  if (!existsSync(nodeBin)) {
    console.error('plantstore: node_modules/.bin/node is missing after install; is the "node" dependency in package.json?');
    return 1;
  }
  // npm install may rewrite the lock file, so the stamp is taken after it.
  writeFileSync(stampFile, manifestHash());
  return 0;
}

process.exitCode = main();
