// The contract battery against the MSW handlers in Node (msw/node's setupServer, sent with fetch):
// with the document given as a path (matched under its first server URL), as the module
// `plantstore msw` writes (under an explicit baseUrl), and with state kept in Web Storage.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import type { LoadedSpec } from '../../src/document/loaded-spec.ts';
import { prepareDocument } from '../../src/msw/prepare.ts';
import type { PreparedDocument } from '../../src/msw/prepared.ts';
import { BATTERY_SUITES, casesFor, runBattery, type SuiteId } from '../battery/contract-battery.ts';
import { memoryStorage, mswBattery, type MswBattery } from '../battery/node-transports.ts';

/** Where handlers made without a baseUrl answer: the first server URL, a page's origin for a relative one. */
function defaultBase(spec: LoadedSpec): string {
  const server = (
    spec.document.servers as Array<{ url: string; variables?: Record<string, { default: string }> }> | undefined
  )?.[0];
  const url = (server?.url ?? '/')
    .replace(/\{([^}]+)\}/g, (_whole, name: string) => server!.variables![name].default)
    .replace(/\/+$/, '');
  return /^[a-z]+:\/\//i.test(url) ? url : `http://localhost:5173${url}`;
}

const prepared = new Map<string, Promise<PreparedDocument>>();
const preparedOf = (document: string) => {
  if (!prepared.has(document)) prepared.set(document, loadSpec(resolve(document)).then(prepareDocument));
  return prepared.get(document)!;
};

const runs = {
  'the document as a path, at its first server URL': async (suite: SuiteId) => {
    const path = resolve(BATTERY_SUITES[suite].document);
    return mswBattery(BATTERY_SUITES[suite], path, defaultBase(await loadSpec(path)));
  },
  'the prepared module, under baseUrl https://api.battery.test/v1': async (suite: SuiteId) =>
    mswBattery(BATTERY_SUITES[suite], await preparedOf(BATTERY_SUITES[suite].document), 'https://api.battery.test/v1', {
      baseUrl: 'https://api.battery.test/v1',
    }),
  'the prepared module, state in Web Storage, under baseUrl /api on any origin': async (suite: SuiteId) =>
    mswBattery(BATTERY_SUITES[suite], await preparedOf(BATTERY_SUITES[suite].document), 'http://localhost:5173/api', {
      baseUrl: '/api',
      persist: { storage: memoryStorage() },
    }),
};

describe.each(Object.keys(runs) as Array<keyof typeof runs>)(
  'the contract battery against the MSW handlers: %s',
  (run) => {
    describe.each(Object.keys(BATTERY_SUITES) as SuiteId[])('%s', (suite) => {
      let battery: MswBattery;
      beforeAll(async () => {
        battery = await runs[run](suite);
      });
      afterAll(() => battery?.close());

      it.each(casesFor(suite, 'msw').map((c) => c.name))('%s', async (name) => {
        expect(await runBattery(battery.transport, { suite, filter: name })).toEqual([{ suite, name, ok: true }]);
      });
    });
  },
);
