// The answer field of numeric and short-text questions is a real <input>, laid exactly over the
// frame the canvas draws for it (the app publishes that rectangle as item "input:answer"). A
// canvas cannot receive composed text: on-screen keyboards, IMEs, dictation and autocorrect all
// need a DOM input. The app stays the owner of the answer: every edit is sent as a page action.
'use strict';

(function () {
  var host = window.ImQuizHost;
  if (!host) return;
  var input = null;
  var shownFor = null;          // question key the field was last prepared for

  function create() {
    input = document.createElement('input');
    input.type = 'text';
    input.id = 'answer-field';
    input.className = 'answer-field';
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.setAttribute('autocapitalize', 'off');
    input.setAttribute('enterkeyhint', 'done');
    // For pointer and canvas-keyboard learners. Screen readers and Tab users get the mirror's own
    // labelled field (a11y.js), so this one stays out of the accessibility tree and the tab order.
    input.tabIndex = -1;
    input.setAttribute('aria-hidden', 'true');
    input.addEventListener('input', function () { host.act({ type: 'type', text: input.value }); });
    input.addEventListener('keydown', function (event) {
      var state = host.state;
      if (event.key === 'Enter') {
        event.preventDefault();
        var checked = state && state.question && state.question.feedback;
        host.act({ type: checked ? 'next' : 'check' });
      } else if (event.key === 'Escape' && state && !state.embed) {
        event.preventDefault();
        host.act({ type: 'catalog' });
      }
    });
    // Wheel over the field still scrolls the page content drawn on the canvas.
    input.addEventListener('wheel', function (event) {
      document.getElementById('canvas').dispatchEvent(new WheelEvent('wheel', event));
    }, { passive: true });
    document.getElementById('app').appendChild(input);
  }

  function isDark(state) {
    var theme = state.preferences && state.preferences.theme;
    if (theme === 'dark') return true;
    if (theme === 'light') return false;
    return !!(window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  }

  function render(state) {
    var q = state && state.screen === 'question' && state.question;
    var typed = q && (q.type === 'numeric' || q.type === 'short_text');
    var item = typed && state.items.find(function (i) { return i.id === 'input:answer'; });
    if (!item) {
      if (input && !input.hidden) {
        var hadFocus = document.activeElement === input;
        input.hidden = true;
        if (hadFocus) document.getElementById('canvas').focus();
      }
      if (!typed) shownFor = null;
      return;
    }
    if (!input) create();
    input.hidden = false;
    var scale = (state.preferences && state.preferences.textScale) || 1;
    // Inset by the frame's border and padding so the canvas-drawn frame stays visible around it.
    var inset = 14 * scale;
    input.style.left = (item.x + inset) + 'px';
    input.style.top = (item.y + 2) + 'px';
    input.style.width = Math.max(20, item.w - inset * 2) + 'px';
    input.style.height = Math.max(20, item.h - 4) + 'px';
    input.style.fontSize = Math.max(16, 18 * scale) + 'px';   // under 16 px iOS zooms in on focus
    input.style.color = isDark(state) ? '#e8ebf2' : '#1b2232';
    input.inputMode = q.type === 'numeric' ? 'decimal' : 'text';
    input.readOnly = !!q.feedback;
    if (document.activeElement !== input && input.value !== q.typed) input.value = q.typed;
    // A new question: put the caret in the field (not on touch screens, where that would pop up
    // the keyboard unasked; there a tap on the field does it).
    var key = (state.quiz && state.quiz.id) + ':' + q.index + ':' + q.id;
    if (shownFor !== key) {
      shownFor = key;
      input.value = q.typed;
      var touch = window.matchMedia && matchMedia('(pointer: coarse)').matches;
      var onCanvas = document.activeElement === document.getElementById('canvas') || document.activeElement === document.body;
      if (!touch && !q.feedback && !state.embed && onCanvas) input.focus({ preventScroll: true });
    }
  }

  host.stateListeners.push(render);
  if (host.state) render(host.state);
})();
