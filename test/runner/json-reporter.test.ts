// The JSON report is written a case at a time, so a report larger than V8's longest string (a
// run over Stripe's document) is still written, and the pieces make one exact JSON document.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/exact-json.ts';
import { createJsonReporter } from '../../src/runner/reporters/json.ts';
import type { VerifyReport } from '../../src/runner/report.ts';

function written(report: unknown): string[] {
  const chunks: string[] = [];
  createJsonReporter({ write: (chunk: string) => chunks.push(chunk) } as never).end?.(report as VerifyReport);
  return chunks;
}

describe('the JSON reporter', () => {
  it('writes each case as its own piece, and the pieces parse back to the report exactly', () => {
    const report = {
      reportVersion: 1,
      target: 'http://127.0.0.1:4010/',
      summary: { total: 3 },
      uncovered: [],
      cases: [{ id: 'a', id64: 9007199254740993n }, { id: 'b', steps: [{ body: { tags: ['x'] } }] }, { id: 'c' }],
    };
    const chunks = written(report);
    expect(chunks.length).toBe(report.cases.length + 2);
    const parsed = parseJson(chunks.join(''));
    expect(parsed.ok && parsed.value).toEqual(report);
  });

  it('writes a report with no case', () => {
    const parsed = parseJson(written({ reportVersion: 1, cases: [] }).join(''));
    expect(parsed.ok && parsed.value).toEqual({ reportVersion: 1, cases: [] });
  });
});
