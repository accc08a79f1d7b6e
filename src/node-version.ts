// The library's Node range, checked before anything else of it loads. On an older Node its
// dependencies break while loading, with messages that do not name the cause (undici 8, the
// runner's HTTP client, dies with "Cannot read properties of undefined (reading 'bind')" on Node
// 20). The range is package.json's `engines.node`, which bin/plantstore.js reads too.
import { readFileSync } from 'node:fs';
import { PlantstoreError } from './errors.ts';

/**
 * The oldest Node the package supports, from `engines.node` (`>=24.18.0`): every dependency's
 * declared range holds there, so npm prints no EBADENGINE warning. undici 8 and swagger-parser 13
 * declare 22.19, @stoplight/prism-http and prism-core 24.18 (docs/design.md).
 */
export const OLDEST_NODE: string = (() => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  };
  const found = /^>=\s*(\d+\.\d+\.\d+)$/.exec(manifest.engines.node);
  if (!found) throw new Error(`package.json engines.node must read ">=X.Y.Z", not "${manifest.engines.node}"`);
  return found[1];
})();

/** Whether `version` (`24.21.0` or `v24.21.0`) is at least `oldest`. */
export function nodeAtLeast(version: string, oldest: string): boolean {
  const have = version.replace(/^v/, '').split('.').map(Number);
  const want = oldest.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((have[i] ?? 0) !== want[i]) return (have[i] ?? 0) > want[i];
  return true;
}

/** The one line that says a Node version is too old, with the way out, or undefined when it is not. */
export function unsupportedNodeMessage(version: string, oldest: string = OLDEST_NODE): string | undefined {
  if (nodeAtLeast(version, oldest)) return undefined;
  const major = oldest.split('.')[0];
  return (
    `plantstore needs Node ${oldest} or newer; this is Node ${version.replace(/^v/, '')}. ` +
    `Run your program on Node ${major} (\`npx -p node@${major} node app.js\`) ` +
    `or the command as \`npx -p node@${major} plantstore ...\`.`
  );
}

const message = unsupportedNodeMessage(process.versions.node);
if (message !== undefined) {
  const error = new PlantstoreError('NODE_UNSUPPORTED', message);
  // Left uncaught, Node would print its own source line, the stack and its version around the one
  // line that matters. A program that catches the failed import still gets the error itself.
  const printOnce = (thrown: unknown) => {
    process.off('uncaughtException', printOnce);
    if (thrown !== error) {
      process.nextTick(() => {
        throw thrown; // not ours: Node reports it as it would have
      });
      return;
    }
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  };
  process.on('uncaughtException', printOnce);
  // Caught by the importer: nothing more to print once this turn is over.
  setImmediate(() => process.off('uncaughtException', printOnce)).unref();
  throw error;
}
