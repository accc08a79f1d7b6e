// JUnit keeps full detail: a failed case with several findings is one <testcase> with one <failure>
// (what GitLab and GitHub's report actions read), whose message counts the failures and whose text
// holds every finding with its diff, the distinct fault it counts toward, the request and the answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../src/runner/index.ts';
import { checkWellFormedXml } from './well-formed-xml.ts';

let server: Server;
let xml = '';
beforeAll(async () => {
  // Takes any body, answers an id of the wrong type and a name of the wrong type.
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"id":"one","name":7}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  await verify({
    target: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spec: 'test/documents/junit-detail.yaml',
    generate: 1,
    hostile: 0,
    reporters: [{ name: 'junit', stream: { write: (chunk: string) => (xml += chunk) } }],
  });
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const testcase = (name: RegExp) => {
  const found = [...xml.matchAll(/<testcase name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)].find((m) =>
    name.test(m[1]),
  );
  return found?.[2] ?? '';
};

describe('JUnit for a case with several findings', () => {
  it('is well-formed', () => {
    expect(checkWellFormedXml(xml)).toEqual({ ok: true });
  });

  it('has one failure element whose message counts the failures and names the first', () => {
    const body = testcase(/createThing: accepts generated example 1/);
    expect(body.match(/<failure /g)).toHaveLength(1);
    expect(body).toMatch(/<failure message="2 failures; the first: [^"]+" type="[a-z-]+">/);
  });

  it('lists every finding with the distinct fault it counts toward', () => {
    const body = testcase(/createThing: accepts generated example 1/);
    expect(body).toContain('fault: createThing | wrong-field-type | /id');
    expect(body).toContain('fault: createThing | wrong-field-type | /name');
  });

  it('shows the request that was sent, the answer and the curl line', () => {
    const body = testcase(/createThing: accepts generated example 1/);
    expect(body).toContain('request body: {"name":"fern"}');
    expect(body).toContain('request headers: content-type: application/json');
    expect(body).toContain('answer body: {"id":"one","name":7}');
    expect(body).toMatch(/curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/things'/);
  });
});
