// What a store that lives elsewhere (Redis) throws while it cannot be reached: the engine answers
// such a request 503 in the document's error shape, and nothing of it was stored or acknowledged.
import { PlantstoreError } from '../errors.ts';

export class StateUnavailableError extends PlantstoreError {
  constructor(message: string) {
    super('STATE_UNAVAILABLE', message);
    this.name = 'StateUnavailableError';
  }
}
