// The three servers the benchmark compares, each as the command that starts it on a port.
// All run on the Node 24 running the benchmark (process.execPath), directly, so that the pid we
// spawn is the server's own process (its RSS is what we read), not a wrapper that re-executes.
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type ServerName = 'plantstore' | 'prism' | 'baseline';

/** How to start a server: what bench/server-process.ts needs. */
export interface ServerCommand {
  title: string;
  /** Node's arguments (script first) for a server on `port`. */
  args(port: number): string[];
  /**
   * Run the script as a command (its #! line picks Node and its flags, as `npx plantstore` does),
   * with this Node first on PATH.
   */
  asCommand?: boolean;
}

export interface ServerDefinition extends ServerCommand {
  name: ServerName;
  /** Whether it keeps what is created (Prism does not: its "stored" figure is meaningless). */
  stateful: boolean;
}

export const ROOT = join(import.meta.dirname, '..');
const DOCUMENT = join(ROOT, 'openapi', 'plant-store.yaml');
const prismCli = () => createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

export const SERVERS: readonly ServerDefinition[] = [
  {
    name: 'plantstore',
    title: 'plantstore mock',
    stateful: true,
    // Default settings: text request log on stderr (the benchmark sends it to a file), no --quiet;
    // started as a test suite starts it (npx plantstore mock): the command, not `node FILE`.
    args: (port) => [join(ROOT, 'bin', 'plantstore.js'), 'mock', '--port', String(port)],
    asCommand: true,
  },
  {
    name: 'prism',
    title: 'Prism 5.16 mock',
    stateful: false,
    args: (port) => [prismCli(), 'mock', DOCUMENT, '--port', String(port), '--host', '127.0.0.1'],
  },
  {
    name: 'baseline',
    title: 'bare node:http',
    stateful: true,
    args: (port) => [join(ROOT, 'bench', 'baseline-server.ts'), '--port', String(port)],
  },
];
