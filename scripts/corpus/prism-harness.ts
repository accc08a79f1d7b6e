// Prism's own test harness as a corpus stage (`npm run corpus -- --prism-harness`): every
// scenario of stoplightio/prism's test-harness/specs (a document, a curl command, the answer Prism
// gives) is run against plantstore's mock, started on the scenario's document. Prints how many
// documents load, how many expected statuses are met, and where plantstore differs on purpose,
// each such decision with its count (the README's Decisions section says why). The scenarios ship
// only in Prism's git repository, so the release's source archive is downloaded into the corpus
// cache once; CI never needs it.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, globSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

/** Prism's release whose scenarios are run (its current one when this stage was written). */
export const PRISM_RELEASE = 'v5.15.11';
const ARCHIVE = `https://github.com/stoplightio/prism/archive/refs/tags/${PRISM_RELEASE}.tar.gz`;

export interface Scenario {
  /** Path under test-harness/specs. */
  name: string;
  test: string;
  spec: string;
  server: string;
  command: string;
  expected: number;
}

/** Splits a scenario file into its sections, as Prism's harness does (helpers.ts parseSpecFile). */
export function parseScenario(name: string, text: string): Scenario | undefined {
  const parts = text.split(/====(server|test|spec|command|expect|expect-loose|expect-keysOnly)====\r?\n/i);
  const section = (key: string) => {
    const index = parts.findIndex((part) => part === key);
    return index === -1 ? undefined : parts[index + 1];
  };
  const expect = section('expect') ?? section('expect-loose') ?? section('expect-keysOnly');
  const status = /^HTTP\/[\d.]+ (\d{3})/m.exec(expect ?? '')?.[1];
  const spec = section('spec');
  if (spec === undefined || status === undefined) return undefined;
  return {
    name,
    test: (section('test') ?? '').trim(),
    spec,
    server: (section('server') ?? '').trim(),
    command: (section('command') ?? '').trim(),
    expected: Number(status),
  };
}

/**
 * Where plantstore answers otherwise than Prism on purpose: each is a README decision. A scenario
 * whose status differs and that no decision covers is a miss.
 */
export const DECISIONS: ReadonlyArray<{
  id: string;
  says: string;
  covers: (scenario: Scenario, got: number) => boolean;
}> = [
  {
    id: 'proxy-needs-upstream',
    says: 'proxy scenarios need httpbin.org; the stage runs offline and does not send them',
    covers: (s) => s.server.startsWith('proxy'),
  },
  {
    id: 'validation-status-400',
    says: 'an invalid request is refused with 400 where the operation declares no 4xx (Prism invents 422)',
    covers: (s, got) => s.expected === 422 && got === 400,
  },
  {
    id: 'forced-answer-undeclared-400',
    says: 'a forced status or example the operation does not declare is refused with 400 naming the declared ones (Prism: 404)',
    covers: (s, got) =>
      s.expected === 404 &&
      got === 400 &&
      /__code=|__example=|Prefer: *(?:code|example)=/i.test(s.command) &&
      !/ (?:-d|--data\S*) /.test(s.command),
  },
  {
    id: 'validation-before-example',
    says: 'a request that fails validation gets its error even when it asks for an example by name (Prism: 404)',
    covers: (s, got) =>
      s.expected === 404 &&
      got >= 400 &&
      got < 500 &&
      /example=/i.test(s.command) &&
      / (?:-d|--data\S*) /.test(s.command),
  },
  {
    id: 'head-as-get',
    says: 'HEAD without a HEAD operation is answered as GET without the body, as RFC 9110 asks (Prism: 405)',
    covers: (s, got) => s.expected === 405 && got === 200 && /--head|-I\b|-X *HEAD/.test(s.command),
  },
  {
    id: 'answers-where-prism-cannot',
    says: "a schema Prism's sampler finds too complex, or an object under text/plain or text/html, still gets a valid 200 (Prism: 500)",
    covers: (s, got) => s.expected === 500 && got === 200 && !/--errors/.test(s.server),
  },
  {
    id: 'never-serves-invalid-examples',
    says: "an example that breaks its schema is never served, so Prism's --errors 500 for such an answer has no cause",
    covers: (s, got) => s.expected === 500 && got === 200 && /--errors/.test(s.server),
  },
  {
    id: 'unexpected-body-ignored',
    says: 'a body sent to an operation that declares none is ignored (Prism on 3.1: 415)',
    covers: (s, got) => s.expected === 415 && got === 200 && !/requestBody/.test(s.spec),
  },
  {
    id: 'form-lenient-where-document-is',
    says: 'a form field without allowReserved may arrive unencoded, and an optional field may be missing (Prism: 422)',
    covers: (s, got) => s.expected === 422 && got === 200 && /form|urlencoded/i.test(s.command + s.spec),
  },
  {
    id: 'empty-path-segment-404',
    says: 'an empty path segment matches no path parameter: a parameter is never empty (Prism: 422)',
    covers: (s, got) => s.expected === 422 && got === 404 && /\/\//.test(s.command.replace(/https?:\/\//, '')),
  },
];

