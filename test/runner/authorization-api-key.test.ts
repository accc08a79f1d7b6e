// An apiKey scheme named Authorization takes any value (Gitea's `Authorization: token ...`): beside
// it, a malformed Basic header is still a credential the contract accepts, so verify does not
// expect it refused, and a run against the mock has no false alarm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify } from '../../src/runner/verify.ts';

const SPEC = 'test/documents/authorization-api-key.yaml';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ spec: SPEC, port: 0, quiet: true });
});
afterAll(() => mock.close());

describe('an apiKey scheme in the Authorization header beside Basic', () => {
  it('gets no malformed-credentials case, still a no-credentials one, and passes against the mock', async () => {
    const report = await verify({
      target: mock.url,
      spec: SPEC,
      generate: 2,
      hostile: 0,
      auth: { BasicAuth: 'alice:pw' },
    });
    const ids = report.cases.map((c) => c.id);
    expect(ids).toContain('generated/listRepos/no-credentials');
    expect(ids).not.toContain('generated/listRepos/wrong-credentials');
    expect(report.cases.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual([]);
  });
});
