// Judges an answer against what its fixture expects: a status (or class), a body (subset or
// exact), headers, and (generated sequences) an item the list must hold. Each unmet expectation
// is a finding with expected and actual values, so a reporter can print a diff.
import type { JsonValue } from '../../json/exact-json.ts';
import { compareJson } from './compare-json.ts';
import type { HttpAnswer } from '../../http/types.ts';
import { responseText } from './contract-checks.ts';
import type { FixtureExpectation, StatusExpectation } from '../fixture.ts';
import type { Finding } from '../report.ts';

/**
 * Checks one answer against a fixture's (already substituted) expectations; `pages` is how many pages of a list were
 * read to get it.
 */
export function checkExpectations(expect: FixtureExpectation, response: HttpAnswer, pages = 1): Finding[] {
  const findings: Finding[] = [];
  if (expect.status !== undefined) {
    const wanted = [expect.status].flat();
    if (!wanted.some((status) => statusMatches(status, response.status))) {
      const text = wanted.map(String).join(' or ');
      findings.push({
        code: 'unexpected-status',
        severity: 'failure',
        message: `expected status ${text}, got ${response.status}`,
        expected: text,
        actual: response.status,
      });
    }
  }
  if (expect.body !== undefined) findings.push(...checkBody(expect.body, expect.bodyMatch ?? 'subset', response));
  for (const [name, wanted] of Object.entries(expect.headers ?? {})) {
    const actual = response.headers[name.toLowerCase()];
    const finding = checkHeader(name, typeof wanted === 'boolean' ? wanted : String(wanted), actual);
    if (finding) findings.push(finding);
  }
  if (expect.listContains !== undefined) findings.push(...checkListContains(expect.listContains, response, pages));
  if (expect.listAtMost !== undefined) findings.push(...checkListAtMost(expect.listAtMost, response));
  return findings;
}

function checkListAtMost(limit: number, response: HttpAnswer): Finding[] {
  // An envelope ({ items: [...] }) is not read: only a plain array is counted.
  if (response.json === undefined || !response.json.ok || !Array.isArray(response.json.value)) return [];
  const count = response.json.value.length;
  if (count <= limit) return [];
  return [
    {
      code: 'limit-ignored',
      severity: 'failure',
      message: `the list holds ${count} items, more than the limit ${limit} it was asked for`,
      expected: `at most ${limit} items`,
      actual: `${count} items`,
    },
  ];
}

/** True when a status meets a status expectation (400, or a class such as '4xx'). */
export function statusMatches(expected: StatusExpectation, status: number): boolean {
  if (typeof expected === 'number') return expected === status;
  return Math.floor(status / 100) === Number(expected[0]);
}

function checkBody(expected: JsonValue, mode: 'subset' | 'exact', response: HttpAnswer): Finding[] {
  if (response.json === undefined || !response.json.ok) {
    const why = response.json === undefined ? 'the body is empty' : `the body is not JSON (${response.json.message})`;
    const text = responseText(response);
    // No pointer: the whole body is at issue. An empty body has no actual value to show.
    return [
      {
        code: 'unexpected-body',
        severity: 'failure',
        message: `expected a JSON body${mode === 'subset' ? ' containing' : ''} ${describeValue(expected)}, but ${why}`,
        expected,
        ...(text !== '' && { actual: text.slice(0, 200) }),
      },
    ];
  }
  return compareJson(expected, response.json.value, mode).map((mismatch) => {
    const where = `body ${mismatch.pointer || '(root)'}`;
    const message =
      mismatch.actual === undefined
        ? `${where}: expected ${describeValue(mismatch.expected!)}, but it is missing`
        : mismatch.expected === undefined
          ? `${where}: not expected (bodyMatch: exact), got ${describeValue(mismatch.actual)}`
          : `${where}: expected ${describeValue(mismatch.expected)}, got ${describeValue(mismatch.actual)}`;
    return {
      code: 'unexpected-body',
      severity: 'failure',
      message,
      pointer: mismatch.pointer,
      expected: mismatch.expected,
      actual: mismatch.actual,
    };
  });
}

function checkListContains(
  { item, limit }: { item: JsonValue; limit?: number },
  response: HttpAnswer,
  pages = 1,
): Finding[] {
  // Only an array can be searched; any other body already fails the status or the contract checks.
  if (response.json === undefined || !response.json.ok || !Array.isArray(response.json.value)) return [];
  const list = response.json.value;
  if (list.some((element) => compareJson(item, element, 'subset').length === 0)) return [];
  // A full page may be the first of several: the item can sit on a later one.
  if (limit !== undefined && list.length >= limit) return [];
  const short =
    limit === undefined
      ? ''
      : `, fewer than the limit ${limit}, so it is the ${pages > 1 ? 'last page' : 'whole list'}`;
  const size = `${pages > 1 ? `page ${pages}: ` : ''}${list.length} element${list.length === 1 ? '' : 's'}${short}`;
  return [
    {
      code: 'not-in-list',
      severity: 'failure',
      message: `the list (${size}) has no element containing ${describeValue(item)}`,
      expected: item,
    },
  ];
}

function checkHeader(name: string, wanted: string | boolean, actual: string | undefined): Finding | undefined {
  // A missing header has no actual value (the diff says "(none)"); `true` and `false` read as "present" and "absent".
  const expected = wanted === true ? '(present)' : wanted === false ? '(absent)' : wanted;
  const fail = (message: string): Finding => ({
    code: 'unexpected-header',
    severity: 'failure',
    message,
    header: name.toLowerCase(),
    expected,
    ...(actual !== undefined && { actual }),
  });
  if (wanted === true) return actual === undefined ? fail(`expected a ${name} header, there is none`) : undefined;
  if (wanted === false) return actual === undefined ? undefined : fail(`expected no ${name} header, got "${actual}"`);
  if (actual === undefined) return fail(`expected ${name}: ${wanted}, there is no ${name} header`);
  // "application/json" is met by "application/json; charset=utf-8": parameters count only when written.
  const compared = wanted.includes(';') ? actual.trim() : actual.split(';')[0].trim();
  return compared.toLowerCase() === wanted.trim().toLowerCase()
    ? undefined
    : fail(`expected ${name}: ${wanted}, got "${actual}"`);
}

function describeValue(value: JsonValue): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v));
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
