// The bar the mock is held to (10x Prism, 0.75x the bare baseline, p99, RSS, start-up), judged
// against this run's figures. Informative only: a MISS is a finding to read, never a failed exit (timings on a shared
// machine are not assertions).
import type { PairedResult } from './paired.ts';
import type { ScenarioResult, ServerResult } from './measure.ts';
import type { ScenarioName } from '../lib/scenarios.ts';
import type { ServerName } from './servers.ts';

export interface BarLine {
  criterion: string;
  measured: string;
  verdict: 'PASS' | 'MISS' | 'n/a';
}

type Results = Partial<Record<ServerName, ServerResult>>;

const rps = (results: Results, server: ServerName, scenario: ScenarioName) =>
  results[server]?.scenarios[scenario]?.requestsPerSecond;

function ratioLine(
  results: Results,
  scenario: ScenarioName,
  title: string,
  other: ServerName,
  atLeast: number,
): BarLine {
  const ours = rps(results, 'plantstore', scenario);
  const theirs = rps(results, other, scenario);
  const criterion = `${title} >= ${atLeast}x ${other === 'prism' ? 'Prism' : 'baseline'} req/s`;
  if (ours === undefined || theirs === undefined || theirs === 0)
    return { criterion, measured: 'not measured', verdict: 'n/a' };
  const ratio = ours / theirs;
  return { criterion, measured: `${ratio.toFixed(2)}x`, verdict: ratio >= atLeast ? 'PASS' : 'MISS' };
}

// The same 0.75 read from the paired loads: both servers shared the core at the same time, so the
// machine's drift moved both rates alike and their ratio is the cost ratio.
function pairedLine(paired: PairedResult | undefined): BarLine {
  const criterion = '  paired (same core, same time): valid creates >= 0.75x baseline';
  if (!paired || !Number.isFinite(paired.ratio)) return { criterion, measured: 'not measured', verdict: 'n/a' };
  const int = (n: number) => Math.round(n).toLocaleString('en-US');
  return {
    criterion,
    measured: `${paired.ratio.toFixed(2)}x (${int(paired.plantstore)} / ${int(paired.baseline)} req/s)`,
    verdict: paired.ratio >= 0.75 ? 'PASS' : 'MISS',
  };
}

/** The bar's lines; `paired` is the valid creates' paired loads, when measured. */
export function judgeBar(results: Results, paired?: PairedResult): BarLine[] {
  const ours = results.plantstore;
  const lines = [
    ratioLine(results, 'valid', 'valid creates', 'prism', 10),
    {
      ...ratioLine(results, 'valid', 'valid creates', 'prism', 5),
      criterion: '  issue 20: valid creates >= 5x Prism req/s',
    },
    ratioLine(results, 'valid', 'valid creates', 'baseline', 0.75),
    pairedLine(paired),
    ratioLine(results, 'invalid-body', 'invalid bodies', 'prism', 10),
    ratioLine(results, 'missing-token', 'missing tokens', 'prism', 10),
  ];
  // The bar sets p99 and RSS under "valid creates"; every scenario is judged too, as a stricter
  // reading (RSS there includes the plants of every earlier scenario: one process takes them all).
  const valid = ours?.scenarios.valid;
  // The baseline's own figure in the same run, beside ours: it tells a slow machine from a slow mock.
  const baseline = results.baseline?.scenarios.valid;
  const rssLine = (criterion: string, result: ScenarioResult | undefined, beside?: ScenarioResult): BarLine => {
    if (!result) return { criterion, measured: 'not measured', verdict: 'n/a' };
    const mb = (r: ScenarioResult) => r.rssBytes / 1024 / 1024;
    const rss = mb(result);
    return {
      criterion,
      measured: `${rss.toFixed(0)} MB (${result.storedAfter.toLocaleString('en-US')} plants stored${beside ? `; baseline ${mb(beside).toFixed(0)} MB` : ''})`,
      verdict: rss <= 150 ? 'PASS' : 'MISS',
    };
  };
  lines.push(
    valid
      ? {
          criterion: 'valid creates p99 <= 5 ms',
          measured: `${valid.p99Ms.toFixed(2)} ms${baseline ? ` (baseline ${baseline.p99Ms.toFixed(2)} ms)` : ''}`,
          verdict: valid.p99Ms <= 5 ? 'PASS' : 'MISS',
        }
      : { criterion: 'valid creates p99 <= 5 ms', measured: 'not measured', verdict: 'n/a' },
  );
  lines.push(rssLine('valid creates RSS after load <= 150 MB', valid, baseline));
  const measured = Object.entries(ours?.scenarios ?? {});
  if (measured.length > 1) {
    const [worstP99Name, worstP99] = measured.reduce((a, b) => (b[1].p99Ms > a[1].p99Ms ? b : a));
    lines.push({
      criterion: '  stricter: p99 <= 5 ms in every scenario',
      measured: `${worstP99.p99Ms.toFixed(2)} ms (worst: ${worstP99Name})`,
      verdict: worstP99.p99Ms <= 5 ? 'PASS' : 'MISS',
    });
    const [, largest] = measured.reduce((a, b) => (b[1].rssBytes > a[1].rssBytes ? b : a));
    lines.push(rssLine('  stricter: RSS <= 150 MB after every scenario', largest));
  }
  const startup = ours?.startupMs.median;
  lines.push(
    startup === undefined
      ? { criterion: 'start-up <= 350 ms', measured: 'not measured', verdict: 'n/a' }
      : {
          criterion: 'start-up <= 350 ms (spawn to first create answered)',
          measured: `${Math.round(startup)} ms`,
          verdict: startup <= 350 ? 'PASS' : 'MISS',
        },
  );
  return lines;
}
