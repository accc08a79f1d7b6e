// What every suite's printed report is made of: aligned tables and figures written alike.

/** Whole numbers with thousands separators; '-' for a figure not measured. */
export const int = (n: number | undefined) =>
  n === undefined || Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en-US');
/** A ratio: 2 decimals under 10, none above. */
export const times = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? '-' : `${n >= 10 ? n.toFixed(0) : n.toFixed(2)}x`;

/** The median of the figures that were measured; undefined when none was. */
export function median(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (known.length === 0) return undefined;
  const mid = Math.floor(known.length / 2);
  return known.length % 2 ? known[mid] : (known[mid - 1] + known[mid]) / 2;
}

// Past this share of its core the load generator, not the server, may set the pace.
export const SATURATED_PERCENT = 85;

/** A table: header, a rule, the rows; the first `leftColumns` columns left-aligned, the others right. */
export function table(header: string[], rows: string[][], leftColumns = 2): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
