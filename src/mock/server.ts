// Starts the mock on a socket: the library entry point behind `plantstore mock`.
import { silentLogger, type Logger } from '../log/logger.ts';
import { createListener } from '../http/listener.ts';
import { gracefulClose, listen } from '../http/listen.ts';
import { loadSpec } from '../document/load-spec.ts';
import { type LoadedSpec } from '../document/loaded-spec.ts';
import type { StateStore } from '../state/store.ts';
import { openFileStore } from '../state/file-store.ts';
import { openSharedStore } from './shared-store.ts';
import { createMockEngine, type MockEngine } from './engine.ts';
import { resolveMockOptions, type MockOptions } from './options.ts';

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
  warnAbout(spec, logger);
  const fileStore = store
    ? undefined
    : options.stateUrl
      ? await openSharedStore(spec, options, logger)
      : options.stateFile
        ? await openFileStore(options.stateFile, logger, { maxBytes: options.maxStateBytes })
        : undefined;
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

/** The loader's warnings, at start-up: a few in full, then a count (GitHub-sized documents can have hundreds). */
function warnAbout(spec: LoadedSpec, logger: Logger): void {
  const shown = spec.warnings.slice(0, 10);
  for (const warning of shown) logger.warn(`${spec.file}: ${warning}`);
  if (spec.warnings.length > shown.length)
    logger.warn(`${spec.file}: ${spec.warnings.length - shown.length} more warning(s); plantstore spec --check --spec FILE lists them all`);
}
