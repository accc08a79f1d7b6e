// An example that breaks its own schema is listed once by the loader and never served: a
// generated valid body answers instead, as an honest mock must.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const DOC = resolve('test/documents/loading/bad-example.yaml');
const get = (headers: Record<string, string> = {}) => ({ method: 'GET', path: '/links', headers, body: '' });

describe('examples that break their schema', () => {
  it('are listed as warnings with their place and reason', async () => {
    const { warnings } = await loadSpec(DOC);
    expect(warnings).toEqual([
      expect.stringMatching(
        /#\/paths\/~1links\/get\/responses\/200\/content\/application~1json\/examples\/relative: example breaks its schema \(\/href: must be uri\)/,
      ),
      expect.stringMatching(/examples\/untitled: example breaks its schema \(\/title: is required\)/),
    ]);
  });

  it('are replaced by a generated valid body when the mock would answer with one', async () => {
    const engine = await plantEngine({}, await loadSpec(DOC));
    const answer = await send(engine, get());
    expect(answer.status).toBe(200);
    expect(answer.json).not.toEqual({ href: '/docs/intro', title: 'Intro' });
    expect(answer.json).toMatchObject({
      href: expect.stringMatching(/^[a-z][a-z0-9+.-]*:/i),
      title: expect.any(String),
    });
  });

  it.each([['relative'], ['untitled']])('are not served when asked for by name (Prefer: example=%s)', async (name) => {
    const engine = await plantEngine({}, await loadSpec(DOC));
    const answer = await send(engine, get({ prefer: `example=${name}` }));
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      href: expect.stringMatching(/^[a-z][a-z0-9+.-]*:/i),
      title: expect.any(String),
    });
  });

  it('serves a valid example when asked for by name', async () => {
    const engine = await plantEngine({}, await loadSpec(DOC));
    expect((await send(engine, get({ prefer: 'example=good' }))).json).toEqual({
      href: 'https://example.com/a',
      title: 'Good',
    });
  });
});