export interface HarnessResult {
  scenarios: number;
  postman: number;
  documents: number;
  loaded: number;
  notLoaded: Array<{ name: string; error: string }>;
  run: number;
  met: number;
  decided: Map<string, string[]>;
  missed: Array<{ name: string; test: string; expected: number; got: number | string }>;
}

/** Why the scenarios cannot be had (no network to GitHub, a wrong PLANTSTORE_PRISM_DIR): said in one line. */
export class HarnessUnavailable extends Error {
  override name = 'HarnessUnavailable';
}

/**
 * The scenarios' folder: `$PLANTSTORE_PRISM_DIR/test-harness/specs` when that names a clone of Prism (for a machine
 * without access to github.com), else the cache's copy, downloaded and unpacked the first time.
 */
export async function harnessFolder(
  cacheDir: string,
  say: (line: string) => void,
  archiveUrl = ARCHIVE,
  clone = process.env.PLANTSTORE_PRISM_DIR,
): Promise<string> {
  if (clone) {
    const specs = join(clone, 'test-harness', 'specs');
    if (existsSync(specs)) return specs;
    throw new HarnessUnavailable(
      `prism-harness: PLANTSTORE_PRISM_DIR=${clone} has no test-harness/specs; point it at a clone of stoplightio/prism (${PRISM_RELEASE})`,
    );
  }
  const dir = join(cacheDir, `prism_${PRISM_RELEASE}`);
  const specs = join(dir, 'test-harness', 'specs');
  if (existsSync(specs)) return specs;
  say(`prism-harness: fetching Prism ${PRISM_RELEASE}'s source archive into ${dir} (once) ...`);
  const cannot = (why: string) =>
    new HarnessUnavailable(
      `prism-harness: cannot download ${archiveUrl} (${why}); without access to it, set PLANTSTORE_PRISM_DIR to a clone of stoplightio/prism at ${PRISM_RELEASE}`,
    );
  let response: Response;
  try {
    response = await fetch(archiveUrl, { signal: AbortSignal.timeout(300_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw cannot(cause?.code ?? cause?.message ?? (error as Error).message);
  }
  if (!response.ok) throw cannot(`it answered ${response.status}`);
  mkdirSync(cacheDir, { recursive: true });
  const archive = join(cacheDir, `prism-${PRISM_RELEASE}.tar.gz`);
  writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
  // Unpacked aside first: a run stopped half-way must not leave a folder that looks complete.
  const scratch = `${dir}.partial`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    execFileSync(
      'tar',
      ['xzf', archive, '-C', scratch, '--strip-components=1', '--wildcards', '*/test-harness/specs'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
  } catch (error) {
    rmSync(archive, { force: true });
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '')
      .trim()
      .split('\n')[0];
    throw cannot(`the archive does not unpack: ${stderr || (error as Error).message}`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  rmSync(archive, { force: true });
  return specs;
}

/** Runs every scenario against plantstore's mock; `only` keeps the scenarios whose name contains one of its texts. */
export async function runHarness(
  specs: string,
  scratch: string,
  only: string[],
  say: (line: string) => void,
): Promise<HarnessResult> {
  const files = globSync('**/*.txt', { cwd: specs })
    .sort()
    .filter((name) => only.length === 0 || only.some((text) => name.includes(text)));
  mkdirSync(scratch, { recursive: true });
  const result: HarnessResult = {
    scenarios: files.length,
    postman: 0,
    documents: 0,
    loaded: 0,
    notLoaded: [],
    run: 0,
    met: 0,
    decided: new Map(),
    missed: [],
  };
  for (const name of files) {
    // Postman collections (.pc.txt) are Prism's other input format, not OpenAPI.
    if (name.endsWith('.pc.txt')) {
      result.postman++;
      continue;
    }
    const scenario = parseScenario(name, readFileSync(join(specs, name), 'utf8'));
    if (!scenario) continue;
    result.documents++;
    say(`prism-harness: [${result.documents}] ${name}`);
    const file = join(scratch, `${name.replace(/[/\\]/g, '__')}.yaml`);
    writeFileSync(file, scenario.spec);
    let server: MockServer;
    try {
      server = await startMockServer({ spec: file, port: 0, host: '127.0.0.1', admin: false });
    } catch (error) {
      result.notLoaded.push({ name, error: (error as Error).message.split('\n')[0] });
      continue;
    }
    result.loaded++;
    try {
      const got = await sendScenario(scenario, server.port);
      const decision = DECISIONS.find((d) => d.covers(scenario, typeof got === 'number' ? got : -1));
      if (got === scenario.expected) result.met++;
      else if (decision) result.decided.set(decision.id, [...(result.decided.get(decision.id) ?? []), name]);
      else result.missed.push({ name, test: scenario.test.split('\n')[0], expected: scenario.expected, got });
      if (!scenario.server.startsWith('proxy')) result.run++;
    } finally {
      await server.close();
    }
  }
  say(`prism-harness: ${result.scenarios} scenarios run`);
  return result;
}

/**
 * Sends the scenario's curl command to the mock (in this process: curl runs asynchronously) and reads the status it
 * answered.
 */
async function sendScenario(scenario: Scenario, port: number): Promise<number | string> {
  if (scenario.server.startsWith('proxy')) return 'not sent';
  // Prism's -d / --dynamic: plantstore asks for a generated answer per request, with Prefer.
  const dynamic = /(?:^|\s)(?:-d|--dynamic)(?:\s|$)/.test(scenario.server);
  let command = scenario.command.replace(/(?:localhost|127\.0\.0\.1):4010/g, `127.0.0.1:${port}`);
  if (dynamic) command = command.replace(/^curl /, `curl -H 'Prefer: dynamic=true' `);
  const run = await promisify(execFile)('sh', ['-c', `${command} --max-time 20`], { encoding: 'utf8' }).catch(
    (error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  const statuses = [...(run.stdout ?? '').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)]
    .map((m) => Number(m[1]))
    .filter((status) => status !== 100);
  return statuses.at(-1) ?? `no answer (${(run.stderr ?? '').trim().split('\n')[0]})`;
}

/** The stage's report: loaded documents, met statuses, decisions with their counts, and misses. */
export function formatHarness(result: HarnessResult): string {
  const lines = [
    `Prism ${PRISM_RELEASE} test harness: ${result.scenarios} scenarios (${result.postman} Postman collections left out)`,
    `  documents loaded: ${result.loaded} / ${result.documents} OpenAPI and Swagger documents`,
    `  expected status met: ${result.met} / ${result.documents}`,
    `  decisions (README "Decisions"):`,
    ...DECISIONS.map((d) => `    ${String(result.decided.get(d.id)?.length ?? 0).padStart(3)}  ${d.id}: ${d.says}`),
    `  missed: ${result.missed.length}`,
    ...result.missed.map((m) => `    ${m.name}: expected ${m.expected}, got ${m.got} (${m.test})`),
    ...result.notLoaded.map((n) => `    not loaded: ${n.name}: ${n.error}`),
  ];
  return `${lines.join('\n')}\n`;
}
