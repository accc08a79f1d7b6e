// The README's CI matrix recipe, run as written by scripts/ci-matrix.ts: four verify jobs, each in
// its own folder with its own mock and processes, then the merge job. Its merged report is the
// whole run's, made here in one process against one mock.
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { readRecipe, runRecipe } from '../../scripts/ci-matrix.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { writeFiftyOperations } from './fifty-operations.ts';

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

describe("the README's GitHub Actions matrix recipe", () => {
  const workspace = tempDir('plantstore-checkout-');
  let statuses: Record<string, number>;
  let whole: VerifyReport;
  let mock: MockServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const spec = writeFiftyOperations(workspace, 'openapi.yaml');
    // The user's server under test: here, the plantstore mock of the same document.
    writeFileSync(
      join(workspace, 'start-my-server.sh'),
      `#!/bin/sh\nexec node plantstore/bin/plantstore.js mock --spec openapi.yaml --port "$PORT" --quiet\n`,
    );
    chmodSync(join(workspace, 'start-my-server.sh'), 0o755);
    statuses = await runRecipe(workspace, await freePort(), (line) => lines.push(line));
    mock = await startMockServer({ port: 0, spec });
    const generate = Number(/--generate (\d+)/.exec(JSON.stringify(readRecipe()))![1]);
    whole = await verify({ target: mock.url, spec, generate });
  }, 240_000);
  afterAll(() => mock?.close());

  it('runs four verify jobs and a merge job, as separate processes', () => {
    expect(Object.keys(statuses), lines.join('\n')).toEqual([
      'verify 1/4',
      'verify 2/4',
      'verify 3/4',
      'verify 4/4',
      'merge',
    ]);
    expect(statuses.merge, lines.join('\n')).toBe(whole.outcome === 'passed' ? 0 : 1);
  });

  it('merges into the whole run: the same cases in order, verdicts and counts', () => {
    // The merge job's folder is gone; its report came back through the contract-report artifact's log lines.
    const merged = JSON.parse(readFileSync(reportPath(lines), 'utf8')) as VerifyReport;
    expect(merged.cases.map((c) => [c.id, c.status, c.failures, c.warnings])).toEqual(
      whole.cases.map((c) => [c.id, c.status, c.failures, c.warnings]),
    );
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.summary.total).toBeGreaterThan(300);
  });
});

function reportPath(lines: string[]): string {
  const line = lines.find((l) => l.startsWith('[merge] artifact contract-report: '));
  if (!line) throw new Error(`the merge job uploaded no contract-report:\n${lines.join('\n')}`);
  return join(line.slice('[merge] artifact contract-report: '.length), 'out', 'verify.json');
}
