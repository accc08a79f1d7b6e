// The browser's prism-negotiator.ts: Prism is a Node program (1.6 MB gzipped, with Node built-ins).
// Its choices come with the document instead, worked out by `plantstore msw` (LoadedSpec.forcedChoices).
import type * as NodePrism from './prism-negotiator.ts';

export const loadPrism = (): NodePrism.Prism | undefined => undefined;

void (0 as unknown as typeof import('./prism-negotiator.browser.ts') satisfies Pick<typeof NodePrism, 'loadPrism'>);
