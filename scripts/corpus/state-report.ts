// The state stage's figures: per document a `kept/measured` cell, in total how many collections
// keep what was created, each step's count, the same count by what the document says about the
// collection (nested, form bodies, wrapped lists), and the commonest reasons for misses.
import type { CollectionResult, StateResult } from './state-stage.ts';
import { STEPS, type StepName } from './state-stage.ts';

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

export interface StateTotals {
  documents: number;
  collections: number;
  measured: number;
  kept: number;
  steps: Record<StepName, { ok: number; measured: number }>;
  /** Kept of measured, by what the document says about the collection. */
  byKind: Record<string, { kept: number; measured: number }>;
}

const measuredOf = (state: StateResult) => state.collections.filter((c) => c.unmeasured === undefined);

/** `12/15` (kept of measured), with the unmeasured ones after a `+`. */
export function stateCell(state: StateResult | undefined): string {
  if (state === undefined) return '-';
  const measured = measuredOf(state);
  const out = state.collections.length - measured.length;
  return `${measured.filter((c) => c.kept).length}/${measured.length}${out > 0 ? ` +${out}` : ''}`;
}

/** The groups a collection belongs to, for the breakdown by cause. */
export function kindsOf(c: CollectionResult): string[] {
  return [
    c.kind.nested ? 'nested path' : 'top-level path',
    `${c.kind.body} body`,
    c.kind.list === 'bare'
      ? 'list: bare array'
      : c.kind.list === 'wrapped'
        ? 'list: wrapped'
        : c.kind.list === 'none'
          ? 'no list'
          : 'list: other',
    ...(c.kind.jsonSuffix ? ['item path ends in .json'] : []),
    c.evidence === 'id' ? 'held to the created id (no sent field shows)' : 'held to the marks sent',
  ];
}

export function stateTotalsOf(states: (StateResult | undefined)[]): StateTotals {
  const steps = Object.fromEntries(STEPS.map((s) => [s, { ok: 0, measured: 0 }])) as StateTotals['steps'];
  const t: StateTotals = { documents: 0, collections: 0, measured: 0, kept: 0, steps, byKind: {} };
  for (const state of states) {
    if (state === undefined) continue;
    t.documents++;
    t.collections += state.collections.length;
    for (const c of measuredOf(state)) {
      t.measured++;
      if (c.kept) t.kept++;
      for (const name of STEPS) {
        const step = c.steps[name];
        if (step === undefined || step.unmeasured) continue;
        t.steps[name].measured++;
        if (step.ok) t.steps[name].ok++;
      }
      for (const kind of kindsOf(c)) {
        const k = (t.byKind[kind] ??= { kept: 0, measured: 0 });
        k.measured++;
        if (c.kept) k.kept++;
      }
    }
  }
  return t;
}

export function formatStateTotals(t: StateTotals, who: string): string[] {
  if (t.documents === 0) return [];
  return [
    `${who} keeps what was created (create, then the read or the list shows a mark sent, or the id where no sent field can show): ${t.kept}/${t.measured} collections = ${pct(t.kept, t.measured)} on ${t.documents} documents (${t.collections - t.measured} more not measured)`,
    `    steps that held: ${STEPS.map((s) => `${s} ${t.steps[s].ok}/${t.steps[s].measured}`).join(', ')}`,
    `    kept by kind: ${Object.entries(t.byKind)
      .sort((a, b) => b[1].measured - a[1].measured)
      .map(([kind, k]) => `${kind} ${k.kept}/${k.measured}`)
      .join(', ')}`,
  ];
}

export interface StateMiss {
  document: string;
  collection: string;
  reason: string;
  detail?: string;
}

/**
 * Every step that did not hold, as reasons to group (a step not reached because an earlier one
 * failed is left out: it is a consequence, not a cause), and every collection not measured.
 */
export function stateMisses(results: { name: string; state?: StateResult }[]): {
  misses: StateMiss[];
  unmeasured: StateMiss[];
} {
  const misses: StateMiss[] = [];
  const unmeasured: StateMiss[] = [];
  for (const r of results) {
    for (const c of r.state?.collections ?? []) {
      if (c.unmeasured !== undefined) {
        unmeasured.push({ document: r.name, collection: c.path, reason: c.unmeasured });
        continue;
      }
      for (const name of STEPS) {
        const step = c.steps[name];
        if (step && !step.ok && !step.reason?.includes('not reached'))
          (step.unmeasured ? unmeasured : misses).push({
            document: r.name,
            collection: c.path,
            reason: step.reason ?? name,
            detail: step.detail,
          });
      }
    }
  }
  return { misses, unmeasured };
}

/** The most frequent reasons, each with how many documents and one example. */
export function topStateReasons(misses: StateMiss[], count: number): string[] {
  const by = new Map<string, StateMiss[]>();
  for (const miss of misses) by.set(miss.reason, [...(by.get(miss.reason) ?? []), miss]);
  return [...by.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, count)
    .map(([reason, list]) => {
      const example = list[0];
      const documents = new Set(list.map((m) => m.document)).size;
      return `    ${list.length} × ${reason} (${documents} documents), e.g. ${example.document} ${example.collection}${example.detail ? `: ${example.detail}` : ''}`.slice(
        0,
        280,
      );
    });
}
