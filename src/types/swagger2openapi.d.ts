// swagger2openapi ships no types; the one function the loader calls.
declare module 'swagger2openapi' {
  const swagger2openapi: {
    convertObj(
      document: object,
      options: { patch?: boolean; warnOnly?: boolean; resolve?: boolean; direct?: boolean },
    ): Promise<{ openapi: Record<string, unknown> }>;
  };
  export default swagger2openapi;
}
