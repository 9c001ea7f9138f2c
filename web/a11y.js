// ImQuiz accessibility mirror: the screen the canvas draws, as real HTML inside #mirror, for
// screen readers, keyboards and switch access. The canvas is invisible to assistive technology,
// so everything a learner can read or do there is also here.
//
// Rules this file keeps:
// - Rendered only from ImQuizHost.state (app::describe in src/app/app.cpp), never from a model of
//   its own, so canvas and mirror cannot disagree. Acting on it sends the same actions the canvas
//   would (ImQuizHost.act); the app applies them and publishes the new state.
// - DOM nodes are reused by key: a state update never re-creates a control whose content did not
//   change, so focus and the screen reader's position stay put while the app redraws.
// - Bank text goes in with textContent only (banks are data, not markup).
// - The live region is created once and never replaced: replaced live regions lose announcements.
// - Focus moves only when it was in the mirror: a mouse or canvas-keyboard learner is never pulled
//   out of the canvas.
// Written for CSP `script-src 'self'`: no inline script, no eval, no inline style attributes.
'use strict';

(function () {
  var host = window.ImQuizHost;
  var mirror = document.getElementById('mirror');
  if (!host || !mirror) return;

  // ---- A small keyed renderer ----------------------------------------------------------------
  // h('button', { key, text, attrs, props, on }, children). `text` is set with textContent;
  // `props` are DOM properties (checked, value, disabled); `on` maps event names to handlers.
  function h(tag, options, children) {
    options = options || {};
    return { tag: tag, key: options.key, text: options.text, attrs: options.attrs || {},
             props: options.props || {}, on: options.on || {}, children: children || null };
  }

  function dispatchEvent(event) {
    var handler = event.currentTarget.mirrorHandlers && event.currentTarget.mirrorHandlers[event.type];
    if (handler) handler(event);
  }

  function update(node, spec) {
    var previous = node.mirrorAttrs || {};
    Object.keys(previous).forEach(function (name) {
      if (!(name in spec.attrs) || spec.attrs[name] === null || spec.attrs[name] === false) node.removeAttribute(name);
    });
    Object.keys(spec.attrs).forEach(function (name) {
      var value = spec.attrs[name];
      if (value === null || value === false || value === undefined) return;
      value = value === true ? '' : String(value);
      if (node.getAttribute(name) !== value) node.setAttribute(name, value);
    });
    node.mirrorAttrs = spec.attrs;
    Object.keys(spec.props).forEach(function (name) {
      var value = spec.props[name];
      // Never overwrite what the learner is typing: the state catches up a frame later.
      if (name === 'value' && node === document.activeElement) return;
      if (node[name] !== value) node[name] = value;
    });
    node.mirrorHandlers = spec.on;
    node.mirrorListening = node.mirrorListening || {};
    Object.keys(spec.on).forEach(function (type) {
      if (node.mirrorListening[type]) return;
      node.mirrorListening[type] = true;
      node.addEventListener(type, dispatchEvent);
    });
    if (spec.children) patchChildren(node, spec.children);
    else if (spec.text !== undefined && node.textContent !== String(spec.text)) node.textContent = String(spec.text);
  }

  function patchChildren(parent, specs) {
    var unused = new Map();
    for (var child = parent.firstChild; child; child = child.nextSibling) {
      if (child.mirrorKey !== undefined) unused.set(child.mirrorKey, child);
      else unused.set(child, child);  // not ours (should not happen): removed below
    }
    var counts = {};
    var cursor = parent.firstChild;
    specs.forEach(function (spec) {
      if (!spec) return;
      counts[spec.tag] = (counts[spec.tag] || 0) + 1;
      var key = spec.tag + '|' + (spec.key !== undefined ? spec.key : '#' + counts[spec.tag]);
      var node = unused.get(key);
      if (node) {
        unused.delete(key);
      } else {
        node = document.createElement(spec.tag);
        node.mirrorKey = key;
      }
      update(node, spec);
      if (node === cursor) cursor = cursor.nextSibling;
      else parent.insertBefore(node, cursor);
    });
    unused.forEach(function (node) { node.remove(); });
  }

  // ---- Words ------------------------------------------------------------------------------
  var labels = {};
  function word(key) { return labels[key] || key; }
  // The app's printf-style strings ("Question %d of %d", "Best: %d%%").
  function format(template) {
    var args = Array.prototype.slice.call(arguments, 1);
    return String(template).replace(/%%|%[ds]/g, function (token) { return token === '%%' ? '%' : String(args.shift()); });
  }
  // Ends a phrase with a full stop unless it already ends a sentence, for joined announcements.
  function sentence(text) {
    text = String(text || '').trim();
    return !text ? '' : /[.!?…:;)»"”]$/.test(text) ? text : text + '.';
  }
  function answerText(value) {
    if (value === 'true') return word('trueLabel');
    if (value === 'false') return word('falseLabel');
    return String(value).replace(/ ± 0$/, '');  // an exact number: the canvas shows "20", not "20 ± 0"
  }
  function percent(value) { return Math.round(value) + '%'; }
  function points(value) { return Math.abs(value - Math.round(value)) < 1e-9 ? String(Math.round(value)) : value.toFixed(2); }
  function duration(ms) {
    var seconds = Math.floor(ms / 1000);
    var two = function (n) { return (n < 10 ? '0' : '') + n; };
    return seconds >= 3600 ? Math.floor(seconds / 3600) + ':' + two(Math.floor(seconds / 60) % 60) + ':' + two(seconds % 60)
                           : Math.floor(seconds / 60) + ':' + two(seconds % 60);
  }
  var languageNames = [['en', 'English'], ['ru', 'Русский'], ['id', 'Bahasa Indonesia']];
  var textSizes = [[0.875, '88%'], [1, '100%'], [1.125, '113%'], [1.25, '125%'], [1.5, '150%']];

  // ---- Who is driving: the mirror, or the canvas -----------------------------------------------
  // Focus follows the app's screen changes only for a learner who works in the mirror. That is
  // remembered from their own actions, not read from document.activeElement when the state
  // arrives: other page scripts react to the same state first (text-field.js puts the caret in
  // its answer field on a new question, and hands focus to the canvas when the field goes).
  var usingMirror = false;
  var canvas = document.getElementById('canvas');
  mirror.addEventListener('focusin', function () { usingMirror = true; });
  document.addEventListener('pointerdown', function (event) {
    if (!mirror.contains(event.target)) usingMirror = false;
  }, true);
  if (canvas) canvas.addEventListener('keydown', function () { usingMirror = false; }, true);

  // Tab leaves the canvas for the mirror, as Tab leaves any widget on a web page (no keyboard
  // trap, WCAG 2.1.2); arrows, digits, Enter and Esc keep working on the canvas itself. Caught at
  // the window, before the canvas's own listener sees it.
  window.addEventListener('keydown', function (event) {
    if (event.key !== 'Tab' || event.target !== canvas) return;
    var controls = Array.prototype.filter.call(
      mirror.querySelectorAll('button, input, select, textarea, a[href], [tabindex="0"]'),
      function (element) { return !element.disabled && !element.closest('[hidden]'); });
    if (!controls.length) return;
    event.preventDefault();
    event.stopPropagation();
    (event.shiftKey ? controls[controls.length - 1] : controls[0]).focus();
  }, true);

  // Esc goes back one step, as on the canvas.
  mirror.addEventListener('keydown', function (event) {
    var state = host.state;
    if (event.key !== 'Escape' || !state) return;
    if (state.screen === 'settings') act({ type: 'close-settings' });
    else if ((state.screen === 'question' || state.screen === 'results') && !state.embed) act({ type: 'catalog' });
    else return;
    event.preventDefault();
  });

  // ---- Acting ------------------------------------------------------------------------------
  var resyncTimer = 0;
  function act(action) {
    usingMirror = true;   // also when a screen reader clicks in browse mode, without moving focus
    host.act(action);
    // If the app turns the action down, no new state arrives: put the controls back as the
    // state says, so a radio the browser checked on its own does not stay checked.
    clearTimeout(resyncTimer);
    resyncTimer = setTimeout(function () { render(host.state, true); }, 400);
  }
  function button(key, text, action, extra) {
    extra = extra || {};
    var attrs = Object.assign({ type: 'button', 'data-action': action.type }, extra.attrs || {});
    return h('button', { key: key, text: text, attrs: attrs, on: { click: function () {
      if (attrs['aria-disabled'] === 'true') return;
      act(action);
    } } });
  }

  // ---- Screens -----------------------------------------------------------------------------
  function heading(level, key, text, extra) {
    return h('h' + level, { key: key, text: text, attrs: Object.assign({ tabindex: '-1' }, extra || {}) });
  }

  function notice(state) {
    if (!state.notice) return null;
    return h('div', { key: 'notice', attrs: { class: 'mirror-notice' } }, [
      h('p', { text: state.notice }),
      button('dismiss', word('dismiss'), { type: 'dismiss' }),
    ]);
  }

  function catalogScreen(state) {
    var children = [
      heading(1, 'title', word('appName'), { 'data-mirror-h1': '' }),
      notice(state),
      button('settings', word('settings'), { type: 'settings' }),
    ];
    if (state.catalogError) {
      children.push(h('div', { key: 'catalog-error', attrs: { class: 'mirror-problem' } }, [
        h('p', { text: word('couldNotLoad') }), h('p', { text: state.catalogError }) ]));
    } else if (!state.banks.length) {
      children.push(h('p', { key: 'empty', text: word('catalogEmpty') }));
    }
    if (state.quizNotFound) {
      children.push(h('div', { key: 'not-found', attrs: { class: 'mirror-problem' } }, [
        h('p', { text: word('quizNotFound') }), h('p', { text: 'quiz=' + state.quizNotFound }) ]));
    }
    var list = state.banks.map(function (bank) {
      var id = 'mirror-bank-' + bank.id;
      var items = [];
      if (bank.state === 'loading') {
        items.push(h('h2', { key: 'title', text: bank.id || bank.url, attrs: { id: id } }));
        items.push(h('p', { key: 'loading', text: word('loadingQuiz') }));
      } else if (bank.state === 'fetch-failed' || bank.state === 'invalid') {
        var invalid = bank.state === 'invalid';
        items.push(h('h2', { key: 'title', text: invalid ? word('invalidBank') : word('couldNotLoad'), attrs: { id: id } }));
        items.push(h('p', { key: 'url', text: bank.url }));
        if (invalid) items.push(h('ul', { key: 'problems' }, (bank.problems || []).slice(0, 8).map(function (p) { return h('li', { text: p }); })));
        else items.push(h('p', { key: 'error', text: bank.error || '' }));
        items.push(button('retry-load', word('retryLoad'), { type: 'retry-load', quiz: bank.id },
                          { attrs: { 'aria-describedby': id } }));
      } else {
        items.push(h('h2', { key: 'title', text: bank.title, attrs: { id: id } }));
        if (bank.description) items.push(h('p', { key: 'description', text: bank.description }));
        items.push(h('p', { key: 'meta', text: format(word('questionsCount'), bank.questions) + ' · ' +
                                                 word('languages') + ': ' + bank.languages.join(', ').toUpperCase() }));
        items.push(h('p', { key: 'best', text: bank.bestPercent !== undefined
          ? format(word('bestScore'), Math.round(bank.bestPercent)) : word('notTakenYet') }));
        // "Start" twice on one page says nothing: the quiz title completes each button's name.
        var open = bank.inProgress ? word('continue') : word('start');
        items.push(button('open', open, { type: 'open', quiz: bank.id },
                          { attrs: { 'aria-label': open + ': ' + bank.title } }));
        if (bank.inProgress) {
          items.push(button('start-over', word('startOver'), { type: 'start-over', quiz: bank.id },
                            { attrs: { 'aria-label': word('startOver') + ': ' + bank.title } }));
        }
      }
      return h('li', { key: bank.id || bank.url, attrs: { 'aria-labelledby': id } }, items);
    });
    if (list.length) children.push(h('ul', { key: 'banks', attrs: { class: 'mirror-list', 'aria-label': word('catalog') } }, list));
    return children;
  }

  function questionKey(state) {
    var q = state.question;
    return q ? [state.quiz && state.quiz.id, q.index, q.total, q.id].join(':') : '';
  }

  function questionScreen(state) {
    var q = state.question;
    var quizTitle = state.quiz ? state.quiz.title : '';
    var children = [heading(1, 'title', quizTitle, { 'data-mirror-h1': '' }), notice(state)];
    if (!state.embed) children.push(button('back', word('back'), { type: 'catalog' }));
    if (!q) return children;
    var key = questionKey(state);
    var checked = !!q.feedback;
    var isChoice = q.type === 'single_choice' || q.type === 'multiple_choice' || q.type === 'true_false';
    var multiple = q.type === 'multiple_choice';
    var promptId = 'mirror-prompt';
    children.push(h('p', { key: 'counter', text: format(word('questionOf'), q.index, q.total) }));

    var form = [heading(2, 'prompt:' + key, q.prompt, { id: promptId, 'data-mirror-prompt': '' })];
    var canCheck = false;
    if (isChoice) {
      canCheck = q.choices.some(function (c) { return c.selected; });
      if (!checked) form.push(h('p', { key: 'hint', text: word(multiple ? 'selectAll' : 'selectOne'), attrs: { id: 'mirror-hint' } }));
      var rows = q.choices.map(function (choice, i) {
        var inputId = 'mirror-choice-' + i;
        var status = '';
        if (checked) {
          if (choice.correct && choice.selected) status = word('yourAnswer') + ' · ' + word('correct');
          else if (choice.correct) status = word('correctAnswer');
          else if (choice.selected) status = word('yourAnswer') + ' · ' + word('incorrect');
        }
        var detail = [status, choice.feedback || ''].filter(Boolean).join('. ');
        var statusId = inputId + '-status';
        return h('div', { key: key + ':' + choice.id, attrs: { class: 'mirror-choice' } }, [
          h('input', { key: 'input', attrs: { type: multiple ? 'checkbox' : 'radio', id: inputId, name: 'mirror-choice',
                                               'aria-describedby': detail ? statusId : null },
                       props: { checked: !!choice.selected, disabled: checked },
                       on: { change: function () { act({ type: 'select', choice: choice.id }); } } }),
          h('label', { key: 'label', text: choice.text, attrs: { for: inputId } }),
          detail ? h('span', { key: 'status', text: detail, attrs: { id: statusId, class: 'mirror-status' } }) : null,
        ]);
      });
      form.push(h('div', { key: 'choices:' + key, attrs: { role: multiple ? 'group' : 'radiogroup',
                                                           'aria-labelledby': promptId,
                                                           'aria-describedby': checked ? null : 'mirror-hint',
                                                           class: 'mirror-choices' } }, rows));
    } else {
      canCheck = /\S/.test(q.typed || '');
      var hint = word(q.type === 'numeric' ? 'typeNumber' : 'typeAnswer');
      form.push(h('label', { key: 'answer-label', text: hint, attrs: { for: 'mirror-answer' } }));
      form.push(h('input', { key: 'answer:' + key, attrs: {
          type: 'text', id: 'mirror-answer', autocomplete: 'off', spellcheck: 'false',
          inputmode: q.type === 'numeric' ? 'decimal' : null, readonly: checked, 'aria-readonly': checked ? 'true' : null,
          'aria-describedby': q.unit ? 'mirror-unit' : null },
        props: { value: q.typed || '' },
        on: { input: function (event) { act({ type: 'type', text: event.target.value }); } } }));
      if (q.unit) form.push(h('p', { key: 'unit', text: q.unit, attrs: { id: 'mirror-unit' } }));
    }
    // Enter in a choice or the text field checks, as on the canvas (implicit form submission).
    if (!checked) {
      form.push(h('button', { key: 'check', text: word('check'),
                              attrs: { type: 'submit', 'aria-disabled': canCheck ? null : 'true' } }));
    }
    children.push(h('form', { key: 'form', attrs: { class: 'mirror-form' },
                              on: { submit: function (event) {
                                event.preventDefault();
                                if (!host.state || !host.state.question || host.state.question.feedback) return;
                                act({ type: 'check' });
                              } } }, form));

    if (checked) {
      var feedback = q.feedback;
      var verdict = verdictWord(feedback);
      var section = [heading(2, 'verdict:' + key, verdict, { id: 'mirror-verdict', 'data-mirror-feedback': '' })];
      if (!isChoice || !feedback.correct) {
        section.push(h('p', { key: 'correct-answer', text: word('correctAnswer') + ': ' +
                                                          feedback.correctAnswer.map(answerText).join('; ') }));
      }
      if (feedback.explanation) {
        section.push(h('h3', { key: 'explanation-heading', text: word('explanation') }));
        section.push(h('p', { key: 'explanation', text: feedback.explanation }));
      }
      children.push(h('section', { key: 'feedback:' + key, attrs: { 'aria-labelledby': 'mirror-verdict',
                                                                   class: 'mirror-feedback' } }, section));
      var last = q.index >= q.total;
      children.push(button('next', word(last ? 'seeResults' : 'next'), { type: 'next' }));
    }
    return children;
  }

  function verdictWord(feedback) {
    return word(feedback.correct ? 'correct' : feedback.score > 0 ? 'partlyCorrect' : 'incorrect');
  }

  function outcomeWord(outcome) {
    return word(outcome === 'correct' ? 'correct' : outcome === 'partial' ? 'partlyCorrect' : 'incorrect');
  }

  function resultsScreen(state) {
    var r = state.results;
    var children = [heading(1, 'title', word('results'), { 'data-mirror-h1': '' }), notice(state)];
    if (!r) return children;
    if (state.quiz) children.push(h('p', { key: 'quiz', text: state.quiz.title }));
    children.push(h('div', { key: 'score', attrs: { class: 'mirror-score' } }, [
      h('p', { key: 'percent', text: percent(r.percent) }),
      h('p', { key: 'points', text: format(word('score'), points(r.score), points(r.maxScore)) }),
      h('p', { key: 'verdict', text: word(r.passed ? 'passed' : 'notPassed') }),
      h('p', { key: 'mark', text: format(word('passMark'), r.passPercent) + ' · ' + word('timeTaken') + ' ' + duration(r.durationMs) }),
    ]));
    if (r.missed > 0) children.push(button('review', word('reviewMistakes'), { type: 'review' }));
    children.push(button('retry', word('retry'), { type: 'retry' }));
    if (!state.embed) children.push(button('catalog', word('backToCatalog'), { type: 'catalog' }));
    children.push(h('ol', { key: 'questions', attrs: { class: 'mirror-list' } }, r.questions.map(function (qr, i) {
      var items = [
        h('h2', { key: 'heading', text: (i + 1) + '. ' + outcomeWord(qr.outcome) }),
        h('p', { key: 'prompt', text: qr.prompt }),
        h('p', { key: 'response', text: word('yourAnswer') + ': ' + (qr.response === null || qr.response === undefined ? word('noAnswer') : qr.response) }),
      ];
      if (qr.outcome !== 'correct') {
        items.push(h('p', { key: 'correct', text: word('correctAnswer') + ': ' + qr.correctAnswer.map(answerText).join('; ') }));
      }
      if (qr.explanation) items.push(h('p', { key: 'explanation', text: qr.explanation }));
      return h('li', { key: qr.id }, items);
    })));
    return children;
  }

  function radioGroup(key, legend, options, current, onPick) {
    return h('fieldset', { key: key, attrs: { class: 'mirror-options' } }, [h('legend', { key: 'legend', text: legend })]
      .concat(options.map(function (option, i) {
        var id = 'mirror-' + key + '-' + i;
        return h('div', { key: String(option.value), attrs: { class: 'mirror-choice' } }, [
          h('input', { key: 'input', attrs: { type: 'radio', id: id, name: 'mirror-' + key },
                       props: { checked: option.value === current },
                       on: { change: function () { onPick(option.value); } } }),
          h('label', { key: 'label', text: option.label, attrs: { for: id, lang: option.lang || null } }),
        ]);
      })));
  }

  function settingsScreen(state) {
    var prefs = state.preferences || {};
    var scale = textSizes.reduce(function (best, size) {
      return Math.abs(size[0] - prefs.textScale) < Math.abs(best - prefs.textScale) ? size[0] : best;
    }, 1);
    var children = [
      heading(1, 'title', word('settings'), { 'data-mirror-h1': '' }),
      notice(state),
      button('back', word('back'), { type: 'close-settings' }),
      radioGroup('language', word('language'), languageNames.map(function (l) {
        return { value: l[0], label: l[1], lang: l[0] };
      }), state.language, function (value) { act({ type: 'language', value: value }); }),
      radioGroup('theme', word('theme'), [
        { value: 'system', label: word('themeSystem') }, { value: 'light', label: word('themeLight') },
        { value: 'dark', label: word('themeDark') },
      ], prefs.theme, function (value) { act({ type: 'theme', value: value }); }),
      radioGroup('text-size', word('textSize'), textSizes.map(function (s) { return { value: s[0], label: s[1] }; }),
                 scale, function (value) { act({ type: 'text-size', value: value }); }),
      h('h2', { key: 'progress', text: word('progress') }),
    ];
    if (!state.storagePersistent) children.push(h('p', { key: 'storage', text: word('storageUnavailable') }));
    children.push(button('export', word('exportProgress'), { type: 'export' }));
    children.push(button('import', word('importProgress'), { type: 'import' }));
    if (state.importMessage) children.push(h('p', { key: 'import-message', text: state.importMessage }));
    return children;
  }

  function loadingScreen() {
    return [heading(1, 'title', word('appName'), { 'data-mirror-h1': '' }), h('p', { key: 'loading', text: word('loading') })];
  }

  var screens = { catalog: catalogScreen, question: questionScreen, results: resultsScreen, settings: settingsScreen };

  // ---- Document: title per screen, language, theme, text size ---------------------------------
  function documentTitle(state) {
    var app = word('appName');
    var quiz = state.quiz ? state.quiz.title : '';
    switch (state.screen) {
    case 'catalog': return word('catalog') + ' – ' + app;
    case 'question': return state.question
      ? [format(word('questionOf'), state.question.index, state.question.total), quiz, app].join(' – ') : quiz + ' – ' + app;
    case 'results': return [word('results'), quiz, app].join(' – ');
    case 'settings': return word('settings') + ' – ' + app;
    default: return app;
    }
  }
  function applyDocument(state) {
    if (!state) return;
    var title = documentTitle(state);
    if (document.title !== title) document.title = title;
    if (state.language && document.documentElement.lang !== state.language) document.documentElement.lang = state.language;
    var theme = state.preferences ? state.preferences.theme : 'system';
    document.documentElement.classList.toggle('theme-dark', theme === 'dark');
    document.documentElement.classList.toggle('theme-light', theme === 'light');
    var scale = state.preferences && state.preferences.textScale > 0 ? state.preferences.textScale : 1;
    mirror.style.setProperty('--mirror-text-scale', String(scale));  // CSSOM: allowed by the CSP
  }
  // The app names the page after the quiz only; the mirror knows the screen, and has the last word.
  var appSetDocumentInfo = host.setDocumentInfo;
  host.setDocumentInfo = function (lang, title) {
    appSetDocumentInfo.call(host, lang, title);
    applyDocument(host.state);
  };

  // ---- The live region: created once -------------------------------------------------------
  var live = document.createElement('div');
  live.id = 'mirror-live';
  live.className = 'visually-hidden';
  live.setAttribute('role', 'status');
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('aria-atomic', 'true');
  var screenRoot = document.createElement('div');
  screenRoot.id = 'mirror-screen';
  mirror.textContent = '';
  mirror.appendChild(live);
  mirror.appendChild(screenRoot);
  var announceTimer = 0;
  function announce(text) {
    // Emptied first, then filled: the same words twice in a row are announced twice.
    clearTimeout(announceTimer);
    live.textContent = '';
    announceTimer = setTimeout(function () { live.textContent = text; }, 60);
  }

  // ---- Rendering ---------------------------------------------------------------------------
  var lastSignature = '';
  var last = { screen: '', question: '', feedback: false, importMessage: '' };
  function withoutItems(key, value) { return key === 'items' ? undefined : value; }

  function render(state, force) {
    if (!state) return;
    var signature = JSON.stringify(state, withoutItems);
    if (!force && signature === lastSignature) return;
    lastSignature = signature;
    labels = state.labels || {};
    applyDocument(state);

    var focusWasInMirror = mirror.contains(document.activeElement);
    var key = questionKey(state);
    var screenName = screens[state.screen] ? state.screen : 'loading';
    var content = (screens[screenName] || loadingScreen)(state);
    patchChildren(screenRoot, [h('div', { key: 'screen:' + screenName, attrs: { class: 'mirror-' + screenName } }, content)]);

    var hasFeedback = !!(state.question && state.question.feedback);
    var focusTarget = null;
    // Last question's verdict must not linger at the top of the next screen for a reader who
    // browses there (emptying a live region announces nothing).
    if (screenName !== last.screen || key !== last.question) {
      clearTimeout(announceTimer);
      live.textContent = '';
    }
    if (screenName !== last.screen) {
      focusTarget = screenRoot.querySelector('[data-mirror-h1]');
      if (screenName === 'results' && state.results) {
        var r = state.results;
        announce([sentence(word('results')), sentence(percent(r.percent)),
                  sentence(format(word('score'), points(r.score), points(r.maxScore))),
                  sentence(word(r.passed ? 'passed' : 'notPassed'))].join(' '));
      }
    } else if (screenName === 'question' && key !== last.question) {
      focusTarget = screenRoot.querySelector('[data-mirror-prompt]');
    } else if (screenName === 'question' && key === last.question && hasFeedback && !last.feedback) {
      focusTarget = screenRoot.querySelector('[data-mirror-feedback]');
      announce(feedbackAnnouncement(state.question));
    }
    if (state.importMessage && state.importMessage !== last.importMessage) announce(state.importMessage);
    last = { screen: screenName, question: key, feedback: hasFeedback, importMessage: state.importMessage || '' };

    // Focus follows the learner only when they work in the mirror. Without a new place to go, it
    // still must not be left nowhere: the node they were on may just have gone (Check becomes
    // Next), or focus was handed to the canvas, which assistive technology cannot see.
    if (usingMirror) {
      var active = document.activeElement;
      var stranded = (focusWasInMirror && !mirror.contains(active)) || active === document.body || active === canvas;
      if (!focusTarget && stranded) focusTarget = screenRoot.querySelector('[data-mirror-h1]');
      if (focusTarget && focusTarget !== active) focusTarget.focus();
    }
  }

  function feedbackAnnouncement(question) {
    var feedback = question.feedback;
    var parts = [sentence(verdictWord(feedback))];
    question.choices.forEach(function (choice) { if (choice.selected && choice.feedback) parts.push(sentence(choice.feedback)); });
    var isChoice = question.type === 'single_choice' || question.type === 'multiple_choice' || question.type === 'true_false';
    if (!feedback.correct || !isChoice) {
      parts.push(sentence(word('correctAnswer') + ': ' + feedback.correctAnswer.map(answerText).join('; ')));
    }
    if (feedback.explanation) parts.push(sentence(feedback.explanation));
    return parts.filter(Boolean).join(' ');
  }

  host.stateListeners.push(function (state) { render(state, false); });
  render(host.state, false);
})();
