// Credentials are redacted by the header, query parameter or {{token}} place they are in, never by
// searching for their text: a one-letter token leaves the curl command and ordinary words whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { startPlantServer, type PlantServer } from '../fixtures-servers/plant-server.ts';

describe('a one-letter token', () => {
  let server: PlantServer;
  let report: VerifyReport;
  let text = '';
  beforeAll(async () => {
    server = await startPlantServer('validation-not-enforced');
    report = await verify({
      target: server.url,
      token: 't',
      filter: ['without a name'],
      uniqueIdBase: 42n,
      reporters: [{ name: 'console', stream: { write: (chunk: string) => (text += chunk) } }],
    });
  });
  afterAll(() => server.close());

  it('is sent, and the curl command holds it as $PLANTSTORE_TOKEN with every other word whole', () => {
    expect(server.authorizations).toContain('Bearer t');
    const step = report.cases[0].steps[0];
    expect(step.curl).toBe(
      `curl -sS -i -X POST '${server.url}/plants' -H 'authorization: Bearer '"$PLANTSTORE_TOKEN" -H 'content-type: application/json' --data-binary '{"id":42,"tag":"indoor"}'`,
    );
    expect(text).toContain(step.curl);
  });

  it('hides only the credential in the report, not the letter t in ordinary words', () => {
    const step = report.cases[0].steps[0];
    expect(step.request!.headers.authorization).toBe('Bearer [redacted]');
    expect(report.cases[0].name).toBe('rejects a plant without a name');
    expect(text).toContain('FAIL  rejects a plant without a name');
    expect(text).toContain('expected status 400, got 200');
    expect(text.match(/\[redacted\]/g) ?? []).toEqual([]);
  });
});

describe('short --auth values', () => {
  const spec = 'test/documents/runner-params.yaml';
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, spec });
  });
  afterAll(() => mock.close());

  it('are redacted where they are sent: the query parameter, the header, the cookie', async () => {
    const report = await verify({
      target: mock.url,
      spec,
      generate: 1,
      token: 'b',
      auth: { queryKey: 'q', headerKey: 'h', cookieKey: 'c' },
      filter: ['getQuota', 'search:', 'getSession'],
    });
    const requests = report.cases.flatMap((c) => c.steps.map((s) => s.request!));
    expect(requests.some((r) => r.query.includes('api_key=[redacted]'))).toBe(true);
    expect(requests.some((r) => r.headers['x-api-key'] === '[redacted]')).toBe(true);
    expect(requests.some((r) => r.headers.cookie === '[redacted]')).toBe(true);
    for (const r of requests) {
      expect(r.query).not.toMatch(/api_key=q(&|$)/);
      expect(r.headers['x-api-key'] ?? '[redacted]').toBe('[redacted]');
    }
  });
});
