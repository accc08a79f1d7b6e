// Bodies as bytes or text, with the Web's encoders, so that the engine runs where Buffer does not.
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A body as text (UTF-8; a malformed sequence becomes U+FFFD, so check isUtf8 first where that matters). */
export const textOf = (body: Uint8Array | string): string => (typeof body === 'string' ? body : decoder.decode(body));

/** A text as UTF-8 bytes. */
export const utf8Bytes = (text: string): Uint8Array => encoder.encode(text);

/** The bytes a base64 text stands for (the standard alphabet or the URL-safe one; padding optional). */
export function base64Bytes(text: string): Uint8Array {
  const binary = atob(text.replace(/[-_]/g, (c) => (c === '-' ? '+' : '/')).replace(/[^A-Za-z0-9+/]/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
