// The Prism harness stage reads Prism's scenario files as Prism's own harness does, and names
// each deliberate difference by a README decision.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DECISIONS, parseScenario } from '../../scripts/corpus/prism-harness.ts';

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
