// The answer fields of numeric, short-text and cloze questions are real <input>s, each laid
// exactly over the frame the canvas draws for it (the app publishes that rectangle as item
// "input:answer", or "input:blank:<id>" for each typed blank of a cloze question). A canvas cannot
// receive composed text: on-screen keyboards, IMEs, dictation and autocorrect all need a DOM
// input. The app stays the owner of every answer: each edit is sent as a page action.
'use strict';

(function () {
  var host = window.ImQuizHost;
  if (!host) return;
  var inputs = {};              // item id -> <input>
  var shownFor = null;          // question key the fields were last prepared for
  var keyboardOn = null;        // the field's item the canvas keyboard was last on

  function canvas() { return document.getElementById('canvas'); }

  // The field model an item stands for, and the action an edit sends.
  function fieldOf(q, itemId) {
    if (itemId === 'input:answer') return q.field;
    var blank = itemId.slice('input:blank:'.length);
    var row = (q.rows || []).filter(function (r) { return r.id === blank; })[0];
    return row && row.field;
  }
  function editAction(itemId, text) {
    if (itemId === 'input:answer') return { type: 'type', text: text };
    return { type: 'fill', blank: itemId.slice('input:blank:'.length), value: text };
  }

  // The fields of the question in the order they are drawn (Tab and Shift+Tab go along it).
  function fieldOrder() {
    var state = host.state;
    if (!state || !state.items) return [];
    return state.items.filter(function (i) { return i.id.indexOf('input:') === 0 && inputs[i.id] && !inputs[i.id].hidden; })
                      .map(function (i) { return inputs[i.id]; });
  }

  function create(itemId) {
    var input = document.createElement('input');
    input.type = 'text';
    input.id = itemId === 'input:answer' ? 'answer-field' : 'blank-field-' + itemId.slice('input:blank:'.length);
    input.className = 'answer-field';
    input.dataset.item = itemId;
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.setAttribute('autocapitalize', 'off');
    input.setAttribute('enterkeyhint', 'done');
    // For pointer and canvas-keyboard learners. Screen readers and Tab users get the mirror's own
    // labelled fields (a11y.js), so these stay out of the accessibility tree and the tab order.
    input.tabIndex = -1;
    input.setAttribute('aria-hidden', 'true');
    input.addEventListener('input', function () { host.act(editAction(itemId, input.value)); });
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
      } else if (event.key === 'Tab' && itemId !== 'input:answer') {
        // A cloze question: on to the next (or back to the previous) blank to type in; past the
        // last one, to the canvas, where arrows reach the lists and the buttons.
        var order = fieldOrder();
        var next = order[order.indexOf(input) + (event.shiftKey ? -1 : 1)];
        event.preventDefault();
        if (next) next.focus({ preventScroll: false });
        else canvas().focus();
      } else if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && itemId !== 'input:answer') {
        // The canvas keyboard walks on from this blank (to a list, a button): the keys go back to
        // the canvas with this one, as if pressed there.
        event.preventDefault();
        var target = canvas();
        target.focus();
        var init = { key: event.key, code: event.code, bubbles: true, cancelable: true };
        target.dispatchEvent(new KeyboardEvent('keydown', init));
        target.dispatchEvent(new KeyboardEvent('keyup', init));
      }
    });
    // Wheel over the field still scrolls the page content drawn on the canvas.
    input.addEventListener('wheel', function (event) {
      canvas().dispatchEvent(new WheelEvent('wheel', event));
    }, { passive: true });
    document.getElementById('app').appendChild(input);
    inputs[itemId] = input;
    return input;
  }

  function hide(input) {
    if (input.hidden) return;
    var hadFocus = document.activeElement === input;
    input.hidden = true;
    if (hadFocus) canvas().focus();
  }

  function render(state) {
    var q = state && state.screen === 'question' && state.question;
    // A list of choices drawn open over the frames (a cloze blank's): the fields step aside, or
    // they would take the clicks and taps meant for the list.
    var listOpen = q && (state.items || []).some(function (i) { return i.id.indexOf('option:') === 0; });
    var items = q && !listOpen ? (state.items || []).filter(function (i) { return i.id.indexOf('input:') === 0 && fieldOf(q, i.id); }) : [];
    var shown = {};
    var key = q ? (state.quiz && state.quiz.id) + ':' + q.index + ':' + q.id : null;
    var newQuestion = q && shownFor !== key;
    var first = null;
    items.forEach(function (item) {
      var field = fieldOf(q, item.id);
      var input = inputs[item.id] || create(item.id);
      shown[item.id] = true;
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
      if (newQuestion || (document.activeElement !== input && input.value !== field.value)) input.value = field.value;
      if (!first) first = input;
      // The canvas keyboard just reached this frame (arrows): the keys go to its field. Only as it
      // arrives, so that Tab out of the last field leaves the keys with the canvas.
      if (item.focused && keyboardOn !== item.id && document.activeElement === canvas() && !field.readOnly)
        input.focus({ preventScroll: true });
    });
    var focusedItem = items.filter(function (i) { return i.focused; })[0];
    keyboardOn = focusedItem ? focusedItem.id : null;
    Object.keys(inputs).forEach(function (id) { if (!shown[id]) hide(inputs[id]); });
    if (!q || !(q.field || (q.rows || []).some(function (r) { return r.field; }))) { shownFor = null; return; }
    if (!first) return;   // the frames are not drawn yet (scrolled out of view, or under a list)
    // A new question: put the caret in the first field (not on touch screens, where that would pop
    // up the keyboard unasked; there a tap on the field does it).
    if (newQuestion) {
      shownFor = key;
      var touch = window.matchMedia && matchMedia('(pointer: coarse)').matches;
      var onCanvas = document.activeElement === canvas() || document.activeElement === document.body;
      if (!touch && !first.readOnly && !state.embed && onCanvas) first.focus({ preventScroll: true });
    }
  }

  host.stateListeners.push(render);
  if (host.state) render(host.state);
})();
