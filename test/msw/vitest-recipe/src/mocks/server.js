import { setupServer } from 'msw/node';
import { createHandlers } from './plantstore.js';

export const handlers = await createHandlers({ baseUrl: 'https://api.example.test' });
export const server = setupServer(...handlers);
