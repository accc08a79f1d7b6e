// What every suite's printed report is made of: figures written alike, aligned tables, and the
// results file each suite writes to bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAverage } from './processes.ts';
import { RESULTS } from './server.ts';

/** Whole numbers with thousands separators; '-' for a figure not measured. */
export const int = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? '-' : Math.round(n).toLocaleString('en-US');
/** A ratio: 2 decimals under 10, none above; '-' when either side is missing. */
export const times = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? '-' : `${n >= 10 ? n.toFixed(0) : n.toFixed(2)}x`;
/** a ÷ b, or undefined when either is unknown or b is zero. */
export const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? undefined : a / b;
/** Milliseconds with `digits` decimals; '-' when not measured. */
export const ms = (n: number | undefined, digits = 0) =>
  n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits);

/** The median of the figures that were measured; undefined when none was. */
export function median(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined && !Number.isNaN(v)).sort((a, b) => a - b);
  const mid = Math.floor(known.length / 2);
  return known.length === 0 ? undefined : known.length % 2 ? known[mid] : (known[mid - 1] + known[mid]) / 2;
}

// Past this share of its core the load generator, not the server, may set the pace.
export const SATURATED_PERCENT = 85;

/** A table: the header ('|' between its columns), a rule, the rows; the first `leftColumns` columns left-aligned. */
export function table(titles: string, rows: string[][], leftColumns = 1): string {
  const header = titles.split('|');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Writes a suite's figures to bench/results/NAME.json; the line that ends its report (the load now, and where). */
export function writeResults(name: string, figures: object): string {
  mkdirSync(RESULTS, { recursive: true });
  const text = JSON.stringify({ at: new Date().toISOString(), ...figures }, null, 2);
  writeFileSync(join(RESULTS, `${name}.json`), `${text}\n`);
  return `load average after: ${loadAverage()}; figures: bench/results/${name}.json`;
}
