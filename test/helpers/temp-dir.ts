// Temporary folders for tests, removed when the test file is done (they used to pile up in /tmp).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
// Registered on the importing file's root suite: each test file has its own copy of this module.
// A project's node_modules (the packed-package and recipe tests install hundreds of MB) takes longer
// than the default hook time to remove on a loaded machine.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** A fresh folder under the system's temporary folder, named `prefix` + random characters. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
