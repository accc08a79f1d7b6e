// node:http through require, not `import`: an ESM import of node:http builds its namespace by
// reading every export, which loads Node's bundled undici, a visible share of the mock's start-up
// (fast path: see docs/performance.md §10.14).
import { createRequire } from 'node:module';

export const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');
