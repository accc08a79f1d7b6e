// What an operation that fits no state convention answers, as Prism does without a Prefer
// header: its lowest declared 2xx (else `default`, else its first response), with that
// response's first example, else a body generated from its schema. Worked out from the
// document alone, once per operation: Prism's own negotiator is only loaded for forced answers.
import { jsonContent, type Operation } from '../../document/operations.ts';

export interface DocumentAnswer {
  status: number;
  schemaPointer?: string;
  /** The first declared example of the chosen content, if any. */
  example?: { value: unknown };
}

const answers = new WeakMap<Operation, DocumentAnswer>();

/** The answer the document itself suggests for an operation. */
export function documentAnswer(operation: Operation): DocumentAnswer {
  let answer = answers.get(operation);
  if (!answer) {
    answer = choose(operation);
    answers.set(operation, answer);
  }
  return answer;
}

function choose(operation: Operation): DocumentAnswer {
  const successes = operation.responses
    .filter((r) => /^2\d\d$/.test(r.status))
    .sort((a, b) => Number(a.status) - Number(b.status));
  const response =
    successes[0] ??
    operation.responses.find((r) => r.status === '2XX') ??
    operation.responses.find((r) => r.status === 'default') ??
    operation.responses[0];
  const status =
    response === undefined || !/^\d/.test(response.status)
      ? 200
      : response.status === '2XX'
        ? 200
        : Number(response.status);
  const content = response && jsonContent(response.contents);
  if (!content) return { status };
  const first = content.examples.entries().next();
  return {
    status,
    schemaPointer: content.schema === undefined ? undefined : content.schemaPointer,
    example: first.done ? undefined : { value: first.value[1] },
  };
}
