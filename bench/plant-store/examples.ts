// The example generator's rate: `plantstore example NewPlant --count N --format ndjson` as a user
// runs it (wall time of the whole CLI, output to /dev/null), next to json-schema-faker alone and
// the generator in-process, both as measured by example-rate.ts.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pinned, SERVER_CORE, track } from '../lib/processes.ts';
import { runCli } from '../lib/plantstore-cli.ts';

export interface ExampleResult {
  count: number;
  /** json-schema-faker alone, in-process, examples/s (median of 3 rounds). */
  jsonSchemaFakerPerSecond?: number;
  /** The generator in-process, without the CLI's start-up, examples/s. */
  inProcessPerSecond?: number;
  /** The whole CLI, spawn to exit. */
  cliWallMs?: number;
  cliPerSecond?: number;
  skipped: string[];
}

function exampleRate(count: number): Promise<{ jsf?: number; ours?: number; problem?: string }> {
  const [command, args] = pinned(SERVER_CORE, process.execPath, [
    join(import.meta.dirname, 'example-rate.ts'),
    String(count),
  ]);
  const child = track(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  return new Promise((resolve) => {
    // 'close', not 'exit': the figures are read from its output, which may still be in the pipe at exit.
    child.once('close', (code) => {
      const figure = (label: string) => {
        const match = new RegExp(`${label}:\\s+([\\d,]+)/s`).exec(out);
        return match ? Number(match[1].replaceAll(',', '')) : undefined;
      };
      const jsf = figure('json-schema-faker alone');
      const ours = figure('plantstore example');
      if (code !== 0 || jsf === undefined)
        resolve({
          problem: `bench/plant-store/example-rate.ts failed (exit ${code}): ${(err || out).trim().split('\n').slice(-3).join(' / ')}`,
        });
      else resolve({ jsf, ours });
    });
  });
}

export async function measureExamples(count: number, say: (line: string) => void): Promise<ExampleResult> {
  const result: ExampleResult = { count, skipped: [] };
  const rate = await exampleRate(count);
  if (rate.problem) result.skipped.push(rate.problem);
  result.jsonSchemaFakerPerSecond = rate.jsf;
  result.inProcessPerSecond = rate.ours;
  const run = await runCli(['example', 'NewPlant', '--count', String(count), '--format', 'ndjson'], {
    core: SERVER_CORE,
  });
  if (run.code === 0) {
    result.cliWallMs = run.wallMs;
    result.cliPerSecond = count / (run.wallMs / 1000);
  } else result.skipped.push(`plantstore example failed (exit ${run.code}): ${run.stderr.trim().split('\n')[0]}`);
  for (const line of result.skipped) say(`  ${line}`);
  return result;
}
