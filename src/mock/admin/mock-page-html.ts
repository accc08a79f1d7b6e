// The /__mock/ page: one self-contained HTML file (styles and script inline, nothing fetched from
// elsewhere, no build step). It reads and changes the mock only through the JSON admin API, with the
// admin token the person typed (kept in sessionStorage) when the mock asks for one. Every value from
// a request is put on the page as text (textContent), never as markup.

/** The page a browser gets for GET /__mock/. */
export const MOCK_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>plantstore mock</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5rem 2rem; color: #1b1f23; background: #fafafa; }
  h1 { font-size: 1.3rem; margin: 1rem 0 0.2rem; }
  h2 { font-size: 1.05rem; margin: 1.6rem 0 0.4rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid #eee; vertical-align: top; }
  th { background: #f0f0f0; font-weight: 600; }
  code, pre, .mono { font-family: ui-monospace, monospace; font-size: 12.5px; }
  pre { margin: 0.2rem 0; white-space: pre-wrap; max-height: 14rem; overflow: auto; background: #f6f8fa; padding: \
0.4rem; }
  .s2 { color: #1a7f37; } .s3 { color: #0969da; } .s4 { color: #bc4c00; font-weight: 600; } .s5, .s0 { color: \
#cf222e; font-weight: 600; }
  .muted { color: #666; }
  .why { font-weight: 600; }
  .bar { display: flex; gap: 0.6rem; align-items: center; flex-wrap: wrap; }
  button { font: inherit; padding: 0.15rem 0.6rem; cursor: pointer; }
  textarea { width: 100%; min-height: 4rem; font-family: ui-monospace, monospace; font-size: 12.5px; }
  input.latency { width: 7rem; }
  #message { min-height: 1.3rem; }
  #message.error { color: #cf222e; }
</style>
</head>
<body>
<h1 id="title">plantstore mock</h1>
<div class="bar"><span id="summary" class="muted"></span>
  <label><input type="checkbox" id="live" checked> refresh every 2 s</label>
  <button id="refresh">Refresh now</button></div>
<div id="message" role="status"></div>

<section id="requests-section">
<h2>Recent requests</h2>
<div class="bar"><button id="clear-requests">Clear</button><span class="muted">newest first; the reason says which \
check refused a request, and where</span></div>
<table id="requests"><thead><tr><th>time</th><th>request</th><th>status</th><th>operation</th><th>why</th></tr></thead>\
<tbody></tbody></table>
</section>

<section id="state-section">
<h2>State</h2>
<div class="bar"><button id="reset-state">Reset all state</button></div>
<div id="collections"></div>
</section>

<section id="switches-section" hidden>
<h2>Latency and faults per operation</h2>
<p class="muted" id="switch-help"></p>
<table id="switches"><thead><tr><th>operation</th><th>latency (ms, 100-800 or a \
profile)</th><th>fault</th></tr></thead><tbody></tbody></table>
</section>

<section id="violations-section" hidden>
<h2>Contract violations by operation</h2>
<div class="bar"><button id="clear-violations">Clear</button><span id="violation-summary" class="muted"></span></div>
<table id="violations"><thead><tr><th>operation</th><th>where / \
code</th><th>count</th></tr></thead><tbody></tbody></table>
</section>

<script>
(() => {
  const token = sessionStorage.getItem('plantstore-admin-token');
  const $ = (id) => document.getElementById(id);
  const el = (tag, props, ...children) => {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(child === \
undefined || child === null ? '' : String(child)));
    return node;
  };
  async function api(method, path, body) {
    const headers = {};
    if (token) headers.authorization = 'Bearer ' + token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : \
JSON.stringify(body), cache: 'no-store' });
    const text = await response.text();
    let value = null;
    try { value = text ? JSON.parse(text) : null; } catch { value = { message: text }; }
    return { status: response.status, value };
  }
  const say = (text, error) => { $('message').textContent = text; $('message').className = error ? 'error' : ''; };

  // Which check refused a request, in plain words (the engine's refusal codes).
  const CHECKS = {
    'no-operation': 'No operation in the document matches this path',
    'method-not-allowed': 'The path is declared, but not for this method',
    'unauthorized': 'Credentials missing or not accepted (the security check)',
    'invalid-parameter': 'A path, query, header or cookie parameter does not fit the document',
    'unsupported-media-type': 'The body is in a media type the operation does not accept',
    'invalid-body': 'The request body does not fit its schema',
  };
  function reason(entry) {
    const cell = el('td');
    if (entry.fault) {
      cell.append(el('div', { className: 'why' }, 'Fault: ' + (entry.fault.kind === 'status' ? 'status ' + \
entry.status : entry.fault.kind)), el('div', { className: 'muted' }, 'asked by ' + entry.fault.by));
      return cell;
    }
    if (entry.refusal) cell.append(el('div', { className: 'why' }, CHECKS[entry.refusal.check] || entry.refusal.check));
    for (const v of entry.violations || []) cell.append(el('div', {}, el('span', { className: 'why' }, v.where + ' \
' + v.code), v.pointer ? ' at ' : '', v.pointer ? el('code', {}, v.pointer) : '', ': ' + v.message));
    if (!entry.violations) for (const problem of entry.problems || []) cell.append(el('div', {}, problem));
    const pointers = entry.refusal ? entry.refusal.pointers.filter((p) => p !== undefined) : [];
    if (pointers.length > 0) cell.append(el('div', { className: 'muted' }, 'at ', ...pointers.flatMap((p, i) => [i \
? ', ' : '', el('code', {}, p === '' ? '(the whole body)' : p)])));
    return cell;
  }
  async function loadRequests() {
    const { status, value } = await api('GET', '/__mock/requests?limit=100');
    if (status !== 200) return false;
    const body = $('requests').tBodies[0];
    body.replaceChildren(...value.requests.slice().reverse().map((entry) => {
      const target = entry.path + (entry.query ? '?' + entry.query : '');
      const statusText = entry.status === 0 ? 'none' : String(entry.status);
      return el('tr', { className: 'request' },
        el('td', { className: 'mono muted' }, entry.time.slice(11, 23)),
        el('td', { className: 'mono' }, entry.method + ' ' + target),
        el('td', { className: 'mono s' + String(entry.status)[0] }, statusText),
        el('td', { className: 'mono' }, entry.operationId || ''),
        reason(entry));
    }));
    return true;
  }

  let collections = [];
  async function loadState() {
    const { status, value } = await api('GET', '/__mock/state');
    if (status !== 200) { $('state-section').hidden = true; return; }
    const stored = value.collections || {};
    const names = [...new Set([...collections, ...Object.keys(stored)])];
    const box = $('collections');
    const open = new Set([...box.querySelectorAll('details[open]')].map((d) => d.dataset.name));
    const drafts = Object.fromEntries([...box.querySelectorAll('textarea')].map((t) => [t.dataset.name, t.value]));
    box.replaceChildren(...names.map((name) => {
      const records = stored[name] || [];
      const seedText = el('textarea', { value: drafts[name] !== undefined ? drafts[name] : '[]' });
      seedText.dataset.name = name;
      seedText.setAttribute('aria-label', 'items to seed into ' + name);
      const seedButton = el('button', { className: 'seed' }, 'Seed ' + name);
      seedButton.dataset.name = name;
      seedButton.onclick = async () => {
        let items;
        try { items = JSON.parse(seedText.value); } catch (error) { return say('The seed for ' + name + ' is not \
JSON: ' + error.message, true); }
        const answer = await api('POST', '/__mock/state', { [name]: items });
        if (answer.status === 201) { say('Seeded ' + name + '.'); seedText.value = '[]'; } else say('Not seeded: ' \
+ (answer.value && answer.value.message), true);
        await loadState();
      };
      const details = el('details', {}, el('summary', {}, el('span', { className: 'mono' }, name), ' ', el('span', \
{ className: 'muted count' }, records.length + ' record' + (records.length === 1 ? '' : 's'))),
        el('pre', {}, JSON.stringify(records, null, 2)), seedText, seedButton);
      details.dataset.name = name;
      details.className = 'collection';
      details.open = open.has(name);
      return details;
    }));
    if (names.length === 0) box.append(el('p', { className: 'muted' }, 'No collections: the document declares no \
create operation.'));
  }

  async function loadSwitches() {
    const { status, value } = await api('GET', '/__mock/switches');
    if (status !== 200) return;
    collections = value.collections || [];
    $('switches-section').hidden = false;
    $('switch-help').textContent = \
'A switch takes effect with the next request. Empty latency: the operation\\'s x-plantstore-latency, else --latency (' \
+ (value.latency || 'none') + '). --fault-rate ' + value.faultRate + ', --seed ' + value.seed + '. Profiles: ' \
+ Object.entries(value.profiles).map(([n, [a, b]]) => n + ' ' + a + '-' + b + ' ms').join(', ') + '.';
    const body = $('switches').tBodies[0];
    if (document.activeElement && body.contains(document.activeElement)) return; // not while someone types
    body.replaceChildren(...value.operations.map((op) => {
      const latency = el('input', { className: 'latency', value: op.switch.latency || '', placeholder: \
op.documentLatency || value.latency || 'none' });
      latency.setAttribute('aria-label', 'latency of ' + op.operation);
      const fault = el('select', {}, el('option', { value: '' }, 'none'),
        ...Object.keys(value.faults).map((kind) => el('option', { value: kind, title: value.faults[kind] }, kind)),
        ...op.statuses.map((s) => el('option', { value: String(s) }, 'status ' + s)));
      fault.value = op.switch.fault === null ? '' : String(op.switch.fault);
      fault.setAttribute('aria-label', 'fault of ' + op.operation);
      const set = async () => {
        const answer = await api('PUT', '/__mock/switches', { [op.operation]: { latency: latency.value.trim(), \
fault: fault.value } });
        if (answer.status === 200) say(op.operation + ': latency ' + (latency.value.trim() || 'as before') + ', \
fault ' + (fault.value || 'none') + ', from the next request on.');
        else say(answer.value && answer.value.message, true);
      };
      latency.onchange = set;
      fault.onchange = set;
      const row = el('tr', {}, el('td', { className: 'mono' }, op.operation, el('div', { className: 'muted' }, \
op.id)), el('td', {}, latency), el('td', {}, fault));
      row.dataset.operation = op.operation;
      return row;
    }));
  }

  async function loadViolations() {
    const { status, value } = await api('GET', '/__mock/violations');
    if (status !== 200) return;
    $('violations-section').hidden = false;
    $('violation-summary').textContent = value.exchangesWithViolations + ' of ' + value.exchanges + ' exchanges \
broke the contract (' + value.total + ' violations)';
    $('violations').tBodies[0].replaceChildren(...Object.entries(value.byOperation).flatMap(([operation, codes]) =>
      Object.entries(codes).map(([code, count]) => el('tr', {}, el('td', { className: 'mono' }, operation), \
el('td', { className: 'mono' }, code), el('td', {}, count)))));
  }

  async function refresh() {
    try {
      const ok = await loadRequests();
      if (!ok) return say('The admin API refused the page: reload it and give the admin token.', true);
      await Promise.all([loadState(), loadViolations()]);
    } catch (error) {
      say('The mock did not answer: ' + error.message, true);
    }
  }
  $('refresh').onclick = refresh;
  $('reset-state').onclick = async () => {
    const answer = await api('DELETE', '/__mock/state');
    say(answer.status === 204 ? 'State reset: every stored record removed.' : 'Not reset: ' + (answer.value && \
answer.value.message), answer.status !== 204);
    await loadState();
  };
  $('clear-requests').onclick = async () => { await api('DELETE', '/__mock/requests'); await loadRequests(); };
  $('clear-violations').onclick = async () => { await api('DELETE', '/__mock/violations'); await loadViolations(); };
  setInterval(() => { if ($('live').checked) refresh(); }, 2000);
  (async () => {
    const health = await api('GET', '/__mock/health');
    if (health.status === 200) {
      $('title').textContent = health.value.api + ' ' + health.value.version + ' — plantstore';
      document.title = health.value.api + ' — plantstore mock';
      $('summary').textContent = health.value.operations + ' operations';
    }
    await loadSwitches();
    await refresh();
  })();
})();
</script>
</body>
</html>
`;

/** The page a browser gets when the admin API wants a token: a form for it, and nothing of the mock's. */
export const TOKEN_PAGE_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>plantstore mock: admin token</title>
<style>body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; } #error { color: #cf222e; }</style></head>
<body>
<h1>plantstore mock</h1>
<p>This mock's admin page needs its admin token (the <code>--admin-token</code> or \
<code>PLANTSTORE_ADMIN_TOKEN</code> it was started with).
It stays in this tab only (sessionStorage).</p>
<form id="form"><label>Admin token <input type="password" id="token" autocomplete="off" required></label> \
<button>Open</button></form>
<p id="error" role="alert"></p>
<script>
document.getElementById('form').onsubmit = async (event) => {
  event.preventDefault();
  const token = document.getElementById('token').value.trim();
  const response = await fetch(location.pathname, { headers: { accept: 'text/html', authorization: 'Bearer ' + \
token }, cache: 'no-store' });
  if (response.status !== 200) { document.getElementById('error').textContent = 'Not accepted (' + response.status \
+ ').'; return; }
  sessionStorage.setItem('plantstore-admin-token', token);
  const html = await response.text();
  document.open(); document.write(html); document.close();
};
</script>
</body>
</html>
`;
