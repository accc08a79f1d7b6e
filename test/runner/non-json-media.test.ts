// Non-JSON request bodies and answers never crash the runner: form and multipart bodies reach a
// server that parses them with the platform's own parser, a CSV or plain-text answer is judged
// by its Content-Type alone, and JSON answers still by their schema.
import { afterEach, describe, expect, it } from 'vitest';
import { verify } from '../../src/runner/index.ts';
import { startMediaServer, type MediaServer } from '../fixtures-servers/media-server.ts';

const SPEC = 'test/documents/runner-media.yaml';
let server: MediaServer | undefined;
afterEach(() => server?.close());

async function run(defect?: Parameters<typeof startMediaServer>[0]) {
  server = await startMediaServer(defect);
  return verify({ target: server.url, spec: SPEC, generate: 2, seed: 3 });
}

const failuresOf = (report: Awaited<ReturnType<typeof run>>) =>
  report.cases
    .filter((c) => c.status === 'failed')
    .map((c) => `${c.id}: ${c.steps.flatMap((s) => s.findings.map((f) => f.code)).join(', ')}`);

describe('non-JSON media types', () => {
  it('passes a correct server: forms, multipart, text bodies, CSV and plain-text answers', async () => {
    const report = await run();
    expect(failuresOf(report)).toEqual([]);
    expect(report.cases.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'generated/signUp/valid-1',
        'generated/upload/valid-1',
        'generated/addNote/valid-1',
        'generated/exportCsv/valid-1',
        'generated/getStatus/valid-1',
      ]),
    );
  });

  it("sends a urlencoded form the server parses into the schema's fields", async () => {
    await run();
    // The two valid cases run first; the negative ones follow.
    const signups = server!.forms.filter((f) => f.path === '/signups').slice(0, 2);
    expect(signups.length).toBe(2);
    for (const form of signups) {
      const names = form.fields.map(([name]) => name);
      expect(names).toEqual(expect.arrayContaining(['email', 'plan']));
      expect(form.fields.find(([name]) => name === 'email')![1]).toMatch(/@/);
    }
  });

  it('sends multipart with the binary property as a file part and an object as a JSON part', async () => {
    await run();
    const upload = server!.forms.find((f) => f.path === '/uploads')!;
    expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.fields.find(([name]) => name === 'file')![1]).toMatchObject({
      file: 'file.bin',
      type: 'application/octet-stream',
    });
    const meta = upload.fields.find(([name]) => name === 'meta');
    if (meta) expect(JSON.parse((meta[1] as { text: string }).text)).toBeTypeOf('object');
  });

  it('rejects, as negative cases, forms without a required field or with a value out of range', async () => {
    const report = await run();
    const negatives = report.cases.filter((c) => /^generated\/(signUp|upload)\/invalid-/.test(c.id)).map((c) => c.name);
    expect(negatives).toEqual(
      expect.arrayContaining([
        'signUp: rejects /email: removed required field',
        'signUp: rejects /seats: out of range: 11 is above the maximum 10',
        'upload: rejects /file: removed required field',
      ]),
    );
    // In a form every value is text: a "wrong type" would be valid text, so none is sent.
    expect(negatives.filter((name) => name.includes('wrong type') || name.includes('malformed'))).toEqual([]);
  });

  it.each([
    [
      'an answer of an undeclared media type (text/html for text/csv)',
      'html-export' as const,
      'generated/exportCsv/valid-1',
      'undeclared-content-type',
    ],
    [
      'a JSON answer that breaks its schema',
      'wrong-status-json' as const,
      'generated/getStatus/valid-1',
      'wrong-field-type',
    ],
  ])('fails %s', async (_what, defect, id, code) => {
    const report = await run(defect);
    expect(failuresOf(report)).toEqual([`${id}: ${code}`]);
  });

  it('reports the operation whose body it cannot generate, and why', async () => {
    const report = await run();
    expect(report.uncovered).toEqual([
      {
        operationId: 'importProtobuf',
        method: 'POST',
        path: '/imports',
        reason: expect.stringContaining('no generator for its request body (application/x-protobuf)'),
      },
    ]);
  });
});
