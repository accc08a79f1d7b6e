// One self-contained HTML page (--html FILE) for a person to open: a summary, the operations no
// case reached, and the cases grouped by operation; a failure shows its request, the answer, the
// diff and the curl command (the same lines the console prints, from case-details.ts). The page
// loads nothing: inline CSS, no script, and a Content-Security-Policy that forbids any fetch.
// Everything in it comes from the redacted report and is escaped.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { CaseResult, PlainRequest, PlainResponse, StepResult, VerifyReport } from '../report.ts';
import { caseDetails, requestLine } from './case-details.ts';
import type { PlannedOperation, Reporter, ReporterContext } from './reporter.ts';

/** A body longer than this is cut in the page (the JSON report keeps it whole). */
const BODY_LIMIT = 16_384;

export function createHtmlReporter(context: ReporterContext): Reporter {
  let operations: PlannedOperation[] | undefined;
  return {
    start(plan) {
      operations = plan.operations;
    },
    end(report) {
      context.write(renderHtml(report, operations));
    },
  };
}

interface Group {
  title: string;
  operation?: PlannedOperation;
  cases: Array<{ result: CaseResult; index: number }>;
}

/** The report as one HTML page; `operations`: the document's, to list those no case reached. */
export function renderHtml(report: VerifyReport, operations: PlannedOperation[] = []): string {
  const { summary } = report;
  const groups = groupByOperation(report.cases, operations);
  const reached = new Set(report.cases.flatMap((c) => c.steps.map((s) => s.operationId)));
  const reasons = new Map(report.uncovered.map((u) => [u.operationId, u.reason]));
  // Without the document's list (a library caller's reporter), the generator's own list is all there is.
  const unreached = operations.length > 0 ? operations.filter((op) => !reached.has(op.operationId)) : report.uncovered;
  const verdict = report.outcome === 'passed' ? 'PASSED' : 'FAILED';
  const failed = report.cases
    .map((result, index) => ({ result, index }))
    .filter(({ result }) => result.status === 'failed');
  const count = (label: string, value: number | string, kind: string) =>
    `<div class="count ${kind}"><dt>${esc(label)}</dt><dd>${esc(String(value))}</dd></div>`;
  const out: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(`plantstore verify: ${verdict}, ${summary.failed} failed of ${summary.total} (${report.target})`)}` +
      `</title>`,
    `<style>${CSS}</style></head><body>`,
    `<header><h1>plantstore verify <span class="verdict ${report.outcome}">${verdict}</span></h1>`,
    `<p class="meta">target <code>${esc(report.target)}</code> · document <code>${esc(report.spec)}</code> · ` +
      `started ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s · seed ${report.seed} · ` +
      `${report.strict ? 'strict' : 'not strict'}</p></header>`,
    '<section id="summary" aria-labelledby="summary-title"><h2 id="summary-title">Summary</h2><dl class="counts">',
    count('cases', summary.total, 'total'),
    count('passed', summary.passed, 'passed'),
    count('failed', summary.failed, 'failed'),
    count('with warnings', summary.warned, 'warned'),
    count('skipped', summary.skipped, 'skipped'),
    ...(operations.length > 0
      ? [count('operations covered', `${operations.length - unreached.length} of ${operations.length}`, 'covered')]
      : []),
    '</dl>',
  ];
  if (failed.length > 0) {
    out.push('<h3>Failed cases</h3><ol class="failed-list">');
    for (const { result, index } of failed) out.push(`<li><a href="#case-${index}">${esc(result.name)}</a></li>`);
    out.push('</ol>');
  }
  if (summary.warned > 0 && !report.strict)
    out.push(
      '<p class="note">Warnings are documented off-contract statuses (401, 404, 405, 415) and undeclared 4xx ' +
        'answers to invalid requests; --strict makes them failures.</p>',
    );
  out.push('</section>');

  out.push(
    `<section id="uncovered" aria-labelledby="uncovered-title"><h2 id="uncovered-title">Operations no case covered ` +
      `(${unreached.length})</h2>`,
  );
  if (unreached.length === 0) out.push('<p>Every operation of the document got at least one request.</p>');
  else {
    out.push('<table><thead><tr><th>Method</th><th>Path</th><th>Operation</th><th>Why</th></tr></thead><tbody>');
    for (const op of unreached) {
      const why = reasons.get(op.operationId) ?? 'no case sent a request to it (add a fixture, or --generate N)';
      out.push(
        `<tr><td class="method">${esc(op.method)}</td><td><code>${esc(op.path)}</code></td>` +
          `<td>${esc(op.operationId)}</td><td>${esc(why)}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  out.push('</section>');

  out.push(...renderFaults(report), ...renderCoverage(report));
  out.push('<section id="cases" aria-labelledby="cases-title"><h2 id="cases-title">Cases by operation</h2>');
  for (const group of groups) out.push(renderGroup(group));
  out.push('</section></body></html>', '');
  return out.join('\n');
}

