// Starts the mock on a socket: the library entry point behind `plantstore mock`.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { silentLogger, type Logger } from '../log/logger.ts';
import { collectionLines } from '../document/resource-report.ts';
import { createListener } from '../http/listener.ts';
import { gracefulClose, listen } from '../http/listen.ts';
import { loadAuditedSpec } from '../example/load-audited-spec.ts';
import { type LoadedSpec } from '../document/loaded-spec.ts';
import { PlantstoreError } from '../errors.ts';
import { createMemoryStore, type StateStore } from '../state/store.ts';
import { openFileStore } from '../state/file-store.ts';
import { openSharedStore } from './shared-store.ts';
import { IDEMPOTENCY_COLLECTION } from './idempotency.ts';
import { createMockEngine, type MockEngine } from './engine.ts';
import { resolveMockOptions, type AbsentItemMode, type MockOptions } from './options.ts';
import { documentWarnings, unmockable, verdictOf } from './admin/check-spec.ts';
import { listOperations } from '../document/operations.ts';
import { bindResources } from '../document/resources.ts';
import { absentItemWarnings } from './answer/absent-items.ts';
import { parseLatency, type Latency } from './answer/latency.ts';
import { createUnhappyPath } from './answer/unhappy-path.ts';
import { createEdge, type Loaded } from './edge.ts';
import { createMockPage } from './admin/mock-page.ts';
import { watchFiles } from './watch-files.ts';

/** How long a stopping mock lets requests in flight finish before it cuts their connections. */
const STOP_GRACE_MS = 250;

export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:4010 (the real port when started on port 0). */
  url: string;
  port: number;
  /** The engine of the document now loaded (a --watch reload replaces it). */
  readonly engine: MockEngine;
  /** With watch: resolves after the next reload, good or failed (`ok` says which). */
  nextReload(): Promise<{ ok: boolean; ms: number; message: string }>;
  /** Stops accepting, lets requests in flight finish (for 250 ms; an answer begun is finished), then resolves. */
  close(): Promise<void>;
}

export interface StartMockServerOptions extends Partial<Omit<MockOptions, 'latency'>> {
  /** Every answer's delay: 200, '100-800', '3g', or null for none. */
  latency?: Latency | string | number | null;
  logger?: Logger;
  store?: StateStore;
}

/**
 * Loads the document and starts the mock server.
 * @example const mock = await startMockServer({ port: 0 }); await fetch(`${mock.url}/plants`); await mock.close();
 */
