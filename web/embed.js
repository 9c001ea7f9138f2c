// ImQuiz embed helper, for the page that embeds quizzes (an LMS page, a blog, plain HTML).
//
//   <iframe data-imquiz title="Quiz" src="https://quiz.example/imquiz/?quiz=intro&embed=1"></iframe>
//   <script src="https://quiz.example/imquiz/embed.js" async></script>
//
// For every iframe marked `data-imquiz` (also ones added later) it
//   - introduces this page to the quiz (`imquiz:hello`), so the quiz may send it learner events;
//   - sizes the iframe to the quiz's content height (`imquiz:height`);
//   - re-dispatches learner events as DOM events on the iframe element (they bubble):
//       iframe.addEventListener('imquiz:xapi', (e) => send(e.detail.statement));
//       iframe.addEventListener('imquiz:height', (e) => console.log(e.detail.height));
// Messages are accepted only from the iframe's own window and origin, and only from a quiz this
// page trusts: one served from the origin this script came from (include embed.js from the quiz's
// own deployment), or from an origin the page names, space-separated, in `data-imquiz-origin` on
// the iframe or on this script tag. Any other `iframe[data-imquiz]` (one an editor pasted from
// elsewhere) is left alone and named in the console: its messages could be forged statements.
// `data-imquiz-auto-height="off"` keeps the page's own height. Works under a strict
// Content-Security-Policy: no inline script or style is needed. `ImQuizEmbed.attach(iframe)`
// attaches one by hand.
(function () {
  'use strict';
  if (window.ImQuizEmbed) return;   // the script was included twice

  var frames = [];                  // { iframe, origin, trusted, welcomed, helloSent }
  var MAX_HEIGHT = 100000;

  // "https://Quiz.example:443/" -> "https://quiz.example"; null for anything but an http(s) origin.
  function normalizedOrigin(text) {
    if (typeof text !== 'string' || /[?#@\\*]/.test(text)) return null;
    var url;
    try { url = new URL(text); } catch (e) { return null; }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/') return null;
    return url.origin;
  }
  function namedOrigins(element) {
    var named = (element && element.getAttribute('data-imquiz-origin')) || '';
    return named.split(/[\s,]+/).filter(Boolean).map(function (text) {
      var origin = normalizedOrigin(text);
      if (!origin) console.warn('embed.js: data-imquiz-origin "' + text + '" is not an origin like https://quiz.example; ignored');
      return origin;
    }).filter(Boolean);
  }
  // Read while this script runs: document.currentScript is null afterwards.
  var script = document.currentScript;
  var trustedOrigins = namedOrigins(script);
  try { if (script && script.src) trustedOrigins.push(new URL(script.src, location.href).origin); } catch (e) { /* no src */ }

  // The origin the iframe's src points at, whatever the sandbox.
  function sourceOrigin(iframe) {
    try { return new URL(iframe.src, location.href).origin; } catch (e) { return null; }
  }
  function isTrusted(iframe) {
    var origin = sourceOrigin(iframe);
    return !!origin && (trustedOrigins.indexOf(origin) >= 0 || namedOrigins(iframe).indexOf(origin) >= 0);
  }
  function checkTrust(frame) {
    var trusted = isTrusted(frame.iframe);
    if (!trusted && !frame.warned && frame.iframe.src) {
      frame.warned = true;
      console.warn('embed.js: ignoring the quiz frame from ' + sourceOrigin(frame.iframe) + ': it is neither from ' +
                   (trustedOrigins.join(', ') || 'the origin embed.js came from') + ' nor named in data-imquiz-origin');
    }
    return trusted;
  }

  // The origin the quiz's messages come from. A sandboxed iframe without allow-same-origin runs
  // in an opaque origin: its messages say "null", and only '*' can address it.
  function originOf(iframe) {
    var sandboxed = iframe.hasAttribute('sandbox') && !/(^|\s)allow-same-origin(\s|$)/.test(iframe.getAttribute('sandbox'));
    if (sandboxed) return 'null';
    try { return new URL(iframe.src, location.href).origin; } catch (e) { return null; }
  }

  // The iframe's initial about:blank document belongs to this page; a hello posted to it with the
  // quiz's origin would only make the browser log an error.
  function showsQuiz(iframe) {
    try { return iframe.contentDocument === null || iframe.contentWindow.location.href !== 'about:blank'; }
    catch (e) { return true; }
  }

  function sayHello(frame) {
    if (!frame.trusted || !frame.iframe.contentWindow || !frame.origin || !showsQuiz(frame.iframe)) return;
    frame.helloSent = true;
    frame.iframe.contentWindow.postMessage({ type: 'imquiz:hello' }, frame.origin === 'null' ? '*' : frame.origin);
  }

  function emit(frame, name, detail) {
    var event;
    try { event = new CustomEvent(name, { bubbles: true, detail: detail }); }
    catch (e) { event = document.createEvent('CustomEvent'); event.initCustomEvent(name, true, false, detail); }
    frame.iframe.dispatchEvent(event);
  }

  function setHeight(frame, height) {
    if (typeof height !== 'number' || !isFinite(height) || height <= 0 || height > MAX_HEIGHT) return;
    height = Math.ceil(height);
    if (frame.iframe.getAttribute('data-imquiz-auto-height') !== 'off') frame.iframe.style.height = height + 'px';
    emit(frame, 'imquiz:height', { height: height });
  }

  function attach(iframe) {
    if (!iframe || iframe.tagName !== 'IFRAME') return;
    for (var i = 0; i < frames.length; i++) if (frames[i].iframe === iframe) return;
    var frame = { iframe: iframe, origin: originOf(iframe), trusted: false, warned: false, welcomed: false, helloSent: false };
    frame.trusted = checkTrust(frame);
    frames.push(frame);
    // A new document in the iframe (first load, reload, another quiz) must be introduced again.
    iframe.addEventListener('load', function () {
      frame.origin = originOf(iframe);
      frame.trusted = checkTrust(frame);
      frame.welcomed = false;
      sayHello(frame);
    });
    // Perhaps loaded before this script ran: the quiz answers a hello whenever it gets one.
    sayHello(frame);
  }

  window.addEventListener('message', function (event) {
    var frame = null;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].iframe.contentWindow === event.source) { frame = frames[i]; break; }
    }
    // Not our quiz, a quiz from an origin this page does not trust, or it navigated away.
    if (!frame || !frame.trusted || event.origin !== frame.origin) return;
    var data = event.data;
    if (!data || typeof data !== 'object') return;
    // The quiz announces itself as soon as its page runs (the H5P-style hello); answer it.
    if (data.context === 'h5p' && data.action === 'hello' && !frame.welcomed) { sayHello(frame); return; }
    if (data.type === 'imquiz:welcome') {
      frame.welcomed = true;
      setHeight(frame, data.height);
    } else if (data.type === 'imquiz:height') {
      if (!frame.welcomed && !frame.helloSent) sayHello(frame);
      setHeight(frame, data.height);
    } else if (data.type === 'imquiz:xapi' && data.statement && typeof data.statement === 'object') {
      emit(frame, 'imquiz:xapi', { statement: data.statement });
    }
  });

  function attachAll(root) {
    if (root.nodeType !== 1) return;
    if (root.matches('iframe[data-imquiz]')) attach(root);
    var found = root.querySelectorAll('iframe[data-imquiz]');
    for (var i = 0; i < found.length; i++) attach(found[i]);
  }

  function start() {
    attachAll(document.documentElement);
    if (window.MutationObserver) {
      new MutationObserver(function (mutations) {
        mutations.forEach(function (mutation) { Array.prototype.forEach.call(mutation.addedNodes, attachAll); });
      }).observe(document.documentElement, { childList: true, subtree: true });
    }
  }

  window.ImQuizEmbed = { attach: attach };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
