// A plant store that forgets what it was told fails its sequence, and every report shows the
// whole sequence and names the step that broke.
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/exact-json.ts';
import { verify, type CaseResult, type VerifyReport } from '../../src/runner/index.ts';
import { startCrudPlantServer, type CrudDefect, type CrudPlantServer } from '../fixtures-servers/crud-plant-server.ts';
import { checkWellFormedXml } from './well-formed-xml.ts';

const GROWN = 'test/documents/plant-store-grown.yaml';
const TOKEN = 'forgetful-secret-token';

let server: CrudPlantServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Run {
  report: VerifyReport;
  sequence: CaseResult;
  console: string;
  junit: string;
  json: string;
}

async function runSequences(defect?: CrudDefect): Promise<Run> {
  server = await startCrudPlantServer({ defect });
  const out = { console: '', junit: '', json: '' };
  const stream = (name: keyof typeof out) => ({ name, stream: { write: (chunk: string) => (out[name] += chunk) } });
  const report = await verify({
    target: server.url,
    token: TOKEN,
    spec: GROWN,
    generate: 1,
    seed: 2,
    filter: ['sequence'],
    reporters: [stream('console'), stream('junit'), stream('json')],
  });
  return { report, sequence: report.cases[0], ...out };
}

describe('sequences against hand-written plant stores', () => {
  it('passes a plant store that remembers', async () => {
    const { report, sequence } = await runSequences();
    expect(report.outcome).toBe('passed');
    expect(sequence.steps.map((s) => s.name)).toEqual([
      'create',
      'read',
      'create-2',
      'limit-honoured',
      'find-in-list',
      'delete',
      'read-after-delete',
      'delete-2',
    ]);
  });

  it.each([
    { defect: 'forgets-creates', step: 'read', code: 'unexpected-status', ran: ['create', 'read'] },
    {
      defect: 'forgets-deletes',
      step: 'read-after-delete',
      code: 'unexpected-status',
      ran: ['create', 'read', 'create-2', 'limit-honoured', 'find-in-list', 'delete', 'read-after-delete'],
    },
    {
      defect: 'hides-from-list',
      step: 'find-in-list',
      code: 'not-in-list',
      ran: ['create', 'read', 'create-2', 'limit-honoured', 'find-in-list'],
    },
    {
      defect: 'ignores-limit',
      step: 'limit-honoured',
      code: 'limit-ignored',
      ran: ['create', 'read', 'create-2', 'limit-honoured'],
    },
  ] as const)(
    'fails a plant store that $defect at the step "$step" with $code',
    async ({ defect, step, code, ran }) => {
      const { report, sequence } = await runSequences(defect);
      expect(report.outcome).toBe('failed');
      expect(sequence.status).toBe('failed');
      expect(sequence.steps.map((s) => s.name)).toEqual(ran);
      const broken = sequence.steps.at(-1)!;
      expect(broken.name).toBe(step);
      expect(broken.findings.map((f) => f.code)).toContain(code);
      expect(sequence.steps.slice(0, -1).every((s) => s.findings.every((f) => f.severity !== 'failure'))).toBe(true);
    },
  );

  it('says the deleted plant is still there: 200 where 404 was expected', async () => {
    const { sequence } = await runSequences('forgets-deletes');
    expect(sequence.steps.at(-1)!.findings).toContainEqual(
      expect.objectContaining({ code: 'unexpected-status', expected: '404', actual: 200 }),
    );
  });

  it('says which plant the list is missing', async () => {
    const { sequence } = await runSequences('hides-from-list');
    const finding = sequence.steps.at(-1)!.findings.find((f) => f.code === 'not-in-list')!;
    expect(finding.message).toMatch(
      /^the list \(0 elements, fewer than the limit 100, so it is the whole list\) has no element containing \{"name":"plant \d+"/,
    );
  });

  it('shows the whole sequence on the console, each step with its request and status', async () => {
    const { console: out } = await runSequences('forgets-deletes');
    const lines = out.split('\n').map((line) => line.trim());
    const at = lines.findIndex((line) =>
      line.startsWith(
        'FAIL  /plants sequence 1 (seed 2): create, read, create-2, limit-honoured, find-in-list, delete, read-after-delete, delete-2',
      ),
    );
    expect(at).toBeGreaterThan(-1);
    expect(lines.slice(at + 1, at + 9)).toEqual([
      expect.stringMatching(/^step create: POST \/plants -> 200 \(createPlant, \d+ ms\)$/),
      expect.stringMatching(/^step read: GET \/plants\/\d+ -> 200 \(getPlant, \d+ ms\)$/),
      expect.stringMatching(/^step create-2: POST \/plants -> 200 \(createPlant, \d+ ms\)$/),
      expect.stringMatching(/^step limit-honoured: GET \/plants\?limit=1 -> 200 \(listPlants, \d+ ms\)$/),
      expect.stringMatching(/^step find-in-list: GET \/plants\?limit=100 -> 200 \(listPlants, \d+ ms\)$/),
      expect.stringMatching(/^step delete: DELETE \/plants\/\d+ -> 204 \(deletePlant, \d+ ms\)$/),
      expect.stringMatching(/^step read-after-delete: GET \/plants\/\d+ -> 200 \(getPlant, \d+ ms\)$/),
      'x unexpected-status: expected status 404, got 200',
    ]);
    expect(out).toContain("curl -sS -i -X GET 'http://127.0.0.1:");
  });

  it('names the broken step in the JUnit failure and lists the steps before it', async () => {
    const { junit } = await runSequences('forgets-deletes');
    expect(checkWellFormedXml(junit)).toEqual({ ok: true });
    expect(junit).toContain(
      '<failure message="step read-after-delete: expected status 404, got 200" type="unexpected-status">',
    );
    expect(junit).toMatch(
      /step create: POST \/plants -&gt; 200[\s\S]*step delete: DELETE \/plants\/\d+ -&gt; 204[\s\S]*step read-after-delete: GET/,
    );
  });

  it('keeps every step with its request and response in the JSON report', async () => {
    const { json } = await runSequences('forgets-deletes');
    const parsed = parseJson(json);
    if (!parsed.ok) throw new Error(parsed.message);
    const sequence = (parsed.value as unknown as VerifyReport).cases[0];
    expect(sequence.steps.map((s) => [s.name, s.request?.method, s.response?.status])).toEqual([
      ['create', 'POST', 200],
      ['read', 'GET', 200],
      ['create-2', 'POST', 200],
      ['limit-honoured', 'GET', 200],
      ['find-in-list', 'GET', 200],
      ['delete', 'DELETE', 204],
      ['read-after-delete', 'GET', 200],
    ]);
  });

  it('keeps the token out of every report', async () => {
    const run = await runSequences('forgets-deletes');
    for (const text of [run.console, run.junit, run.json]) expect(text).not.toContain(TOKEN);
  });

  it('sends the same plant in every step of a sequence', async () => {
    await runSequences();
    // The plant the sequence follows, and the second one the limit check needed (created, then deleted).
    const paths = server!.requests.filter((r) => r.startsWith('GET /plants/') || r.startsWith('DELETE'));
    expect(new Set(paths.map((r) => r.split(' ')[1]))).toHaveProperty('size', 2);
    expect(paths.at(-1)).toMatch(/^DELETE \/plants\/\d+$/);
  });
});
