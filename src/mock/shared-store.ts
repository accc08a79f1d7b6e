// `mock --state redis://...`: the store every replica of a mock shares, namespaced by the
// document's hash (and --state-prefix), so that mocks of different documents share one Redis safely.
import { documentHash } from '../document/document-hash.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { PlantstoreError } from '../errors.ts';
import type { Logger } from '../log/logger.ts';
import type { MockOptions } from './options.ts';

/** Opens the Redis store of `options.stateUrl`; the Redis client is loaded only here. */
export async function openSharedStore(spec: LoadedSpec, options: MockOptions, logger: Logger) {
  const url = options.stateUrl!;
  if (!/^rediss?:\/\/[^\s]+$/.test(url))
    throw new PlantstoreError(
      'USAGE',
      `--state ${url}: expected a Redis URL, redis://host:port/db (rediss:// for TLS)`,
      ['Without --state the mock keeps its state in memory; --state-file FILE keeps it in a file.'],
    );
  const { openRedisStore, redisNamespace } = await import('../state/redis-store.ts');
  const store = await openRedisStore({
    url,
    namespace: redisNamespace(documentHash(spec), options.statePrefix),
    logger,
    limits: { maxBytes: options.maxStateBytes },
  });
  logger.info(
    `state: shared in Redis under ${redisNamespace(documentHash(spec), options.statePrefix)}* (the request journal ` +
      `and webhook deliveries stay per replica)`,
  );
  return store;
}
