// test/documents/runner-params.yaml written by hand, sharing no code with the runner: it decodes
// every parameter in the style the document declares (form, pipeDelimited, spaceDelimited,
// deepObject, matrix), checks each security scheme against the credentials it was started with,
// and refuses anything else with 400 or 401. So a passing run means a correct server understood
// what the runner sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ParamsServerCredentials {
  headerKey: string;
  queryKey: string;
  cookieKey: string;
  /** "user:password" */
  basicAuth: string;
  bearer: string;
}

export interface ParamsServer {
  url: string;
  /** What the server decoded, per request that it accepted: "operation key=value ..." */
  decoded: string[];
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startParamsServer(credentials: ParamsServerCredentials): Promise<ParamsServer> {
  const decoded: string[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const ok = (res: ServerResponse, what: string) => {
    decoded.push(what);
    json(res, 200, { ok: true });
  };
  const bad = (res: ServerResponse, message: string) => json(res, 400, { message });
  const denied = (res: ServerResponse) => json(res, 401, { message: 'bad or missing credentials' });

  function answer(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = url.searchParams;
    const header = (name: string) => req.headers[name.toLowerCase()] as string | undefined;
    const bearer = header('authorization') === `Bearer ${credentials.bearer}`;
    const basic = header('authorization') === `Basic ${Buffer.from(credentials.basicAuth).toString('base64')}`;
    const cookie = (header('cookie') ?? '')
      .split(';')
      .map((c) => c.trim())
      .includes(`session=${credentials.cookieKey}`);

    if (url.pathname === '/search') {
      if (header('x-api-key') !== credentials.headerKey) return denied(res);
      const q = query.get('q');
      const id = header('x-request-id');
      const page = query.get('page');
      if (q === null || !/^[a-z]{1,20}$/.test(q) || id === undefined || !UUID.test(id))
        return bad(res, 'q and X-Request-Id are required');
      if (page !== null && !(Number(page) >= 1 && Number(page) <= 50)) return bad(res, 'page is 1 to 50');
      const exact = query.get('exact');
      if (exact !== null && exact !== 'true' && exact !== 'false') return bad(res, 'exact is true or false');
      return ok(res, `search q=${q}`);
    }
    const report = /^\/reports\/(\d+)\/(\d+)$/.exec(url.pathname);
    if (report) {
      if (!basic) return denied(res);
      const [year, month] = [Number(report[1]), Number(report[2])];
      if (year < 2000 || year > 2100 || month < 1 || month > 12) return bad(res, 'no such month');
      return ok(res, `getReport year=${year} month=${month}`);
    }
    const account = /^\/accounts\/([^/]+)$/.exec(url.pathname);
    if (account) {
      if (!bearer) return denied(res);
      return UUID.test(account[1]) ? ok(res, `getAccount accountId=${account[1]}`) : bad(res, 'accountId is a uuid');
    }
    if (url.pathname === '/quota')
      return query.get('api_key') === credentials.queryKey ? ok(res, 'getQuota') : denied(res);
    if (url.pathname === '/session') return cookie ? ok(res, 'getSession') : denied(res);
    if (url.pathname === '/tokens') {
      if (!bearer) return denied(res);
      const tenant = header('x-tenant');
      return tenant === undefined || tenant === 'alpha' || tenant === 'beta'
        ? ok(res, 'listTokens')
        : bad(res, 'X-Tenant is alpha or beta');
    }
    if (url.pathname === '/styled') {
      // form, explode false: one value, comma-separated.
      const tags = query.getAll('tags');
      if (tags.length !== 1) return bad(res, 'tags is one comma-separated value');
      const tagList = tags[0].split(',');
      if (tagList.length < 2 || tagList.length > 3 || !tagList.every((t) => ['red', 'green', 'blue'].includes(t)))
        return bad(res, `tags: ${tags[0]}`);
      const ids = query.get('ids');
      if (ids !== null && !/^[1-9]\|[1-9]$/.test(ids)) return bad(res, `ids is pipe-delimited: ${ids}`);
      const words = query.get('words');
      if (words !== null && !/^[ab] [ab]$/.test(words)) return bad(res, `words is space-delimited: ${words}`);
      const color = query.get('filter[color]');
      const deep = [...query.keys()].filter((key) => key.startsWith('filter'));
      if (deep.length > 0 && (deep.some((key) => key !== 'filter[color]') || !['red', 'blue'].includes(String(color))))
        return bad(res, 'filter is a deepObject with color');
      return ok(
        res,
        `styledQuery tags=${tagList.join('+')} ids=${ids ?? '-'} words=${words ?? '-'} color=${color ?? '-'}`,
      );
    }
    // matrix, explode true: ;x=1;y=2
    const point = /^\/points\/;x=(\d);y=(\d)$/.exec(url.pathname);
    if (point) return ok(res, `getPoint x=${point[1]} y=${point[2]}`);
    if (url.pathname.startsWith('/points/')) return bad(res, 'point is ;x=N;y=N');
    return json(res, 404, { message: 'not found' });
  }

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    decoded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
