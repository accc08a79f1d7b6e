// What every payload command shares: the --spec option, reading a FILE or stdin, and turning a
// command body's result into an exit code (a PlantstoreError into one clear message and exit 2).
import { readFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import { PlantstoreError } from '../errors.ts';
import { loadAuditedSpec } from '../example/load-audited-spec.ts';
import { DEFAULT_SPEC_PATH, type LoadedSpec } from '../document/loaded-spec.ts';
import { reportFatal } from './report-fatal.ts';

/** `--spec FILE` (default: the built-in Plant Store document). */
export const SPEC_OPTION = {
  type: 'string',
  default: DEFAULT_SPEC_PATH,
  defaultDescription: 'the built-in Plant Store document',
  describe: 'OpenAPI 3.0/3.1 or Swagger 2.0 document (YAML or JSON)',
} as const;

/** `--remote-refs`: follow `$ref`s to http(s) URLs, which are otherwise refused. */
export const REMOTE_REFS_OPTION = {
  type: 'boolean',
  default: false,
  describe: 'Fetch $refs that point to http(s) URLs (off: such a document is refused)',
} as const;

/** Adds `--spec FILE` and `--remote-refs`. */
export function withSpecOption<T>(y: Argv<T>) {
  return y.option('spec', SPEC_OPTION).option('remote-refs', REMOTE_REFS_OPTION);
}

/** Loads the document a command names; its warnings go to stderr as one line, not one per flaw. */
export async function loadCommandSpec(argv: {
  spec: string;
  'remote-refs'?: boolean;
  strict?: boolean;
}): Promise<LoadedSpec> {
  const spec = await loadAuditedSpec(argv.spec, {
    remoteRefs: argv['remote-refs'] === true,
    strict: argv.strict === true,
  });
  if (spec.warnings.length > 0) {
    process.stderr.write(
      `plantstore: ${spec.file}: ${spec.warnings.length} warning(s) about the document ` +
        '(plantstore spec --check --spec FILE lists them)\n',
    );
  }
  return spec;
}

/** Runs a command body; its result is the exit code, a thrown error is reported on stderr (exit 2). */
export async function runCommand(body: () => Promise<number>): Promise<void> {
  ignoreBrokenPipe();
  try {
    process.exitCode = await body();
  } catch (error) {
    reportFatal(error);
  }
}

/** True when a FILE argument means stdin: '-' or none. yargs-parser hands a lone '-' over as ''. */
export function isStdin(file: string | undefined): boolean {
  return file === undefined || file === '-' || file === '';
}

/** Reads a file, or stdin for '-' or no file; a missing file is a usage error. */
export async function readInput(file: string | undefined, stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (isStdin(file)) {
    if (file === undefined && stdin.isTTY)
      throw new PlantstoreError('USAGE', 'no payload: give a FILE, or pipe JSON into stdin (or pass - for stdin)');
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file as string, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new PlantstoreError('USAGE', `${file}: cannot read: ${reason}`);
  }
}

let pipeGuarded = false;

// `plantstore example ... | head` closes the pipe early; that is the reader's choice, not an error
// worth a stack trace.
function ignoreBrokenPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
