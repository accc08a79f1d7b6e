import { afterAll, afterEach, beforeAll } from 'vitest';
import { handlers, server } from './src/mocks/server.js';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// Each test starts with no plants and an empty request journal.
afterEach(async () => {
  await handlers.state.reset();
  handlers.journal.clear();
});
afterAll(() => server.close());
