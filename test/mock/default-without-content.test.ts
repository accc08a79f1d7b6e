// A status answered through a `default` declared without content (petstore3's deletePet) has no
// body: the contract says so, whatever the mock's refusal is.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { plantEngine, send } from '../helpers/engine.ts';

describe('a default response declared without content', () => {
  it('answers an absent item with a 404 and no body', async () => {
    const engine = await plantEngine({}, await loadSpec('test/documents/default-without-content.yaml'));
    const answer = await send(engine, { method: 'DELETE', path: '/things/42', headers: {}, body: '' });
    expect(answer.status).toBe(404);
    expect(answer.text).toBeUndefined();
    expect(answer.headers['content-type']).toBeUndefined();
  });

  it('answers a refused create through it with no body too', async () => {
    const engine = await plantEngine({}, await loadSpec('test/documents/default-without-content.yaml'));
    const answer = await send(engine, {
      method: 'POST',
      path: '/things',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(answer.status).toBe(415);
    expect(answer.text).toBeUndefined();
  });
});
