// The Plant Store suite's printed report: the figures as tables, the ratios, and the bar.
import type { BenchReport } from './results.ts';
import type { Scenario } from '../lib/scenarios.ts';
import { SERVERS } from './servers.ts';
import { oddAnswers } from '../lib/load.ts';
import { int, SATURATED_PERCENT, table, times } from '../lib/table.ts';

const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(2));
const mb = (bytes: number | undefined) =>
  bytes === undefined || Number.isNaN(bytes) ? '-' : (bytes / 1024 / 1024).toFixed(0);

/** The paired loads' table and its notes, then a blank line; nothing when none were measured. */
function formatPaired(report: BenchReport, scenarios: readonly Scenario[]): string[] {
  const rows: string[][] = [];
  let saturated = false;
  for (const scenario of scenarios) {
    const paired = report.ratios[scenario.name]?.paired;
    if (!paired) continue;
    const bound = paired.generatorCpuPercent >= SATURATED_PERCENT;
    saturated ||= bound;
    rows.push([
      scenario.title,
      int(paired.plantstore),
      int(paired.baseline),
      `${Number.isNaN(paired.ratio) ? '-' : times(paired.ratio)}${bound ? '*' : ' '}`,
      paired.odd ? int(paired.odd) : '',
    ]);
  }
  if (rows.length === 0) return [];
  const notes = [
    `  paired: after the loads above, ${report.settings.pairedSeconds} s of the mock and the baseline under load at the same time on the same core (half the connections each): the machine's drift moves both alike, so the ratio is their cost ratio; each req/s is about half its rate alone, the core being shared.`,
  ];
  if (saturated)
    notes.push(
      `  *: the two load generators together used >= ${SATURATED_PERCENT}% of their shared core: they may have set the pace, pulling the ratio toward 1.`,
    );
  return [
    table(['paired (same core, same time)', 'mock req/s', 'baseline req/s', 'mock ÷ baseline', 'odd'], rows, 1),
    ...notes,
    '',
  ];
}

export function formatServers(report: BenchReport, scenarios: readonly Scenario[]): string {
  const rows: string[][] = [];
  let saturated = false;
  for (const scenario of scenarios) {
    for (const server of SERVERS) {
      const result = report.servers[server.name]?.scenarios[scenario.name];
      if (!result) continue;
      const odd = oddAnswers(result);
      const bound = result.generatorCpuPercent >= SATURATED_PERCENT;
      saturated ||= bound;
      const ratio = server.name === 'plantstore' ? report.ratios[scenario.name] : undefined;
      rows.push([
        scenario.title,
        server.title,
        `${int(result.requestsPerSecond)}${bound ? '*' : ' '}`,
        ms(result.p50Ms),
        ms(result.p99Ms),
        result.serverCpuMicrosPerRequest === undefined ? '-' : result.serverCpuMicrosPerRequest.toFixed(1),
        mb(result.rssBytes),
        server.stateful ? int(result.storedAfter) : '-',
        ratio ? times(ratio.vsPrism) : '',
        ratio ? times(ratio.vsBaseline) : '',
        odd ? `${int(odd)} ${Object.keys(result.statuses).join('/')}` : '',
      ]);
    }
  }
  const startup = SERVERS.filter((s) => report.servers[s.name]).map((s) => {
    const figures = report.servers[s.name]?.startupMs;
    return [s.title, int(figures?.median), (figures?.samples ?? []).map((x) => int(x)).join(', ')];
  });
  const notes = [
    "  cpu us/req: the server's CPU time (all threads, /proc/PID/stat) per answer while measured: its cost per request, whatever the pace.",
    '  RSS: VmRSS of the server process after that load; stored: about the plants it held then (one process per server takes every scenario).',
    '  x Prism, x baseline: plantstore req/s over theirs. odd: answers with another status than expected (statuses seen), errors, timeouts.',
  ];
  if ((report.servers.prism?.scenarios['valid-int64']?.statuses['400'] ?? 0) > 0) {
    notes.push(
      '  Prism 5.16 refuses ids past 2^53 with 400 (its int64 check stops at 9007199254740991): its int64 row measures refusals.',
    );
  }
  if (saturated)
    notes.push(
      `  *: the load generator used >= ${SATURATED_PERCENT}% of its core; that server may be faster than measured.`,
    );
  return [
    table(
      [
        'scenario',
        'server',
        'req/s',
        'p50 ms',
        'p99 ms',
        'cpu us/req',
        'RSS MB',
        'stored',
        'x Prism',
        'x baseline',
        'odd',
      ],
      rows,
    ),
    ...notes,
    '',
    ...formatPaired(report, scenarios),
    table(['start-up (spawn to first create answered)', 'median ms', 'samples ms'], startup, 1),
  ].join('\n');
}

export function formatExtras(report: BenchReport): string {
  const lines: string[] = [];
  const ex = report.examples;
  if (ex) {
    lines.push(`example generator, NewPlant x ${int(ex.count)}, ndjson:`);
    lines.push(`  json-schema-faker alone (in-process):  ${int(ex.jsonSchemaFakerPerSecond)}/s`);
    lines.push(
      `  plantstore generator (in-process):     ${int(ex.inProcessPerSecond)}/s${ex.inProcessPerSecond && ex.jsonSchemaFakerPerSecond ? `  (${times(ex.inProcessPerSecond / ex.jsonSchemaFakerPerSecond)} json-schema-faker)` : ''}`,
    );
    lines.push(
      ex.cliPerSecond === undefined
        ? '  plantstore example CLI (wall time):     skipped'
        : `  plantstore example CLI (wall time):     ${int(ex.cliPerSecond)}/s  (${int(ex.cliWallMs)} ms for the whole command)${ex.jsonSchemaFakerPerSecond ? `  (${times(ex.cliPerSecond / ex.jsonSchemaFakerPerSecond)} json-schema-faker)` : ''}`,
    );
    for (const why of ex.skipped) lines.push(`  note: ${why}`);
  }
  const v = report.verify;
  if (v) {
    lines.push('conformance runner (plantstore verify) against the mock:');
    if (v.skipped) lines.push(`  ${v.skipped}`);
    else {
      lines.push(
        `  --generate ${v.generate}: ${int(v.cases)} cases, outcome ${v.outcome}; ${int(v.casesPerSecond)} cases/s in the runner (${int(v.runnerMs)} ms), ${int(v.wallCasesPerSecond)}/s with CLI start-up (${int(v.wallMs)} ms)`,
      );
      lines.push(
        `  raw valid creates on the mock (${report.settings.generator} load generator): ${int(v.rawRequestsPerSecond)} req/s; runner at ${v.ratioToRaw === undefined ? '-' : `${(v.ratioToRaw * 100).toFixed(1)}%`} of it`,
      );
    }
  }
  return lines.join('\n');
}

export function formatBar(report: BenchReport): string {
  const rows = report.bar.map((line) => [line.criterion, line.measured, line.verdict]);
  return `${table(['the bar (issues 5 and 20), informative only', 'measured', ''], rows, 2)}`;
}
