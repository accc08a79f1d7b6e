// The browser's prism-negotiator.ts: Prism is a Node program (1.6 MB gzipped, with Node built-ins).
// Its choices come with the document instead, worked out by `plantstore msw` (LoadedSpec.forcedChoices).
import type { Prism } from './prism-negotiator.ts';

export const loadPrism = (): Prism | undefined => undefined;
