// ImQuiz accessibility mirror: the screen the canvas draws, as real HTML inside #mirror, for
// screen readers, keyboards and switch access. The canvas is invisible to assistive technology,
// so everything a learner can read or do there is also here.
//
// Rules this file keeps:
// - Rendered only from ImQuizHost.state (the screen model, docs/page-protocol.md), never from a
//   model, a rule or a word of its own, so canvas and mirror cannot disagree. Acting on it sends
//   the actions the model's buttons and choices carry (ImQuizHost.act); the app applies them and
//   publishes the new state.
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
             props: options.props || {}, on: options.on || {}, children: children || null, foreign: options.foreign };
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
    if (spec.foreign) {   // a subtree made elsewhere (MathML), replaced only when its key changes
      if (node.mirrorForeign !== spec.foreign.key) {
        node.textContent = '';
        var made = spec.foreign.build();
        if (made) node.appendChild(made);
        node.mirrorForeign = spec.foreign.key;
      }
      return;
    }
    node.mirrorListening = node.mirrorListening || {};
    Object.keys(spec.on).forEach(function (type) {
      if (node.mirrorListening[type]) return;
      node.mirrorListening[type] = true;
      node.addEventListener(type, dispatchEvent);
    });
    node.mirrorForeign = undefined;
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
  // the window, before the canvas's own listener sees it. WebKitGTK names Shift+Tab "Unidentified"
  // (GTK's key for it is ISO_Left_Tab), keyCode 9 still.
  window.addEventListener('keydown', function (event) {
    var tab = event.key === 'Tab' || (event.key === 'Unidentified' && event.keyCode === 9);
    if (!tab || event.target !== canvas) return;
    var controls = Array.prototype.filter.call(
      mirror.querySelectorAll('button, input, select, textarea, a[href], [tabindex="0"]'),
      function (element) { return !element.disabled && !element.closest('[hidden]'); });
    if (!controls.length) return;
    event.preventDefault();
    event.stopPropagation();
    (event.shiftKey ? controls[controls.length - 1] : controls[0]).focus();
  }, true);

  // Esc does what the app says it does on this screen (as on the canvas).
  mirror.addEventListener('keydown', function (event) {
    var state = host.state;
    if (event.key !== 'Escape' || !state || !state.escape) return;
    act(state.escape);
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
  // A button of the screen model: its label, its accessible name, enabled or not, its action.
  function button(model, extra) {
    if (!model) return null;
    extra = extra || {};
    var attrs = Object.assign({ type: 'button', 'data-action': model.action ? model.action.type : null,
                                'aria-label': model.name !== model.label ? model.name : null,
                                'aria-disabled': model.enabled ? null : 'true' }, extra.attrs || {});
    return h('button', { key: model.id, text: model.label, attrs: attrs, on: { click: function () {
      if (!model.enabled || !model.action) return;
      act(model.action);
    } } });
  }

  // ---- Markdown texts: the page protocol's blocks and runs as elements ----------------------
  // Built with h() like everything here: a bank's text reaches the DOM as textContent, inside
  // elements this file chose (strong, em, code, pre, lists, tables, links), never as markup.
  function runSpec(run, key) {
    if (run.type === 'break') return h('br', { key: key });
    var spec;
    if (run.type === 'image') {
      spec = imageSpec(run, key);
    } else if (run.type === 'math' || run.type === 'display-math') {
      spec = mathSpec(run, key);
    } else {
      spec = h(run.type === 'code' ? 'code' : 'span', { key: key, text: run.text });
    }
    if (run.strike) spec = h('s', { key: key }, [spec]);
    if (run.em) spec = h('em', { key: key }, [spec]);
    if (run.strong) spec = h('strong', { key: key }, [spec]);
    if (run.link && /^(https?:|mailto:)/i.test(run.link)) {
      spec = h('a', { key: key, attrs: { href: run.link, rel: 'noopener noreferrer', target: '_blank' } }, [spec]);
    }
    return spec;
  }
  // A formula: MathJax's MathML (the same module that typeset it for the canvas), parsed as XML and
  // imported with DOM calls, its TeX as the math element's alttext and as the label of a browser
  // without MathML. Not typeset (a TeX error, the module not there yet): its TeX, as code.
  var mathmlSupported = typeof window.MathMLElement === 'function';
  var mathNamespace = 'http://www.w3.org/1998/Math/MathML';
  function mathElement(run) {
    var source = host.math && run.typeset ? host.math.mathml(run.text, run.type === 'display-math') : '';
    if (!source) return null;
    var parsed = new DOMParser().parseFromString(source, 'application/xml');
    var root = parsed.documentElement;
    if (!root || root.namespaceURI !== mathNamespace || root.localName !== 'math') return null;
    // MathML carries no script, but could carry links and styles: not from a bank's TeX. A formulas
    // file typeset ahead of time is data like the bank: only MathML elements are taken from it (an
    // HTML or SVG element inside, an iframe or an img, goes with what it holds).
    Array.prototype.slice.call(parsed.getElementsByTagName('*')).forEach(function (element) {
      if (element.namespaceURI !== mathNamespace) {
        if (element.parentNode) element.parentNode.removeChild(element);
        return;
      }
      Array.prototype.slice.call(element.attributes).forEach(function (attribute) {
        if (/^(on|href$|src$|style$|xlink:)/i.test(attribute.name)) element.removeAttribute(attribute.name);
      });
    });
    var imported = document.importNode(root, true);
    imported.setAttribute('alttext', run.text);
    if (run.type === 'display-math') imported.setAttribute('display', 'block');
    return imported;
  }
  function mathSpec(run, key) {
    if (!run.typeset || !host.math) {
      return h('code', { key: key, text: run.text, attrs: { class: run.error ? 'mirror-math mirror-math-error' : 'mirror-math',
                                                            title: run.error || null } });
    }
    var attrs = mathmlSupported ? { class: 'mirror-math' } : { class: 'mirror-math', role: 'img', 'aria-label': run.text };
    return h('span', { key: key, attrs: attrs, foreign: { key: run.type + '|' + run.text, build: function () {
      return mathmlSupported ? mathElement(run) : document.createTextNode(run.text);
    } } });
  }
  // An image of the bank, once the app has its file (same origin: the source is a relative path,
  // checked again here); the link opens it full size. Otherwise its alt text stands for it.
  var pictures = {}, pictureNotShown = '';   // source -> the page protocol's picture, for the state being drawn
  function imageSpec(run, key) {
    var picture = pictures[run.src];
    var url = picture && picture.state === 'ready' ? new URL(picture.url, location.href) : null;
    if (url && url.origin === location.origin && /^https?:$/.test(url.protocol)) {
      return h('a', { key: key, attrs: { href: url.href, target: '_blank', rel: 'noopener noreferrer', class: 'mirror-image-link' } },
               [h('img', { key: 'img', attrs: { src: url.href, alt: run.text, width: picture.width, height: picture.height,
                                                class: 'mirror-image' } })]);
    }
    var label = picture && picture.state === 'failed' ? run.text + ' (' + pictureNotShown + ')' : run.text;
    return h('span', { key: key, text: '[' + label + ']', attrs: { role: 'img', 'aria-label': label, class: 'mirror-image-alt' } });
  }
  function runSpecs(runs) { return (runs || []).map(function (run, i) { return runSpec(run, i); }); }
  function blockSpec(block, key) {
    switch (block.type) {
      case 'heading': return h('h' + Math.min(6, block.level + 2), { key: key }, runSpecs(block.runs));
      // Focusable: a block wider than the mirror scrolls, and the keyboard must reach it to scroll.
      case 'code': return h('pre', { key: key, attrs: { tabindex: '0' } }, [h('code', { key: 'code', text: block.code,
                                                              attrs: { 'data-language': block.language || null } },
                                                    codeSpans(block))]);
      case 'rule': return h('hr', { key: key });
      case 'table': {
        var head = block.rows.slice(0, block.headerRows), body = block.rows.slice(block.headerRows);
        var row = function (cells, r, tag) {
          return h('tr', { key: r }, cells.map(function (cell, c) {
            var align = { l: 'left', c: 'center', r: 'right' }[block.align.charAt(c)];
            return h(tag, { key: c, attrs: { style: align ? 'text-align:' + align : null, scope: tag === 'th' ? 'col' : null } },
                     runSpecs(cell));
          }));
        };
        return h('table', { key: key }, [
          head.length ? h('thead', { key: 'head' }, head.map(function (cells, r) { return row(cells, r, 'th'); })) : null,
          h('tbody', { key: 'body' }, body.map(function (cells, r) { return row(cells, r, 'td'); })),
        ]);
      }
      default: return h('p', { key: key }, runSpecs(block.runs));
    }
  }
  // A coloured code block's pieces in order (the page protocol's spans count the string's own
  // units), each a span, classed tok-<kind> where coloured (app.css); null while it is plain.
  function codeSpans(block) {
    if (!block.spans) return null;
    var pieces = [], at = 0, code = block.code;
    var piece = function (end, kind) {
      pieces.push(h('span', { key: pieces.length, text: code.slice(at, end), attrs: { class: kind ? 'tok-' + kind : null } }));
      at = end;
    };
    block.spans.forEach(function (span) {
      if (span[0] > at) piece(span[0]);
      piece(span[0] + span[1], span[2]);
    });
    if (at < code.length) piece(code.length);
    return pieces;
  }
  // The blocks from `i` on at list depth `d` or deeper, into `out`, lists nested as the model's
  // depths and markers say; stops at a shallower block or, inside a list item, at the next item.
  function blockSpecs(blocks, i, d, out) {
    var depthOf = function (k) { return blocks[k].depth || 0; };
    while (i < blocks.length && depthOf(i) >= d) {
      if (depthOf(i) === d) {
        if (d > 0 && blocks[i].marker) break;   // the next item of the list around us
        out.push(blockSpec(blocks[i], out.length));
        i++;
        continue;
      }
      // A list one level down: each item from a block with a marker to the next such block.
      var ordered = /\.$/.test(blocks[i].marker || '');
      var first = parseInt(blocks[i].marker, 10);
      var items = [];
      while (i < blocks.length && depthOf(i) > d) {
        var content = [blockSpec(blocks[i], 0)];
        i = blockSpecs(blocks, i + 1, d + 1, content);
        items.push(h('li', { key: items.length }, content));
      }
      out.push(h(ordered ? 'ol' : 'ul', { key: out.length, attrs: { start: ordered && first > 1 ? first : null } }, items));
    }
    return i;
  }
  // A text of the model: its blocks when the bank is Markdown, else its words in a <p>.
  function richText(key, rich, words, attrs) {
    if (!rich) return h('p', { key: key, text: words, attrs: attrs || {} });
    var out = [];
    blockSpecs(rich, 0, 0, out);
    return h('div', { key: key, attrs: Object.assign({ class: 'mirror-rich' }, attrs || {}) }, out);
  }

  // ---- Screens: each renders its part of the screen model, nothing more ---------------------
  function heading(level, key, text, extra) {
    return h('h' + level, { key: key, text: text, attrs: Object.assign({ tabindex: '-1' }, extra || {}) });
  }

  // The notice above the screen, and where a bank from a bank= link comes from.
  function notice(state) {
    var parts = [];
    if (state.developmentBanner) parts.push(h('p', { key: 'development', text: state.developmentBanner, attrs: { role: 'note' } }));
    if (state.notice) {
      parts.push(h('div', { key: 'notice', attrs: { class: 'mirror-notice' } }, [
        h('p', { text: state.notice }),
        button(state.noticeDismiss),
      ]));
    }
    return parts.length ? h('div', { key: 'notices' }, parts) : null;
  }

  function catalogScreen(state) {
    var catalog = state.catalog;
    var children = [heading(1, 'title', catalog.heading, { 'data-mirror-h1': '' }), notice(state), button(catalog.settings)];
    if (catalog.error) {
      children.push(h('div', { key: 'catalog-error', attrs: { class: 'mirror-problem' } }, [
        h('p', { text: catalog.errorTitle }), h('p', { text: catalog.error }) ]));
    } else if (catalog.empty) {
      children.push(h('p', { key: 'empty', text: catalog.empty }));
    }
    if (catalog.notFound) {
      children.push(h('div', { key: 'not-found', attrs: { class: 'mirror-problem' } }, [
        h('p', { text: catalog.notFoundTitle }), h('p', { text: catalog.notFound }) ]));
    }
    if (catalog.review) {   // review across quizzes: a region named by its heading
      var review = catalog.review;
      var reviewParts = [h('h2', { key: 'heading', text: review.heading, attrs: { id: 'mirror-review-heading' } }),
                         h('p', { key: 'text', text: review.text })];
      if (review.button) reviewParts.push(button(review.button));
      children.push(h('section', { key: 'review', attrs: { 'aria-labelledby': 'mirror-review-heading' } }, reviewParts));
    }
    var list = state.banks.map(function (bank, index) {
      var id = 'mirror-bank-' + index;
      var items = [h('h2', { key: 'title', text: bank.title, attrs: { id: id } })];
      if (bank.state === 'loading') {
        items.push(h('p', { key: 'loading', text: bank.standing }));
      } else if (bank.state === 'fetch-failed' || bank.state === 'invalid') {
        items.push(h('p', { key: 'url', text: bank.url }));
        if (bank.state === 'invalid') items.push(h('ul', { key: 'problems' }, bank.problems.map(function (p) { return h('li', { text: p }); })));
        else items.push(h('p', { key: 'error', text: bank.error }));
      } else {
        if (bank.description) items.push(richText('description', bank.descriptionRich, bank.description));
        items.push(h('p', { key: 'meta', text: bank.meta }));
        items.push(h('p', { key: 'standing', text: bank.standing }));
        if (bank.progress) items.push(h('p', { key: 'progress', text: bank.progress.text }));
        if (bank.problems) {   // TeX errors of a bank that plays
          items.push(h('ul', { key: 'problems', attrs: { class: 'mirror-problem' } },
                       bank.problems.map(function (p) { return h('li', { text: p }); })));
        }
      }
      bank.buttons.forEach(function (b) { items.push(button(b)); });
      return h('li', { key: bank.id, attrs: { 'aria-labelledby': id } }, items);
    });
    if (list.length) children.push(h('ul', { key: 'banks', attrs: { class: 'mirror-list', 'aria-label': catalog.listLabel } }, list));
    return children;
  }

  function questionKey(state) {
    var q = state.question;
    return q ? [state.quiz && state.quiz.id, q.index, q.total, q.id].join(':') : '';
  }

  // A typed answer: a labelled <input> (the question's own, or a cloze blank's), with its unit and
  // why the last Check turned it down.
  // `id` is the input's; `prefix` begins the ids of its unit and problem.
  function fieldSpecs(field, id, prefix, key, onInput) {
    var described = [field.unit ? prefix + '-unit' : '', field.problem ? prefix + '-problem' : ''].filter(Boolean).join(' ');
    var out = [h('input', { key: 'answer:' + key, attrs: {
        type: 'text', id: id, autocomplete: 'off', spellcheck: 'false',
        inputmode: field.numeric ? 'decimal' : null, readonly: field.readOnly, 'aria-readonly': field.readOnly ? 'true' : null,
        'aria-invalid': field.problem ? 'true' : null, 'aria-describedby': described || null },
      props: { value: field.value },
      on: { input: function (event) { onInput(event.target.value); } } })];
    if (field.unit) out.push(h('p', { key: 'unit', text: field.unit, attrs: { id: prefix + '-unit' } }));
    if (field.problem) out.push(h('p', { key: 'problem', text: field.problem, attrs: { id: prefix + '-problem', role: 'alert' } }));
    return out;
  }

  // Matching: each item a labelled <select> of the answers. Cloze: each blank a labelled <select>
  // of its choices or a labelled text field. Ordering: an ordered list, each item with Move up /
  // Move down buttons. What moved where is announced (q.moved, a status region).
  function rowSpecs(q, key, promptId, checked) {
    var out = [];
    if (q.instruction) out.push(h('p', { key: 'hint', text: q.instruction, attrs: { id: 'mirror-hint' } }));
    var statusOf = function (row, id) {
      var detail = [row.status, row.feedback || ''].filter(Boolean).join('. ');
      return detail ? h('span', { key: 'status', text: detail, attrs: { id: id, class: 'mirror-status' } }) : null;
    };
    if (q.type === 'matching' || q.type === 'cloze') {
      out.push(h('div', { key: 'rows:' + key, attrs: { role: 'group', 'aria-labelledby': promptId,
                                                      'aria-describedby': q.instruction ? 'mirror-hint' : null,
                                                      class: 'mirror-rows' } }, q.rows.map(function (row, i) {
        var selectId = 'mirror-row-' + i;
        var status = statusOf(row, selectId + '-status');
        var label = q.type === 'cloze' ? row.label : row.text;
        if (row.field) {
          return h('div', { key: key + ':' + row.id, attrs: { class: 'mirror-row' } }, [
            h('label', { key: 'label', text: label, attrs: { for: selectId } })
          ].concat(fieldSpecs(row.field, selectId, selectId, key + ':' + row.id, function (value) {
            act({ type: 'fill', blank: row.id, value: value });
          }), [status]));
        }
        var options = checked ? [h('option', { key: 'given', text: row.answerText, attrs: { value: row.answer } })]
                              : row.options.map(function (option) {
                                  return h('option', { key: 'o:' + option.id, text: option.text, attrs: { value: option.id },
                                                       props: { selected: !!option.selected } });
                                });
        return h('div', { key: key + ':' + row.id, attrs: { class: 'mirror-row' } }, [
          h('label', { key: 'label', text: label, attrs: { for: selectId } }),
          h('select', { key: 'select', attrs: { id: selectId, 'aria-describedby': status ? selectId + '-status' : null },
                        props: { disabled: checked, value: row.answer },
                        on: { change: function (event) {
                          var chosen = row.options.filter(function (option) { return option.id === event.target.value; })[0];
                          if (chosen) act(chosen.action);
                        } } }, options),
          status,
        ]);
      })));
    } else {
      out.push(h('ol', { key: 'rows:' + key, attrs: { 'aria-labelledby': promptId,
                                                     'aria-describedby': q.instruction ? 'mirror-hint' : null,
                                                     class: 'mirror-rows' } }, q.rows.map(function (row, i) {
        var statusId = 'mirror-row-' + i + '-status';
        var status = statusOf(row, statusId);
        return h('li', { key: key + ':' + row.id, attrs: { class: 'mirror-row', 'aria-describedby': status ? statusId : null } }, [
          h('span', { key: 'text', text: row.text, attrs: { class: 'mirror-row-text' } }),
          button(row.up), button(row.down), status,
        ]);
      })));
    }
    out.push(h('p', { key: 'moved', text: q.moved || '', attrs: { role: 'status', class: 'mirror-moved' } }));
    return out;
  }

  function questionScreen(state) {
    var q = state.question;
    var children = [heading(1, 'title', q ? q.quizTitle : (state.quiz ? state.quiz.title : ''), { 'data-mirror-h1': '' }),
                    notice(state)];
    if (!q) return children;
    children.push(button(q.back));
    var key = questionKey(state);
    var checked = !!q.feedback;
    var promptId = 'mirror-prompt';
    children.push(h('p', { key: 'counter', text: q.position }));
    // An exam: the answer sheet first, a real list of buttons with their states in their names.
    if (q.exam) {
      children.push(h('nav', { key: 'palette', attrs: { 'aria-labelledby': 'mirror-palette', class: 'mirror-palette' } }, [
        h('h2', { key: 'heading', text: q.exam.heading, attrs: { id: 'mirror-palette' } }),
        h('p', { key: 'answered', text: q.exam.answered }),
        // The countdown as text (not live: a reader hears the warnings, below, not every second).
        q.exam.timeLeft ? h('p', { key: 'time', text: q.exam.timeLeft, attrs: { role: 'timer' } }) : null,
        h('ul', { key: 'list' }, q.exam.palette.map(function (item) {
          return h('li', { key: item.id }, [h('button', { key: 'button', text: item.number,
            attrs: { type: 'button', 'aria-label': item.label, 'aria-current': item.current ? 'step' : null,
                     'data-answered': item.answered ? '' : null, 'data-flagged': item.flagged ? '' : null },
            on: { click: function () { act(item.action); } } })]);
        })),
      ]));
    }

    // A Markdown prompt: its first paragraph is the heading (what the choices are labelled by),
    // the rest of it (code, lists) follows as it is.
    var promptBlocks = q.promptRich || null;
    var headed = promptBlocks && promptBlocks[0] && promptBlocks[0].type === 'paragraph' && !promptBlocks[0].depth;
    var form = [headed
      ? h('h2', { key: 'prompt:' + key, attrs: { tabindex: '-1', id: promptId, 'data-mirror-prompt': '' } }, runSpecs(promptBlocks[0].runs))
      : heading(2, 'prompt:' + key, q.prompt, { id: promptId, 'data-mirror-prompt': '' })];
    if (headed && promptBlocks.length > 1) form.push(richText('prompt-rest:' + key, promptBlocks.slice(1), ''));
    if (q.choices.length) {
      if (q.instruction) form.push(h('p', { key: 'hint', text: q.instruction, attrs: { id: 'mirror-hint' } }));
      var rows = q.choices.map(function (choice, i) {
        var inputId = 'mirror-choice-' + i;
        var detail = [choice.status, choice.feedback || ''].filter(Boolean).join('. ');
        var statusId = inputId + '-status';
        return h('div', { key: key + ':' + choice.id, attrs: { class: 'mirror-choice' } }, [
          h('input', { key: 'input', attrs: { type: q.multiple ? 'checkbox' : 'radio', id: inputId, name: 'mirror-choice',
                                               'aria-describedby': detail ? statusId : null },
                       props: { checked: !!choice.selected, disabled: !choice.enabled },
                       on: { change: function () { act(choice.action); } } }),
          choice.textRich
            ? h('label', { key: 'label', attrs: { for: inputId } }, [].concat.apply([], choice.textRich.map(function (block, b) {
                return block.type === 'code' ? [h('code', { key: 'b' + b, text: block.code, attrs: { class: 'mirror-pre' } },
                                                  codeSpans(block))]
                                             : runSpecs(block.runs || []);
              })))
            : h('label', { key: 'label', text: choice.text, attrs: { for: inputId } }),
          detail ? h('span', { key: 'status', text: detail, attrs: { id: statusId, class: 'mirror-status' } }) : null,
        ]);
      });
      form.push(h('div', { key: 'choices:' + key, attrs: { role: q.multiple ? 'group' : 'radiogroup',
                                                           'aria-labelledby': promptId,
                                                           'aria-describedby': q.instruction ? 'mirror-hint' : null,
                                                           class: 'mirror-choices' } }, rows));
    }
    if (q.field) {
      form.push(h('label', { key: 'answer-label', text: q.field.label, attrs: { for: 'mirror-answer' } }));
      form.push.apply(form, fieldSpecs(q.field, 'mirror-answer', 'mirror', key, function (value) { act({ type: 'type', text: value }); }));
    }
    if (q.rows && q.rows.length) form.push.apply(form, rowSpecs(q, key, promptId, checked));
    // Hints revealed so far, then what a try that was not right is told, how many tries, and the
    // button for the next hint (a plain button: Enter in the form still checks).
    (q.hints || []).forEach(function (hint, i) {
      form.push(h('section', { key: 'hint:' + key + ':' + i, attrs: { 'aria-labelledby': 'mirror-hint-' + i, class: 'mirror-hint' } }, [
        h('h3', { key: 'heading', text: hint.heading, attrs: { id: 'mirror-hint-' + i } }),
        richText('text', hint.textRich, hint.text),
      ]));
    });
    if (q.tryAgain) {
      form.push(h('div', { key: 'try-again:' + key, attrs: { class: 'mirror-try-again' } }, [
        h('p', { key: 'verdict', text: q.tryAgain.verdict, attrs: { class: 'mirror-verdict' } }),
        h('p', { key: 'message', text: q.tryAgain.message }),
      ]));
    }
    if (q.tries) form.push(h('p', { key: 'tries', text: q.tries }));
    if (q.hint) form.push(button(q.hint));
    // Enter in a choice or the text field presses the primary button, as on the canvas
    // (implicit form submission): Check before the answer is checked (in an exam: Next, Submit).
    if (!checked && !(q.exam && q.exam.confirmation)) {
      form.push(h('button', { key: 'check', text: q.primary.label,
                              attrs: { type: 'submit', 'data-action': q.primary.action.type,
                                       'aria-disabled': q.primary.enabled ? null : 'true' } }));
    }
    children.push(h('form', { key: 'form', attrs: { class: 'mirror-form' },
                              on: { submit: function (event) {
                                event.preventDefault();
                                var now = host.state && host.state.question;
                                if (!now || now.feedback || !now.primary.enabled) return;
                                act(now.primary.action);
                              } } }, form));

    if (q.exam) {
      var exam = q.exam;
      if (exam.confirmation) {
        children.push(h('div', { key: 'confirm-submit', attrs: { role: 'alertdialog', 'aria-labelledby': 'mirror-confirm',
                                                                'aria-describedby': 'mirror-unanswered', class: 'mirror-problem' } }, [
          h('p', { key: 'question', text: exam.confirmation.question, attrs: { id: 'mirror-confirm' } }),
          h('p', { key: 'unanswered', text: exam.unanswered, attrs: { id: 'mirror-unanswered' } }),
          button(exam.confirmation.confirm, { attrs: { 'data-mirror-confirm': '' } }),
          button(exam.confirmation.cancel),
        ]));
      } else {
        children.push(button(exam.previous));
        children.push(button(exam.flag, { attrs: { 'aria-pressed': exam.flagged ? 'true' : 'false' } }));
        if (q.primary.id !== 'finish') children.push(button(exam.submit));
      }
    }
    if (checked) {
      var feedback = q.feedback;
      var section = [heading(2, 'verdict:' + key, feedback.verdict, { id: 'mirror-verdict', 'data-mirror-feedback': '' })];
      if (feedback.correctAnswerLine) section.push(h('p', { key: 'correct-answer', text: feedback.correctAnswerLine }));
      if (feedback.costs) section.push(h('p', { key: 'costs', text: feedback.costs }));
      if (feedback.explanation) {
        section.push(h('h3', { key: 'explanation-heading', text: feedback.explanationHeading }));
        section.push(richText('explanation', feedback.explanationRich, feedback.explanation));
      }
      children.push(h('section', { key: 'feedback:' + key, attrs: { 'aria-labelledby': 'mirror-verdict',
                                                                   class: 'mirror-feedback' } }, section));
      children.push(button(q.primary));
    }
    return children;
  }

  function resultsScreen(state) {
    var r = state.results;
    if (!r) return [notice(state)];
    var children = [heading(1, 'title', r.heading, { 'data-mirror-h1': '' }), notice(state)];
    children.push(h('p', { key: 'quiz', text: r.quizTitle }));
    children.push(h('div', { key: 'score', attrs: { class: 'mirror-score' } }, [
      h('p', { key: 'percent', text: r.percentText }),
      h('p', { key: 'points', text: r.points }),
      h('p', { key: 'verdict', text: r.verdict }),
      h('p', { key: 'mark', text: r.details }),
      r.feedback ? richText('range-feedback', r.feedbackRich, r.feedback) : null,
    ]));
    r.buttons.forEach(function (b) { children.push(button(b)); });
    // The canvas's pictures of progress, as the tables of their numbers.
    if (r.scores.bars.length) children.push(modelTable('scores', r.scores.table));
    if (r.mastery.bars.length) children.push(modelTable('mastery', r.mastery.table));
    // A page at a time: an attempt may have thousands of questions, and a DOM of them all costs
    // the browser hundreds of MB. The learner asks for more; the list grows in place.
    var attemptKey = r.quizTitle + '|' + r.durationMs + '|' + r.questions.length;
    if (resultsView.key !== attemptKey) resultsView = { key: attemptKey, shown: RESULTS_PAGE };
    children.push(h('ol', { key: 'questions', attrs: { class: 'mirror-list' } }, r.questions.slice(0, resultsView.shown).map(function (row) {
      var items = [
        h('h2', { key: 'heading', text: row.heading }),
        richText('prompt', row.promptRich, row.prompt),
        h('p', { key: 'response', text: row.yourAnswer }),
      ];
      if (row.correctAnswerLine) items.push(h('p', { key: 'correct', text: row.correctAnswerLine }));
      if (row.costs) items.push(h('p', { key: 'costs', text: row.costs }));
      if (row.explanation) items.push(richText('explanation', row.explanationRich, row.explanation));
      return h('li', { key: row.id }, items);
    })));
    if (r.questions.length > resultsView.shown) {
      children.push(h('button', { key: 'show-more', text: r.showMore, attrs: { type: 'button' }, on: { click: function () {
        resultsView.shown += RESULTS_PAGE;
        render(host.state, true);
      } } }));
    }
    if (r.pastAttempts.length) {
      children.push(h('h2', { key: 'past', text: r.pastHeading }));
      children.push(h('ul', { key: 'past-list' }, r.pastAttempts.map(function (line) { return h('li', { text: line }); })));
    }
    return children;
  }

  // A table of the screen model (TableModel): a caption, a row of column heads, then the rows,
  // each led by a row head.
  function modelTable(key, table) {
    return h('table', { key: key, attrs: { class: 'mirror-table' } }, [
      h('caption', { key: 'caption', text: table.caption }),
      h('thead', { key: 'head' }, [h('tr', { key: 'columns' }, table.columns.map(function (column, c) {
        return h('th', { key: c, text: column, attrs: { scope: 'col' } });
      }))]),
      h('tbody', { key: 'body' }, table.rows.map(function (cells, r) {
        return h('tr', { key: r }, cells.map(function (cell, c) {
          return h(c === 0 ? 'th' : 'td', { key: c, text: cell, attrs: { scope: c === 0 ? 'row' : null } });
        }));
      })),
    ]);
  }

  var RESULTS_PAGE = 200;
  var resultsView = { key: '', shown: RESULTS_PAGE };

  function radioGroup(group) {
    return h('fieldset', { key: group.id, attrs: { class: 'mirror-options' } }, [h('legend', { key: 'legend', text: group.legend })]
      .concat(group.options.map(function (option, i) {
        var id = 'mirror-' + group.id + '-' + i;
        return h('div', { key: option.value, attrs: { class: 'mirror-choice' } }, [
          h('input', { key: 'input', attrs: { type: 'radio', id: id, name: 'mirror-' + group.id },
                       props: { checked: option.selected },
                       on: { change: function () { act(option.action); } } }),
          h('label', { key: 'label', text: option.label, attrs: { for: id, lang: option.lang } }),
        ]);
      })));
  }

  function settingsScreen(state) {
    var s = state.settings;
    if (!s) return [notice(state)];
    var children = [heading(1, 'title', s.heading, { 'data-mirror-h1': '' }), notice(state), button(s.back)];
    s.groups.forEach(function (group) { children.push(radioGroup(group)); });
    children.push(h('h2', { key: 'progress', text: s.progressHeading }));
    if (s.storageWarning) children.push(h('p', { key: 'storage', text: s.storageWarning }));
    s.buttons.forEach(function (b) { children.push(button(b)); });
    if (s.confirmation) {
      children.push(h('div', { key: 'confirmation', attrs: { role: 'alertdialog', 'aria-labelledby': 'mirror-confirm',
                                                            class: 'mirror-problem' } }, [
        h('p', { key: 'question', text: s.confirmation.question, attrs: { id: 'mirror-confirm' } }),
        button(s.confirmation.confirm, { attrs: { 'data-mirror-confirm': '' } }),
        button(s.confirmation.cancel),
      ]));
    } else {
      s.deleteButtons.forEach(function (b) { children.push(button(b)); });
    }
    if (s.importMessage) children.push(h('p', { key: 'import-message', text: s.importMessage }));
    return children;
  }

  function loadingScreen(state) {
    return [heading(1, 'title', state.catalog ? state.catalog.heading : 'ImQuiz', { 'data-mirror-h1': '' }),
            h('p', { key: 'loading', text: state.loading || '' })];
  }

  var screens = { catalog: catalogScreen, question: questionScreen, results: resultsScreen, settings: settingsScreen };

  // ---- Document: language, theme, text size (the title is the app's: set_document_info) -------
  function applyDocument(state) {
    if (!state) return;
    if (state.language && document.documentElement.lang !== state.language) document.documentElement.lang = state.language;
    var theme = state.preferences ? state.preferences.theme : 'system';
    document.documentElement.classList.toggle('theme-dark', theme === 'dark');
    document.documentElement.classList.toggle('theme-light', theme === 'light');
    var scale = state.preferences && state.preferences.textScale > 0 ? state.preferences.textScale : 1;
    mirror.style.setProperty('--mirror-text-scale', String(scale));  // CSSOM: allowed by the CSP
  }

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
  var last = { screen: '', question: '', feedback: false, confirming: false, importMessage: '', tryWords: '', hintsShown: 0, timeWarning: '' };
  function withoutItems(key, value) { return key === 'items' ? undefined : value; }

  function render(state, force) {
    if (!state) return;
    var signature = JSON.stringify(state, withoutItems);
    if (!force && signature === lastSignature) return;
    lastSignature = signature;
    applyDocument(state);
    pictures = {};
    pictureNotShown = state.pictureNotShown || '';
    (state.pictures || []).forEach(function (picture) { pictures[picture.source] = picture; });

    var focusWasInMirror = mirror.contains(document.activeElement);
    var key = questionKey(state);
    var screenName = screens[state.screen] ? state.screen : 'loading';
    var content = (screens[screenName] || loadingScreen)(state);
    patchChildren(screenRoot, [h('div', { key: 'screen:' + screenName, attrs: { class: 'mirror-' + screenName } }, content)]);

    var hasFeedback = !!(state.question && state.question.feedback);
    var confirming = !!(state.settings && state.settings.confirmation) ||
                     !!(state.question && state.question.exam && state.question.exam.confirmation);
    var focusTarget = null;
    // Last question's verdict must not linger at the top of the next screen for a reader who
    // browses there (emptying a live region announces nothing).
    if (screenName !== last.screen || key !== last.question) {
      clearTimeout(announceTimer);
      live.textContent = '';
    }
    if (screenName !== last.screen) {
      focusTarget = screenRoot.querySelector('[data-mirror-h1]');
      if (screenName === 'results' && state.results) announce(state.results.announcement);
    } else if (screenName === 'question' && key !== last.question) {
      focusTarget = screenRoot.querySelector('[data-mirror-prompt]');
    } else if (screenName === 'question' && key === last.question && hasFeedback && !last.feedback) {
      focusTarget = screenRoot.querySelector('[data-mirror-feedback]');
      announce(state.question.feedback.announcement);
    } else if ((screenName === 'settings' || screenName === 'question') && confirming && !last.confirming) {
      focusTarget = screenRoot.querySelector('[data-mirror-confirm]');
    }
    // A try told, or a hint shown: said once, where the learner is (focus stays on their answer).
    var q = screenName === 'question' ? state.question : null;
    var tryWords = q && q.tryAgain ? q.tryAgain.announcement : '';
    var hintsShown = q && q.hints ? q.hints.length : 0;
    if (q && key === last.question) {
      if (tryWords && tryWords !== last.tryWords) announce(tryWords);
      else if (hintsShown > last.hintsShown) announce(q.hints[hintsShown - 1].heading + '. ' + q.hints[hintsShown - 1].text);
    }
    // An exam's time: said at five minutes and at one minute left, not every second.
    var timeWarning = q && q.exam ? q.exam.timeWarning : '';
    if (timeWarning && timeWarning !== last.timeWarning) announce(q.exam.timeLeft + '. ' + timeWarning);
    if (state.importMessage && state.importMessage !== last.importMessage) announce(state.importMessage);
    last = { screen: screenName, question: key, feedback: hasFeedback, confirming: confirming,
             importMessage: state.importMessage || '', tryWords: tryWords, hintsShown: hintsShown, timeWarning: timeWarning };

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

  // The mirror shows no rectangles: an update of the canvas's items alone changes nothing here.
  host.stateListeners.push(function (state, itemsOnly) { if (!itemsOnly) render(state, false); });
  render(host.state, false);
})();
