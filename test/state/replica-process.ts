// One mock replica as a process of its own, for the tests of mocks sharing one Redis: started with
// its options as JSON (so that every library option, maxStateBytes included, can be given), it
// prints its URL on stdout and stops on SIGTERM as `plantstore mock` does.
import { startMockServer } from '../../src/mock/server.ts';
import { createLogger } from '../../src/log/logger.ts';

const options = JSON.parse(process.argv[2]) as Parameters<typeof startMockServer>[0];
const logger = createLogger({ format: 'text', quiet: true, stream: process.stderr });
const mock = await startMockServer({ ...options, port: 0, logger });
process.stdout.write(`${mock.url}\n`);
process.once('SIGTERM', () => void mock.close());
