// The smallest valid pictures, for an image response with no example: a client that decodes the
// answer gets a picture, not random bytes labelled image/png.
import { base64Bytes, utf8Bytes } from '../../http/bytes.ts';
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const GIF_1X1 = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';
const SVG_1X1 = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';

/** A 1x1 picture in the media type (PNG, GIF, SVG), or undefined for formats without one here. */
export function placeholderImage(mediaType: string): Uint8Array | undefined {
  if (mediaType === 'image/png' || mediaType === 'image/*') return base64Bytes(PNG_1X1);
  if (mediaType === 'image/gif') return base64Bytes(GIF_1X1);
  if (mediaType === 'image/svg+xml') return utf8Bytes(SVG_1X1);
  return undefined;
}
