// The contract battery against `plantstore mock` on a real port: every case of every suite passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATTERY_SUITES, casesFor, runBattery, type SuiteId } from '../battery/contract-battery.ts';
import { httpBattery, type HttpBattery } from '../battery/node-transports.ts';

describe.each(Object.keys(BATTERY_SUITES) as SuiteId[])('the contract battery (%s) against the HTTP mock', (suite) => {
  let battery: HttpBattery;
  beforeAll(async () => {
    battery = await httpBattery(BATTERY_SUITES[suite]);
  });
  afterAll(() => battery?.close());

  it.each(casesFor(suite, 'http').map((c) => c.name))('%s', async (name) => {
    expect(await runBattery(battery.transport, { suite, filter: name })).toEqual([{ suite, name, ok: true }]);
  });
});
