// A small XML well-formedness check for the JUnit report (no XML parser is a dependency):
// one root, properly nested and closed tags, quoted attributes, known or numeric entities, no
// stray "<" or "&" in text, and only characters XML 1.0 allows.

export type XmlCheck = { ok: true } | { ok: false; message: string };

const NAME = '[A-Za-z_:][-A-Za-z0-9_:.]*';
const ATTRIBUTE = new RegExp(`^\\s+(${NAME})\\s*=\\s*("[^"<]*"|'[^'<]*')`);
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);/g;
const BAD_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export function checkWellFormedXml(xml: string): XmlCheck {
  if (BAD_CHARS.test(xml)) return { ok: false, message: 'a character XML 1.0 does not allow' };
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    const textProblem = checkText(text, stack.length > 0);
    if (textProblem) return { ok: false, message: textProblem };
    if (lt === -1) break;
    rest = rest.slice(lt);
    if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end === -1) return { ok: false, message: 'an unclosed comment' };
      rest = rest.slice(end + 3);
      continue;
    }
    const close = new RegExp(`^</(${NAME})\\s*>`).exec(rest);
    if (close) {
      if (stack.pop() !== close[1]) return { ok: false, message: `mismatched closing tag </${close[1]}>` };
      rest = rest.slice(close[0].length);
      continue;
    }
    const open = new RegExp(`^<(${NAME})`).exec(rest);
    if (!open) return { ok: false, message: `a stray "<" near ${JSON.stringify(rest.slice(0, 20))}` };
    rest = rest.slice(open[0].length);
    const seen = new Set<string>();
    for (let attribute = ATTRIBUTE.exec(rest); attribute; attribute = ATTRIBUTE.exec(rest)) {
      if (seen.has(attribute[1])) return { ok: false, message: `a repeated attribute ${attribute[1]}` };
      seen.add(attribute[1]);
      const problem = checkText(attribute[2].slice(1, -1), true);
      if (problem) return { ok: false, message: `attribute ${attribute[1]}: ${problem}` };
      rest = rest.slice(attribute[0].length);
    }
    const end = /^\s*(\/?)>/.exec(rest);
    if (!end) return { ok: false, message: `a malformed attribute in <${open[1]}>` };
    rest = rest.slice(end[0].length);
    if (stack.length === 0) roots++;
    if (end[1] !== '/') stack.push(open[1]);
  }
  if (stack.length > 0) return { ok: false, message: `unclosed <${stack[stack.length - 1]}>` };
  if (roots !== 1) return { ok: false, message: `${roots} root elements` };
  return { ok: true };
}

function checkText(text: string, insideRoot: boolean): string | undefined {
  if (!insideRoot && text.trim() !== '') return 'text outside the root element';
  if (text.includes('<')) return 'a stray "<" in text';
  if (text.replace(ENTITY, '').includes('&')) return 'an unknown entity or a bare "&"';
  return undefined;
}
