// Debian's Chromium for the tests that open a page (playwright-core drives it; .ci/run installs it).
// A machine without it skips those tests, loudly: a skipped browser test must not pass unseen.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Chromium binary: $PLANTSTORE_CHROMIUM, else Debian's. Undefined when there is none. */
export const CHROMIUM = [process.env.PLANTSTORE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);

/** Says on stderr, once per test file, that `testFile` (its import.meta.url) skips for want of Chromium. */
export function warnIfNoChromium(testFile: string): void {
  if (CHROMIUM) return;
  console.warn(
    `\n*** SKIPPED ${relative(process.cwd(), fileURLToPath(testFile))}: no Chromium at /usr/bin/chromium (install it: apt-get install -y chromium, or set PLANTSTORE_CHROMIUM) ***\n`,
  );
}
