// ImQuiz page runtime: everything the C++ app needs from the browser, in plain JavaScript.
// The wasm side reaches it only through src/platform/web/ (library_imquiz.js calls `ImQuizHost`).
// Written for CSP `script-src 'self' 'wasm-unsafe-eval'`: no inline script, no eval.
'use strict';

(function () {
  var params = new URLSearchParams(location.search);
  var statusBox = document.getElementById('status');

  // "https://LMS.example:443/" -> "https://lms.example"; null for anything that is not an http(s)
  // origin alone (a path, a query, credentials, "*", "null").
  function normalizedOrigin(text) {
    if (typeof text !== 'string' || /[?#@\\*]/.test(text)) return null;
    var url;
    try { url = new URL(text.trim()); } catch (e) { return null; }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/') return null;
    return url.origin;
  }

  // ---- Fatal states: never a blank page ----------------------------------------------------
  function showProblem(title, text, buttonLabel, onButton) {
    statusBox.hidden = false;
    statusBox.className = 'failed';
    statusBox.setAttribute('role', 'alert');
    statusBox.textContent = '';
    var h = document.createElement('h1'); h.textContent = title; statusBox.appendChild(h);
    var p = document.createElement('p'); p.textContent = text; statusBox.appendChild(p);
    if (buttonLabel) {
      var b = document.createElement('button'); b.type = 'button'; b.textContent = buttonLabel;
      b.addEventListener('click', onButton); statusBox.appendChild(b); b.focus();
    }
    document.getElementById('canvas').style.visibility = 'hidden';
    document.getElementById('app').removeAttribute('aria-busy');
    host.signal('fatal');
  }
  function reload() { location.reload(); }

  function cannotDraw() {
    showProblem('This browser cannot draw ImQuiz', 'ImQuiz draws with WebGL 2, which is switched off or ' +
      'not supported here (it is sometimes disabled by graphics-driver blocklists or strict privacy ' +
      'settings). Please try another browser or enable hardware acceleration.');
  }

  // ---- Storage: localStorage probed for real, with an in-memory fallback --------------------
  // Namespaced by the deployment's folder so two ImQuiz copies on one origin never collide.
  var namespace = 'imquiz:' + new URL('.', location.href).pathname + ':';
  var memory = new Map();          // the fallback, and writes localStorage refused
  var local = null;
  var storageProblem = '';
  try {
    var candidate = window.localStorage;           // the property access itself may throw
    var probeKey = namespace + '__probe__';
    candidate.setItem(probeKey, '1');
    if (candidate.getItem(probeKey) !== '1') throw new Error('read back failed');
    candidate.removeItem(probeKey);
    local = candidate;
  } catch (e) {
    storageProblem = (e && e.name) || 'unavailable';
  }
  var changedKeys = [];
  window.addEventListener('storage', function (event) {
    if (event.storageArea !== local || !event.key || event.key.indexOf(namespace) !== 0) return;
    changedKeys.push(event.key.substring(namespace.length));
    host.wake();
  });

  // ---- Fetches: started early, handed to the app when it asks ----------------------------
  // Keyed by absolute URL: the head start below and the app's own request (library_imquiz.js
  // resolves it against the page) must find the same entry, or every file is fetched twice.
  var fetches = new Map();         // absolute url -> Promise<{status, bytes, error}>
  var blockedByPolicy = new Set(); // origins this page's Content-Security-Policy refused to connect to
  document.addEventListener('securitypolicyviolation', function (event) {
    try { blockedByPolicy.add(new URL(event.blockedURI).origin); } catch (e) { /* 'inline', 'eval' */ }
  });
  // Why a request to another site failed, in words an author can act on. The browser hides the
  // reason from scripts; a refused connection, a missing CORS header and this page's own
  // connect-src policy look the same, except that the last one raises a policy violation event.
  function crossOriginProblem(url) {
    var origin = new URL(url).origin;
    return new Promise(function (resolve) { setTimeout(resolve, 50); }).then(function () {
      if (blockedByPolicy.has(origin)) {
        return 'this page\'s Content-Security-Policy does not allow connecting to ' + origin +
               ' (add it to connect-src)';
      }
      return 'could not read ' + url + ': the server at ' + origin + ' is unreachable or does not allow ' +
             'other sites to read it (it must send Access-Control-Allow-Origin)';
    });
  }
  // A response is copied whole into the wasm heap (512 MB at most): a huge one would run the module
  // out of memory. The engine refuses banks over 16 MiB (quizzes/README.md, Limits); the same limit
  // here, said in the engine's words, saves downloading what it would refuse.
  var maxResponseBytes = 16 * 1024 * 1024;
  function tooLarge(size) {
    return { status: 0, bytes: new Uint8Array(0),
             error: 'file is too large: ' + size + ' bytes (the limit is ' + maxResponseBytes + ')' };
  }
  // Resolves with { bytes } or, past the limit, { tooLarge: what to say of the size }. Refused
  // before the body is read when Content-Length says so (only for an unencoded response: with a
  // Content-Encoding it is the size on the wire, not the file's), otherwise as soon as the body
  // passes the limit: neither the rest of the download nor a copy of it is kept.
  function readBody(response, controller) {
    var encoding = (response.headers.get('Content-Encoding') || 'identity').toLowerCase();
    var declared = Number(response.headers.get('Content-Length'));
    if (encoding === 'identity' && declared > maxResponseBytes) {
      if (controller) controller.abort();
      return Promise.resolve({ tooLarge: String(declared) });
    }
    if (!response.body || typeof response.body.getReader !== 'function') {
      return response.arrayBuffer().then(function (buffer) {
        return buffer.byteLength > maxResponseBytes ? { tooLarge: String(buffer.byteLength) } : { bytes: new Uint8Array(buffer) };
      });
    }
    var reader = response.body.getReader();
    var chunks = [];
    var total = 0;
    function next() {
      return reader.read().then(function (step) {
        if (step.done) {
          var bytes = new Uint8Array(total);
          var offset = 0;
          chunks.forEach(function (chunk) { bytes.set(chunk, offset); offset += chunk.length; });
          return { bytes: bytes };
        }
        total += step.value.length;
        if (total > maxResponseBytes) {
          reader.cancel().catch(function () { /* already closed */ });
          return { tooLarge: 'more than ' + maxResponseBytes };
        }
        chunks.push(step.value);
        return next();
      });
    }
    return next();
  }
  var loadsOnTheirWay = 0;   // fetches of load() not ended yet: the service worker waits for them (the end of this file)
  function load(url) {
    url = new URL(url, location.href).href;
    if (fetches.has(url)) return fetches.get(url);
    var crossOrigin = new URL(url).origin !== location.origin;
    var controller = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, 15000);
    loadsOnTheirWay++;
    var promise = fetch(url, { cache: 'no-cache', signal: controller ? controller.signal : undefined })
      .then(function (response) {
        return readBody(response, controller).then(function (body) {
          if (body.tooLarge) return tooLarge(body.tooLarge);
          return { status: response.status, bytes: body.bytes,
                   error: response.ok ? '' : 'the server answered ' + response.status + ' ' + response.statusText };
        });
      })
      .catch(function (e) {
        var failed = function (error) { return { status: 0, bytes: new Uint8Array(0), error: error }; };
        if (e && e.name === 'AbortError') return failed('no answer within 15 seconds');
        if (crossOrigin) return crossOriginProblem(url).then(failed);
        return failed('could not reach the server (offline?)');
      })
      .finally(function () { clearTimeout(timer); loadsOnTheirWay--; });
    fetches.set(url, promise);
    promise.then(function (result) { if (fetches.get(url) === promise) settled.set(url, result); });
    return promise;
  }
  // A file that has already arrived is handed over at once, within the app's frame, not a
  // promise turn later: the catalog and a bank that came early open in the same frame.
  var settled = new Map();         // absolute url -> result, once its fetch has finished
  function loaded(url) { return settled.get(new URL(url, location.href).href) || null; }
  function forget(url) {           // a retry must really go to the network
    url = new URL(url, location.href).href;
    fetches.delete(url);
    settled.delete(url);
  }

  // ---- Which player: imquiz (plain banks) or imquiz-rich (Markdown banks too) ---------------
  // The rich player carries the layout of Markdown, coloured code, formulas and pictures (about
  // 14 KB of brotli wasm, src/app/player.h): a learner of plain banks never downloads it. It is
  // chosen from the banks the head start below fetches: rich as soon as one is a Markdown bank,
  // plain once all have come without one (or 3 s after the catalog, when one is slow: a plain
  // player that meets a Markdown bank later hands over, openRichPlayer). Meanwhile the player
  // the last visit chose downloads; a wrong guess is cancelled.
  var playerKey = namespace + 'player';
  var guessedPlayer = 'plain';
  try { if (local && local.getItem(playerKey) === 'rich') guessedPlayer = 'rich'; } catch (e) { /* plain */ }
  var handedOver = false;
  try { handedOver = sessionStorage.getItem(playerKey) === 'rich'; sessionStorage.removeItem(playerKey); } catch (e) { /* none */ }
  if (handedOver) guessedPlayer = 'rich';
  var choosePlayer;
  var playerChosen = new Promise(function (resolve) { choosePlayer = resolve; });
  // What the choice waits for: the banks being fetched, and the sources that name them (the
  // catalog; a bank= link's check).
  var banksAwaited = 0, sourcesAwaited = params.get('bank') ? 2 : 1;
  // Whether `bytes` hold `ascii`, without decoding them: found from its character at `anchor`,
  // chosen rare (an upper-case letter), so that the native indexOf does nearly all of the work.
  // A 6 MiB bank: 2 ms, where decoding it cost 30 (4x that on the phone profile's CPU), all
  // before the player could start (scripts/bench, scaling; docs/benchmark.md).
  function holdsAscii(bytes, ascii, anchor) {
    var key = ascii.charCodeAt(anchor);
    for (var at = bytes.indexOf(key, anchor); at >= 0; at = bytes.indexOf(key, at + 1)) {
      var start = at - anchor;
      if (start + ascii.length > bytes.length) return false;
      var i = 0;
      while (i < ascii.length && bytes[start + i] === ascii.charCodeAt(i)) i++;
      if (i === ascii.length) return true;
    }
    return false;
  }
  function isMarkdownBank(result) {
    if (result.status < 200 || result.status >= 300) return null;
    if (!holdsAscii(result.bytes, '"textFormat"', 5)) return null;   // the quick look: plain banks pay nothing more
    var text = new TextDecoder().decode(result.bytes);
    try { var bank = JSON.parse(text); } catch (e) { return null; }
    return bank && bank.textFormat === 'markdown' ? { text: text, bank: bank } : null;
  }
  // The texts of a Markdown bank's first question (every string in it, every language), and the
  // pictures they show (four at most, by absolute url): the page reads those pictures and the
  // question's formulas ahead of the player (web/rich.js), so that its first frame can draw them.
  // A hint, not the bank's reading (md4c's, in the app); the pictures are found as sw.js finds the
  // images it keeps: a miss (a shuffled quiz) gains nothing, an image in a code span costs one
  // unused fetch.
  function firstQuestionTexts(bank) {
    var texts = [];
    (function walk(value) {
      if (typeof value === 'string') texts.push(value);
      else if (value && typeof value === 'object') for (var key in value) walk(value[key]);
    })(bank.questions && bank.questions[0]);
    return texts.join('\n');
  }
  function picturesIn(text, bankUrl) {
    var found = [], folder = new URL('.', bankUrl).href;
    for (var match, pattern = /!\[[^\]]*\]\(\s*<?([^\s)>]+)/g; found.length < 4 && (match = pattern.exec(text));) {
      var url = new URL(match[1], bankUrl).href;
      if (url.indexOf(folder) === 0 && /\.(png|jpe?g|webp|svg)$/i.test(url) && found.indexOf(url) < 0) found.push(url);
    }
    return found;
  }
  // `opened`: the bank is the quiz this load opens (quiz= or bank=), not a catalog card. Each file
  // is looked at once: a quiz= link's guessed file is usually also the one the catalog names.
  var watched = {};                // absolute url -> opened
  function watchBank(url, opened) {
    url = new URL(url, location.href).href;
    if (Object.prototype.hasOwnProperty.call(watched, url)) { watched[url] = watched[url] || opened; return; }
    watched[url] = opened;
    banksAwaited++;
    load(url).then(function (result) {
      banksAwaited--;
      opened = watched[url];
      var markdown = isMarkdownBank(result);
      if (markdown) {
        // What a Markdown bank needs next: md4c's module now, beside the player (the bank cannot be
        // read without it); the faces once the player is compiled, so that on a slow link they do
        // not share it with the player's download, and come while its compilation holds the CPU
        // (the first frame does not wait for them: scripts/bench's phone profile); for the quiz
        // being opened, when it shows formulas, the file of them typeset ahead of time if the catalog
        // names one, or else MathJax (rich.js starts it).
        load('imquiz-markdown.wasm');
        host.markdownSoon = true;                        // rich.js compiles it as soon as it runs
        if (host.markdown) host.markdown.prepare();      // or now, if it came first (a handed-over load)
        host.whenSignal('wasm-ready').then(function () {
          ['fonts/imquiz-sans-bold.ttf', 'fonts/imquiz-sans-italic.ttf', 'fonts/imquiz-sans-bold-italic.ttf',
           'fonts/imquiz-mono.ttf'].forEach(function (url) { load(url); });
        });
        if (opened) {
          host.firstQuestionText = firstQuestionTexts(markdown.bank);
          host.picturesSoon = picturesIn(host.firstQuestionText, url);
          host.picturesSoon.forEach(function (picture) { load(picture); });
          if (host.pictures) host.pictures.soon(host.picturesSoon);   // rich.js came first (a guess)
        }
        if (opened && /\$[^$\s][^$]*\$/.test(markdown.text)) {
          host.mathSoon = url;
          // Its formulas typeset ahead of time (a few KB) come beside the player, not after it.
          host.formulasFile(url).then(function (file) { if (file) load(file); });
        }
        choosePlayer('rich');
      } else if (!banksAwaited && !sourcesAwaited) choosePlayer('plain');
    });
  }
  function sourceRead() {
    if (--sourcesAwaited) return;
    if (!banksAwaited) choosePlayer('plain');
    setTimeout(function () { choosePlayer(guessedPlayer); }, 3000);
  }
  // Handed over to: the rich player, whatever this load's banks are (it was asked for by one).
  if (handedOver) choosePlayer('rich');
  playerChosen.then(function (player) {
    try { if (local) { if (player === 'rich') local.setItem(playerKey, 'rich'); else local.removeItem(playerKey); } } catch (e) { /* guess plain */ }
  });
  // The plain player read a Markdown bank: the rich one takes over. Remembered for this tab
  // (the reload) and for the next visit; false when nothing can remember it.
  // The learner on the catalog stays there: without quiz=, which would open that quiz again.
  function openRichPlayer() {
    try { sessionStorage.setItem(playerKey, 'rich'); } catch (e) { return false; }
    try { if (local) local.setItem(playerKey, 'rich'); } catch (e) { /* this tab only */ }
    var next = new URL(location.href);
    if (host.state && host.state.screen === 'catalog') next.searchParams.delete('quiz');
    setTimeout(function () { location.replace(next.href); }, 0);   // after the frame that asked
    return true;
  }

  // Head start: the catalog and each bank it lists are requested while the wasm downloads.
  var catalogUrl = new URL('quizzes/index.json', location.href).href;
  var wantedQuiz = params.get('quiz');
  load('fonts/imquiz-sans.ttf');
  // A catalog entry's "formulas": the bank's formulas typeset ahead of time (scripts/check-math.mjs
  // --write), by the bank's absolute url; web/rich.js reads that file instead of starting MathJax.
  var formulaFiles = {};
  var catalogRead = load(catalogUrl).then(function (r) {
    if (r.status >= 200 && r.status < 300) try {
      var catalog = JSON.parse(new TextDecoder().decode(r.bytes));
      var banks = Array.isArray(catalog.banks) ? catalog.banks : [];
      var folder = new URL('.', catalogUrl).href;
      banks.forEach(function (entry) {
        if (!entry || typeof entry.file !== 'string' || typeof entry.formulas !== 'string') return;
        var file = new URL(entry.formulas, catalogUrl).href;
        if (file.indexOf(folder) === 0) formulaFiles[new URL(entry.file, catalogUrl).href] = file;   // inside quizzes/ only
      });
      // With bank=, the app shows that bank alone: the catalog's banks are not wanted. A quiz=
      // the catalog does not list shows the catalog: all of them are.
      var listed = wantedQuiz && banks.some(function (entry) { return entry && entry.id === wantedQuiz; });
      if (!params.get('bank')) banks.forEach(function (entry) {
        if (entry && typeof entry.file === 'string' && (!listed || entry.id === wantedQuiz))
          watchBank(new URL(entry.file, catalogUrl).href, !!listed);
      });
      rememberQuizFiles(banks);
    } catch (e) { /* the engine reports a broken catalog itself */ }
    sourceRead();
  });
  // With `?quiz=`, the bank is requested at once, in parallel with the catalog, from the file the
  // catalog named on an earlier visit: otherwise it waits for the catalog, then for a main thread
  // busy with the first frames, and a warm start spends most of its time waiting for it. The app
  // itself asks for the file the catalog names now, so a stale memory (the author renamed the
  // file) costs one unused request, never a wrong bank. Only the quizzes opened by link are
  // remembered: the size stays that of what this learner used, whatever the catalog's.
  var quizFilesKey = namespace + 'quiz-files';
  function rememberedQuizFiles() {
    try {
      var files = local && JSON.parse(local.getItem(quizFilesKey));
      return files && typeof files === 'object' && !Array.isArray(files) ? files : {};
    } catch (e) { return {}; }
  }
  function rememberQuizFiles(banks) {
    if (!local) return;
    var before = rememberedQuizFiles();
    var after = {};
    banks.forEach(function (entry) {
      if (entry && typeof entry.id === 'string' && typeof entry.file === 'string' &&
          (entry.id === wantedQuiz || Object.prototype.hasOwnProperty.call(before, entry.id))) after[entry.id] = entry.file;
    });
    var text = JSON.stringify(after);
    try {
      if (text !== JSON.stringify(before)) {
        if (text === '{}') local.removeItem(quizFilesKey); else local.setItem(quizFilesKey, text);
      }
    } catch (e) { /* full or refused: the next visit just waits for the catalog */ }
  }
  // On a first visit, nothing is remembered: the file is guessed as the catalogs are usually
  // written, quizzes/<id>.json (the README's and quizc's), so a first visit by link, too, gets its
  // bank one round trip sooner (on a phone's network, 150 ms and more). A wrong guess costs a
  // small 404, or a file the app never reads; the bank played is always the catalog's.
  var remembered = wantedQuiz ? rememberedQuizFiles() : {};
  var guessedFile = null;
  if (Object.prototype.hasOwnProperty.call(remembered, wantedQuiz) && typeof remembered[wantedQuiz] === 'string') {
    guessedFile = remembered[wantedQuiz];
  } else if (wantedQuiz && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(wantedQuiz) && !params.get('bank')) {
    guessedFile = wantedQuiz + '.json';
  }
  if (guessedFile) {
    var guessedBank = new URL(guessedFile, catalogUrl).href;
    if (guessedBank.indexOf(new URL('.', catalogUrl).href) === 0) watchBank(guessedBank, true);   // inside quizzes/ only
  }

  // ---- bank=<url>: a bank under development, only where the deployment allows it ----------
  // Off unless the site's authoring.json (next to index.html, read fresh at every such load) says
  // {"allowBankLinks": true}; then from this site's own origin, or from an origin it lists in
  // "bankOrigins". A refused link shows why and loads nothing: a link anyone can write must not put
  // someone else's questions on this site's address (README, bank= links).
  var bankLink = params.get('bank') || '';
  var authoringUrl = new URL('authoring.json', location.href).href;
  function bankLinkVerdict(setting) {
    var url;
    try { url = new URL(bankLink, location.href); } catch (e) { return { refused: '"' + bankLink + '" is not a URL' }; }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return { refused: 'only http and https addresses can be opened, not ' + url.protocol };
    }
    if (url.origin === location.origin || setting.origins.indexOf(url.origin) >= 0) return { url: url.href };
    return { refused: 'authoring.json allows bank= links from ' + [location.origin].concat(setting.origins).join(', ') +
                      ' only, not from ' + url.origin + ' (add it to "bankOrigins")' };
  }
  // { origins: [...] } when bank= links are on, else { off: why }.
  function readAuthoringSetting(result) {
    if (result.status === 404) return { off: 'bank= links are switched off on this site (it has no authoring.json)' };
    if (result.status < 200 || result.status >= 300) return { off: 'could not read authoring.json: ' + result.error };
    var setting;
    try { setting = JSON.parse(new TextDecoder().decode(result.bytes)); }
    catch (e) { return { off: 'authoring.json is not valid JSON (' + e.message + ')' }; }
    if (!setting || typeof setting !== 'object' || Array.isArray(setting)) return { off: 'authoring.json must hold an object' };
    var known = ['allowBankLinks', 'bankOrigins'];
    var unknown = Object.keys(setting).filter(function (key) { return known.indexOf(key) < 0; });
    if (unknown.length) return { off: 'authoring.json: unknown field "' + unknown[0] + '" (known: ' + known.join(', ') + ')' };
    if (setting.allowBankLinks !== true) {
      return { off: setting.allowBankLinks === false || setting.allowBankLinks === undefined
        ? 'bank= links are switched off on this site (authoring.json: "allowBankLinks" is not true)'
        : 'authoring.json: "allowBankLinks" must be true or false' };
    }
    var listed = setting.bankOrigins === undefined ? [] : setting.bankOrigins;
    if (!Array.isArray(listed)) return { off: 'authoring.json: "bankOrigins" must be a list of origins like "https://drafts.example"' };
    var origins = [];
    for (var i = 0; i < listed.length; i++) {
      var origin = normalizedOrigin(listed[i]);
      if (!origin) return { off: 'authoring.json: bankOrigins[' + i + '] ' + JSON.stringify(listed[i]) + ' is not an origin like "https://drafts.example"' };
      origins.push(origin);
    }
    return { origins: origins };
  }
  // Resolves with null (no bank= link), { url } (allowed: its absolute URL) or { refused: why }.
  var bankLinkChecked = !bankLink ? Promise.resolve(null) : load(authoringUrl).then(function (result) {
    var setting = readAuthoringSetting(result);
    var verdict = setting.off ? { refused: setting.off } : bankLinkVerdict(setting);
    if (verdict.url) watchBank(verdict.url, true);   // head start, as for catalog banks
    sourceRead();
    return verdict;
  });

  // ---- Host page (iframe) messaging -------------------------------------------------------
  // Learner data (xAPI statements) goes only to origins the host allowed: `origin=` in the URL,
  // or, when no origin= is given, the origin of a parent that introduced itself with an
  // `imquiz:hello` handshake (web/embed.js does it). Statements sent before that wait in a short
  // queue. Heights go to any parent (embed.js and H5P's resizer both check that a message comes
  // from their own iframe); they carry no answers, though a height can change with right or wrong.
  var embedded = window.parent !== window;
  // origin= only chooses which parent may receive learner events; who may embed the quiz at all
  // is the server's frame-ancestors (docs/embedding.md). A value that is present but not a list
  // of origins (`*`, `null`, a path, a typo) must not fall back to "anyone who says hello": then
  // no learner event leaves at all, and the console says why.
  var allowedOrigins = [];
  var originRefused = false;
  if (params.has('origin')) {
    var originEntries = params.get('origin').split(',');
    var badOrigins = originEntries.filter(function (entry) { return !normalizedOrigin(entry); });
    allowedOrigins = originEntries.map(normalizedOrigin).filter(Boolean);
    if (badOrigins.length || !allowedOrigins.length) {
      originRefused = true;
      allowedOrigins = [];
      console.error('ImQuiz: origin=' + JSON.stringify(params.get('origin')) + ' is not a comma-separated list of ' +
                    'origins like https://lms.example (no path, no "*"): no learner events will be sent to the host page.');
    }
  }
  // Chromium and Safari say who the parent is: then nothing is posted to an origin that is not
  // there (which the browser would drop, but only after logging an error in the console).
  var parentOrigin = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : null;
  var handshakeOrigin = null;
  var waitingForHost = [];        // learner messages sent before anyone may receive them
  var h5pReady = false;
  var lastHeight = 0;
  function learnerTargets() {
    if (originRefused) return [];
    if (handshakeOrigin) return [handshakeOrigin];
    if (!allowedOrigins.length) return [];
    if (parentOrigin) return allowedOrigins.indexOf(parentOrigin) >= 0 ? [parentOrigin] : [];
    return allowedOrigins;
  }
  function sendToHost(message) {
    if (!embedded) return;
    if (originRefused) return;
    var targets = learnerTargets();
    if (!targets.length) {
      waitingForHost.push(message);
      if (waitingForHost.length > 200) waitingForHost.shift();
      return;
    }
    targets.forEach(function (origin) { window.parent.postMessage(message, origin); });
  }
  function allowedToListen(origin) {
    if (originRefused) return false;
    return !allowedOrigins.length || allowedOrigins.indexOf(origin) >= 0;
  }
  window.addEventListener('message', function (event) {
    if (!embedded || event.source !== window.parent) return;
    var data = event.data;
    if (!data || typeof data !== 'object') return;
    if (data.context === 'h5p') {          // an H5P resizer on the host page
      if (data.action === 'hello') { h5pReady = true; postHeight(lastHeight, true); }
      else if (data.action === 'ready') { window.parent.postMessage({ context: 'h5p', action: 'hello' }, '*'); }
      else if (data.action === 'resizePrepared') {
        window.parent.postMessage({ context: 'h5p', action: 'resize', scrollHeight: lastHeight }, '*');
      } else if (data.action === 'resize') { postHeight(lastHeight, true); }   // the host window resized
      return;
    }
    // A host page in an opaque origin ("null", itself sandboxed) cannot be addressed: heights only.
    if (data.type === 'imquiz:hello' && typeof event.origin === 'string' && event.origin !== 'null' &&
        allowedToListen(event.origin)) {
      handshakeOrigin = event.origin;
      window.parent.postMessage({ type: 'imquiz:welcome', height: lastHeight }, event.origin);
      var queued = waitingForHost; waitingForHost = [];
      queued.forEach(sendToHost);
    }
  });
  function postHeight(height, force) {
    if (!embedded || height <= 0 || (!force && height === lastHeight)) return;
    lastHeight = height;
    window.parent.postMessage({ type: 'imquiz:height', height: height }, '*');
    if (h5pReady) {
      window.parent.postMessage({ context: 'h5p', action: 'prepareResize',
                                  scrollHeight: height, clientHeight: document.documentElement.clientHeight }, '*');
    }
  }
  if (embedded) window.parent.postMessage({ context: 'h5p', action: 'hello' }, '*');

  // ---- Test hook and accessibility mirror link ----------------------------------------------
  var runtimeReady = false;        // the wasm module is instantiated (Module.onRuntimeInitialized)
  var signals = {};
  var signalWaiters = {};
  var pageActions = [];
  var host = window.ImQuizHost = {
    params: params,
    developmentBankUrl: '',       // bank= in effect: its absolute URL (set before the module starts)
    embedded: embedded,
    namespace: namespace,
    state: null,
    stateListeners: [],
    signal: function (name) {
      signals[name] = performance.now();
      (signalWaiters[name] || []).forEach(function (resolve) { resolve(signals[name]); });
      delete signalWaiters[name];
      if (name === 'first-frame') {
        statusBox.hidden = true;
        if (mirrorSettled) document.getElementById('app').removeAttribute('aria-busy');
        // Keys reach the app through the canvas (it listens there only, so the host page and
        // the accessibility mirror keep theirs). Not in an iframe: never steal the host's focus.
        if (!embedded && document.activeElement === document.body) document.getElementById('canvas').focus();
      }
    },
    hasSignal: function (name) { return name in signals; },
    // Parts still at work on what the screen shows (each a function, true while busy): the service
    // worker's install waits for them (the end of this file).
    busy: [],
    // Resolves with the time (performance.now()) the app first raised `name`.
    whenSignal: function (name) {
      if (name in signals) return Promise.resolve(signals[name]);
      return new Promise(function (resolve) { (signalWaiters[name] = signalWaiters[name] || []).push(resolve); });
    },
    // The whole state document, or (a JSON array) only the rectangles the canvas drew this frame:
    // scrolling a long results screen moves them every frame, and must not re-send the rest.
    // Listeners get (state, itemsOnly).
    publishState: function (json) {
      var parsed;
      try { parsed = JSON.parse(json); } catch (e) { return; }
      var itemsOnly = Array.isArray(parsed);
      if (itemsOnly && !host.state) return;
      host.state = itemsOnly ? Object.assign({}, host.state, { items: parsed }) : parsed;
      host.stateListeners.forEach(function (listener) { listener(host.state, itemsOnly); });
    },
    // An action the page wants performed, as if the learner did it on the canvas.
    act: function (action) { pageActions.push(JSON.stringify(action)); host.wake(); },
    takeAction: function () { return pageActions.length ? pageActions.shift() : null; },
    // Input, resize and messages arrive while the wasm is still loading: the export exists before
    // the module does, and calling it then throws.
    wake: function () { if (runtimeReady) Module._imquiz_wake(); },

    // markdown, prepareHighlighter and math: web/rich.js, with the rich player only.
    openRichPlayer: openRichPlayer,
    load: load,
    loaded: loaded,
    forget: forget,
    // The file of a bank's typeset formulas (its catalog entry's "formulas"), or null; once the
    // catalog has been read (or could not be).
    formulasFile: function (bankUrl) {
      return catalogRead.then(function () { return formulaFiles[new URL(bankUrl, location.href).href] || null; });
    },
    storage: {
      persistent: function () { return local !== null; },
      problem: function () { return storageProblem; },
      get: function (key) {
        if (memory.has(key)) return memory.get(key);
        if (!local) return null;
        try { return local.getItem(namespace + key); } catch (e) { return null; }
      },
      set: function (key, value) {
        if (local) {
          try { local.setItem(namespace + key, value); memory.delete(key); return true; }
          catch (e) { storageProblem = (e && e.name) || 'write failed'; }
        }
        memory.set(key, value);  // the session goes on; the app tells the learner it is not saved
        return false;
      },
      remove: function (key) {
        memory.delete(key);
        if (!local) return true;
        try { local.removeItem(namespace + key); return true; } catch (e) { return false; }
      },
      keys: function () {
        var out = new Set(memory.keys());
        if (local) {
          try {
            for (var i = 0; i < local.length; i++) {
              var k = local.key(i);
              if (k && k.indexOf(namespace) === 0) out.add(k.substring(namespace.length));
            }
          } catch (e) { /* keep what memory has */ }
        }
        return Array.from(out);
      },
      takeChanged: function () { var out = changedKeys; changedKeys = []; return out; }
    },
    postToHost: function (json) { try { sendToHost(JSON.parse(json)); } catch (e) { /* not JSON: drop */ } },
    reportHeight: function (px) { postHeight(px, false); },
    contentHeight: function () { return lastHeight; },   // last height reported to the host
    download: function (name, text) {
      var url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      var a = document.createElement('a'); a.href = url; a.download = name;
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    },
    // A link of a bank's text (http, https or mailto: the engine refused any other): a new tab
    // that cannot reach back into this page. The app calls this in the frame after the learner's
    // click, within the click's transient activation, so popup blockers let it through.
    openLink: function (url) {
      if (!/^(https?:|mailto:)/i.test(url)) return;
      var opened = window.open(url, '_blank', 'noopener,noreferrer');
      if (opened) opened.opener = null;
    },
    copyText: function (text) {
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(function () {});
    },
    pickedFiles: [],
    pickFile: function () {
      var input = document.createElement('input'); input.type = 'file'; input.accept = '.json,application/json';
      input.addEventListener('change', function () {
        var file = input.files && input.files[0];
        if (!file) return;
        // The engine refuses a progress file over 4 MiB (ProgressLimits in src/engine/limits.h) in
        // words of its own; reading past that only to be refused would hold a 16 MiB file in
        // memory twice. One byte over the limit is enough for the engine to say so.
        var limit = 4 * 1024 * 1024 + 1;
        (file.size > limit ? file.slice(0, limit) : file).text().then(function (text) { host.pickedFiles.push(text); host.wake(); });
      });
      input.click();
    },
    setDocumentInfo: function (lang, title) {
      document.documentElement.lang = lang;
      document.title = title;
    },
    cannotDraw: cannotDraw,
    showCrash: function (what) {
      showProblem('ImQuiz stopped', 'Something went wrong inside the quiz (' + what + '). ' +
        'Your saved progress is safe: it was stored after every answer. Reload to continue.', 'Reload', reload);
    }
  };

  // ---- Waking the app: it draws only while something changes ------------------------------
  ['pointerdown', 'pointermove', 'pointerup', 'wheel', 'keydown', 'keyup', 'touchstart', 'touchmove',
   'touchend', 'resize', 'focus', 'blur', 'visibilitychange', 'compositionend', 'input']
    .forEach(function (type) { window.addEventListener(type, host.wake, { capture: true, passive: true }); });
  if (window.matchMedia) {
    ['(prefers-color-scheme: dark)', '(prefers-reduced-motion: reduce)', '(prefers-contrast: more)']
      .forEach(function (q) { var m = matchMedia(q); if (m.addEventListener) m.addEventListener('change', host.wake); });
  }

  // ---- Page extras: the accessibility mirror and the typed-answer field ---------------------
  // Neither is needed to draw the first screen, so neither is in its way: they are requested once
  // the app has settled on it (the quiz asked for by `quiz=` or `bank=`, or the catalog), and fill
  // themselves from the state published so far. Until the mirror is there, #app stays aria-busy,
  // so a screen reader waits for it rather than reading an empty page.
  var mirrorSettled = false;
  var extrasRequested = false;
  var extras = { 'a11y.js': settleMirror, 'text-field.js': function () {} };
  function settleMirror() {
    mirrorSettled = true;
    if (host.hasSignal('first-frame')) document.getElementById('app').removeAttribute('aria-busy');
  }
  // A missing extra must not take the quiz away from everyone else (boot.js's handler below shows
  // "could not load" for a failed script): caught here first. A screen reader user is told.
  window.addEventListener('error', function (event) {
    var src = event.target && event.target.tagName === 'SCRIPT' && event.target.getAttribute('src');
    if (!src || !Object.prototype.hasOwnProperty.call(extras, src)) return;
    event.stopImmediatePropagation();
    if (src === 'a11y.js') {
      var mirror = document.getElementById('mirror');
      var p = document.createElement('p');
      p.setAttribute('role', 'alert');
      p.textContent = 'The accessible version of this page did not load. Reload the page to try again.';
      mirror.textContent = '';
      mirror.appendChild(p);
      settleMirror();
    }
  }, true);
  function loadExtras() {
    if (extrasRequested) return;
    extrasRequested = true;
    Object.keys(extras).forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      script.addEventListener('load', extras[src]);
      document.body.appendChild(script);
    });
  }
  var wantsQuestion = !!(params.get('quiz') || params.get('bank'));
  function firstScreenSettled(state) {
    if (!state || extrasRequested || !host.hasSignal('first-frame') || state.screen === 'loading') return;
    if (wantsQuestion && state.screen === 'catalog' && !state.catalogError &&
        (state.banks || []).some(function (bank) { return bank.state === 'loading'; })) return;
    setTimeout(loadExtras, 0);   // after the frame that published this state, not inside it
  }
  host.stateListeners.push(firstScreenSettled);
  host.whenSignal('first-frame').then(function () {
    firstScreenSettled(host.state);
    setTimeout(loadExtras, 5000);   // whatever the app is waiting for, the mirror is not
  });

  // ---- Start the module, or say why it cannot start ---------------------------------------
  if (typeof WebAssembly !== 'object') {
    showProblem('This browser cannot run ImQuiz', 'ImQuiz needs WebAssembly, which this browser does ' +
      'not provide or has switched off. Please open the quiz in a current version of Firefox, Chrome, Edge or Safari.');
    return;
  }
  // A browser without WebGL 2 at all is told before downloading the app. One that has it but
  // refuses a context (blocklisted driver, privacy settings) is told by the app, which asks for
  // its context first thing (host.cannotDraw): a trial context here would cost every load.
  if (!window.WebGL2RenderingContext || params.get('nowebgl') === '1') {
    cannotDraw();
    return;
  }

  // The wasm download starts now, before the player's script has arrived, and the module is
  // instantiated from it (Module.instantiateWasm): the head start a <link rel=preload> gave, which
  // WebKit would not reuse (it downloaded the wasm a second time). It is the guessed player's
  // until the choice is made (above).
  var playerFiles = { plain: 'imquiz', rich: 'imquiz-rich' };
  var wasmDownloads = {};
  function downloadWasm(player) {
    if (!wasmDownloads[player]) {
      var controller = typeof AbortController === 'function' ? new AbortController() : null;
      wasmDownloads[player] = { controller: controller,
        response: fetch(playerFiles[player] + '.wasm', { credentials: 'same-origin', signal: controller ? controller.signal : undefined }) };
      wasmDownloads[player].response.catch(function () { /* cancelled, or reported when used */ });
    }
    return wasmDownloads[player].response;
  }
  downloadWasm(guessedPlayer);
  playerChosen.then(function (player) {
    var other = player === 'rich' ? 'plain' : 'rich';
    // Not through a worker: Firefox reports a request cancelled there as the worker's error
    // (it answers from its cache, quickly, anyway).
    var controlled = false;
    try { controlled = window.origin !== 'null' && !!navigator.serviceWorker && !!navigator.serviceWorker.controller; } catch (e) { /* no worker */ }
    if (!controlled && wasmDownloads[other] && wasmDownloads[other].controller) wasmDownloads[other].controller.abort();
    downloadWasm(player);
  });
  function instantiateWasm(imports, receiveInstance) {
    playerChosen.then(function (player) {
      var file = playerFiles[player] + '.wasm';
      return downloadWasm(player).then(function (response) {
        if (!response.ok) throw new Error(file + ': the server answered ' + response.status);
        // Streaming needs the application/wasm type; a host that sends another gets the slow path,
        // from this same response. A second request downloaded the wasm twice, and was also made
        // when a navigation cut the first download off (Firefox: the old page asked again).
        if (/^application\/wasm\s*(;|$)/i.test(response.headers.get('Content-Type') || '')) {
          return WebAssembly.instantiateStreaming(response, imports);
        }
        return response.arrayBuffer().then(function (bytes) { return WebAssembly.instantiate(bytes, imports); });
      });
    }).then(function (result) {
      host.signal('wasm-ready');   // compiled and instantiated: scripts/bench times the steps to the first question
      receiveInstance(result.instance, result.module);
    },
            function (error) { moduleStopped(error && error.message ? error.message : String(error)); });
    return {};
  }

  // Before the first frame, a stop means the app could not start (most often imquiz.wasm did not
  // arrive): say that and offer Retry, rather than "something went wrong inside the quiz".
  var lastOutOfMemory = '';
  function moduleStopped(what) {
    if (statusBox.className === 'failed') return;   // stopped again: the first reason tells more
    // abort() from C++ gives no reason; the app prints one first when it ran out of memory.
    var reason = String(what).replace(/ Build with -s ASSERTIONS=1 for more info\.$/, '') ||
                 lastOutOfMemory || 'it aborted: out of memory, or an internal error';
    if (host.hasSignal('first-frame')) { host.showCrash(reason); return; }
    showProblem('ImQuiz could not start', 'Part of the app did not load or could not start (' + reason +
      '). Check the connection and try again.', 'Retry', reload);
  }
  // An exception escaping the module (a trap in the wasm, or a JS error in a call it made) ends
  // Emscripten's main loop without onAbort: the page would stay frozen on its last frame.
  window.addEventListener('error', function (event) {
    var error = event.error;
    var where = (error && error.stack ? String(error.stack) : '') + ' ' + (event.filename || '');
    if (/imquiz(-rich)?\.(js|wasm)/.test(where)) moduleStopped(error && error.message ? error.message : String(error));
  });

  window.Module = {
    canvas: document.getElementById('canvas'),
    onRuntimeInitialized: function () { runtimeReady = true; },
    print: function (text) { console.log(text); },
    printErr: function (text) {
      if (/out of memory/.test(text)) lastOutOfMemory = text;
      console.warn(text);
    },
    onAbort: moduleStopped,
    instantiateWasm: instantiateWasm,
    locateFile: function (path) { return path; }
  };
  window.addEventListener('error', function (event) {
    if (event.target && event.target.tagName === 'SCRIPT' && !event.target.hasAttribute('data-own-errors')) {
      showProblem('ImQuiz could not load', 'Part of the app (' + (event.target.src || 'a script') +
        ') did not arrive. Check the connection and try again.', 'Retry', reload);
    }
  }, true);
  // The module is started from here, not by index.html: after a problem above it must not run
  // (without WebGL 2 it ran main() behind the message and threw). With bank=, not before the
  // deployment's setting allowed it: the app then only ever sees a link in effect.
  // A SCORM package's launch page runs web/lms.js first: the progress the LMS kept goes into
  // storage before the app reads it (docs/lms.md).
  var lmsReady = window.ImQuizLms && window.ImQuizLms(host);
  bankLinkChecked.then(function (verdict) {
    if (verdict && verdict.refused) { refuseBankLink(verdict.refused); return; }
    if (verdict) host.developmentBankUrl = verdict.url;
    return lmsReady ? lmsReady.then(function () { return playerChosen; }) : playerChosen;
  }).then(function (player) {
    if (!player) return;
    // In this order: rich.js gives the page what imquiz-rich.js calls.
    (player === 'rich' ? ['rich.js', 'imquiz-rich.js'] : ['imquiz.js']).forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.body.appendChild(script);
    });
  });
  function refuseBankLink(why) {
    var withoutBank = new URL(location.href);
    withoutBank.searchParams.delete('bank');
    var shown = bankLink.length > 200 ? bankLink.slice(0, 200) + '…' : bankLink;   // a data: URL is a whole bank
    showProblem('This quiz link is not allowed here', 'The link asks to open a quiz file from ' + shown + ', ' +
      'which this site does not allow: ' + why + '. Nothing was loaded from it.', 'Show this site\'s quizzes',
      function () { location.assign(withoutBank.href); });
  }

  // ---- Offline: the service worker caches the app after the first visit --------------------
  // Not in an opaque origin (a sandboxed iframe without allow-same-origin): it may not register one.
  // Registered once the first screen is drawn and complete: its install downloads the whole shell
  // again (cache: 'reload'), and on a first visit that competed with the question's own parts for
  // the link and the two cores (a Markdown question with a formula was complete about 330 ms later
  // with it; docs/benchmark.md). Complete: no file of host.load on its way, nothing a part still
  // works on (host.busy: rich.js's formulas); looked at every 200 ms, registered after 15 s anyway.
  if ('serviceWorker' in navigator && params.get('sw') !== '0' && location.protocol !== 'file:' &&
      window.origin !== 'null') {
    host.whenSignal('first-frame').then(function () {
      var since = Date.now();
      (function registerWhenQuiet() {
        var busy = loadsOnTheirWay > 0 || host.busy.some(function (part) { return part(); });
        if (busy && Date.now() - since < 15000) { setTimeout(registerWhenQuiet, 200); return; }
        navigator.serviceWorker.register('sw.js').catch(function () { /* online-only is fine */ });
      })();
    });
  }
})();
