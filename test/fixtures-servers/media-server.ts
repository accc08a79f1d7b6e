// test/documents/runner-media.yaml written by hand, sharing no code with the runner or the mock:
// it reads form and multipart bodies with the platform's own parser (undici's Response.formData)
// and answers CSV and plain text, so the runner's non-JSON handling is judged from outside.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MEDIA_DEFECTS = [
  /** Serves the export as text/html, a media type the document does not declare. */
  'html-export',
  /** Serves the status as JSON that breaks its schema ("ok" a string). */
  'wrong-status-json',
] as const;

export type MediaDefect = (typeof MEDIA_DEFECTS)[number];

/** A form field as the server parsed it: text, or a file part with its name and type. */
export type ParsedField = string | { file: string; type: string; text: string };

export interface MediaServer {
  url: string;
  /** Every form or multipart body, parsed, in order: operation path and its fields. */
  forms: Array<{ path: string; contentType: string; fields: Array<[string, ParsedField]> }>;
  close(): Promise<void>;
}

export async function startMediaServer(defect?: MediaDefect): Promise<MediaServer> {
  const forms: MediaServer['forms'] = [];
  const send = (res: ServerResponse, status: number, type: string, text: string) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    send(res, status, 'application/json', JSON.stringify(body));

  async function answer(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const contentType = req.headers['content-type'] ?? '';
    if (req.method === 'POST' && (path === '/signups' || path === '/uploads')) {
      // Each form is checked against its schema in the document, field by field.
      let data: FormData;
      try {
        data = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
      } catch (error) {
        return json(res, 400, { message: `not a form: ${(error as Error).message}` });
      }
      const fields: Array<[string, ParsedField]> = [];
      for (const [name, value] of data)
        fields.push([
          name,
          typeof value === 'string' ? value : { file: value.name, type: value.type, text: await value.text() },
        ]);
      forms.push({ path, contentType, fields });
      const problem = path === '/signups' ? signupProblem(contentType, data) : await uploadProblem(contentType, data);
      return problem ? json(res, 400, { message: problem }) : json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/notes')
      return body.length > 0 && contentType.startsWith('text/plain')
        ? json(res, 200, { ok: true })
        : json(res, 400, { message: 'a text body is required' });
    if (req.method === 'GET' && path === '/exports')
      return send(res, 200, defect === 'html-export' ? 'text/html' : 'text/csv; charset=utf-8', 'id,name\n1,first\n');
    if (req.method === 'GET' && path === '/status')
      return defect === 'wrong-status-json' ? json(res, 200, { ok: 'yes' }) : send(res, 200, 'text/plain', 'ok');
    return json(res, 404, { message: 'not found' });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void answer(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forms,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function signupProblem(contentType: string, data: FormData): string | undefined {
  if (!contentType.startsWith('application/x-www-form-urlencoded')) return 'send a urlencoded form';
  if (!String(data.get('email') ?? '').includes('@')) return 'email is required';
  if (!['free', 'team'].includes(String(data.get('plan')))) return 'plan is free or team';
  const seats = data.get('seats');
  if (seats !== null && !(/^\d+$/.test(String(seats)) && Number(seats) >= 1 && Number(seats) <= 10))
    return 'seats is 1 to 10';
  const topics = data.getAll('topics').map(String);
  if (topics.length > 3 || !topics.every((topic) => topic === 'news' || topic === 'tips'))
    return 'topics: at most 3 of news, tips';
  return undefined;
}

async function uploadProblem(contentType: string, data: FormData): Promise<string | undefined> {
  if (!contentType.startsWith('multipart/form-data')) return 'send multipart/form-data';
  const file = data.get('file');
  if (file === null || typeof file === 'string') return 'a file part is required';
  const note = data.get('note');
  if (note !== null && String(note).length > 40) return 'note is at most 40 characters';
  const meta = data.get('meta');
  if (meta !== null) {
    const text = typeof meta === 'string' ? meta : await meta.text();
    const size = (JSON.parse(text) as { size?: unknown }).size;
    if (size !== undefined && !(Number.isInteger(size) && (size as number) >= 0)) return 'meta.size is a whole number';
  }
  return undefined;
}
