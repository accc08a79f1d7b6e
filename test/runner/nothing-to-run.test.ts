// A run that would execute no case exits 2 with "nothing to run" and the reasons, never 0: a
// green pipeline must mean that something was checked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// Every operation needs an API key; without --auth none gets a case.
const KEYED_ONLY = `openapi: 3.1.0
info: { title: Keyed only, version: 1.0.0 }
security: [{ partnerKey: [] }]
components:
  securitySchemes:
    partnerKey: { type: apiKey, in: header, name: X-Partner-Key }
paths:
  /orders:
    get:
      operationId: listOrders
      responses:
        '200': { description: orders, content: { application/json: { schema: { type: array, items: { type: object } } } } }
`;

describe('a run with nothing to run', () => {
  it('exits 2 with the operations that got no case and the flag that would give them one', async () => {
    const spec = join(tempDir('plantstore-nothing-'), 'keyed.yaml');
    writeFileSync(spec, KEYED_ONLY);
    const result = await runCli(['verify', '--spec', spec, '--target', 'http://127.0.0.1:9', '--generate', '3']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      "nothing to run: no fixtures, and none of the document's 1 operation got a generated case",
    );
    expect(result.stderr).toContain(
      'GET /orders (listOrders): needs credentials the run was not given: --auth partnerKey=KEY (API key in the header "X-Partner-Key")',
    );
  });

  it('runs once the credentials are given', async () => {
    const spec = join(tempDir('plantstore-nothing-'), 'keyed.yaml');
    writeFileSync(spec, KEYED_ONLY);
    const result = await runCli([
      'verify',
      '--spec',
      spec,
      '--target',
      'http://127.0.0.1:9',
      '--generate',
      '1',
      '--auth',
      'partnerKey=k-123456789',
    ]);
    // Nobody listens on port 9: the cases were built, and the server could not be reached.
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cannot reach http://127.0.0.1:9');
  });

  // OpenAPI 3.1 allows a document of webhooks alone: they are requests the API sends, not ones it
  // answers, so there is nothing to verify, and the run says that rather than asking for flags.
  it('exits 2 saying there is nothing to verify for a document of webhooks alone', async () => {
    const result = await runCli([
      'verify',
      '--spec',
      'test/corpus/documents/oai/webhook-example.yaml',
      '--target',
      'http://127.0.0.1:9',
      '--generate',
      '3',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'nothing to verify: the document declares no operation under paths (only 1 webhook, requests the API sends rather than answers)',
    );
    expect(result.stderr).not.toContain('--token');
  });
});
