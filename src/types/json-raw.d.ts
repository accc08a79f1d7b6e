// JSON.rawJSON ships in Node 21+ (V8's JSON.parse source text access) but not yet in TypeScript's lib.
declare global {
  interface JSON {
    rawJSON(text: string): unknown;
  }
}
export {};