/** The distinct faults, one row each: where, which check, its signature, how many cases, the smallest request. */
function renderFaults(report: VerifyReport): string[] {
  const faults = report.faults ?? [];
  if (faults.length === 0) return [];
  const out = [
    `<section id="faults" aria-labelledby="faults-title"><h2 id="faults-title">Distinct faults ` +
      `(${faults.filter((f) => f.severity === 'failure').length})</h2>`,
    '<table><thead><tr><th></th><th>Operation</th><th>Check</th><th>Signature</th><th>Cases</th><th>Smallest ' +
      'request</th></tr></thead><tbody>',
  ];
  for (const fault of faults) {
    const curl = fault.shrunk?.curl ?? fault.example.curl ?? '';
    const where = fault.operationId === '*' ? `${fault.operations.length} operations` : fault.operationId;
    out.push(
      `<tr class="${fault.severity}"><td>${fault.severity === 'failure' ? 'FAIL' : 'WARN'}</td><td>${esc(where)}</td>` +
        `<td><code>${esc(fault.check)}</code></td><td>${esc(fault.signature)}</td><td>${fault.count}</td>` +
        `<td><pre>${esc(curl)}</pre></td></tr>`,
    );
  }
  out.push('</tbody></table></section>');
  return out;
}

/**
 * Operations by their declared statuses, each cell reached, failed or not reached; statuses answered but not declared
 * after them.
 */
function renderCoverage(report: VerifyReport): string[] {
  const table = report.coverage ?? [];
  if (table.length === 0) return [];
  const statuses = [...new Set(table.flatMap((row) => Object.keys(row.statuses)))].sort();
  const out = [
    `<section id="coverage" aria-labelledby="coverage-title"><h2 id="coverage-title">Coverage: operations by ` +
      `declared status</h2>`,
    '<p class="note"><span class="cell reached">reached</span> an answer with that status passed its checks; <span ' +
      'class="cell failed">failed</span> one failed; <span class="cell not-reached">not reached</span> no answer ' +
      'had it; blank: not declared.</p>',
    `<table class="grid"><thead><tr><th>Operation</th>` +
      `${statuses.map((status) => `<th>${esc(status)}</th>`).join('')}<th>Undeclared answers</th></tr></thead><tbody>`,
  ];
  for (const row of table) {
    const cells = statuses.map((status) => {
      const state = row.statuses[status];
      return state === undefined
        ? '<td></td>'
        : `<td class="cell ${state}" ` +
            `title="${esc(`${row.operationId} ${status}: ${state}`)}">${state.replace('-', ' ')}</td>`;
    });
    out.push(
      `<tr><td><span class="method">${esc(row.method)}</span> <code>${esc(row.path)}</code> <span ` +
        `class="operation-id">${esc(row.operationId)}</span></td>${cells.join('')}` +
        `<td>${esc(row.undeclared.join(', '))}</td></tr>`,
    );
  }
  out.push('</tbody></table></section>');
  return out;
}

