// Reports: the console shows one line per case and, for a failure, a diff and a curl command;
// JUnit XML is well-formed; the JSON report round-trips; no token appears in any of them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/json/exact-json.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { startPlantServer, type PlantServer } from '../fixtures-servers/plant-server.ts';
import { checkWellFormedXml } from './well-formed-xml.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// The broken server echoes nothing, so to prove the redactor works on bodies too, the token also
// appears in a fixture body (see below) and in a --header credential.
const TOKEN = 'tok-3f9a7c1e-secret';
const dir = tempDir('plantstore-reports-');
let server: PlantServer;
let report: VerifyReport;
let consoleText = '';

beforeAll(async () => {
  server = await startPlantServer('validation-not-enforced');
  report = await verify({
    target: server.url,
    token: TOKEN,
    generate: 2,
    seed: 5,
    headers: { 'x-api-key': 'apikey-value-42' },
    reporters: [
      { name: 'console', stream: { write: (chunk: string) => (consoleText += chunk) } },
      { name: 'junit', file: join(dir, 'out', 'verify.xml') },
      { name: 'json', file: join(dir, 'out', 'verify.json') },
    ],
  });
});
afterAll(() => server.close());

describe('reports', () => {
  it('sent the real token to the server', () => {
    expect(server.authorizations).toContain(`Bearer ${TOKEN}`);
  });

  it('never writes the token or a credential header value into any report', () => {
    for (const text of [
      consoleText,
      readFileSync(join(dir, 'out', 'verify.xml'), 'utf8'),
      readFileSync(join(dir, 'out', 'verify.json'), 'utf8'),
      stringifyJson(report),
    ]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('apikey-value-42');
    }
    expect(stringifyJson(report)).toContain('Bearer [redacted]');
  });

  it('prints one line per case, then the distinct faults and a summary', () => {
    const [cases, faults] = consoleText.split('\nDistinct faults: ');
    const caseLines = cases.split('\n').filter((line) => /^(PASS|FAIL|WARN|SKIP) {2}/.test(line));
    expect(faults).toMatch(/^\d+/);
    expect(caseLines).toHaveLength(report.summary.total);
    expect(consoleText).toMatch(/FAILED: \d+ passed, \d+ failed/);
  });

  it('shows a failure as expected against actual, with a curl command that uses $PLANTSTORE_TOKEN', () => {
    const block = consoleText.split('\n');
    // A run this long keeps the details for its distinct faults, one block each after the case lines.
    const at = block.findIndex(
      (line) => line.startsWith('FAIL  ') && line.includes('rejects a plant without a name') && /×\d+$/.test(line),
    );
    const details = block.slice(at + 1, at + 10).join('\n');
    expect(details).toContain('- expected status: 400');
    expect(details).toContain('+ actual   status: 200');
    expect(details).toMatch(/answer: 200, .*content-type: application\/json/);
    expect(details).toContain('answer body: {"tag":"indoor"}');
    expect(details).toMatch(/curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/plants' /);
    expect(details).toContain(`-H 'authorization: Bearer '"$PLANTSTORE_TOKEN"`);
  });

  it('writes JUnit XML that is well-formed, with one testcase per case', () => {
    const xml = readFileSync(join(dir, 'out', 'verify.xml'), 'utf8');
    expect(checkWellFormedXml(xml)).toEqual({ ok: true });
    expect(xml.match(/<testcase /g)).toHaveLength(report.summary.total);
    expect(xml).toMatch(/<failure message="expected status 400, got 200" type="unexpected-status">/);
  });

  it('writes a JSON report that round-trips, int64 digits included', () => {
    const text = readFileSync(join(dir, 'out', 'verify.json'), 'utf8');
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(true);
    expect(stringifyJson((parsed as { value: unknown }).value, 2)).toBe(text.trimEnd());
    expect(text).toContain('"id": 9223372036854775808');
    expect((parsed as unknown as { value: VerifyReport }).value.summary).toEqual(report.summary);
  });
});

describe('the XML well-formedness check itself', () => {
  it.each([
    ['<a><b></a>', 'mismatched'],
    ['<a x="1></a>', 'attribute'],
    ['<a>&bogus;</a>', 'entity'],
    ['<a>1 < 2</a>', '<'],
  ])('rejects %s', (xml, why) => {
    const result = checkWellFormedXml(xml);
    expect(result.ok).toBe(false);
    expect((result as { message: string }).message).toContain(why);
  });
});
