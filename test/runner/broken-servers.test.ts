// Each broken server is the correct one with exactly one defect; the runner must fail it and
// name the defect (a finding code) on the case that exposes it.
import { afterEach, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { startPlantServer, type Defect, type PlantServer } from '../fixtures-servers/plant-server.ts';

const TABLE: Array<{ defect: Defect; caseName: string; code: string }> = [
  { defect: 'wrong-status', caseName: 'creates a plant with a tag', code: 'undeclared-status' },
  { defect: 'undeclared-status', caseName: 'rejects a plant without a name', code: 'undeclared-status' },
  { defect: 'missing-required-field', caseName: 'creates a plant with a tag', code: 'missing-required-field' },
  { defect: 'wrong-field-type', caseName: 'creates a plant with a tag', code: 'wrong-field-type' },
  { defect: 'wrong-content-type', caseName: 'creates a plant with a tag', code: 'undeclared-content-type' },
  { defect: 'non-json-body', caseName: 'creates a plant with a tag', code: 'body-not-json' },
  { defect: 'auth-not-enforced', caseName: 'rejects a request without a token', code: 'unexpected-status' },
  { defect: 'validation-not-enforced', caseName: 'rejects a plant without a name', code: 'unexpected-status' },
  { defect: 'duplicate-accepted', caseName: 'rejects a second plant with the same id', code: 'unexpected-status' },
  { defect: 'server-error-on-bad-input', caseName: 'rejects malformed JSON', code: 'server-error' },
  { defect: 'hang', caseName: 'creates a plant with a tag', code: 'timeout' },
  { defect: 'connection-reset', caseName: 'creates a plant with a tag', code: 'connection-reset' },
  { defect: 'oversized-body', caseName: 'creates a plant with a tag', code: 'body-too-large' },
  { defect: 'endless-body', caseName: 'creates a plant with a tag', code: 'body-too-large' },
  { defect: 'html-answer', caseName: 'creates a plant with a tag', code: 'undeclared-content-type' },
  { defect: 'redirect', caseName: 'creates a plant with a tag', code: 'redirect' },
];

let server: PlantServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function verifyBroken(defect: Defect): Promise<VerifyReport> {
  server = await startPlantServer(defect);
  // A short deadline and parallel cases keep the hanging server's run short. Every other server
  // gets a deadline that only a hang would reach: an endless body must be cut by the size limit,
  // however slowly a busy machine reads it, not by the clock.
  return verify({
    target: server.url,
    token: 'broken-server-token',
    timeoutMs: defect === 'hang' ? 800 : 15_000,
    concurrency: 8,
  });
}

describe('a server one defect away from correct', () => {
  it.each(TABLE)(
    'fails "$caseName" with $code when the server has the defect $defect',
    async ({ defect, caseName, code }) => {
      const report = await verifyBroken(defect);
      expect(report.outcome).toBe('failed');
      const failed = report.cases.find((c) => c.name === caseName)!;
      expect(failed.status).toBe('failed');
      expect(failed.steps.flatMap((s) => s.findings).map((f) => f.code)).toContain(code);
    },
  );

  it('names the JSON pointer that failed when a required field is missing', async () => {
    const report = await verifyBroken('missing-required-field');
    const finding = report.cases
      .find((c) => c.name === 'creates a plant with a tag')!
      .steps[0].findings.find((f) => f.code === 'missing-required-field')!;
    expect(finding.pointer).toBe('/name');
    expect(finding.message).toContain('/name');
  });

  it('shows the expected and actual status of a case the server got wrong', async () => {
    const report = await verifyBroken('auth-not-enforced');
    const finding = report.cases
      .find((c) => c.name === 'rejects a request without a token')!
      .steps[0].findings.find((f) => f.code === 'unexpected-status')!;
    expect(finding).toMatchObject({ expected: '401', actual: 200 });
  });

  // Only an answer that says it is JSON is held to a schema; an HTML page fails on its media type.
  it('judges an HTML page served for a JSON operation by its Content-Type alone', async () => {
    const report = await verifyBroken('html-answer');
    const codes = report.cases
      .find((c) => c.name === 'creates a plant with a tag')!
      .steps[0].findings.map((f) => f.code);
    expect(codes).toContain('undeclared-content-type');
    expect(codes).not.toContain('body-not-json');
  });

  it('sends a failing POST once: nothing is retried after a reset', async () => {
    server = await startPlantServer('connection-reset');
    await verify({ target: server.url, token: 'broken-server-token', filter: ['creates a plant with a tag'] });
    expect(server.authorizations).toHaveLength(1);
  });
});
