// Which declared media type answers a request: the Accept header (q-values, wildcards) read by
// `negotiator`, the library Express and Prism's dependency tree use. Without Accept, or with one
// that accepts anything, JSON is preferred, as Prism does.
import Negotiator from 'negotiator';
import { jsonContent, type MediaContent } from '../../document/operations.ts';

export type Negotiated =
  /** `mediaType`: what the answer's Content-Type says (a concrete type, even for a declared range). */
  | { kind: 'content'; content: MediaContent; mediaType: string }
  | { kind: 'none' }
  | { kind: 'not-acceptable'; declared: string[] };

const NONE: Negotiated = Object.freeze({ kind: 'none' });

// A client sends the same few Accept headers again and again: each is negotiated once per list of
// contents (a declared response's), and at most 32 are kept per list.
const known = new WeakMap<MediaContent[], Map<string, Negotiated>>();

/**
 * Picks the content of a response for an Accept header; `lenient` falls back to the preferred content instead of
 * refusing.
 */
export function negotiateContent(contents: MediaContent[], accept: string | undefined, lenient = false): Negotiated {
  let byAccept = known.get(contents);
  if (!byAccept) {
    byAccept = new Map();
    known.set(contents, byAccept);
  }
  const key = `${lenient ? 'l' : 's'}${accept ?? ''}`;
  let chosen = byAccept.get(key);
  if (chosen === undefined) {
    chosen = negotiate(contents, accept, lenient);
    if (byAccept.size < 32) byAccept.set(key, chosen);
  }
  return chosen;
}

function negotiate(contents: MediaContent[], accept: string | undefined, lenient: boolean): Negotiated {
  if (contents.length === 0) return NONE;
  if (acceptsAnything(accept)) return preferred(contents);
  const negotiator = new Negotiator({ headers: { accept } });
  const concrete = contents.filter((c) => !c.mediaType.includes('*'));
  const [best] = negotiator.mediaTypes(concrete.map((c) => c.mediaType));
  if (best !== undefined)
    return { kind: 'content', content: concrete.find((c) => c.mediaType === best)!, mediaType: best };
  // `application/vnd.x+json; version=1` where the document declares `application/vnd.x+json`:
  // a parameter the declared type does not name does not set them apart (Prism agrees), so the
  // accepted ranges are tried again with such parameters left out (q stays: it is a weight).
  const plain = withoutParameters(accept ?? '');
  if (plain !== accept) {
    const bare = concrete.filter((c) => !c.mediaType.includes(';'));
    const [again] = new Negotiator({ headers: { accept: plain } }).mediaTypes(bare.map((c) => c.mediaType));
    if (again !== undefined)
      return { kind: 'content', content: bare.find((c) => c.mediaType === again)!, mediaType: again };
  }
  // A declared range (image/*, */*) answers with the most preferred accepted type it covers.
  for (const wanted of negotiator.mediaTypes()) {
    if (wanted.includes('*')) continue;
    const range = contents.find((c) => covers(c.mediaType, wanted));
    if (range) return { kind: 'content', content: range, mediaType: wanted };
  }
  if (lenient) return preferred(contents);
  return { kind: 'not-acceptable', declared: contents.map((c) => c.mediaType) };
}

/** An Accept header's ranges without their media-type parameters (the weight `q` and what follows it are kept). */
function withoutParameters(accept: string): string {
  return accept
    .split(',')
    .map((range) => {
      const [type, ...parameters] = range.split(';');
      const weight = parameters.findIndex((p) => /^\s*q\s*=/i.test(p));
      return [type.trim(), ...(weight === -1 ? [] : parameters.slice(weight))].join(';');
    })
    .join(', ');
}

function acceptsAnything(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  const trimmed = accept.trim();
  return trimmed === '' || trimmed === '*/*';
}

/** JSON first (application/json, then any +json type), else the first declared content. */
function preferred(contents: MediaContent[]): Negotiated {
  const content =
    jsonContent(contents.filter((c) => !c.mediaType.includes('*'))) ??
    contents.find((c) => !c.mediaType.includes('*')) ??
    contents[0];
  return { kind: 'content', content, mediaType: concreteType(content.mediaType) };
}

/** A declared range answers as the most general concrete type in it. */
function concreteType(mediaType: string): string {
  if (!mediaType.includes('*')) return mediaType;
  if (mediaType === '*/*' || mediaType === 'application/*') return 'application/json';
  if (mediaType === 'text/*') return 'text/plain';
  if (mediaType === 'image/*') return 'image/png';
  return 'application/octet-stream';
}

function covers(range: string, type: string): boolean {
  if (!range.includes('*')) return false;
  if (range === '*/*') return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}
