// The three servers the Plant Store suite compares: the mock with its default settings (request
// log on, sent to a file), Prism 5.16 mocking the same document, and the bare node:http store
// (bench/lib/baseline-server.ts) that says what this machine can do at all.
import { benchServer, mockCommand, PLANT_STORE, prismCli, type ServerCommand } from '../lib/server.ts';

export type ServerName = 'plantstore' | 'prism' | 'baseline';

export interface ServerDefinition extends ServerCommand {
  name: ServerName;
  /** Whether it keeps what is created (Prism does not: its "stored" figure is meaningless). */
  stateful: boolean;
}

export const SERVERS: readonly ServerDefinition[] = [
  // Started as a test suite starts it (npx plantstore mock): the command, not `node FILE`.
  { name: 'plantstore', stateful: true, ...mockCommand('plantstore mock') },
  {
    name: 'prism',
    title: 'Prism 5.16 mock',
    stateful: false,
    args: (port) => [prismCli(), 'mock', PLANT_STORE, '--port', String(port), '--host', '127.0.0.1'],
  },
  { name: 'baseline', stateful: true, ...benchServer('bare node:http', 'baseline-server.ts', []) },
];
