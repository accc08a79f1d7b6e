// How a parameter is written on the wire (OpenAPI 3.x "Style Values"): the one place that says which
// styles each location allows, the default style and the default explode. The mock reads
// parameters by it (src/mock/request/parameter-styles.ts) and the runner writes them by it
// (src/runner/generate/parameter-style.ts), so what one writes the other reads back.
import type { ParameterSpec } from './operations.ts';

export type ParameterStyle = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
export type ParameterLocation = ParameterSpec['in'];

export interface ParameterFormat {
  style: ParameterStyle;
  explode: boolean;
  /** Query only: RFC 3986 reserved characters are sent unencoded. */
  allowReserved: boolean;
}

/**
 * The styles each location allows, its default first (the specification's table). A form body's fields (`encoding`)
 * follow the query's rules.
 */
export const STYLES_BY_LOCATION: Readonly<Record<ParameterLocation, readonly ParameterStyle[]>> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
};

/**
 * The style, explode and allowReserved a parameter (or a form body's `encoding` entry) declares, with OpenAPI's
 * defaults. A style its location does not allow (`simple` in the query, `form` in a header) is taken as the
 * location's default, as Prism does; explode then defaults by that style (true for form only).
 */
export function declaredFormat(
  location: ParameterLocation,
  declared: { style?: unknown; explode?: unknown; allowReserved?: unknown },
): ParameterFormat {
  const allowed = STYLES_BY_LOCATION[location] ?? STYLES_BY_LOCATION.query;
  const style = allowed.find((s) => s === declared.style) ?? allowed[0];
  const explode = typeof declared.explode === 'boolean' ? declared.explode : style === 'form';
  return { style, explode, allowReserved: location === 'query' && declared.allowReserved === true };
}
