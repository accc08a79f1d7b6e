// The library's Node range, checked before anything else of it loads. On an older Node its
// dependencies break while loading, with messages that do not name the cause (undici 8, the
// runner's HTTP client, dies with "Cannot read properties of undefined (reading 'bind')" on Node
// 20). The `plantstore` command never meets this: on an older Node it runs on its bundled Node 24.
import { PlantstoreError } from './errors.ts';

/**
 * The oldest Node the library runs on: undici 8 and @apidevtools/swagger-parser 13 declare 22.19.
 * (@stoplight/prism-http declares 24.18; it is loaded only for `Prefer`-forced answers, and the
 * test suite passes on Node 22.)
 */
export const OLDEST_LIBRARY_NODE = '22.19.0';

/** The one line that says a Node version is too old for the library, or undefined when it is not. */
export function unsupportedNodeMessage(version: string): string | undefined {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  const [oldestMajor, oldestMinor] = OLDEST_LIBRARY_NODE.split('.').map(Number);
  if (major > oldestMajor || (major === oldestMajor && minor >= oldestMinor)) return undefined;
  return `plantstore's library needs Node ${oldestMajor}.${oldestMinor} or newer; this is Node ${version.replace(/^v/, '')}. The plantstore command works on Node 20 through its bundled Node 24.`;
}

const message = unsupportedNodeMessage(process.versions.node);
if (message !== undefined) throw new PlantstoreError('NODE_UNSUPPORTED', message);
