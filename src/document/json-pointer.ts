// JSON pointers (RFC 6901) into a document, as `$ref` fragments write them.

/** Escapes one JSON pointer token (RFC 6901). */
export function escapePointerToken(token: string): string {
  // Nearly every token ("id", "name") has nothing to escape: no new strings for those.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Reads the value at a JSON pointer ('#/a/b' or '/a/b') in a document. */
export function getAtPointer(root: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#/, '');
  if (path === '') return root;
  let node: unknown = root;
  for (const raw of path.slice(1).split('/')) {
    const token = unescapePointerToken(raw);
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/**
 * One token of a pointer as the key it names: percent-decoded (a `$ref` is a URI fragment; a
 * malformed escape stays as written) and RFC 6901-unescaped.
 */
export function unescapePointerToken(raw: string): string {
  let token = raw;
  if (token.includes('%')) {
    try {
      token = decodeURIComponent(token);
    } catch {
      // not an escape: the text is the key
    }
  }
  return token.includes('~') ? token.replaceAll('~1', '/').replaceAll('~0', '~') : token;
}
