import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

interface Received {
  headers: Record<string, unknown>;
  body: string;
}

let receiver: Server | undefined;
afterEach(() => new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done())));

/** A local webhook receiver that answers the given statuses in turn (then 200), each once `hold` resolves. */
async function startReceiver(
  statuses: number[] = [],
  hold: Promise<void> = Promise.resolve(),
): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      void hold.then(() => res.writeHead(statuses.shift() ?? 200).end());
    });
  });
  await new Promise<void>((done) => receiver!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, received };
}

const grown = () => loadSpec(resolve('test/documents/plant-store-grown.yaml'));

describe('webhooks', () => {
  it('deliver newPlant with the new plant as a NewPlant payload, exact int64 id', async () => {
    const { url, received } = await startReceiver();
    const engine = await plantEngine({ webhookUrl: url }, await grown());
    expect((await createPlant(engine, '{"id":9007199254740993,"name":"Fern","tag":"green"}')).status).toBe(200);
    await engine.webhooks.idle();
    expect(received).toHaveLength(1);
    expect(received[0].body).toBe('{"id":9007199254740993,"name":"Fern","tag":"green"}');
    expect(received[0].headers['x-plantstore-webhook']).toBe('newPlant');
    const listed = await send(engine, { method: 'GET', path: '/__mock/webhooks', body: '' });
    expect(listed.json).toMatchObject({
      deliveries: [{ webhook: 'newPlant', status: 'delivered', attempts: 1, lastStatus: 200 }],
    });
  });

  it('retry a failed delivery with backoff, a bounded number of times', async () => {
    const { url, received } = await startReceiver([500, 503]);
    const engine = await plantEngine({ webhookUrl: url, webhookBackoffMs: 10 }, await grown());
    await createPlant(engine, '{"id":1,"name":"Fern"}');
    await engine.webhooks.idle();
    expect(received).toHaveLength(3);
    expect(engine.webhooks.deliveries()[0]).toMatchObject({ status: 'delivered', attempts: 3 });

    const failing = await startReceiver([500, 500, 500, 500, 500]);
    const second = await plantEngine(
      { webhookUrl: failing.url, webhookBackoffMs: 5, webhookRetries: 2 },
      await grown(),
    );
    await createPlant(second, '{"id":1,"name":"Fern"}');
    await second.webhooks.idle();
    expect(failing.received).toHaveLength(3);
    expect(second.webhooks.deliveries()[0]).toMatchObject({ status: 'failed', attempts: 3, lastStatus: 500 });
  });

  it('never delay or fail the request that caused them', async () => {
    // The receiver answers nothing until the create has been answered: a create that waited for
    // its delivery would never be.
    let release = () => {};
    const { url } = await startReceiver([], new Promise<void>((resolve) => (release = resolve)));
    const engine = await plantEngine({ webhookUrl: url }, await grown());
    expect((await createPlant(engine, '{"id":1,"name":"Fern"}')).status).toBe(200);
    expect(engine.webhooks.deliveries()[0]).toMatchObject({ status: 'pending' });
    release();
    const unreachable = await plantEngine({ webhookUrl: 'http://127.0.0.1:1/none', webhookRetries: 0 }, await grown());
    expect((await createPlant(unreachable, '{"id":1,"name":"Fern"}')).status).toBe(200);
    await unreachable.webhooks.idle();
    expect(unreachable.webhooks.deliveries()[0]).toMatchObject({ status: 'failed', lastError: expect.any(String) });
    await engine.webhooks.idle();
  });

  it('are not sent without --webhook-url, nor for a rejected create', async () => {
    const { url, received } = await startReceiver();
    const silent = await plantEngine({}, await grown());
    await createPlant(silent, '{"id":1,"name":"Fern"}');
    const engine = await plantEngine({ webhookUrl: url }, await grown());
    await createPlant(engine, '{"id":"bad"}');
    await engine.webhooks.idle();
    expect(received).toEqual([]);
  });
});
