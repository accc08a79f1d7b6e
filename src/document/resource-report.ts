// The resource map in words: one line per collection for the mock's start-up, /__mock/health and
// `spec --check`, and the whole map for `spec --resources`. Same words everywhere, from the same data.
import type { Resource } from './resources.ts';

/** One line per collection: kept (and how), or answered from the document and why. */
export function collectionLine(resource: Resource): string {
  if (!resource.kept) return `${resource.collection}: ${resource.why}`;
  const parts = [
    `kept${resource.parents.length > 0 ? ` per ${resource.parents.map((p) => `{${p}}`).join('/')}` : ''}`,
    `key ${keyWords(resource)}`,
  ];
  if (resource.listEnvelope) parts.push(`list wrapped in "${resource.listEnvelope.items}"`);
  if (resource.paging) parts.push(`paged by ${pagingWords(resource)}`);
  return `${resource.collection}: ${parts.join(', ')}`;
}

/** Every collection's line, kept ones first. */
export function collectionLines(resources: Resource[]): string[] {
  return [...resources.filter((r) => r.kept), ...resources.filter((r) => !r.kept)].map(collectionLine);
}

/** The whole map, as `plantstore spec --resources` prints it. */
export function formatResourceMap(resources: Resource[]): string {
  const kept = resources.filter((r) => r.kept).length;
  const lines = [`collections (${resources.length}, ${kept} kept):`];
  for (const r of resources) {
    lines.push('', `${r.collection}  ${r.kept ? 'kept' : 'answered from the document'}`);
    if (!r.kept) lines.push(`  why:         ${r.why.replace(/^answered from the document: /, '')}`);
    if (r.parents.length > 0)
      lines.push(`  parents:     ${r.parents.map((p) => `{${p}}`).join(', ')} (items are kept per parent)`);
    if (r.itemPath) lines.push(`  item path:   ${r.itemPath}`);
    lines.push(`  key:         ${keyWords(r)}, ${r.keyType === 'integer' ? 'an integer' : 'a string'}`);
    lines.push(
      `  operations:  ${Object.entries(r.operations)
        .map(([role, ids]) => `${role} ${ids.join(', ')}`)
        .join('; ')}`,
    );
    if (r.listEnvelope) {
      const { items, nextKind, selfKind, ...fields } = r.listEnvelope;
      const named = Object.entries(fields).map(([what, field]) => `${what} ${field}`);
      lines.push(
        `  list:        wrapped, items in ` +
          `"${items}"${named.length > 0 ? `; ${named.join(', ')}` : ''}${nextKind ? ` (next is a ${nextKind})` : ''}`,
      );
    } else if (r.operations.list) lines.push('  list:        a bare array');
    if (r.paging)
      lines.push(
        `  paging:      ` +
          `${pagingWords(r)}` +
          `${r.paging.defaultLimit !== undefined ? `, ${r.paging.defaultLimit} a page by default` : ''}`,
      );
    if (r.encodings.length > 0) lines.push(`  encodings:   ${r.encodings.join(', ')}`);
    const mapped = Object.entries(r.fieldMap);
    if (mapped.length > 0) lines.push(`  fields:      ${mapped.map(([from, to]) => `${from} -> ${to}`).join(', ')}`);
    if (r.location) lines.push('  location:    the create answers a Location header with the item path');
  }
  return `${lines.join('\n')}\n`;
}

function keyWords(resource: Resource): string {
  return resource.keyField === undefined ? resource.keySource : `${resource.keyField} (${resource.keySource})`;
}

function pagingWords(resource: Resource): string {
  const p = resource.paging!;
  const ways: string[] = [];
  if (p.limit && p.offset) ways.push(`${p.limit}/${p.offset}`);
  if (p.page) ways.push(`${p.page}${p.limit ? `/${p.limit}` : ''}`);
  if (p.after || p.before) ways.push(`cursor ${[p.after, p.before].filter(Boolean).join('/')}`);
  if (ways.length === 0 && p.limit) ways.push(p.limit);
  return ways.join(', ');
}
