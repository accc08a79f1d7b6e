// A module with a browser twin (x.browser.ts, which bundles for a browser take instead of x.ts:
// the package's "browser" field) must export the same names with the same types, or a page
// gets undefined where Node gets a function. The types are held here, by tsc; the names below.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as hostNode from '../../src/platform/host.ts';
import * as hostBrowser from '../../src/platform/host.browser.ts';
import * as cacheNode from '../../src/validation/compiled-cache.ts';
import * as cacheBrowser from '../../src/validation/compiled-cache.browser.ts';
import * as bodyNode from '../../src/mock/answer/dynamic-body.ts';
import * as bodyBrowser from '../../src/mock/answer/dynamic-body.browser.ts';
import * as prismNode from '../../src/mock/answer/prism-negotiator.ts';
import * as prismBrowser from '../../src/mock/answer/prism-negotiator.browser.ts';
import * as loadNode from '../../src/msw/load-document.ts';
import * as loadBrowser from '../../src/msw/load-document.browser.ts';
import { PackedRecords as RecordsNode } from '../../src/state/packed-records.ts';
import { PackedRecords as RecordsBrowser } from '../../src/state/packed-records.browser.ts';

// Each twin must be assignable to its Node module (tsc --noEmit checks these lines).
const sameTypes: Array<[unknown, unknown]> = [
  [hostBrowser satisfies typeof hostNode, hostNode],
  [cacheBrowser satisfies typeof cacheNode, cacheNode],
  [bodyBrowser satisfies typeof bodyNode, bodyNode],
  [prismBrowser satisfies Pick<typeof prismNode, 'loadPrism'>, prismNode],
  [loadBrowser satisfies Pick<typeof loadNode, 'loadDocument'>, loadNode],
  [new RecordsBrowser() satisfies Omit<RecordsNode, 'set'>, new RecordsNode()],
];

const twinsIn = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? twinsIn(join(dir, entry.name))
      : entry.name.endsWith('.browser.ts')
        ? [join(dir, entry.name)]
        : [],
  );

describe('browser twins', () => {
  it('are all checked here', () => {
    expect(
      twinsIn('src')
        .map((file) => relative('src', file))
        .sort(),
    ).toEqual([
      'mock/answer/dynamic-body.browser.ts',
      'mock/answer/prism-negotiator.browser.ts',
      'msw/load-document.browser.ts',
      'platform/host.browser.ts',
      'state/packed-records.browser.ts',
      'validation/compiled-cache.browser.ts',
    ]);
  });

  it('export what their Node modules export', () => {
    for (const [browser, node] of sameTypes.slice(0, 3))
      expect(Object.keys(browser as object).sort()).toEqual(Object.keys(node as object).sort());
  });

  it('keep records as Node does: insertion order, replace in place, delete', () => {
    for (const records of [new RecordsNode(), new RecordsBrowser()]) {
      records.set('1', '{"a":1}').set('2', '{"b":2}').set('1', '{"a":3}');
      records.delete('2');
      records.set('3', '{"c":"é"}');
      expect([...records.entries()]).toEqual([
        ['1', '{"a":3}'],
        ['3', '{"c":"é"}'],
      ]);
      expect(records.size).toBe(2);
      expect(records.get('2')).toBeUndefined();
    }
  });
});
