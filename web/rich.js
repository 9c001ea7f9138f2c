// What the page does for the rich player only (imquiz-rich.js, src/app/player.h): md4c's module,
// syntax colours and the math module, each fetched on the app's first ask, and the mirror's
// styles for Markdown texts. boot.js inserts this script before imquiz-rich.js, so a plain bank's
// page never downloads it. It adds `markdown`, `prepareHighlighter` and `math` to ImQuizHost,
// which library_imquiz.js calls.
// Written for CSP `script-src 'self' 'wasm-unsafe-eval'`: no inline script, no eval.
'use strict';

(function () {
  var host = window.ImQuizHost;

  // ---- Offline: what the first visit fetched before a worker controlled the page ------------
  // The rich player, its parts and a bank's images came from the network before the worker
  // existed: they are named to it once it controls the page, and each later such fetch when it
  // ends, so that it keeps what it keeps on first use (sw.js, ON_FIRST_USE, keepUsed) for the
  // next visit, offline. An opaque origin (a sandboxed iframe without allow-same-origin) has no
  // worker, and may not even ask: reading navigator.serviceWorker there throws.
  var used = [];
  function worker() {
    if (window.origin === 'null') return null;
    try { return navigator.serviceWorker ? navigator.serviceWorker.controller : null; } catch (e) { return null; }
  }
  function nameUsed() { var w = worker(); if (w) w.postMessage({ type: 'imquiz:used', urls: used }); }
  // A part loaded as a script or a worker is named once it has come, even when a worker controls
  // the page by then: its fetch may have started before (then the worker never saw it), and the
  // worker skips what it already keeps.
  function use(url) { used.push(new URL(url, location.href).href); nameUsed(); }
  if (!worker()) {
    // What this player fetches before a worker can see it (boot.js, watchBank; rich.css after
    // the first frame: sw.js fetches what it has not seen).
    ['rich.js', 'rich.css', 'imquiz-rich.js', 'imquiz-rich.wasm', 'imquiz-markdown.wasm', 'fonts/imquiz-sans-bold.ttf',
     'fonts/imquiz-sans-italic.ttf', 'fonts/imquiz-sans-bold-italic.ttf', 'fonts/imquiz-mono.ttf'].forEach(use);
    var load = host.load;
    host.load = function (url) {
      var fetched = load(url);
      if (!worker()) fetched.then(function () { use(url); });
      return fetched;
    };
    if (window.origin !== 'null' && navigator.serviceWorker) navigator.serviceWorker.addEventListener('controllerchange', nameUsed);
  }

  // The mirror's styles: a11y.js fills the mirror only after the first frame (boot.js), so they
  // are linked then, not in the way of that frame (their request and style pass).
  host.whenSignal('first-frame').then(function () {
    var styles = document.createElement('link');
    styles.rel = 'stylesheet';
    styles.href = 'rich.css';
    document.head.appendChild(styles);
  });

  // A script of a part (its failure is that part's, not "ImQuiz could not load": boot.js leaves
  // scripts marked data-own-errors to their own handlers).
  function partScript(url, onload, onerror) {
    var script = document.createElement('script');
    script.setAttribute('data-own-errors', '');
    script.onload = onload;
    script.onerror = onerror;
    script.src = url;
    document.head.appendChild(script);
    return script;
  }

  // ---- The Markdown module (md4c), for banks with "textFormat": "markdown" ------------------
  // Fetched and instantiated on the first ask, or as soon as this script runs when boot.js has
  // seen a Markdown bank (host.markdownSoon; it started the fetch then). prepare() answers
  // { ready } or { failed: why } or {} (on its way; the app is woken when that changes). A
  // failure is answered once: the next ask (the learner's Retry) tries again.
  var markdownModule = null, markdownLoading = false, markdownFailure = '';
  function prepareMarkdown() {
    if (markdownModule) return { ready: true };
    if (markdownFailure) { var failed = markdownFailure; markdownFailure = ''; return { failed: failed }; }
    if (markdownLoading) return {};
    markdownLoading = true;
    var url = new URL('imquiz-markdown.wasm', location.href).href;
    function fail(why) {
      host.forget(url);
      markdownLoading = false;
      markdownFailure = 'imquiz-markdown.wasm: ' + why;
      host.wake();
    }
    host.load(url).then(function (result) {
      if (result.status < 200 || result.status >= 300) return fail(result.error || 'no answer');
      var imports = {
        env: { emscripten_notify_memory_growth: function () {} },
        wasi_snapshot_preview1: { proc_exit: function (code) { throw new Error('the Markdown module stopped (' + code + ')'); } }
      };
      return WebAssembly.compile(result.bytes).then(function (module) {
        // The release module imports only the two above; a debug build (scripts/build-web.sh
        // web-debug: assertions, SAFE_HEAP) imports more (fd_write, segfault, ...), each of which
        // is only called when something went wrong there: it throws with its name.
        WebAssembly.Module.imports(module).forEach(function (wanted) {
          var from = imports[wanted.module] = imports[wanted.module] || {};
          if (wanted.kind === 'function' && !from[wanted.name]) {
            from[wanted.name] = function () { throw new Error('the Markdown module called ' + wanted.module + '.' + wanted.name); };
          }
        });
        return WebAssembly.instantiate(module, imports);
      }).then(function (instance) {
        var exports = instance.exports;
        // A debug build checks the stack's bounds at each call, against limits its glue would set.
        if (exports.__set_stack_limits) {
          exports.emscripten_stack_init();
          exports.__set_stack_limits(exports.emscripten_stack_get_base(), exports.emscripten_stack_get_end());
        }
        if (exports._initialize) exports._initialize();
        markdownModule = exports;
        markdownLoading = false;
        host.wake();
      }, function (e) { fail('could not start it (' + (e && e.message ? e.message : e) + ')'); });
    });
    return {};
  }
  // A text (UTF-8 bytes) read by the module, encoded (src/engine/markdown.h), or null if the
  // module is not there.
  function readMarkdown(text) {
    var m = markdownModule;
    if (!m) return null;
    var input = m.malloc(text.length + 1);
    if (!input) return null;
    new Uint8Array(m.memory.buffer).set(text, input);
    var start = m.imquiz_markdown_read(input, text.length);
    var size = m.imquiz_markdown_size();
    var answer = new Uint8Array(m.memory.buffer, start, size).slice();   // the view dies if memory grows
    m.free(input);
    return answer;
  }

  // ---- Syntax colours (Prism), for code blocks in a language it colours ----------------------
  // imquiz-highlight.js, added as a script on the first ask (never for a Markdown bank without
  // such code); it sets host.colourCode. prepare() answers as the Markdown module's does, but a
  // failure stays: the code is plain until the page loads again.
  var highlighterState = '';   // '', 'loading', or why it could not be had
  function prepareHighlighter() {
    if (host.colourCode) return { ready: true };
    if (highlighterState && highlighterState !== 'loading') return { failed: highlighterState };
    if (!highlighterState) {
      highlighterState = 'loading';
      var url = new URL('imquiz-highlight.js', location.href).href;
      var done = function (event) {
        if (!host.colourCode) highlighterState = 'imquiz-highlight.js: ' + (event.type === 'load' ? 'it did not start' : 'could not load it (offline?)');
        else use(url);   // named whether or not a worker controls the page now (use())
        host.wake();
      };
      partScript(url, done, done);
    }
    return {};
  }

  // ---- The math module (MathJax), for the formulas of Markdown banks ------------------------
  // imquiz-math.js runs in a worker of its own: its start-up (1.3 MB of script to compile and run)
  // and each formula's typesetting happen beside the app's own start, not on the main thread that
  // draws the question. Never for a bank without math. prepare(bank) answers as the Markdown
  // module's does; typeset() answers a formula already answered, and null for one that is not:
  // asked now, the app is woken once every formula asked has come. Where no worker can start (an
  // opaque origin: a sandboxed iframe without allow-same-origin), the module runs as a script of
  // the page instead and answers at once. Never eval: the CSP allows none.
  // A bank whose catalog entry names its formulas typeset ahead of time (scripts/check-math.mjs
  // --write) has them read from that file first: MathJax is started only for a formula the file
  // does not have (the bank was edited since), so usually never.
  var mathUrl = new URL('imquiz-math.js', location.href).href;
  var mathWorker = null, mathScript = null, mathFailure = '';
  var mathAnswers = new Map(), mathAsked = new Set();   // by formula: { encoded, mathml }; asked, not answered
  var formulaFiles = new Map();                         // by bank url: { done, taken }
  function mathKey(tex, display) { return (display ? 'D' : 'I') + tex; }
  function startMathWorker() {
    try { mathWorker = new Worker(mathUrl); } catch (e) { return false; }
    // Named to the service worker once it has come (its first answer), as the scripts are (use()).
    var named = false;
    mathWorker.onmessage = function (event) {
      var data = event.data, key = mathKey(data.tex, data.display);
      if (!named) { named = true; use(mathUrl); }
      mathAsked.delete(key);
      mathAnswers.set(key, { encoded: data.encoded, mathml: data.mathml });
      if (!mathAsked.size) host.wake();
    };
    // It could not load or start (offline, or a browser that refuses this origin a worker): the
    // page's script is tried, which says why if it fails too; what was asked is asked of it.
    mathWorker.onerror = function (event) {
      if (event && event.preventDefault) event.preventDefault();
      mathWorker.terminate();
      mathWorker = null;
      mathAsked.clear();
      startMathScript();
      host.wake();
    };
    return true;
  }
  function startMathScript() {
    mathScript = partScript(mathUrl, function () {
      if (!window.ImQuizMath) mathFailure = 'imquiz-math.js: it did not start';
      else use(mathUrl);
      host.wake();
    }, function () {
      mathScript.remove();
      mathScript = null;
      mathFailure = 'imquiz-math.js: could not load it (offline?)';
      host.wake();
    });
  }
  function startMath() {
    if (!mathWorker && !mathScript && !window.ImQuizMath && !startMathWorker()) startMathScript();
  }
  // The answers of a formulas file, as the worker gives them: an entry that is not one is left
  // out (MathJax answers that formula). The app checks each answer again (app/math.h), and the
  // mirror takes only MathML elements from one (a11y.js): the file is data like the bank.
  function takeFormulas(bytes) {
    var file;
    try { file = JSON.parse(new TextDecoder().decode(bytes)); } catch (e) { return; }
    if (!file || file.format !== 'imquiz-formulas' || file.version !== 1 || !Array.isArray(file.formulas)) return;
    var firstQuestion = (host.firstQuestionText || '').replace(/\s+/g, '');   // without white space (below)
    file.formulas.forEach(function (f) {
      if (!f || typeof f.tex !== 'string' || typeof f.display !== 'boolean' || typeof f.encoded !== 'string' ||
          !/^(ok|error)\n/.test(f.encoded) || (f.mathml !== undefined && typeof f.mathml !== 'string')) return;
      var key = mathKey(f.tex, f.display);
      if (!mathAnswers.has(key)) mathAnswers.set(key, { encoded: f.encoded, mathml: f.mathml || '' });
      // Those of the first question of the quiz a link opens (boot.js: host.firstQuestionText),
      // found with their dollars (a formula "p" of another question is in any text with a "p"),
      // white space left out: md4c gives a formula written across lines with one space for each
      // line break, less the indentation.
      if (firstQuestion && firstQuestion.indexOf('$' + f.tex.replace(/\s+/g, '') + '$') >= 0 && formulasAhead++ < FORMULAS_AHEAD)
        readFormulaAhead(f.encoded);
    });
  }
  function readFormulas(bankUrl) {
    bankUrl = new URL(bankUrl, location.href).href;
    var file = formulaFiles.get(bankUrl);
    if (file) return file;
    file = { done: false, taken: false };
    formulaFiles.set(bankUrl, file);
    readsAhead.push(host.formulasFile(bankUrl).then(function (url) { return url ? host.load(url) : null; }).then(function (result) {
      if (result && result.status >= 200 && result.status < 300) takeFormulas(result.bytes);
    }).catch(function () { /* MathJax answers them */ }).then(function () {
      file.done = true;
      host.wake();
    }));
    return file;
  }
  function prepareMath(bankUrl) {
    if (bankUrl) {
      var file = readFormulas(bankUrl);
      if (!file.done) return {};
      file.taken = true;   // the app asks for what the file lacks in the same frame
    }
    if (mathFailure) { var failed = mathFailure; mathFailure = ''; return { failed: failed }; }
    if (mathScript && !window.ImQuizMath) return {};
    return { ready: true };   // MathJax starts with the first formula not answered (typesetMath)
  }
  function typesetMath(tex, display) {
    var key = mathKey(tex, display), answer = mathAnswers.get(key);
    if (answer) return answer.encoded;
    if (window.ImQuizMath) return window.ImQuizMath.encoded(tex, display);
    startMath();
    if (mathWorker && !mathAsked.has(key)) {
      mathAsked.add(key);
      mathWorker.postMessage({ tex: tex, display: display });
    }
    return null;
  }
  // MathJax's MathML of a formula typeset for the canvas, for the mirror; '' before.
  function mathml(tex, display) {
    var answer = mathAnswers.get(mathKey(tex, display));
    if (answer) return answer.mathml;
    return window.ImQuizMath ? window.ImQuizMath.mathml(tex, display) : '';
  }

  // ---- Pictures: image files read by the browser, for library_imquiz.js to draw into textures ----
  // Reading one (an image element) takes the page's main thread between the app's frames: asked
  // for by a frame, a picture came two frames later. What the first question shows is read ahead
  // instead, and drawn into its texture the moment the app asks (docs/benchmark.md, issue 15's
  // complete question):
  // - the pictures of the quiz a link opens, fetched with the bank (boot.js names them:
  //   host.picturesSoon) and read once here, before the player's first frame;
  // - that question's formulas (eight at most), from the bank's file of typeset formulas (their
  //   pictures are the app's SVG, app/math.cpp formula_svg, less its size: a browser draws an SVG
  //   at any size as crisply).
  // A read ahead is known by its url, a formula's by its SVG; the app's ask takes it (or, when
  // none matches, has its file read then: slower, never different).
  var PICTURE_TYPES = { svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };
  var FORMULAS_AHEAD = 8, formulasAhead = 0;
  var readAhead = new Map();   // url or 'svg:' + SVG -> its read (null while its file is on its way)
  var readsAhead = [], pictureStats = { ahead: 0, taken: 0 };
  // The browser reads the file in an image element; then(f) calls f({ image }) or f({ error }),
  // at once when it has.
  function readPicture(bytes, mime) {
    var blobUrl = URL.createObjectURL(new Blob([bytes], { type: mime }));
    var image = new Image(), answer = null, waiting = [];
    function settle(result) {
      URL.revokeObjectURL(blobUrl);
      answer = result;
      waiting.splice(0).forEach(function (f) { f(answer); });
    }
    image.onload = function () { settle({ image: image }); };
    image.onerror = function () { settle({ error: 'the browser could not decode it: the file is broken, or not what its first bytes say' }); };
    image.src = blobUrl;
    return { mime: mime, then: function (f) { if (answer) f(answer); else waiting.push(f); } };
  }
  function ahead(key, bytes, mime) {
    var read = readPicture(bytes, mime);
    readAhead.set(key, read);
    pictureStats.ahead++;
    readsAhead.push(new Promise(function (resolve) { read.then(resolve); }));
  }
  function readSoon(urls) {
    urls.forEach(function (url) {
      if (readAhead.has(url)) return;
      var type = PICTURE_TYPES[url.split('.').pop().toLowerCase()];
      readAhead.set(url, null);
      readsAhead.push(host.load(url).then(function (result) {
        // Asked for meanwhile, or one the app refuses (a file over 2 MiB: engine/image_file.h).
        if (readAhead.get(url) !== null || result.status < 200 || result.status >= 300 || result.bytes.length > 2097152) return;
        ahead(url, result.bytes, type);
      }));
    });
  }
  // A formula's picture as the app makes it, less its size ('' for a formula that failed, or an
  // answer the app would refuse: decode_math_answer).
  function formulaPicture(encoded) {
    var lines = encoded.split('\n');
    if (lines[0] !== 'ok' || lines.length < 6 || !/^[0-9. e-]{1,128}$/.test(lines[4])) return '';
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + lines[4] + '" preserveAspectRatio="none" color="#ffffff">' +
      lines.slice(5).join('\n') + '</svg>';
  }
  function readFormulaAhead(encoded) {
    var svg = formulaPicture(encoded);
    if (svg && !readAhead.has('svg:' + svg)) ahead('svg:' + svg, new TextEncoder().encode(svg), 'image/svg+xml');
  }
  host.pictures = {
    // The file at `url` (absolute; '' for a formula's picture, made by the app), `mime` as the app
    // found it: its read ahead, or a read started now.
    read: function (bytes, mime, url) {
      var key = url || 'svg:' + new TextDecoder().decode(bytes).replace(/^(<svg [^>]*?) width="\d+" height="\d+"/, '$1');
      var read = readAhead.get(key);
      readAhead.delete(key);      // and a read still on its way is not made: the app has its own
      if (read && read.mime === mime) { pictureStats.taken++; return read; }
      return readPicture(bytes, mime);
    },
    soon: readSoon,
    // For tests: resolves once every read ahead is done (or could not be), those of the formulas
    // file too once it has come; how many reads ahead were made, and how many the app took.
    whenReadAhead: function whenReadAhead() {
      var count = readsAhead.length;
      return Promise.all(readsAhead).then(function () { return readsAhead.length > count ? whenReadAhead() : undefined; });
    },
    stats: function () { return { ahead: pictureStats.ahead, taken: pictureStats.taken }; }
  };
  if (host.picturesSoon) readSoon(host.picturesSoon);

  host.markdown = { prepare: prepareMarkdown, read: readMarkdown };
  // boot.js saw a Markdown bank: md4c's module is compiled now, while the player's script and
  // wasm are on their way, as the first frame cannot read that bank without it. Asked for by that
  // frame instead, it was not ready then, and the question waited a frame more. (This player
  // also runs for plain banks, when the last visit's guess stood: they never fetch the module.)
  if (host.markdownSoon) prepareMarkdown();
  host.prepareHighlighter = prepareHighlighter;
  host.math = { prepare: prepareMath, typeset: typesetMath, mathml: mathml };
  // Busy while formulas are on their way: asked of MathJax, or in a file the app has not taken yet
  // (it then asks MathJax for any the file lacks: no moment in between looks quiet).
  host.busy.push(function () {
    if (mathAsked.size > 0) return true;
    var waiting = false;
    formulaFiles.forEach(function (file) { waiting = waiting || !file.taken; });
    return waiting;
  });
  // boot.js saw formulas in the quiz a link opens (host.mathSoon: its url): its formulas file is
  // read now or, when it has none, MathJax starts now, beside the app's own start, instead of
  // after the bank is read (its start-up is most of a formula's wait).
  if (host.mathSoon) {
    var soon = host.mathSoon;
    host.formulasFile(soon).then(function (url) { if (url) readFormulas(soon); else startMath(); });
  }
})();
