// An operation whose only answer is 101 Switching Protocols (osisoft's WebSocket channels): a 1xx
// is never a final HTTP answer, and the mock does not speak the protocol it would switch to, so it
// says so with a 501 instead of writing a 101 that breaks the client.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const spec = loadSpec('test/documents/runner-corpus-shapes.yaml');

describe('an operation that only switches protocols', () => {
  it.each([
    ['a plain request', {}],
    ['a request forcing the 101 (Prefer: code=101)', { prefer: 'code=101' }],
  ])('answers %s with 501 and the reason', async (_what, headers) => {
    const answer = await send(await plantEngine({}, await spec), {
      method: 'GET',
      path: '/streams/s-1/channel',
      headers: { authorization: undefined, ...headers },
    });
    expect(answer.status).toBe(501);
    expect(answer.text).toContain(
      'streamChannel answers 101 (a switch to another protocol, such as a WebSocket); the mock answers HTTP only',
    );
  });
});
