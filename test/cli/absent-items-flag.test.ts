// The start-up warning for operations without a 404, and --absent-items 404, on the command line.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { exitOf, startCliMock } from '../helpers/cli.ts';
import { CANARY } from '../helpers/engine.ts';

const SPEC = ['--spec', 'test/documents/absent-items.yaml'];

async function getNote(args: string[]) {
  const { child, url, stderr } = await startCliMock([...SPEC, ...args]);
  try {
    const answer = await request(`${url}/notes/5`, { headers: { authorization: `Bearer ${CANARY}` } });
    return { status: answer.statusCode, body: await answer.body.text(), stderr };
  } finally {
    const exited = exitOf(child);
    child.kill('SIGTERM');
    await exited;
  }
}

describe('plantstore mock --absent-items', () => {
  it('warns at start-up, once per operation that declares no 404, and answers an absent note from the document', async () => {
    const { status, body, stderr } = await getNote([]);
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual({ id: 99, text: 'from the document' });
    const warnings = stderr()
      .split('\n')
      .filter((line) => line.includes(') declares no 404:'));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain('getNote (GET /notes/{id}) declares no 404');
    expect(stderr()).toMatch(
      /GET \/notes\/5 200 [\d.]+ms {2}no note with id 5 is stored; answered from the document, which declares no 404 for getNote/,
    );
  });

  it('answers an undeclared 404 with --absent-items 404, and warns of nothing', async () => {
    const { status, body, stderr } = await getNote(['--absent-items', '404']);
    expect(status).toBe(404);
    expect(JSON.parse(body)).toEqual({ status: 404, title: 'Not Found', detail: 'no note with id 5' });
    expect(stderr()).not.toContain('declares no 404');
  });
});
