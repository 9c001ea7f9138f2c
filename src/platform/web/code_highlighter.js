// imquiz-highlight.js: Prism's tokenizer with the grammars of the languages ImQuiz colours,
// bundled and minified by scripts/assemble-site.sh, and added to the page by boot.js only when a
// code block in one of them is shown. It sets ImQuizHost.colourCode(language, code), which
// answers the code's colours as engine/code_colours.h reads them: "begin,length,kind,..." in
// UTF-8 bytes of the code, spans in order, kinds numbered as rich_text.h's CodeKind. The app
// checks every answer (read_code_spans) and keeps a broken one plain, so nothing here can
// mis-slice a text; this file never touches the DOM.

// Before Prism's core runs: no highlighting of the page on its own, no worker message listener.
self.Prism = { manual: true, disableWorkerMessageHandler: true };
var Prism = require('prismjs/components/prism-core');
require('prismjs/components/prism-clike');
require('prismjs/components/prism-c');
require('prismjs/components/prism-cpp');
require('prismjs/components/prism-python');
require('prismjs/components/prism-bash');
require('prismjs/components/prism-json');
require('prismjs/components/prism-yaml');

// CodeKind (src/engine/rich_text.h), in its order.
var KINDS = ['keyword', 'string', 'number', 'comment', 'function', 'type', 'builtin', 'operator', 'punctuation',
  'property', 'variable', 'constant'];

// The one table from Prism's token types (and aliases) to our kinds, for every grammar above. A
// token's own type decides first, then its aliases in order; a token with neither in the table
// takes the kind of the token around it (a macro's parts, an assignment's name), or none.
var KIND_OF_TOKEN = {
  keyword: 'keyword', directive: 'keyword', 'directive-hash': 'keyword', atrule: 'keyword',
  string: 'string', char: 'string', 'raw-string': 'string', 'triple-quoted-string': 'string', scalar: 'string',
  regex: 'string',
  number: 'number', datetime: 'number',
  comment: 'comment', shebang: 'comment',
  'function': 'function', 'function-name': 'function', 'macro-name': 'function', decorator: 'function',
  annotation: 'function',
  'class-name': 'type', tag: 'type', namespace: 'type',
  builtin: 'builtin',
  operator: 'operator',
  punctuation: 'punctuation',
  property: 'property', key: 'property', 'attr-name': 'property',
  variable: 'variable', 'assign-left': 'variable', parameter: 'variable', anchor: 'variable', alias: 'variable',
  constant: 'constant', 'boolean': 'constant', 'null': 'constant', environment: 'constant', important: 'constant',
  symbol: 'constant'
};

function kindOf(token, around) {
  var names = [token.type].concat(token.alias || []);
  for (var i = 0; i < names.length; i++) {
    if (Object.prototype.hasOwnProperty.call(KIND_OF_TOKEN, names[i])) return KINDS.indexOf(KIND_OF_TOKEN[names[i]]);
  }
  return around;
}

// Bytes of `text` in UTF-8 (a surrogate pair is one 4-byte character).
function utf8Length(text) {
  var bytes = 0;
  for (var i = 0; i < text.length; i++) {
    var c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < text.length) { bytes += 4; i++; }
    else bytes += 3;
  }
  return bytes;
}

function colourCode(language, code) {
  var grammar = Prism.languages[language];
  if (!grammar) return '';
  var spans = [], at = 0;
  function add(content, kind) {
    if (typeof content === 'string') {
      var length = utf8Length(content);
      if (kind >= 0 && /\S/.test(content)) {   // blanks have no colour to show
        var last = spans.length - 3;
        // Neighbours of one kind are one span: fewer to carry and to draw.
        if (last >= 0 && spans[last + 2] === kind && spans[last] + spans[last + 1] === at) spans[last + 1] += length;
        else spans.push(at, length, kind);
      }
      at += length;
    } else if (Array.isArray(content)) {
      for (var i = 0; i < content.length; i++) add(content[i], kind);
    } else {
      add(content.content, kindOf(content, kind));
    }
  }
  try {
    add(Prism.tokenize(code, grammar), -1);
  } catch (e) {
    return '';   // a grammar that chokes on this code: it stays plain
  }
  return spans.join(',');
}

if (self.ImQuizHost) self.ImQuizHost.colourCode = colourCode;
