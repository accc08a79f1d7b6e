// qs ships no types; only the part the mock uses.
declare module 'qs' {
  export interface ParseOptions {
    depth?: number;
    arrayLimit?: number;
    parameterLimit?: number;
    allowPrototypes?: boolean;
    plainObjects?: boolean;
    duplicates?: 'combine' | 'first' | 'last';
  }
  export function parse(text: string, options?: ParseOptions): Record<string, unknown>;
  export function stringify(
    value: unknown,
    options?: { arrayFormat?: 'indices' | 'brackets' | 'repeat' | 'comma'; encode?: boolean },
  ): string;
  const qs: { parse: typeof parse; stringify: typeof stringify };
  export default qs;
}
