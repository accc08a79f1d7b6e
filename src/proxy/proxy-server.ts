// Starts the proxy on a socket: the library entry point behind `plantstore proxy`. The socket is
// the mock's own adapter (src/http/listener.ts), so framing, deadlines and refusals are the same.
import { readFileSync } from 'node:fs';
import { PlantstoreError } from '../errors.ts';
import { createListener } from '../http/listener.ts';
import { gracefulClose, listen } from '../http/listen.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { createMockEngine, type MockEngine } from '../mock/engine.ts';
import { loadAuditedSpec } from '../example/load-audited-spec.ts';
import { resolveProxyOptions, type ProxyOptions } from './options.ts';
import { createProxyHandler, type ProxyHandler } from './proxy-handler.ts';
import { createUpstream } from './upstream.ts';

export interface ProxyServer {
  /** Base URL, e.g. http://127.0.0.1:4010 (the real port when started on port 0). */
  url: string;
  port: number;
  /** The mock behind --mock-missing and the admin API (its state, its store). */
  engine: MockEngine;
  /** The exchanges' journal, violation counts and recorder. */
  handler: ProxyHandler;
  /** Stops accepting, lets exchanges in flight finish, closes the upstream's connections, then resolves. */
  close(): Promise<void>;
}

export type StartProxyServerOptions = Partial<ProxyOptions> & { upstream: string; logger?: Logger };

/**
 * Loads the document and starts a validating proxy in front of `upstream`.
 * @example const proxy = await startProxyServer({ upstream: 'http://127.0.0.1:8080', port: 0 }); await
 * fetch(`${proxy.url}/plants`); await proxy.close();
 */
export async function startProxyServer(input: StartProxyServerOptions): Promise<ProxyServer> {
  const { logger = silentLogger, ...partial } = input;
  const options = resolveProxyOptions(partial);
  const upstreamUrl = parseUpstream(options.upstream);
  const ca = options.ca === null ? undefined : readCa(options.ca);
  const spec = await loadAuditedSpec(options.spec, { remoteRefs: options.remoteRefs });
  for (const warning of spec.warnings.slice(0, 10)) logger.warn(`${spec.file}: ${warning}`);
  // The engine judges requests and stands in for what the upstream lacks; its own request lines
  // and journal would repeat the proxy's, so the proxy keeps those.
  const engineLogger: Logger = { ...logger, request: () => {} };
  const engine = createMockEngine({
    spec,
    logger: engineLogger,
    options: {
      journalSize: 0,
      maxBodyBytes: options.maxBodyBytes,
      host: options.host,
      adminToken: options.adminToken,
      cors: false,
    },
  });
  const upstream = createUpstream({
    url: upstreamUrl,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    ca,
  });
  const handler = createProxyHandler({ spec, engine, upstream, options, logger });
  const server = createListener(handler.handle, {
    maxBodyBytes: options.maxBodyBytes,
    oversizedBodies: 'stream',
    headersTimeoutMs: 10_000,
    // A request's deadline covers the upstream's answer too.
    requestTimeoutMs: options.timeoutMs + 10_000,
    errorBody: engine.errorBody,
    errorType: engine.errorType,
    onError: logger.error,
  });
  const { url, port } = await listen(server, options.host, options.port, () => upstream.close());
  const stopWarmUp = engine.warmUp();
  return {
    url,
    port,
    engine,
    handler,
    close: gracefulClose(server, stopWarmUp, async () => {
      try {
        await upstream.close();
      } finally {
        logger.flush();
      }
    }),
  };
}

function parseUpstream(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PlantstoreError(
      'USAGE',
      `--upstream must be an http(s) URL such as http://127.0.0.1:8080 or https://api.example.com/v1, got ` +
        `${JSON.stringify(text)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PlantstoreError('USAGE', `--upstream must be an http(s) URL, got ${url.protocol} (${text})`);
  if (url.search !== '' || url.hash !== '')
    throw new PlantstoreError('USAGE', `--upstream takes a base URL without a query or fragment, got ${text}`);
  return url;
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new PlantstoreError(
      'USAGE',
      `--ca ${file}: cannot read: ` +
        `${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
}
