// Against a hand-written server that decodes every parameter style and checks every security
// scheme of test/documents/runner-params.yaml, all generated cases pass: valid requests are
// understood as sent, and the negative ones are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { startParamsServer, type ParamsServer } from '../fixtures-servers/params-server.ts';

const CREDENTIALS = {
  headerKey: 'hk-0000001',
  queryKey: 'qk-0000002',
  cookieKey: 'ck-0000003',
  basicAuth: 'carol:pw-0000004',
  bearer: 'bt-0000005',
};

let server: ParamsServer;
let report: VerifyReport;
beforeAll(async () => {
  server = await startParamsServer(CREDENTIALS);
  const { bearer, ...auth } = CREDENTIALS;
  report = await verify({
    target: server.url,
    spec: 'test/documents/runner-params.yaml',
    token: bearer,
    auth,
    generate: 4,
    seed: 21,
  });
});
afterAll(() => server.close());

describe('generated parameters against a server that decodes them', () => {
  it('passes every case, negative ones included', () => {
    expect(
      report.cases
        .filter((c) => c.status !== 'passed')
        .map((c) => `${c.name}: ${c.steps.flatMap((s) => s.findings.map((f) => f.message)).join('; ')}`),
    ).toEqual([]);
    expect(report.uncovered).toEqual([]);
  });

  it('reaches every operation with a request the server accepted', () => {
    const operations = new Set(server.decoded.map((line) => line.split(' ')[0]));
    expect([...operations].sort()).toEqual([
      'getAccount',
      'getPoint',
      'getQuota',
      'getReport',
      'getSession',
      'listTokens',
      'search',
      'styledQuery',
    ]);
  });

  it('sends the optional styled parameters in some cases and not in others', () => {
    const styled = server.decoded.filter((line) => line.startsWith('styledQuery'));
    expect(styled.some((line) => /ids=\d\|\d words=[ab] [ab] color=(red|blue)/.test(line))).toBe(true);
    expect(styled.some((line) => line.endsWith('ids=- words=- color=-'))).toBe(true);
  });
});
