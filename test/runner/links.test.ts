// OpenAPI links: a case per link follows it from its source's answer, filling the linked operation's
// path, query and header parameters from runtime expressions; a linked read must find what the link
// points at; links that cannot be followed are named in the run's warnings.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

const SPEC = 'test/documents/links.yaml';
let server: Server | undefined;
let mock: MockServer | undefined;
const seen: IncomingMessage[] = [];
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await mock?.close();
  server = mock = undefined;
  seen.length = 0;
});

/** Users kept in memory; `forgetful` answers 404 to every read. */
async function serve(forgetful = false): Promise<string> {
  const users = new Map<number, { id: number; name: string }>();
  let next = 7;
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      seen.push(req);
      const url = new URL(req.url ?? '/', 'http://x');
      const [, , id, posts] = url.pathname.split('/');
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (req.method === 'POST') {
        const user = { id: next++, ...(JSON.parse(text) as { name: string }) };
        users.set(user.id, user);
        return send(201, user);
      }
      const user = forgetful ? undefined : users.get(Number(id));
      if (!user) return send(404);
      if (posts) return send(200, [`limit ${url.searchParams.get('limit')}`, `trace ${req.headers['x-trace']}`]);
      if (req.method === 'DELETE') {
        users.delete(user.id);
        return send(204);
      }
      return send(200, user, { 'x-trace': `t${user.id}` });
    });
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const run = (target: string) => verify({ target, spec: SPEC, generate: 1, hostile: 0, filter: ['links'] });
const linked = (report: VerifyReport, id: string) => report.cases.find((c) => c.id === `generated/links/${id}`)!;

describe('OpenAPI links', () => {
  it("fills the linked read's and delete's path from $response.body#/id (operationId and operationRef)", async () => {
    const report = await run(await serve());
    const read = linked(report, 'createUser/GetUserById');
    expect(read.status).toBe('passed');
    const created = (read.steps[0].response?.body as { id: number }).id;
    expect(read.steps.map((s) => `${s.request?.method} ${s.request?.path} ${s.response?.status}`)).toEqual([
      'POST /users 201',
      `GET /users/${created} 200`,
    ]);
    const remove = linked(report, 'createUser/DeleteUser');
    const made = (remove.steps[0].response?.body as { id: number }).id;
    expect(remove.steps.map((s) => `${s.request?.method} ${s.request?.path} ${s.response?.status}`)).toEqual([
      'POST /users 201',
      `DELETE /users/${made} 204`,
    ]);
  });

  it('fails a linked read that cannot find what the create made', async () => {
    const report = await run(await serve(true));
    const read = linked(report, 'createUser/GetUserById');
    expect(read.status).toBe('failed');
    expect(read.steps[1].findings.map((f) => `${f.code}: ${f.message}`)).toContain(
      'unexpected-status: expected status 2xx, got 404',
    );
    expect((report.faults ?? []).map((f) => `${f.operationId} ${f.check} ${f.signature}`)).toContain(
      'getUser resource-unavailable expected 2xx, got 404 · GetUserById',
    );
  });

  it('reaches a link on a read by starting at the create that links to it, and fills query and header', async () => {
    const report = await run(await serve());
    const posts = linked(report, 'getUser/Posts');
    expect(posts.status).toBe('passed');
    expect(posts.name).toBe('createUser -> getUser -> getUserPosts: follows the link Posts');
    // $request.path.userId of the read, the constant 3, and text around $response.header.X-Trace.
    const [, via, last] = posts.steps.map(
      (s) => `${s.name} ${s.request?.method} ${s.request?.path}?${s.request?.query}`,
    );
    const id = /^via GET \/users\/(\d+)\?$/.exec(via)![1];
    expect(last).toBe(`linked GET /users/${id}/posts?limit=3`);
    expect(posts.steps[2].response?.body).toEqual(['limit 3', `trace trace-t${id}`]);
  });

  it('stops with a warning, not a failure, where the exchange lacks what the link takes', async () => {
    mock = await startMockServer({ port: 0, spec: SPEC });
    const report = await run(mock.url);
    const posts = linked(report, 'getUser/Posts');
    // One warning for the run, whatever links it was.
    expect(
      (report.faults ?? [])
        .filter((f) => f.check === 'not-followed')
        .map((f) => `${f.severity} ${f.operationId} ${f.signature}`),
    ).toEqual(["warning * an exchange without the value a link's expression reads"]);
    // The mock answers the read without the optional X-Trace header the link reads.
    expect(posts.status).toBe('passed');
    expect(posts.steps[2].findings).toEqual([
      {
        code: 'not-followed',
        severity: 'warning',
        message: expect.stringContaining('its header parameter "X-Trace" has no value in the via exchange'),
        actual: 'no value',
      },
    ]);
  });

  it('names a link it cannot follow in the warnings', async () => {
    const report = await run(await serve());
    expect(report.warnings).toContainEqual(
      expect.stringMatching(
        /^not followed: link Broken on createUser 201: "\$response\.bodyy#\/id" is not a runtime expression/,
      ),
    );
    expect(report.warnings).toContain(
      'not followed: link Garbled on createUser 201: no operation #/paths/%E0%A4%A in this document',
    );
    expect(report.cases.map((c) => c.id)).not.toContain('generated/links/createUser/Broken');
  });

  it('passes against the mock', async () => {
    mock = await startMockServer({ port: 0, spec: SPEC });
    const report = await run(mock.url);
    expect(report.cases.filter((c) => c.status !== 'passed')).toEqual([]);
    expect(linked(report, 'createUser/GetUserById').steps[1].response?.status).toBe(200);
  });

  it("reaches a link on a read no link leads to by the collection's create, as a sequence does", async () => {
    mock = await startMockServer({ port: 0, spec: SPEC });
    const members = linked(await run(mock.url), 'getTeam/Members');
    expect(members.status).toBe('passed');
    const [create, via, last] = members.steps.map(
      (s) => `${s.name} ${s.request?.method} ${s.request?.path} ${s.response?.status}`,
    );
    expect(create).toBe('create POST /teams 201');
    const id = /^via GET \/teams\/(\d+) 200$/.exec(via)![1];
    expect(last).toBe(`linked GET /teams/${id}/members 200`);
  });

  it('loads a document whose link parameter is named id (no schema id to the validator)', async () => {
    mock = await startMockServer({ port: 0, spec: SPEC });
    const report = await run(mock.url);
    expect(linked(report, 'createUser/Thing').steps.map((s) => s.request?.path)).toEqual([
      '/users',
      expect.stringMatching(/^\/things\/\d+$/),
    ]);
  });
});
