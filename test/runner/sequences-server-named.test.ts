// Sequences on items the server names: the create takes no id, so the read and the delete find the
// item by the create's answer: its id field, else its Location header (absolute or relative). An
// answer that names no item stops the sequence with a warning, not a failure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

const SPEC = 'test/documents/server-named-items.yaml';
type Location = 'absolute' | 'relative' | 'none' | 'wrong' | 'malformed';

let server: Server | undefined;
let mock: MockServer | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await mock?.close();
  server = mock = undefined;
});

/** A server that numbers notes and tasks itself, and writes a note's Location as asked. */
async function serve(location: Location): Promise<string> {
  const items = new Map<string, unknown>();
  let next = 40;
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const [, collection, id] = url.pathname.split('/');
      const json = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (req.method === 'POST' && id === undefined) {
        const key = String(next++);
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return json(400, { message: 'the body is not JSON' }); // the runner's negative cases send such bodies
        }
        if (collection === 'badges') {
          items.set(`badges/${key}`, { data: { ...body, id: key } });
          return json(201, { data: { ...body, id: key } });
        }
        if (collection !== 'notes') {
          // A server names the item whatever id was sent (a readOnly one should not be).
          items.set(`${collection}/${key}`, { ...body, id: Number(key) });
          return json(201, { ...body, id: Number(key) });
        }
        items.set(`notes/${key}`, body);
        const written = {
          absolute: `http://${req.headers.host}/notes/${key}`,
          relative: `notes/${key}`,
          wrong: `/notes/9${key}`,
          malformed: 'http://[not-a-host/notes',
          none: undefined,
        }[location];
        return json(201, undefined, written === undefined ? {} : { location: written });
      }
      const item = items.get(`${collection}/${id}`);
      if (item === undefined) return json(404);
      if (req.method === 'DELETE') {
        items.delete(`${collection}/${id}`);
        return json(204);
      }
      return json(200, item);
    });
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const run = (target: string) => verify({ target, spec: SPEC, generate: 1, hostile: 0, filter: ['sequence'] });
const sequence = (report: VerifyReport, collection: string) =>
  report.cases.find((c) => c.id === `generated/sequence/${collection}/1`)!;
const walk = (report: VerifyReport, collection: string) =>
  sequence(report, collection).steps.map(
    (s) => `${s.name} ${s.request?.method} ${s.request?.path} ${s.response?.status}`,
  );

describe('a sequence on items the server names', () => {
  it('reads and deletes a task by the id its create answered', async () => {
    const report = await run(await serve('absolute'));
    expect(walk(report, 'tasks')).toEqual([
      'create POST /tasks 201',
      'read GET /tasks/41 200',
      'delete DELETE /tasks/41 204',
      'read-after-delete GET /tasks/41 404',
    ]);
    expect(sequence(report, 'tasks').status).toBe('passed');
  });

  it('reads a label by the id its create answered, where the one schema marks the id readOnly', async () => {
    const report = await run(await serve('absolute'));
    expect(walk(report, 'labels')).toEqual([
      'create POST /labels 201',
      expect.stringMatching(/^read GET \/labels\/4\d 200$/),
    ]);
  });

  it("reads a badge by the id inside its answer's data envelope, where the path refuses the name sent", async () => {
    const target = await serve('absolute');
    const report = await verify({ target, spec: 'test/documents/server-named-envelope.yaml', generate: 1, hostile: 0 });
    expect(walk(report, 'badges')).toEqual([
      'create POST /badges 201',
      expect.stringMatching(/^read GET \/badges\/4\d 200$/),
    ]);
  });

  it.each(['absolute', 'relative'] as const)('follows a note to its %s Location', async (location) => {
    const report = await run(await serve(location));
    expect(walk(report, 'notes')).toEqual([
      'create POST /notes 201',
      'read GET /notes/40 200',
      'delete DELETE /notes/40 204',
      'read-after-delete GET /notes/40 404',
    ]);
    expect(sequence(report, 'notes').status).toBe('passed');
  });

  it('fails a Location that names no item (created, then missing)', async () => {
    const report = await run(await serve('wrong'));
    const notes = sequence(report, 'notes');
    expect(notes.status).toBe('failed');
    expect(walk(report, 'notes')).toEqual(['create POST /notes 201', 'read GET /notes/940 404']);
  });

  it('stops with a warning, not a failure, where the answer names no item', async () => {
    const report = await run(await serve('none'));
    const notes = sequence(report, 'notes');
    expect(notes.status).toBe('passed');
    expect(notes.steps.map((s) => s.name)).toEqual(['create', 'read']);
    expect(notes.steps[1].findings).toEqual([
      {
        code: 'not-followed',
        severity: 'warning',
        message: expect.stringContaining('named no item (it declares no key field and no Location header)'),
        actual: 'no item',
      },
    ]);
  });

  it('stops with a warning at a Location that is no URL', async () => {
    const notes = sequence(await run(await serve('malformed')), 'notes');
    expect(notes.status).toBe('passed');
    expect(notes.steps[1].findings[0]).toMatchObject({ code: 'not-followed', actual: 'no item' });
    expect(notes.steps[1].findings[0].message).toContain(
      'has a Location header that is no URL: http://[not-a-host/notes',
    );
  });

  it('passes against the mock, which fills Location and makes ids', async () => {
    mock = await startMockServer({ port: 0, spec: SPEC });
    const report = await run(mock.url);
    for (const collection of ['notes', 'tasks', 'labels']) {
      expect(sequence(report, collection).status).toBe('passed');
      expect(walk(report, collection)[1]).toMatch(new RegExp(`^read GET /${collection}/[^{}]+ 200$`));
    }
  });
});
