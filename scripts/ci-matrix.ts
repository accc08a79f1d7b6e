// Runs the README's GitHub Actions matrix recipe (the YAML block that calls merge-reports) on this
// machine, as CI would: each job of the verify matrix in its own fresh folder and processes, then
// the merge job, with the artifacts handed from one to the other. It tests the recipe as written.
//
//   node scripts/ci-matrix.ts WORKSPACE [--port 8080]
//
// WORKSPACE is the user's checkout: the document and start-my-server.sh the recipe names. In the
// recipe, `git clone ... plantstore && (cd plantstore && npm ci)` becomes a link to this checkout,
// and 127.0.0.1:8080 the given port (exported to start-my-server.sh as PORT). Exits with the merge
// job's status; prints every job's.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, globSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';

type Step = { run?: string; uses?: string; if?: string; with?: Record<string, string> };
type Job = { needs?: string; if?: string; strategy?: { matrix?: Record<string, unknown[]> }; steps: Step[] };

const root = resolve(import.meta.dirname, '..');

/** The README's matrix recipe: the yaml block that runs merge-reports. */
export function readRecipe(readme = join(root, 'README.md')): Record<string, Job> {
  const blocks = [...readFileSync(readme, 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  const recipe = blocks.find((block) => block.includes('merge-reports'));
  if (!recipe) throw new Error('README.md has no yaml block that runs merge-reports');
  return (parse(recipe) as { jobs: Record<string, Job> }).jobs;
}

/** Runs the recipe's jobs; returns each job's exit status by name ("verify 1/4", ..., "merge"). */
export async function runRecipe(
  workspace: string,
  port: number,
  log: (line: string) => void = () => {},
): Promise<Record<string, number>> {
  const jobs = readRecipe();
  const artifacts = mkdtempSync(join(tmpdir(), 'plantstore-artifacts-'));
  const statuses: Record<string, number> = {};
  // Jobs in order of `needs`: the matrix first, then the jobs that wait for it.
  const names = Object.keys(jobs).sort(
    (a, b) => Number(jobs[a].needs !== undefined) - Number(jobs[b].needs !== undefined),
  );
  for (const name of names) {
    const job = jobs[name];
    if (Object.values(statuses).some((status) => status !== 0) && !runsAfterFailure(job.if)) {
      log(`[${name}] skipped: a job it needs failed`);
      continue;
    }
    const [axis, values] = Object.entries(job.strategy?.matrix ?? {})[0] ?? [undefined, [undefined]];
    for (const value of values) {
      const label = axis === undefined ? name : `${name} ${String(value)}/${values.length}`;
      statuses[label] = await runJob(
        job,
        { workspace, port, artifacts, matrix: axis === undefined ? {} : { [axis]: String(value) } },
        (line) => log(`[${label}] ${line}`),
      );
      log(`[${label}] exit ${statuses[label]}`);
    }
  }
  return statuses;
}

interface JobContext {
  workspace: string;
  port: number;
  artifacts: string;
  matrix: Record<string, string>;
}

async function runJob(job: Job, context: JobContext, log: (line: string) => void): Promise<number> {
  // A fresh machine per job: an empty folder, the checkout copied in on actions/checkout.
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-job-'));
  const background: ChildProcess[] = [];
  let status = 0;
  const expand = (text: string) =>
    text
      .replace(/\$\{\{\s*matrix\.(\w+)\s*\}\}/g, (_, key: string) => context.matrix[key] ?? '')
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${context.port}`);
  try {
    for (const step of job.steps) {
      // After a failed step only the steps marked to run anyway do (the upload of what it wrote), as in Actions.
      if (status !== 0 && !runsAfterFailure(step.if)) continue;
      if (step.uses?.startsWith('actions/checkout')) cpSync(context.workspace, dir, { recursive: true });
      else if (step.uses?.startsWith('actions/upload-artifact')) {
        const into = join(context.artifacts, expand(step.with!.name));
        for (const file of globSync(expand(step.with!.path), { cwd: dir }))
          cpSync(join(dir, file), join(into, file), { recursive: true });
        log(`artifact ${expand(step.with!.name)}: ${into}`);
      } else if (step.uses?.startsWith('actions/download-artifact')) {
        const pattern = new RegExp(`^${expand(step.with!.pattern).replaceAll('*', '.*')}$`);
        const into = join(dir, expand(step.with!.path ?? '.'));
        mkdirSync(into, { recursive: true });
        // merge-multiple: every matching artifact's files side by side in one folder.
        for (const artifact of globSync('*', { cwd: context.artifacts }).filter((a) => pattern.test(a)))
          for (const file of globSync('**/*', { cwd: join(context.artifacts, artifact), withFileTypes: true }).filter(
            (f) => f.isFile(),
          ))
            cpSync(join(file.parentPath, file.name), join(into, basename(file.name)));
      } else if (step.run !== undefined) {
        let command = expand(step.run.trim());
        if (/^git clone .* plantstore\b/.test(command)) {
          symlinkSync(root, join(dir, 'plantstore'));
          continue;
        }
        const inBackground = command.endsWith('&');
        if (inBackground) command = command.slice(0, -1);
        const child = spawn('bash', ['-c', command], {
          cwd: dir,
          env: { ...process.env, PORT: String(context.port) },
          detached: inBackground,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout!.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
        child.stderr!.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
        if (inBackground) {
          background.push(child);
          continue;
        }
        const code = await new Promise<number>((done) => child.on('close', (exit) => done(exit ?? 1)));
        if (code !== 0 && status === 0) status = code;
      }
    }
  } finally {
    // The job's machine goes away with it: its background processes are stopped, and waited for.
    await Promise.all(
      background.map((child) => {
        if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return undefined;
        const gone = new Promise((done) => child.on('close', done));
        process.kill(-child.pid, 'SIGTERM');
        return gone;
      }),
    );
  }
  return status;
}

const runsAfterFailure = (condition: string | undefined) =>
  condition !== undefined && /always\(\)|!\s*cancelled\(\)/.test(condition);

if (import.meta.main) {
  const [workspace, ...rest] = process.argv.slice(2);
  if (!workspace) {
    console.error('usage: node scripts/ci-matrix.ts WORKSPACE [--port 8080]');
    process.exit(2);
  }
  const at = rest.indexOf('--port');
  const statuses = await runRecipe(resolve(workspace), at === -1 ? 8080 : Number(rest[at + 1]), (line) =>
    console.log(line),
  );
  console.log(JSON.stringify(statuses));
  process.exit(statuses.merge ?? 1);
}