export async function startMockServer(input: StartMockServerOptions = {}): Promise<MockServer> {
  const { logger = silentLogger, store, latency, ...partial } = input;
  const options = resolveMockOptions({ ...partial, latency: readLatency(latency) });
  if (!(options.faultRate >= 0 && options.faultRate <= 1))
    throw new PlantstoreError('USAGE', `--fault-rate must be from 0 to 1 (0.05 is 5%), got ${options.faultRate}`);
  const spec = await loadAuditedSpec(options.spec, { remoteRefs: options.remoteRefs, strict: options.strictSpec });
  const nothing = unmockable(spec);
  if (nothing !== undefined)
    throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${nothing}`, [
      'Add at least one path with an operation (get, post, ...) under `paths`.',
    ]);
  warnAbout(spec, logger, options.absentItems);
  const fileStore = store
    ? undefined
    : options.stateUrl
      ? await openSharedStore(spec, options, logger)
      : options.stateFile
        ? await openFileStore(options.stateFile, logger, { maxBytes: options.maxStateBytes })
        : undefined;
  // One store for every engine a reload makes: state outlives the document it was made under.
  const kept = store ?? fileStore ?? createMemoryStore({ maxBytes: options.maxStateBytes });
  const unhappyOptions = { latency: options.latency, faultRate: options.faultRate, seed: options.seed };
  const build = (loadedSpec: LoadedSpec, before?: Loaded): Loaded => {
    const engine = createMockEngine({
      spec: loadedSpec,
      options,
      logger,
      store: kept,
      journal: before?.engine.journal,
    });
    const unhappy = createUnhappyPath(loadedSpec, engine.operations, unhappyOptions);
    for (const warning of unhappy.warnings) logger.warn(`${loadedSpec.file}: ${warning}`);
    // The page's switches stay on for the operations that still exist.
    for (const { operation, switch: on } of before?.unhappy.describe() ?? [])
      if (on.latency !== null || on.fault !== null)
        unhappy.setSwitch(operation, on.latency?.label ?? null, on.fault, on.times);
    return { engine, unhappy };
  };
  let loaded = build(spec);
  // Which collections keep state, one line each: kept, or answered from the document and why.
  for (const line of collectionLines(loaded.engine.resources)) logger.info(`state: ${line}`);
  const page = options.admin ? createMockPage({ options }) : undefined;
  const edge = createEdge({ loaded: () => loaded, logger, page, journalSize: options.journalSize });
  const server = createListener(edge.handle, {
    maxBodyBytes: options.maxBodyBytes,
    headersTimeoutMs: options.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    maxConnections: options.maxConnections,
    errorBody: (status, message) => loaded.engine.errorBody(status, message),
    errorType: (status) => loaded.engine.errorType(status),
    onError: logger.error,
  });
  // Open connections, for a stop that has waited long enough (cutUnanswered).
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const { url, port } = await listen(server, options.host, options.port, () => fileStore?.close());
  let stopWarmUp = loaded.engine.warmUp();

  // --watch: a reload builds a whole new engine beside the one serving, then swaps the reference;
  // a request already under way keeps the engine it started with.
  let waiters: Array<(result: { ok: boolean; ms: number; message: string }) => void> = [];
  let reloading: Promise<void> | undefined;
  let again = false;
  const reload = async () => {
    const started = performance.now();
    let result: { ok: boolean; ms: number; message: string };
    // The old document's background compiling would only slow the new one's load.
    stopWarmUp();
    try {
      const next = await loadAuditedSpec(options.spec, { remoteRefs: options.remoteRefs, strict: options.strictSpec });
      const built = build(next, loaded);
      const dropped = await dropRemovedCollections(kept, built.engine);
      loaded = built;
      stopWarmUp = built.engine.warmUp();
      watcher?.watchOnly(next.files ?? [next.file]);
      const ms = performance.now() - started;
      for (const collection of dropped)
        logger.info(`${collection}: no longer in the document; its stored records are dropped`);
      result = {
        ok: true,
        ms,
        message: `reloaded ${next.file} in ${Math.round(ms)} ms: ${built.engine.operations.length} operations`,
      };
      logger.info(result.message);
    } catch (error) {
      const why =
        error instanceof PlantstoreError
          ? [error.message, ...error.details.slice(0, 5)].join('\n  ')
          : String((error as Error).message ?? error);
      result = {
        ok: false,
        ms: performance.now() - started,
        message: `reload failed; still serving the last good document. ${why}`,
      };
      logger.error(result.message);
      stopWarmUp = loaded.engine.warmUp();
    }
    const told = waiters;
    waiters = [];
    for (const tell of told) tell(result);
  };
  const onChange = () => {
    if (reloading) {
      again = true;
      return;
    }
    reloading = reload().finally(() => {
      reloading = undefined;
      if (again) {
        again = false;
        onChange();
      }
    });
  };
  const watcher = options.watch ? watchFiles(spec.files ?? [spec.file], onChange, logger.error) : undefined;
  if (watcher) {
    const others = (spec.files ?? []).length - 1;
    logger.info(
      `--watch: reloading on changes to ${spec.file}${others > 0 ? ` and the ${others} file(s) it refers to` : ''}`,
    );
  }

  return {
    url,
    port,
    get engine() {
      return loaded.engine;
    },
    nextReload: () => new Promise((resolve) => waiters.push(resolve)),
    close: gracefulClose(
      server,
      () => {
        watcher?.close();
        edge.stop();
        stopWarmUp();
        // Requests in flight get a short while to finish; past it their connections are cut, so
        // that a storm of clients cannot hold the mock up. A cut request gets no answer: nothing
        // acknowledged is lost (a change is acknowledged only once committed, and then answered).
        setTimeout(() => cutUnanswered(connections), STOP_GRACE_MS).unref();
      },
      async () => {
        try {
          await fileStore?.close();
        } finally {
          logger.flush();
        }
      },
    ),
  };
}

/**
 * Cuts every connection but those whose answer is being written: a request still being decided,
 * or still arriving, gets no answer, and a slow reader still gets the whole of an answer begun.
 */
function cutUnanswered(connections: Set<Socket>): void {
  for (const socket of connections) {
    const answer = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!answer?.headersSent) socket.destroy();
  }
}

function readLatency(latency: StartMockServerOptions['latency']): Latency | null {
  if (latency === undefined || latency === null) return null;
  if (typeof latency === 'object') return latency;
  const read = parseLatency(latency, '--latency');
  if (!read.ok) throw new PlantstoreError('USAGE', read.message);
  return read.latency;
}

/** Removes the records of collections the reloaded document no longer has (every tenant's too); returns their names. */
async function dropRemovedCollections(store: StateStore, engine: MockEngine): Promise<string[]> {
  const still = new Set([...engine.bindings.values()].map((binding) => binding.collection));
  const gone = (collection: string) => {
    const own = collection.slice(collection.indexOf('\u0000') + 1);
    return still.has(own) || own === IDEMPOTENCY_COLLECTION ? undefined : own;
  };
  const dropped = new Set<string>();
  if (store.shared) {
    // On Redis through the awaited client, as requests: one clear per collection, each one step.
    const keys = (await store.shared.read({ kind: 'keys' })) as Array<[string, string]>;
    for (const collection of new Set(keys.map(([name]) => name).filter((name) => gone(name) !== undefined))) {
      await store.shared.clear({ collection });
      dropped.add(gone(collection)!);
    }
    return [...dropped];
  }
  for (const [collection, key] of store.keys()) {
    const own = gone(collection);
    if (own === undefined) continue;
    store.remove(collection, key);
    dropped.add(own);
  }
  return [...dropped];
}

/**
 * The verdict and warnings `spec --check` prints, at start-up: a few in full, then a count
 * (GitHub-sized documents can have hundreds). The absent-item ones the engine says itself.
 */
function warnAbout(spec: LoadedSpec, logger: Logger, absentItems: AbsentItemMode): void {
  const operations = listOperations(spec);
  const bindings = bindResources(operations, spec.document);
  const warnings = documentWarnings(spec, absentItems, operations, bindings);
  logger.info(verdictOf(spec, warnings.length));
  const absent = new Set(absentItemWarnings(bindings, absentItems));
  const own = warnings.filter((warning) => !absent.has(warning));
  const shown = own.slice(0, 10);
  for (const warning of shown) logger.warn(`${spec.file}: ${warning}`);
  if (own.length > shown.length)
    logger.warn(
      `${spec.file}: ${own.length - shown.length} more warning(s); plantstore spec --check --spec FILE lists them all`,
    );
}
