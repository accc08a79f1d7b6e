// The full report as JSON (--json FILE): exact integers are written as integer literals, so the
// file round-trips through parseJson/stringifyJson without losing an int64 digit.
import { stringifyJson } from '../../json/exact-json.ts';
import type { Reporter, ReporterContext } from './index.ts';

export function createJsonReporter(context: ReporterContext): Reporter {
  return {
    end(report) {
      context.write(`${stringifyJson(report, 2)}\n`);
    },
  };
}
