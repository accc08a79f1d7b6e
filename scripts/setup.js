#!/usr/bin/env node
// Brings the project's own set-up: runs before `npm start`, `npm test` and `npm run bench`.
// It must run on Node 20 (the machine's Node), so it is plain JavaScript with no dependencies.
// Installs (npm ci) unless node_modules already holds what package-lock.json asks for: either this
// script's own stamp says it installed from these very package.json and package-lock.json, or npm's
// record of what it installed (node_modules/.package-lock.json, written by every `npm ci` and
// `npm install`) matches the lock file, so that a user's own `npm ci` is not done a second time.
// The "node" devDependency puts a Node 24 binary in node_modules/.bin, which npm scripts put first
// on PATH for the command that follows.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedMatchesLock } from './installed-matches-lock.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'node_modules', '.plantstore-setup');
const lockFile = join(root, 'package-lock.json');
const nodeBin = join(root, 'node_modules', '.bin', 'node');
/** How long a first install usually takes, as measured (README, Troubleshooting): said before it starts. */
const USUAL = 'about 1–2 minutes';
/** A progress line this often while npm works: npm itself is silent for most of an install. */
const PROGRESS_EVERY_MS = Number(process.env.PLANTSTORE_SETUP_PROGRESS_MS ?? 10_000);

function manifestHash() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    const path = join(root, file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

/** The folders the lock file asks for (another platform's optional binaries aside), to count how many are in place. */
function lockedFolders() {
  try {
    const { packages = {} } = JSON.parse(readFileSync(lockFile, 'utf8'));
    return Object.entries(packages)
      .filter(([path, entry]) => path !== '' && !entry.optional && !entry.link)
      .map(([path]) => join(root, path));
  } catch {
    return [];
  }
}

/** One progress line: the time so far and, with a lock file, how many packages are in place. */
function progressLine(startedAt, folders) {
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  if (folders.length === 0) return `plantstore: still installing (${seconds} s) ...`;
  // A folder is made before its files arrive; its package.json says the package is unpacked.
  const inPlace = folders.filter((folder) => existsSync(join(folder, 'package.json'))).length;
  const stage =
    inPlace < folders.length
      ? `${inPlace} of ${folders.length} packages in place`
      : 'every package in place, running install scripts (Node 24)';
  return `plantstore: still installing (${seconds} s): ${stage} ...`;
}

async function main() {
  const want = manifestHash();
  if (existsSync(nodeBin) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want) return 0;
  if (existsSync(nodeBin) && installedMatchesLock(root)) {
    writeFileSync(stampFile, want); // the next start needs only the stamp
    return 0;
  }
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const args = [existsSync(lockFile) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'];
  console.error(
    `plantstore: first run: installing dependencies and a Node 24 for this checkout (npm ${args.join(' ')}); this usually takes ${USUAL} ...`,
  );
  const startedAt = Date.now();
  const folders = lockedFolders();
  const ticker = setInterval(() => console.error(progressLine(startedAt, folders)), PROGRESS_EVERY_MS);
  const status = await new Promise((done) => {
    const child = spawn(npm[0], [...npm.slice(1), ...args], { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`plantstore: cannot run npm: ${error.message}`);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
  clearInterval(ticker);
  if (status !== 0) {
    console.error('plantstore: npm install failed; see the output above.');
    return status;
  }
  if (!existsSync(nodeBin)) {
    console.error(
      'plantstore: node_modules/.bin/node is missing after install; is the "node" devDependency in package.json?',
    );
    return 1;
  }
  console.error(`plantstore: installed in ${Math.round((Date.now() - startedAt) / 1000)} s.`);
  // npm install may rewrite the lock file, so the stamp is taken after it.
  writeFileSync(stampFile, manifestHash());
  return 0;
}

process.exitCode = await main();
