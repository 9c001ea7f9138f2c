// The words a bank text shows, for tests that compare what the app says (state fields such as a
// choice's feedback or the explanation, live announcements) with the bank file. A plain bank's text
// is its words. A Markdown bank's text ("textFormat": "markdown") reads as the engine's plain_text()
// of it (src/engine/rich_text.cpp): paragraphs apart by a blank line, code and math as their
// characters, an image as its alt text. Only what the launch banks use is read here: anything else
// (emphasis, links, lists, tables, escapes) throws, so a richer text cannot make a test compare
// against the wrong words unnoticed.
const UNREAD = /[*_[\]<>#|\\~]|^\s*(?:[-+]|\d+[.)])\s/m;

export function bankWords(text, bank) {
  if (!bank || bank.textFormat !== 'markdown') return text;
  const kept = [];
  const keep = (words) => `\u0000${kept.push(words) - 1}\u0000`;
  let rest = text
    .replace(/^```[^\n]*\n([\s\S]*?)\n```$/gm, (_, code) => keep(code))
    .replace(/!\[([^\]]*)\]\([^)\s]+\)/g, (_, alt) => keep(alt))
    .replace(/`([^`]+)`/g, (_, code) => keep(code))
    .replace(/\$\$([^$]+)\$\$|\$([^$]+)\$/g, (_, display, inline) => keep(display || inline));
  if (UNREAD.test(rest)) throw new Error(`bankWords reads paragraphs, code, math and images only: ${JSON.stringify(text)}`);
  rest = rest.split(/\n{2,}/).map((paragraph) => paragraph.trim()).join('\n\n');
  return rest.replace(/\u0000(\d+)\u0000/g, (_, i) => kept[Number(i)]);
}

// A plain bank made from a Markdown one, for tests about what a plain bank does (fetches, draws)
// now that the launch banks are Markdown banks: the same questions, every text as the words it
// shows, no "textFormat".
export function plainBank(bank, id) {
  const languages = new Set(bank.languages);
  const isText = (value) => value && typeof value === 'object' && !Array.isArray(value) &&
    Object.keys(value).length > 0 && Object.entries(value).every(([k, v]) => languages.has(k) && typeof v === 'string');
  const words = (value, key) => {
    if (key === 'notes') return value;
    if (isText(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bankWords(v, bank)]));
    if (Array.isArray(value)) return value.map((item) => words(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, words(v, k)]));
    return value;
  };
  const { textFormat, ...rest } = words(bank);
  return { ...rest, id };
}
