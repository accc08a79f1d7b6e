// negotiator 0.6 ships no types; only the part the mock uses.
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The given media types the Accept header allows, most preferred first; without an argument, the accepted ones. */
    mediaTypes(available?: string[]): string[];
  }
}
