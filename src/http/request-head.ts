// Reads an HTTP/1.1 request head (RFC 9112) as strictly as Node's llhttp does by default: the
// framing headers decide where one request ends and the next begins, so anything ambiguous about
// them is refused, never guessed (request smuggling lives in those guesses).
// Why not http-parser-js, the pure-JS parser on npm: it accepts Content-Length values such as
// "0x10" or "1e3", lets chunked win over Content-Length, reads "1g" as a chunk size of 1, and takes
// bare LF line ends; llhttp itself is reachable only inside Node or undici's internals.

export interface RequestHead {
  method: string;
  /** The request target as sent ("/plants?x=1", or absolute-form "http://host/plants"). */
  target: string;
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minor: number;
  /** Lower-case names; repeats joined as Node joins them (see addHeader). Null prototype. */
  headers: Record<string, string | undefined>;
  authorizationCount: number;
  /** The declared body length; undefined when the body is chunked or absent. */
  contentLength: number | undefined;
  chunked: boolean;
  /** Whether the connection may carry another request after this one (RFC 9112 §9.3). */
  keepAlive: boolean;
  /** The client waits for "100 Continue" before it sends the body. */
  expectContinue: boolean;
}

export interface HeadRefusal {
  status: number;
  message: string;
}

// RFC 9112 §5: field-name ":" OWS field-value OWS, the value free of control bytes but HTAB.
// A CR or LF inside a line is a bare line end, which this reader refuses (llhttp does too).
// The line is split and trimmed by hand: one expression with a lazy value before trailing
// whitespace backtracks in cubic time on "A:" + spaces + a control byte (16 KB of spaces: hours).
/** RFC 9110 §5.6.2: one token character (tchar), as a regular expression's source. */
export const TCHAR = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]";
const TOKEN = new RegExp(`^${TCHAR}+$`);
const FIELD_VALUE = /^[^\x00-\x08\x0a-\x1f\x7f]*$/;
// RFC 9112 §3: method SP request-target SP HTTP-version; the target is visible ASCII.
const REQUEST_LINE = new RegExp(`^(${TCHAR}+) ([\\x21-\\x7e]+) HTTP\\/(\\d)\\.(\\d)$`);
const DIGITS = /^\d+$/;
// RFC 9112 §3.2: origin-form (/path), absolute-form (scheme://authority...), or * for OPTIONS.
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*(?:[/?#]|$)/;

// Node keeps the first of a repeated header whose meaning is one value (lib/_http_incoming.js,
// matchKnownFields); the engine reads headers the way Node handed them over, so this reader does too.
const FIRST_WINS = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

const refuse = (status: number, message: string): HeadRefusal => ({ status, message });

/**
 * Parses a request head: the text up to, not including, the blank line that ends it (Latin-1, one
 * character per byte). Returns the head, or the 4xx/5xx status and message to answer with.
 */
export function parseRequestHead(text: string): RequestHead | HeadRefusal {
  let end = text.indexOf('\r\n');
  if (end === -1) end = text.length;
  const line = REQUEST_LINE.exec(text.slice(0, end));
  if (line === null) return refuse(400, 'malformed HTTP request line');
  // RFC 9110 §6.2: a later minor version of HTTP/1 is read as HTTP/1.1, the latest this server knows.
  if (line[3] !== '1') return refuse(505, `HTTP/${line[3]}.${line[4]} is not supported; send HTTP/1.1`);
  const minor = line[4] === '0' ? 0 : 1;
  const method = line[1];
  const target = line[2];
  // The mock is no proxy: CONNECT's authority-form has nothing to route (Node drops the connection).
  if (method === 'CONNECT') return refuse(501, 'CONNECT is not supported: the mock is not a proxy');
  if (target.charCodeAt(0) !== 47 && !(target === '*' && method === 'OPTIONS') && !ABSOLUTE_FORM.test(target)) return refuse(400, `malformed request target "${target.slice(0, 60)}": send a path such as /plants`);

  const headers: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  let authorizationCount = 0;
  let hosts = 0;
  let contentLength: string | undefined;
  let transferEncoding: string | undefined;
  let connection: string | undefined;
  let expect: string | undefined;
  let start = end + 2;
  while (start < text.length) {
    end = text.indexOf('\r\n', start);
    if (end === -1) end = text.length;
    const field = splitField(text.slice(start, end));
    // No colon, space before it, a line starting with whitespace (obs-fold), a control byte.
    if (field === undefined) return refuse(400, 'malformed HTTP header line');
    start = end + 2;
    const name = lowerName(field[0]);
    const value = field[1];
    switch (name) {
      case 'authorization':
        authorizationCount++;
        break;
      case 'host':
        hosts++;
        break;
      case 'content-length':
        // Two Content-Length lines, even equal ones, are refused as llhttp refuses them.
        if (contentLength !== undefined) return refuse(400, 'more than one Content-Length header');
        if (!DIGITS.test(value)) return refuse(400, `Content-Length must be a number of bytes, not "${value.slice(0, 40)}"`);
        contentLength = value;
        break;
      case 'transfer-encoding':
        transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
        break;
      case 'connection':
        connection = connection === undefined ? value : `${connection}, ${value}`;
        break;
      case 'expect':
        expect = value;
        break;
    }
    addHeader(headers, name, value);
  }

  // RFC 9112 §3.2: exactly one Host in an HTTP/1.1 request.
  if (minor === 1 && hosts !== 1) return refuse(400, hosts === 0 ? 'the Host header is missing' : 'more than one Host header');

  let chunked = false;
  if (transferEncoding !== undefined) {
    // RFC 9112 §6.1 and §6.3: chunked must be the final coding, both framings at once is refused,
    // and an HTTP/1.0 message with Transfer-Encoding has faulty framing.
    if (contentLength !== undefined) return refuse(400, 'both Transfer-Encoding and Content-Length');
    if (minor === 0) return refuse(400, 'Transfer-Encoding in an HTTP/1.0 request');
    const codings = transferEncoding.split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '');
    if (codings.at(-1) !== 'chunked' || codings.indexOf('chunked') !== codings.length - 1) return refuse(400, `Transfer-Encoding must end with a single chunked, not "${transferEncoding.slice(0, 60)}"`);
    if (codings.length > 1) return refuse(501, `the transfer coding ${codings[0]} is not supported; send the body chunked only`);
    chunked = true;
  }

  let keepAlive = minor === 1;
  if (connection !== undefined) {
    const options = connection.toLowerCase();
    if (hasToken(options, 'close')) keepAlive = false;
    else if (minor === 0 && hasToken(options, 'keep-alive')) keepAlive = true;
  }

  let expectContinue = false;
  if (expect !== undefined) {
    // RFC 9110 §10.1.1: 100-continue is the only expectation; HTTP/1.0 clients cannot use it.
    if (expect.toLowerCase() !== '100-continue') return refuse(417, `the expectation "${expect.slice(0, 60)}" cannot be met`);
    expectContinue = minor === 1;
  }

  return {
    method,
    target,
    minor,
    headers,
    authorizationCount,
    contentLength: contentLength === undefined ? undefined : Number(contentLength),
    chunked,
    keepAlive,
    expectContinue,
  };
}

export function isRefusal(head: RequestHead | HeadRefusal): head is HeadRefusal {
  return (head as HeadRefusal).status !== undefined;
}

/** Whether a text is a token (RFC 9110 §5.6.2), as a method or a field name must be. */
export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/** Whether a line (without its CRLF) is a well-formed field line, as a trailer must be. */
export function isFieldLine(line: string): boolean {
  return splitField(line) !== undefined;
}

/** A field line's name and its value without the whitespace around it; undefined when malformed. */
function splitField(line: string): [string, string] | undefined {
  const colon = line.indexOf(':');
  if (colon <= 0) return undefined;
  const name = line.slice(0, colon);
  if (!TOKEN.test(name)) return undefined;
  let from = colon + 1;
  let to = line.length;
  while (from < to && isBlank(line.charCodeAt(from))) from++;
  while (to > from && isBlank(line.charCodeAt(to - 1))) to--;
  const value = line.slice(from, to);
  return FIELD_VALUE.test(value) ? [name, value] : undefined;
}

const isBlank = (code: number) => code === 32 || code === 9;

// The usual spellings are compared before toLowerCase, which builds a new string.
function lowerName(name: string): string {
  switch (name) {
    case 'Host':
      return 'host';
    case 'Authorization':
      return 'authorization';
    case 'Content-Type':
      return 'content-type';
    case 'Content-Length':
      return 'content-length';
    case 'Connection':
      return 'connection';
    default:
      return name.toLowerCase();
  }
}

function addHeader(headers: Record<string, string | undefined>, name: string, value: string): void {
  const previous = headers[name];
  if (previous === undefined) headers[name] = value;
  else if (FIRST_WINS.has(name)) return;
  else headers[name] = `${previous}${name === 'cookie' ? '; ' : ', '}${value}`;
}

function hasToken(list: string, token: string): boolean {
  if (list === token) return true;
  return list.split(',').some((item) => item.trim() === token);
}
