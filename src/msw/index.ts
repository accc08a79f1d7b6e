// plantstore/msw: the mock as MSW request handlers, in Node and in the browser (README "Frontend: MSW").
export {
  createHandlers,
  type CreateHandlersOptions,
  type HandlerMockOptions,
  type HandlerState,
  type StateScope,
  type HandlerJournal,
  type PlantstoreHandlers,
} from './handlers.ts';
export type { PreparedDocument } from './prepared.ts';
export type { DocumentSource } from './load-document.ts';
export type { WebStorage } from '../state/web-storage-store.ts';
