// Every exchange of a run, one JSON object a line (NDJSON), in the order the cases finish: the
// case, the step, the request and the answer as the report shows them (credentials redacted),
// the time it took and the codes of its findings. For tools that replay or mine a run
// (`jq`, a log store) where the JSON report's nesting is in the way.
import { stringifyJson } from '../../json/exact-json.ts';
import type { Reporter, ReporterContext } from './reporter.ts';

export function createNdjsonReporter(context: ReporterContext): Reporter {
  return {
    caseFinished(result) {
      for (const step of result.steps) {
        const line = {
          case: result.id,
          step: step.name,
          ...(step.operationId !== undefined && { operationId: step.operationId }),
          ...(step.request !== undefined && { request: step.request }),
          ...(step.response !== undefined && { response: step.response }),
          durationMs: step.durationMs,
          findings: step.findings.map((finding) => finding.code),
        };
        context.write(`${stringifyJson(line)}\n`);
      }
    },
    end() {},
  };
}
