// The bar: SIGTERM stops the mock within 1 s, while it is still loading the document and
// once it listens. Each case gets a fresh mock.
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { plantstoreArgs, spawnTracked, startServer, stop } from './processes.ts';

export const SIGTERM_BAR_MS = 1000;
const LOADING_DELAY_MS = 50;
const GRACE_MS = 5000;

export interface SigtermResult {
  loadingMs: number;
  listeningMs: number | undefined;
  ok: boolean;
}

export async function measureSigterm(root: string, file: string, startTimeoutMs: number): Promise<SigtermResult> {
  const loading = spawnTracked(process.execPath, plantstoreArgs(root, file), root);
  loading.stdout!.resume();
  loading.stderr!.resume();
  const spawned = once(loading, 'spawn');
  await spawned;
  await delay(LOADING_DELAY_MS);
  const loadingMs = await stop(loading, GRACE_MS);
  const started = await startServer(process.execPath, plantstoreArgs(root, file), root, LISTENING, startTimeoutMs);
  const listeningMs = started.ok ? await stop(started.server.child, GRACE_MS) : undefined;
  // A document that never loads has no "listening" case; the loading one alone decides.
  return {
    loadingMs,
    listeningMs,
    ok: loadingMs < SIGTERM_BAR_MS && (listeningMs === undefined || listeningMs < SIGTERM_BAR_MS),
  };
}

/** The mock's banner, `plantstore mock: N operations (...) on http://127.0.0.1:PORT` (src/cli/commands/mock.ts). */
export const LISTENING = /^plantstore mock: .* on (http:\/\/\S+)\s*$/m;
