// The Prism harness stage reads Prism's scenario files as Prism's own harness does, and names
// each deliberate difference by a README decision.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISIONS, harnessFolder, parseScenario, PRISM_RELEASE } from '../../scripts/corpus/prism-harness.ts';
import { serveFolder } from '../helpers/static-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SCENARIO = `====test====
When I send a HEAD request
====spec====
openapi: 3.0.2
paths:
  /todos:
    get:
      responses:
        200: {description: ok}
====server====
mock -p 4010 \${document}
====command====
curl --head http://localhost:4010/todos
====expect====
HTTP/1.1 405 Method Not Allowed
`;

describe("Prism's harness scenarios", () => {
  it('reads the document, the server arguments, the command and the expected status', () => {
    const scenario = parseScenario('head.oas3.txt', SCENARIO)!;
    expect(scenario.spec).toMatch(/^openapi: 3\.0\.2\n/);
    expect(scenario.server).toBe('mock -p 4010 ${document}');
    expect(scenario.command).toBe('curl --head http://localhost:4010/todos');
    expect(scenario.expected).toBe(405);
  });

  it('covers a deliberate difference by the decision the README names, and no other', () => {
    const scenario = parseScenario('head.oas3.txt', SCENARIO)!;
    expect(DECISIONS.filter((d) => d.covers(scenario, 200)).map((d) => d.id)).toEqual(['head-as-get']);
    expect(DECISIONS.filter((d) => d.covers(scenario, 404)).map((d) => d.id)).toEqual([]);
  });

  it('has every decision written in the README', () => {
    const readme = readFileSync('README.md', 'utf8');
    for (const decision of DECISIONS) expect(readme).toContain(`| \`${decision.id}\` |`);
  });
});

describe("fetching Prism's harness into an empty cache", () => {
  it('downloads the release archive and keeps only its test-harness/specs', async () => {
    const site = tempDir('prism-site-');
    const tree = join(tempDir('prism-tree-'), `prism-${PRISM_RELEASE.slice(1)}`);
    mkdirSync(join(tree, 'test-harness', 'specs', 'validate-body'), { recursive: true });
    mkdirSync(join(tree, 'packages'), { recursive: true });
    writeFileSync(join(tree, 'test-harness', 'specs', 'validate-body', 'one.txt'), SCENARIO);
    writeFileSync(join(tree, 'packages', 'left-out.txt'), 'not a scenario');
    execFileSync('tar', ['czf', join(site, 'prism.tar.gz'), '-C', join(tree, '..'), `prism-${PRISM_RELEASE.slice(1)}`]);
    const server = await serveFolder(site);
    try {
      const cache = tempDir('prism-cache-');
      const said: string[] = [];
      const specs = await harnessFolder(cache, (line) => said.push(line), `${server.url}/prism.tar.gz`, '');
      expect(readFileSync(join(specs, 'validate-body', 'one.txt'), 'utf8')).toBe(SCENARIO);
      expect(existsSync(join(cache, `prism_${PRISM_RELEASE}`, 'packages'))).toBe(false);
      expect(readdirSync(cache)).toEqual([`prism_${PRISM_RELEASE}`]);
      expect(said).toHaveLength(1);
      // The second time, the cache answers: nothing is fetched.
      await harnessFolder(cache, (line) => said.push(line), `${server.url}/prism.tar.gz`, '');
      expect(server.requests).toEqual(['/prism.tar.gz']);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a server that is gone', true, /\(ECONNREFUSED\)/],
    ['an archive that is not there', false, /\(it answered 404\)/],
  ])('says in one line that it cannot, and how to do without, for %s', async (_name, gone, why) => {
    const server = await serveFolder(tempDir('prism-site-'));
    if (gone) await server.close();
    try {
      const failure = harnessFolder(tempDir('prism-cache-'), () => undefined, `${server.url}/prism.tar.gz`, '');
      await expect(failure).rejects.toThrow(why);
      await expect(failure).rejects.toThrow(
        /^prism-harness: cannot download \S+ \(.*\); .*PLANTSTORE_PRISM_DIR[^\n]*$/,
      );
    } finally {
      if (!gone) await server.close();
    }
  });

  it('reads a clone named by PLANTSTORE_PRISM_DIR instead, and says so when it is not one', async () => {
    const clone = tempDir('prism-clone-');
    mkdirSync(join(clone, 'test-harness', 'specs'), { recursive: true });
    expect(await harnessFolder(tempDir('prism-cache-'), () => undefined, 'http://127.0.0.1:1/x', clone)).toBe(
      join(clone, 'test-harness', 'specs'),
    );
    await expect(
      harnessFolder(tempDir('prism-cache-'), () => undefined, 'http://127.0.0.1:1/x', tempDir('x-')),
    ).rejects.toThrow(/^prism-harness: PLANTSTORE_PRISM_DIR=.* has no test-harness\/specs/);
  });
});
