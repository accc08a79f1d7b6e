// The full report as JSON (--json FILE): exact integers are written as integer literals, so the
// file round-trips through parseJson/stringifyJson without losing an int64 digit. Written a case
// at a time: a run over Stripe's document (3,000+ cases with 100 KB answers) makes a report larger
// than the longest string V8 can hold, which one JSON.stringify of the whole report would need.
import { stringifyJson } from '../../json/exact-json.ts';
import type { Reporter, ReporterContext } from './reporter.ts';

export function createJsonReporter(context: ReporterContext): Reporter {
  return {
    end(report) {
      const { cases, ...rest } = report;
      const head = stringifyJson({ ...rest, cases: [] }, 2);
      // `"cases": []` is the last property of the head: the cases go between its brackets.
      const open = head.lastIndexOf('[]');
      context.write(`${head.slice(0, open)}[`);
      cases.forEach((testCase, index) => {
        const text = stringifyJson(testCase, 2).replaceAll('\n', '\n    ');
        context.write(`${index === 0 ? '' : ','}\n    ${text}`);
      });
      context.write(`${cases.length > 0 ? '\n  ' : ''}]${head.slice(open + 2)}\n`);
    },
  };
}
