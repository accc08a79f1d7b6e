// A response value written in its media type: JSON for JSON and +json types, XML (xml-body.ts),
// text, URL-encoded and multipart forms, and bytes for binary types. The value is JSON data that
// was already checked against the schema; this only chooses its wire form.
import { stringifyJson } from '../../json/exact-json.ts';
import { isJsonMediaType } from '../../document/operations.ts';
import { resolveSchema } from '../../document/schema-shape.ts';
import { placeholderImage } from './placeholder-images.ts';
import { toXml } from '../../document/xml-body.ts';
import { base64Bytes, utf8Bytes } from '../../http/bytes.ts';

export type MediaKind = 'json' | 'xml' | 'text' | 'form' | 'multipart' | 'binary';

export interface EncodedBody {
  body: string | Uint8Array | undefined;
  /** The Content-Type to send (a multipart type gains its boundary). */
  contentType: string;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

const BINARY_APPLICATION =
  /^application\/(octet-stream|pdf|zip|gzip|x-tar|x-7z-compressed|vnd\.ms-excel|msword|wasm|x-protobuf|protobuf)$/;

const kinds = new Map<string, MediaKind>();

/** How a media type is written on the wire (worked out once per media type: answers ask on every request). */
export function mediaKind(mediaType: string): MediaKind {
  let kind = kinds.get(mediaType);
  if (kind === undefined) {
    kind = kindOf(mediaType);
    if (kinds.size < 256) kinds.set(mediaType, kind);
  }
  return kind;
}

function kindOf(mediaType: string): MediaKind {
  const essence = mediaType.split(';')[0].trim().toLowerCase();
  if (isJsonMediaType(essence)) return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  if (essence.startsWith('multipart/')) return 'multipart';
  if (/^(image|audio|video|font)\//.test(essence) || BINARY_APPLICATION.test(essence)) return 'binary';
  if (essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml')) return 'xml';
  return 'text';
}

/** Binary media types get bytes of their own (a picture) rather than a generated string. */
export function wantsOwnBytes(mediaType: string): boolean {
  return placeholderImage(mediaType) !== undefined;
}

/** Writes a checked value in a media type; `plain`: the value holds no bigint. */
export function encodeBody(
  value: unknown,
  mediaType: string,
  schema: unknown,
  document: unknown,
  plain?: boolean,
): EncodedBody {
  const kind = mediaKind(mediaType);
  if (kind === 'binary')
    return { body: toBytes(value, mediaType, resolveSchema(schema, document)), contentType: mediaType };
  if (value === undefined) return { body: undefined, contentType: mediaType };
  switch (kind) {
    case 'json':
      return { body: plain ? JSON.stringify(value) : stringifyJson(value), contentType: mediaType };
    case 'xml':
      return { body: toXml(value, schema, document), contentType: mediaType };
    case 'form':
      return { body: toForm(value).toString(), contentType: mediaType };
    case 'multipart':
      return toMultipart(value, mediaType, resolveSchema(schema, document));
    default:
      return { body: asText(value), contentType: mediaType };
  }
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : stringifyJson(value);
}

function toBytes(value: unknown, mediaType: string, schema: Obj | undefined): Uint8Array | undefined {
  if (typeof value === 'string') {
    // format: byte (3.0) and contentEncoding: base64 (3.1) say the string is the bytes in base64.
    const base64 = schema?.format === 'byte' || schema?.contentEncoding === 'base64';
    return base64 ? base64Bytes(value) : utf8Bytes(value);
  }
  if (value !== undefined) return utf8Bytes(asText(value));
  return placeholderImage(mediaType) ?? new Uint8Array(0);
}

function toForm(value: unknown): URLSearchParams {
  const form = new URLSearchParams();
  if (!isObj(value)) return form;
  for (const [name, item] of Object.entries(value)) {
    for (const one of Array.isArray(item) ? item : [item])
      form.append(name, isObj(one) || Array.isArray(one) ? stringifyJson(one) : String(one));
  }
  return form;
}

/**
 * One part per property (repeated for an array of primitives); objects as JSON parts, binary strings as octet streams.
 *
 */
function toMultipart(value: unknown, mediaType: string, schema: Obj | undefined): EncodedBody {
  const properties = isObj(schema?.properties) ? schema.properties : {};
  const parts: Array<{ name: string; type: string; text: string; file: boolean }> = [];
  for (const [name, item] of Object.entries(isObj(value) ? value : { value })) {
    const propertySchema = isObj(properties[name]) ? properties[name] : undefined;
    const file = propertySchema?.format === 'binary' || typeof propertySchema?.contentMediaType === 'string';
    const items = Array.isArray(item) && !item.some((one) => isObj(one) || Array.isArray(one)) ? item : [item];
    for (const one of items) {
      const structured = isObj(one) || Array.isArray(one);
      parts.push({
        name,
        file,
        text: structured ? stringifyJson(one) : String(one),
        type: structured ? 'application/json' : file ? 'application/octet-stream' : 'text/plain',
      });
    }
  }
  // A fixed boundary keeps answers repeatable; it only grows when a part happens to contain it.
  let boundary = 'plantstore-boundary';
  while (parts.some((p) => p.text.includes(boundary))) boundary += '-x';
  let body = '';
  for (const part of parts) {
    const disposition =
      `form-data; ` + `name="${escapeQuoted(part.name)}"${part.file ? `; filename="${escapeQuoted(part.name)}"` : ''}`;
    body +=
      `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ` + `${part.type}\r\n\r\n${part.text}\r\n`;
  }
  body += `--${boundary}--\r\n`;
  const essence = mediaType.split(';')[0].trim();
  return { body, contentType: `${essence}; boundary=${boundary}` };
}

function escapeQuoted(name: string): string {
  return name.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));
}
