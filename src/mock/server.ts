// Starts the mock on a socket: the library entry point behind `plantstore mock`.
import { silentLogger, type Logger } from '../log/logger.ts';
import { createListener } from '../http/listener.ts';
import { gracefulClose, listen } from '../http/listen.ts';
import { loadSpec } from '../document/load-spec.ts';
import { type LoadedSpec } from '../document/loaded-spec.ts';
import type { StateStore } from '../state/store.ts';
import { openFileStore } from '../state/file-store.ts';
import { createMockEngine, type MockEngine } from './engine.ts';
import { resolveMockOptions, type AbsentItemMode, type MockOptions } from './options.ts';
import { documentWarnings, unmockable, verdictOf } from '../document/check-spec.ts';
import { PlantstoreError } from '../errors.ts';
import { listOperations } from '../document/operations.ts';
import { bindResources } from '../document/resources.ts';
import { absentItemWarnings } from './absent-items.ts';

export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:4010 (the real port when started on port 0). */
  url: string;
  port: number;
  engine: MockEngine;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

export interface StartMockServerOptions extends Partial<MockOptions> {
  logger?: Logger;
  store?: StateStore;
}

/**
 * Loads the document and starts the mock server.
 * @example const mock = await startMockServer({ port: 0 }); await fetch(`${mock.url}/plants`); await mock.close();
 */
export async function startMockServer(input: StartMockServerOptions = {}): Promise<MockServer> {
  const { logger = silentLogger, store, ...partial } = input;
  const options = resolveMockOptions(partial);
  const spec = await loadSpec(options.spec, { remoteRefs: options.remoteRefs, strict: options.strictSpec });
  const nothing = unmockable(spec);
  if (nothing !== undefined)
    throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${nothing}`, ['Add at least one path with an operation (get, post, ...) under `paths`.']);
  warnAbout(spec, logger, options.absentItems);
  const fileStore = !store && options.stateFile ? await openFileStore(options.stateFile, logger, { maxBytes: options.maxStateBytes }) : undefined;
  const engine = createMockEngine({ spec, options, logger, store: store ?? fileStore });
  const server = createListener(engine.handle, {
    maxBodyBytes: options.maxBodyBytes,
    headersTimeoutMs: options.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    maxConnections: options.maxConnections,
    errorBody: engine.errorBody,
    errorType: engine.errorType,
    onError: logger.error,
  });
  const { url, port } = await listen(server, options.host, options.port, () => fileStore?.close());
  const stopWarmUp = engine.warmUp();
  return {
    url,
    port,
    engine,
    close: gracefulClose(server, stopWarmUp, async () => {
      try {
        await fileStore?.close();
      } finally {
        logger.flush();
      }
    }),
  };
}

/**
 * The verdict and warnings `spec --check` prints, at start-up: a few in full, then a count
 * (GitHub-sized documents can have hundreds). The absent-item ones the engine says itself.
 */
function warnAbout(spec: LoadedSpec, logger: Logger, absentItems: AbsentItemMode): void {
  const warnings = documentWarnings(spec, absentItems);
  logger.info(verdictOf(spec, warnings.length));
  const absent = new Set(absentItemWarnings(bindResources(listOperations(spec), spec.document), absentItems));
  const own = warnings.filter((warning) => !absent.has(warning));
  const shown = own.slice(0, 10);
  for (const warning of shown) logger.warn(`${spec.file}: ${warning}`);
  if (own.length > shown.length) logger.warn(`${spec.file}: ${own.length - shown.length} more warning(s); plantstore spec --check --spec FILE lists them all`);
}
