import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes a document object to a fresh temporary file (the harness reads documents from files). */
export function writeDocument(doc: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'corpus-test-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}
