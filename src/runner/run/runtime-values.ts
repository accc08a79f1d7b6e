// Evaluates OpenAPI runtime expressions (generate/runtime-expression.ts) against one exchange a
// sequence has made: what was sent and what came back.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import { getAtPointer } from '../../document/json-pointer.ts';
import type { LinkValue, RuntimeExpression } from '../runtime-expression.ts';

/** One exchange as the expressions see it. Header names in lower case. */
export interface Exchange {
  url: string;
  method: string;
  request: { params: Record<string, string>; query: string; headers: Record<string, string>; body?: JsonValue };
  response?: { status: number; headers: Record<string, string>; body?: JsonValue };
}

/** The value an expression names, or undefined when the exchange has none there. */
export function evaluate(expression: RuntimeExpression, exchange: Exchange): JsonValue | undefined {
  switch (expression.kind) {
    case 'url':
      return exchange.url;
    case 'method':
      return exchange.method;
    case 'statusCode':
      return exchange.response?.status;
  }
  const side = expression.kind === 'request' ? exchange.request : exchange.response;
  if (side === undefined) return undefined;
  switch (expression.source) {
    case 'header':
      return side.headers[expression.name.toLowerCase()];
    case 'query':
      return 'query' in side ? (new URLSearchParams(side.query).get(expression.name) ?? undefined) : undefined;
    case 'path':
      return 'params' in side && Object.hasOwn(side.params, expression.name) ? side.params[expression.name] : undefined;
    case 'body':
      return getAtPointer(side.body, expression.pointer) as JsonValue | undefined;
  }
}

/** A link value's value: an expression's (its own type), a template's text, or the constant. */
export function evaluateLinkValue(value: LinkValue, exchange: Exchange): JsonValue | undefined {
  if (value.kind === 'constant') return value.value as JsonValue;
  if (value.kind === 'expression') return evaluate(value.expression, exchange);
  let text = '';
  for (const part of value.parts) {
    if (typeof part === 'string') text += part;
    else {
      const found = evaluate(part, exchange);
      if (found === undefined) return undefined;
      text += typeof found === 'string' ? found : stringifyJson(found);
    }
  }
  return text;
}