/** Cases under the one operation all their steps reach; cases across several, or none, in groups of their own. */
function groupByOperation(cases: CaseResult[], operations: PlannedOperation[]): Group[] {
  const byId = new Map<string, Group>(
    operations.map((op) => [op.operationId, { title: `${op.method} ${op.path}`, operation: op, cases: [] }]),
  );
  const several: Group = { title: 'Sequences across operations', cases: [] };
  const none: Group = { title: 'Requests no operation of the document answers', cases: [] };
  const notRun: Group = { title: 'Cases not run', cases: [] };
  cases.forEach((result, index) => {
    const ids = [...new Set(result.steps.map((s) => s.operationId).filter((id): id is string => id !== undefined))];
    let group =
      result.steps.length === 0 ? notRun : ids.length > 1 ? several : ids.length === 0 ? none : byId.get(ids[0]);
    if (!group) {
      group = { title: ids[0], cases: [] };
      byId.set(ids[0], group);
    }
    group.cases.push({ result, index });
  });
  return [...byId.values(), several, none, notRun].filter((g) => g.cases.length > 0);
}

function renderGroup(group: Group): string {
  const tally = (['failed', 'passed', 'skipped'] as const)
    .map((status) => [status, group.cases.filter(({ result }) => result.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `<span class="${status}">${n} ${status}</span>`)
    .join(' · ');
  const name = group.operation ? ` <span class="operation-id">${esc(group.operation.operationId)}</span>` : '';
  const out = [`<section class="operation"><h3>${esc(group.title)}${name} <span class="tally">${tally}</span></h3>`];
  for (const { result, index } of group.cases) out.push(renderCase(result, index));
  out.push('</section>');
  return out.join('\n');
}

function renderCase(result: CaseResult, index: number): string {
  const label =
    result.status === 'failed' ? 'FAIL' : result.status === 'skipped' ? 'SKIP' : result.warnings > 0 ? 'WARN' : 'PASS';
  const about = [
    result.source === 'generated' ? result.id : result.source,
    result.status === 'skipped' ? (result.skipReason ?? 'not run') : `${result.durationMs} ms`,
  ];
  // Failures are open: they are what a reader came for.
  const out = [
    `<details class="case ${label.toLowerCase()}" ` +
      `id="case-${index}"${result.status === 'failed' ? ' open' : ''}><summary><span class="badge">${label}</span> ` +
      `${esc(result.name)} <small>${esc(about.join(' · '))}</small></summary>`,
  ];
  const explained = result.status === 'failed' || result.warnings > 0;
  for (const step of result.steps)
    out.push(
      explained && step.findings.length > 0
        ? renderStep(result, step)
        : `<p class="step-line">${result.steps.length > 1 ? `step ${esc(step.name)}: ` : ''}` +
            `${esc(requestLine(step))}</p>`,
    );
  out.push('</details>');
  return out.join('\n');
}

/** A step with findings: the console's lines for it (findings, diff, curl), then what was sent and answered. */
function renderStep(result: CaseResult, step: StepResult): string {
  const lines = caseDetails({ ...result, steps: [step] });
  const of = (...kinds: string[]) => lines.filter((line) => kinds.includes(line.kind));
  const out = [
    `<div class="step"><h4>${result.steps.length > 1 ? `step ${esc(step.name)}: ` : ''}${esc(requestLine(step))}</h4>`,
    '<ul class="findings">',
  ];
  for (const line of of('failure', 'warning')) out.push(`<li class="${line.kind}">${esc(line.text)}</li>`);
  out.push('</ul>');
  const diff = of('expected', 'actual');
  if (diff.length > 0)
    out.push(
      `<pre class="diff">${diff.map((line) => `<span class="${line.kind}">${esc(line.text)}</span>`).join('\n')}</pre>`,
    );
  out.push('<div class="exchange">');
  out.push(`<div><h5>Request</h5><pre class="request">${esc(requestText(step.request))}</pre></div>`);
  out.push(`<div><h5>Answer</h5><pre class="response">${esc(responseText(step.response))}</pre></div>`);
  out.push('</div>');
  for (const line of of('curl')) out.push(`<h5>Reproduce</h5><pre class="curl">${esc(line.text)}</pre>`);
  out.push('</div>');
  return out.join('\n');
}

function requestText(request: PlainRequest | undefined): string {
  if (!request) return '(not sent: the request could not be built)';
  return [
    `${request.method} ${request.path}${request.query ? `?${request.query}` : ''}`,
    ...headerLines(request.headers),
    ...bodyLines(request.body),
  ].join('\n');
}

function responseText(response: PlainResponse | undefined): string {
  if (!response) return '(no answer)';
  return [`${response.status}`, ...headerLines(response.headers), ...bodyLines(response.body)].join('\n');
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers).map(([name, value]) => `${name}: ${value}`);

function bodyLines(body: JsonValue | undefined): string[] {
  if (body === undefined) return [];
  const text = typeof body === 'string' ? body : stringifyJson(body, 2);
  return [
    '',
    text.length > BODY_LIMIT
      ? `${text.slice(0, BODY_LIMIT)}\n… (${text.length - BODY_LIMIT} more characters; the JSON report has them all)`
      : text,
  ];
}

// Control characters other than tab and line ends have no place in HTML text; they are shown as U+FFFD.
const NOT_HTML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Text safe inside an element or a quoted attribute. */
function esc(text: string): string {
  return text
    .replace(NOT_HTML, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem \
1.5rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;border-bottom:1px solid \
#d0d7de;padding-bottom:.2rem;margin-top:2rem}
h3{font-size:1rem;margin:1.2rem 0 .4rem}h4{font:600 13px ui-monospace,monospace;margin:.6rem 0 \
.3rem}h5{margin:.5rem 0 .2rem;font-size:.8rem;text-transform:uppercase;color:#57606a}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:.5rem \
.7rem;overflow:auto;max-height:28rem;white-space:pre-wrap;word-break:break-word;margin:0}
.meta{color:#57606a;margin:.2rem 0}.note{color:#57606a}
.verdict{font-size:1rem;padding:.1rem .5rem;border-radius:4px;color:#fff;vertical-align:middle}
.verdict.passed{background:#1a7f37}.verdict.failed{background:#cf222e}
.counts{display:flex;flex-wrap:wrap;gap:.7rem;margin:.5rem 0}
.count{border:1px solid #d0d7de;border-radius:6px;padding:.4rem .9rem;min-width:6rem}
.count dt{font-size:.8rem;color:#57606a}.count dd{margin:0;font-size:1.5rem;font-weight:600}
.count.passed dd,.tally .passed{color:#1a7f37}.count.failed dd,.tally .failed{color:#cf222e}.count.warned \
dd{color:#9a6700}.count.skipped dd,.tally .skipped{color:#57606a}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem \
.5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
.method{font:600 12.5px ui-monospace,monospace}.operation-id{font-weight:400;color:#57606a}\
.tally{font-weight:400;font-size:.85rem;margin-left:.5rem}
.case{border:1px solid #d0d7de;border-left-width:4px;border-radius:4px;margin:.35rem 0;padding:.2rem .6rem}
.case>summary{cursor:pointer;padding:.2rem 0}.case small{color:#57606a;margin-left:.4rem}
.case.pass{border-left-color:#1a7f37}.case.fail{border-left-color:#cf222e}\
.case.warn{border-left-color:#bf8700}.case.skip{border-left-color:#8c959f}
.badge{display:inline-block;font:600 11px ui-monospace,monospace;padding:.05rem \
.35rem;border-radius:3px;color:#fff;background:#1a7f37}
.fail .badge{background:#cf222e}.warn .badge{background:#bf8700}.skip .badge{background:#8c959f}
.step{margin:.4rem 0 .8rem}.step-line{font:12.5px ui-monospace,monospace;color:#57606a;margin:.2rem 0}
.findings{margin:.2rem 0;padding-left:1.2rem}.findings .failure{color:#cf222e}.findings .warning{color:#9a6700}
.diff .expected{color:#1a7f37}.diff .actual{color:#cf222e}
.cell.reached{background:#dafbe1}.cell.failed{background:#ffebe9;color:#cf222e}\
.cell.not-reached{background:#f6f8fa;color:#57606a}
.grid td.cell{text-align:center;font-size:.8rem;white-space:nowrap}tr.failure \
td:first-child{color:#cf222e;font-weight:600}tr.warning td:first-child{color:#9a6700}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:.7rem}@media \
(max-width:800px){.exchange{grid-template-columns:1fr}}
`;
