// Prism's negotiator and its transform of a document into Prism's operations, loaded on first
// use: importing prism-http costs more than the mock's whole start-up (fast path: see
// docs/performance.md §10.8).
import { createRequire } from 'node:module';

export type Either = { _tag: 'Left'; left: Error & { detail?: string } } | { _tag: 'Right'; right: { code: string } };
export type Negotiator = {
  negotiateOptionsForValidRequest(op: unknown, options: object): (logger: object) => Either;
};
export type PrismOperation = { method: string; path: string };
export interface Prism {
  negotiator: Negotiator;
  transform(doc: object): Promise<PrismOperation[]>;
}

/** Prism, where the host can load it (Node); undefined where it cannot (a browser, see the .browser file). */
export function loadPrism(): Prism | undefined {
  const require = createRequire(import.meta.url);
  const { getHttpOperationsFromSpec } = require('@stoplight/prism-http') as {
    getHttpOperationsFromSpec(doc: object): Promise<PrismOperation[]>;
  };
  const negotiator = (
    require('@stoplight/prism-http/dist/mocker/negotiator/NegotiatorHelpers') as { default: Negotiator }
  ).default;
  return { negotiator, transform: getHttpOperationsFromSpec };
}
