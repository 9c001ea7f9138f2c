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
      // Enter and Esc do what the screen model says (the canvas does the same).
      var state = host.state;
      var primary = state && state.question && state.question.primary;
      if (event.key === 'Enter') {
        event.preventDefault();
        if (primary && primary.enabled) host.act(primary.action);
      } else if (event.key === 'Escape' && state && state.escape) {
        event.preventDefault();
        host.act(state.escape);
      }
    });
    // Wheel over the field still scrolls the page content drawn on the canvas.
    input.addEventListener('wheel', function (event) {
      document.getElementById('canvas').dispatchEvent(new WheelEvent('wheel', event));
    }, { passive: true });
    document.getElementById('app').appendChild(input);
  }

  function render(state) {
    var q = state && state.screen === 'question' && state.question;
    var field = q && q.field;
    var item = field && state.items.find(function (i) { return i.id === 'input:answer'; });
    if (!item) {
      if (input && !input.hidden) {
        var hadFocus = document.activeElement === input;
        input.hidden = true;
        if (hadFocus) document.getElementById('canvas').focus();
      }
      if (!field) shownFor = null;
      return;
    }
    if (!input) create();
    input.hidden = false;
    // Inset by the frame's border and padding, in the canvas's own font and colour (the item
    // says which), so the canvas-drawn frame stays visible around text that looks drawn by it.
    input.style.left = (item.x + item.inset) + 'px';
    input.style.top = (item.y + 2) + 'px';
    input.style.width = Math.max(20, item.w - item.inset * 2) + 'px';
    input.style.height = Math.max(20, item.h - 4) + 'px';
    input.style.fontSize = Math.max(16, item.fontSize) + 'px';   // under 16 px iOS zooms in on focus
    input.style.color = item.color;
    input.inputMode = field.numeric ? 'decimal' : 'text';
    input.readOnly = field.readOnly;
    input.setAttribute('aria-invalid', field.problem ? 'true' : 'false');
    if (document.activeElement !== input && input.value !== field.value) input.value = field.value;
    // A new question: put the caret in the field (not on touch screens, where that would pop up
    // the keyboard unasked; there a tap on the field does it).
    var key = (state.quiz && state.quiz.id) + ':' + q.index + ':' + q.id;
    if (shownFor !== key) {
      shownFor = key;
      input.value = field.value;
      var touch = window.matchMedia && matchMedia('(pointer: coarse)').matches;
      var onCanvas = document.activeElement === document.getElementById('canvas') || document.activeElement === document.body;
      if (!touch && !field.readOnly && !state.embed && onCanvas) input.focus({ preventScroll: true });
    }
  }

  host.stateListeners.push(render);
  if (host.state) render(host.state);
})();
