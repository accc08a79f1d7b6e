// The README's five-minute tour, followed as written: its commands are read from the README, run in
// its order against a mock started as `npm start` starts it (on a free port instead of 4010), and
// every output the README shows (`# ...` under a command, `// ...` after the page's console.log)
// must be what the command prints.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, exitOf, startCliMock } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const README_URL = 'http://127.0.0.1:4010';
const README_CHECKOUT = '/path/to/plantstore';
const readme = readFileSync('README.md', 'utf8');
const tour = readme.slice(readme.indexOf('## A five-minute tour'), readme.indexOf('## Commands'));
const blocks = [...tour.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({ lang, body }));

/** A shell block as commands, each with the output lines the README shows under it. */
function steps(body: string): Array<{ command: string; shown: string[] }> {
  const found: Array<{ command: string; shown: string[] }> = [];
  for (const line of body.replace(/\\\n\s*/g, '').split('\n')) {
    if (line.startsWith('# ')) found.at(-1)?.shown.push(line.slice(2));
    else if (line.trim() !== '') found.push({ command: line.replace(/\s+# .*$/, ''), shown: [] });
  }
  return found;
}

const cwd = tempDir('plantstore-tour-');
let mock: Awaited<ReturnType<typeof startCliMock>>;
const run = (command: string) =>
  spawnSync(
    'sh',
    ['-c', command.replaceAll(README_URL, mock.url).replace(/^npx plantstore /, `"${process.execPath}" "${BIN}" `)],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, PLANTSTORE_TOKEN: 'test-token', NO_COLOR: '1' },
    },
  );

describe("the README's five-minute tour", () => {
  beforeAll(async () => {
    mock = await startCliMock([]);
    // The admin line is the last of the start-up lines the README shows.
    await new Promise<void>((done) => {
      const check = () => mock.stderr().includes('Ctrl-C to stop\n') && (mock.child.stderr!.off('data', check), done());
      mock.child.stderr!.on('data', check);
      check();
    });
  });
  afterAll(async () => {
    mock.child.kill('SIGTERM');
    await exitOf(mock.child);
  });

  it('1. starts the mock with the lines it shows', () => {
    const [start] = steps(blocks[0].body);
    expect(start.command).toBe('npm start');
    // The README writes the checkout's folder as /path/to/plantstore.
    const lines = mock.stderr().split('\n').slice(0, start.shown.length);
    expect(
      lines.map((line) => line.replaceAll(mock.url, README_URL).replaceAll(process.cwd(), README_CHECKOUT)),
    ).toEqual(start.shown);
  });

  it('2. answers each curl as shown, and keeps the exact int64 id', () => {
    const [exported, ...calls] = steps(blocks[1].body);
    expect(exported.command).toBe('export PLANTSTORE_TOKEN=test-token');
    expect(calls.length).toBe(4);
    for (const { command, shown } of calls.filter((call) => call.shown.length > 0)) {
      const result = run(command);
      expect(result.stderr, command).toBe('');
      expect(result.stdout, command).toBe(shown.join('\n'));
    }
    const state = run(calls.at(-1)!.command);
    expect(state.stdout).toMatch(/"id": ?9007199254740993\b/);
  });

  it("2. answers the page's fetch as the comment shows", () => {
    const page = blocks.find((block) => block.lang === 'js')!.body;
    const shown = /\/\/ (.+)\n$/.exec(page)![1];
    const file = join(cwd, 'page.mjs');
    writeFileSync(file, page.replaceAll(README_URL, mock.url));
    const result = spawnSync(process.execPath, [file], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`${shown}\n`);
  });

  it('2. answers the forced error with the declared 400', () => {
    const forced = /`(curl [^`]*Prefer: code=400[^`]*)`/.exec(tour)![1];
    const result = run(`${forced} -o /dev/null -w '%{http_code}'`);
    expect(result.stdout).toBe('400');
  });

  it('3. verifies the mock with the lines shown, then with generated cases into out/verify.xml', () => {
    const [plain, generated] = steps(blocks.at(-1)!.body);
    const result = run(plain.command);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0].replaceAll(`${mock.url}/`, `${README_URL}/`)).toBe(plain.shown[0]);
    const withoutTime = (line: string) => line.replace(/\(\d+(\.\d+)? s\)$/, '');
    expect(lines.map(withoutTime)).toContain(withoutTime(plain.shown.at(-1)!));
    for (const shown of plain.shown.slice(1, -1)) expect(result.stdout).toContain(shown.replace(/ \.\.\..*$/, ''));
    expect(result.status).toBe(0);
    const second = run(generated.command);
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(existsSync(join(cwd, 'out', 'verify.xml'))).toBe(true);
  }, 60_000);
});
