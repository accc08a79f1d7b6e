// Tells a server that is down or has stopped answering from one that answers wrongly. Cases that
// end without an answer (a time-out, a refused or unreachable connection) one after another mean
// the rest would only wait out the same deadline: after OUTAGE_LIMIT in a row the run stops, and
// the cases not run are skipped with the reason. Any answer, right or wrong, resets the count, and
// so does a server that still answers a plain request when the limit is reached (verify.ts asks):
// then the inputs hung it, one by one, and each time-out is a fault of its own.
import type { CaseResult } from '../report.ts';

/** Consecutive cases without an answer that stop a run. */
export const OUTAGE_LIMIT = 3;

const NO_ANSWER = new Set(['timeout', 'connection-refused', 'unreachable']);

/** Why a run stopped: `skip` for each case not run, `stopped` for the report, once. */
export interface Outage {
  skip: string;
  stopped: string;
}

/** Counts cases without an answer in the order they finish; says why to stop once there are `limit` in a row. */
export function createOutageWatch(
  limit = OUTAGE_LIMIT,
): (result: CaseResult, answersOthers?: boolean) => Outage | undefined {
  let inARow = 0;
  return (result, answersOthers = false) => {
    // A time-out while the server still answers a plain request is that input's fault: no outage.
    if (answersOthers) {
      inARow = 0;
      return undefined;
    }
    const failing = result.steps.flatMap((step) => step.findings).find((finding) => finding.severity === 'failure');
    if (!failing || !NO_ANSWER.has(failing.code)) {
      inARow = 0;
      return undefined;
    }
    inARow++;
    if (inARow < limit) return undefined;
    const what = `${limit} ${failing.code === 'timeout' ? 'time-outs' : 'failed connections'} in a row`;
    return {
      skip: `not run: the server stopped answering (${what})`,
      stopped: `the server stopped answering: ${what}, the last: ${failing.message}`,
    };
  };
}
