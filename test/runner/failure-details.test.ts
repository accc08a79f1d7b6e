// What a failing case shows under its line: each finding, a diff labelled by what it compares
// (the status, a header, the body or a place in it), the answer that failed, and a curl command.
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/runner/run/contract-checks.ts';
import { checkExpectations } from '../../src/runner/run/expectations.ts';
import { caseDetails } from '../../src/runner/reporters/case-details.ts';
import type { CaseResult, Finding, PlainResponse } from '../../src/runner/report.ts';
import { parseJson } from '../../src/json/exact-json.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createRouter } from '../../src/document/router.ts';
import { createValidators } from '../../src/validation/validator.ts';

async function plantSpecValidators() {
  const spec = await loadSpec();
  return { route: createRouter(listOperations(spec)), validators: createValidators(spec) };
}

const answer = (status: number, text: string, headers: Record<string, string> = {}) => ({
  status,
  headers,
  text,
  json: text === '' ? undefined : parseJson(text),
});

function details(findings: Finding[], response?: PlainResponse): string[] {
  const result: CaseResult = {
    id: 'c',
    name: 'c',
    source: 'x.yaml',
    status: 'failed',
    durationMs: 1,
    failures: findings.length,
    warnings: 0,
    steps: [
      {
        name: 'request',
        request: { method: 'POST', path: '/plants', query: '', headers: {} },
        response,
        durationMs: 1,
        findings,
        curl: 'curl …',
      },
    ],
  };
  return caseDetails(result).map((line) => line.text);
}

describe('the diff under a failure', () => {
  it('labels a missing header as that header, absent, not "null"', () => {
    const lines = details(
      checkExpectations({ headers: { 'X-Request-Id': true, 'content-type': 'application/json' } }, answer(200, '{}')),
    );
    expect(lines).toContain('- expected header x-request-id: (present)');
    expect(lines).toContain('+ actual   header x-request-id: (none)');
    expect(lines).toContain('+ actual   header content-type: (none)');
  });

  it('labels an empty body as the body, not the content-type', () => {
    const lines = details(checkExpectations({ body: { name: 'Fern' } }, answer(200, '')));
    expect(lines).toContain('- expected body: {"name":"Fern"}');
    expect(lines).toContain('+ actual   body: (empty)');
  });

  it('labels a field missing from the body by its pointer', () => {
    const lines = details(checkExpectations({ body: { name: 'Fern' } }, answer(200, '{"tag":"x"}')));
    expect(lines).toContain('+ actual   body /name: (missing)');
  });

  it('shows the answer that failed: status, headers and the body cut short', () => {
    const long = 'x'.repeat(1000);
    const lines = details(
      [
        {
          code: 'unexpected-status',
          severity: 'failure',
          message: 'expected status 200, got 400',
          expected: '200',
          actual: 400,
        },
      ],
      {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: { error: 400, message: long },
      },
    );
    expect(lines).toContain('answer: 400, content-type: application/json');
    const body = lines.find((line) => line.startsWith('answer body: '))!;
    expect(body.startsWith('answer body: {"error":400,"message":"xxx')).toBe(true);
    expect(body).toMatch(/… \(1\d{3} characters\)$/);
    expect(lines.at(-1)).toBe('curl …');
  });
});

describe('a schema finding', () => {
  it('shows the value that has the wrong type, cut short', async () => {
    const { route, validators } = await plantSpecValidators();
    const findings = checkContract({
      route: route('POST', '/plants'),
      response: answer(200, JSON.stringify({ name: ['Fern'], tag: 'y'.repeat(500) }), {
        'content-type': 'application/json',
      }),
      validators,
      strict: false,
    });
    const wrongType = findings.find((f) => f.code === 'wrong-field-type')!;
    expect(wrongType).toMatchObject({ pointer: '/name', actual: ['Fern'] });
    expect(wrongType.message).toContain('/name: must be string; got ["Fern"]');
  });
});
