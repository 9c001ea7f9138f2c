// The page the browser tests drive, for the engines Playwright cannot drive here (Firefox over
// WebDriver BiDi, WebKitGTK over classic WebDriver): the part of Playwright's Page that the tests
// use, built on a few primitives each engine's driver provides (`backend` below). Chromium keeps
// Playwright's own Page. Tests read the app's state through evaluate calls in every engine.
//
// backend: call(source, arg, frame) runs the function whose source text is `source` with `arg` in
// the page (or in `frame`) and resolves to its (awaited) result; goto, reload, close; key(down|up,
// key), type(text, delay); pointer(kind, x, y), wheel(x, y, dx, dy); screenshot() -> Buffer;
// setViewport(width, height); emulateMedia(options); frameOf(selector) -> frame; boxOf(selector,
// frame) -> {x, y, width, height} | null; download(): a promise of the next download; optionally
// setInputFiles(selector, paths, frame); and, where the driver has touch input, touch(start|move|end,
// x, y): one finger, as the driver's own input.

import { cropPng } from './png.mjs';

// Where a step cannot be done in this engine at all: the test catches it by this name, says so as
// a visible skip, and does the nearest real thing.
export class Unsupported extends Error {
  constructor(engine, what) {
    super(`${engine} cannot ${what}`);
    this.name = 'Unsupported';
  }
}

// WebKitGTK's driver answers "Could not parse script result" when the page's process gave it no
// result (seen only under load, once in a few full runs, in polls while a service worker installs;
// a script that throws or a reload during one gets its own message). To a poll that is "no answer
// yet": it asks again, and its own deadline still bounds the wait.
const lostAnswer = (error) => /Could not parse script result/.test(String(error && error.message));
// For a poll's evaluate: `.catch(noAnswerYet)` makes a lost answer null ("not yet").
export const noAnswerYet = (error) => { if (lostAnswer(error)) return null; throw error; };

// Runs in the page: the element(s) a locator chain designates. Self-contained (it is sent as text).
const RESOLVE = function resolve(chain) {
  const collapse = (text) => String(text || '').replace(/\s+/g, ' ').trim();
  const implicitRole = (e) => {
    const tag = e.tagName.toLowerCase();
    const type = (e.getAttribute('type') || 'text').toLowerCase();
    if (tag === 'button' || (tag === 'input' && ['button', 'submit', 'reset'].includes(type))) return 'button';
    if (tag === 'input' && type === 'radio') return 'radio';
    if (tag === 'input' && type === 'checkbox') return 'checkbox';
    if (tag === 'input' || tag === 'textarea') return 'textbox';
    if (tag === 'select' && !e.multiple) return 'combobox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'a' && e.hasAttribute('href')) return 'link';
    if (tag === 'ol' || tag === 'ul') return 'list';
    if (tag === 'li') return 'listitem';
    return '';
  };
  const nameOf = (e) => {
    if (e.getAttribute('aria-label')) return collapse(e.getAttribute('aria-label'));
    const labelledBy = e.getAttribute('aria-labelledby');
    if (labelledBy) {
      return collapse(labelledBy.split(/\s+/).map((id) => (document.getElementById(id) || {}).textContent || '').join(' '));
    }
    if (e.labels && e.labels.length) return collapse(Array.from(e.labels).map((l) => l.textContent).join(' '));
    return collapse(e.textContent);
  };
  let found = [document];
  for (const step of chain) {
    if (step.css) found = found.flatMap((root) => Array.from(root.querySelectorAll(step.css)));
    else if (step.role) {
      found = found.flatMap((root) => Array.from(root.querySelectorAll('*'))).filter((e) => {
        if ((e.getAttribute('role') || implicitRole(e)) !== step.role) return false;
        if (step.name === undefined) return true;
        const name = nameOf(e);
        return step.exact ? name === step.name : name.toLowerCase().includes(String(step.name).toLowerCase());
      });
    } else if (step.nth !== undefined) found = found.slice(step.nth, step.nth + 1);
  }
  return found.filter((e) => e !== document);
}.toString();

const ARIA_SNAPSHOT = function ariaSnapshot(root) {
  const collapse = (text) => String(text || '').replace(/\s+/g, ' ').trim();
  const hidden = (e) => e.hidden || e.getAttribute('aria-hidden') === 'true' ||
    getComputedStyle(e).display === 'none' || getComputedStyle(e).visibility === 'hidden';
  const roleOf = (e) => {
    if (e.getAttribute('role')) return e.getAttribute('role').split(/\s+/)[0];
    const tag = e.tagName.toLowerCase();
    const type = (e.getAttribute('type') || 'text').toLowerCase();
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'p') return 'paragraph';
    if (tag === 'button' || (tag === 'input' && ['button', 'submit', 'reset'].includes(type))) return 'button';
    if (tag === 'a' && e.hasAttribute('href')) return 'link';
    if (tag === 'input' && type === 'radio') return 'radio';
    if (tag === 'input' && type === 'checkbox') return 'checkbox';
    if ((tag === 'input' && type !== 'hidden') || tag === 'textarea') return 'textbox';
    if (tag === 'select' && !e.multiple) return 'combobox';
    if (tag === 'ol' || tag === 'ul') return 'list';
    if (tag === 'li') return 'listitem';
    if (tag === 'fieldset') return 'group';
    if (tag === 'section' && (e.hasAttribute('aria-label') || e.hasAttribute('aria-labelledby'))) return 'region';
    if (tag === 'main') return 'main';
    if (tag === 'nav') return 'navigation';
    if (tag === 'img' && e.getAttribute('alt') !== '') return 'img';
    return '';
  };
  const fromContent = new Set(['button', 'heading', 'link', 'radio', 'checkbox', 'tab', 'menuitem', 'option', 'cell']);
  const textOf = (e) => collapse(Array.from(e.childNodes).map((n) => (n.nodeType === 3 ? n.textContent
    : n.nodeType === 1 && !hidden(n) ? (n.tagName === 'INPUT' ? '' : n.textContent) : '')).join(' '));
  const nameOf = (e, role) => {
    if (e.getAttribute('aria-labelledby')) {
      return collapse(e.getAttribute('aria-labelledby').split(/\s+/).map((id) => (document.getElementById(id) || {}).textContent || '').join(' '));
    }
    if (e.getAttribute('aria-label')) return collapse(e.getAttribute('aria-label'));
    if (e.labels && e.labels.length) return collapse(Array.from(e.labels).map((l) => l.textContent).join(' '));
    if (role === 'group' && e.querySelector(':scope > legend')) return collapse(e.querySelector(':scope > legend').textContent);
    if (role === 'img') return collapse(e.getAttribute('alt'));
    return fromContent.has(role) ? textOf(e) : '';
  };
  // YAML needs quotes around text with ": ", a leading indicator character, or a trailing colon.
  const yaml = (text) => (/: |^[-?:,[\]{}#&*!|>'"%@`]|:$| #/.test(text) ? JSON.stringify(text) : text);
  const lines = [];
  const walk = (e, depth) => {
    for (const child of e.children) {
      if (hidden(child) || child.tagName === 'LEGEND' || child.tagName === 'LABEL' && child.control) {
        if (child.tagName === 'LABEL' && child.control && !hidden(child)) walk(child, depth);
        continue;
      }
      const role = roleOf(child);
      if (!role || role === 'none' || role === 'presentation' || role === 'generic') { walk(child, depth); continue; }
      const name = nameOf(child, role);
      const states = [];
      if (role === 'heading') states.push(`[level=${child.getAttribute('aria-level') || child.tagName.slice(1)}]`);
      if (['radio', 'checkbox'].includes(role) && (child.checked || child.getAttribute('aria-checked') === 'true')) states.push('[checked]');
      if (child.disabled || child.getAttribute('aria-disabled') === 'true' || child.closest('fieldset[disabled]')) states.push('[disabled]');
      if (child.getAttribute('aria-expanded')) states.push(`[expanded${child.getAttribute('aria-expanded') === 'true' ? '' : '=false'}]`);
      const indent = '  '.repeat(depth);
      let line = `${indent}- ${role}${name ? ` ${JSON.stringify(name)}` : ''}${states.length ? ' ' + states.join(' ') : ''}`;
      if (fromContent.has(role) || role === 'textbox' || role === 'combobox') { lines.push(line); continue; }
      const hasRoleChildren = Array.from(child.querySelectorAll('*')).some((d) => roleOf(d) && !hidden(d));
      if (!hasRoleChildren) {
        const text = textOf(child);
        lines.push(text && text !== name ? `${line}: ${yaml(text)}` : line);
        continue;
      }
      lines.push(`${line}:`);
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return lines.join('\n');
}.toString();

// Source text of a function that resolves `chain` and applies the test's `fn` to the first match
// (or to all of them). The test's function travels as source text: the page's CSP forbids eval.
function onElements(fn, { all = false } = {}) {
  return `async ({ chain, arg }) => {
    const found = (${RESOLVE})(chain);
    if (!${all} && !found.length) return { missing: true };
    return { value: await (${fn.toString()})(${all ? 'found' : 'found[0]'}, arg) };
  }`;
}

class Locator {
  constructor(page, chain) { this.page = page; this.chain = chain; }

  locator(css) { return new Locator(this.page, [...this.chain, { css }]); }
  getByRole(role, { name, exact = false } = {}) { return new Locator(this.page, [...this.chain, { role, name, exact }]); }
  first() { return new Locator(this.page, [...this.chain, { nth: 0 }]); }
  nth(n) { return new Locator(this.page, [...this.chain, { nth: n }]); }

  // Like Playwright, an action waits (up to `timeout`) for its element to exist.
  async run(fn, arg, timeout = 10000) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const result = await this.page.backend.call(onElements(fn), { chain: this.chain, arg }, this.page.frame);
      if (!result.missing) return result.value;
      if (Date.now() > deadline) throw new Error(`no element for ${JSON.stringify(this.chain)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  evaluate(fn, arg) { return this.run(fn, arg); }
  evaluateAll(fn, arg) { return this.page.backend.call(onElements(fn, { all: true }), { chain: this.chain, arg }, this.page.frame).then((r) => r.value); }
  count() { return this.evaluateAll((elements) => elements.length); }
  textContent() { return this.run((e) => e.textContent); }
  innerText() { return this.run((e) => e.innerText); }
  inputValue() { return this.run((e) => e.value); }
  // Like Playwright's: the option whose text is `label` chosen, then the events a choice makes.
  selectOption({ label }) {
    return this.run((e, wanted) => {
      const option = Array.from(e.options).find((o) => o.textContent.trim() === wanted);
      if (!option) throw new Error(`no option "${wanted}"`);
      e.value = option.value;
      e.dispatchEvent(new Event('input', { bubbles: true }));
      e.dispatchEvent(new Event('change', { bubbles: true }));
    }, label);
  }
  getAttribute(name) { return this.run((e, n) => e.getAttribute(n), name); }
  isChecked() { return this.run((e) => e.checked); }
  focus() { return this.run((e) => { e.focus(); }); }
  waitFor({ timeout = 30000 } = {}) { return this.run(() => true, null, timeout); }
  async click() {
    const box = await this.run((e) => {
      e.scrollIntoView({ block: 'center' });
      const r = e.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await this.page.mouse.click(box.x, box.y);
  }
  // Playwright's ariaSnapshot is its own (its injected script). This is the same YAML-like outline
  // for the roles, names and states a page like the mirror uses, computed from the DOM by the
  // rules of HTML-AAM and accname (simplified); the browser's own accessibility tree is not
  // reachable over WebDriver.
  ariaSnapshot() { return this.run(ARIA_SNAPSHOT); }
}

// Playwright's key names (and "Shift+Tab" chords) are what tests write; each backend maps them.
function chord(keys) { return keys === '+' ? ['+'] : keys.split('+').map((k) => k || '+'); }

class Keyboard {
  constructor(page) { this.page = page; }
  down(key) { return this.page.backend.key('down', key); }
  up(key) { return this.page.backend.key('up', key); }
  async press(keys) {
    const parts = chord(keys);
    if (this.page.backend.chord) return this.page.backend.chord(parts);
    for (const key of parts) await this.down(key);
    for (const key of parts.reverse()) await this.up(key);
  }
  type(text, { delay = 0 } = {}) { return this.page.backend.type(text, delay); }
}

class Mouse {
  constructor(page) { this.page = page; this.x = 0; this.y = 0; }
  async move(x, y) { this.x = x; this.y = y; await this.page.backend.pointer('move', x, y); }
  down() { return this.page.backend.pointer('down', this.x, this.y); }
  up() { return this.page.backend.pointer('up', this.x, this.y); }
  async click(x, y) { this.x = x; this.y = y; await this.page.backend.pointer('click', x, y); }
  wheel(dx, dy) { return this.page.backend.wheel(this.x, this.y, dx, dy); }
}

// An element handle, as far as the tests use one (an iframe, mostly).
class Handle {
  constructor(page, selector) { this.page = page; this.selector = selector; }
  evaluate(fn, arg) { return new Locator(this.page, [{ css: this.selector }]).evaluate(fn, arg); }
  boundingBox() { return this.page.backend.boxOf(this.selector, this.page.frame); }
  async contentFrame() { return new Page(this.page.backend, this.page.engine, await this.page.backend.frameOf(this.selector), this.page); }
}

export class Page {
  constructor(backend, engine, frame = null, parent = null) {
    this.backend = backend;
    this.engine = engine;
    this.frame = frame;
    this.parent = parent;
    this.keyboard = new Keyboard(this);
    this.mouse = new Mouse(this);
    this.listeners = { console: [], pageerror: [] };
    this.viewport = null;
  }

  on(event, listener) { (this.listeners[event] || (this.listeners[event] = [])).push(listener); return this; }
  emit(event, value) { for (const listener of this.listeners[event] || []) listener(value); }

  evaluate(fn, arg) { return this.backend.call(typeof fn === 'function' ? fn.toString() : `() => (${fn})`, arg, this.frame); }

  // Polled from node, as the Chromium tests do it too (the CSP forbids evaluating test code in the
  // page by string); an async predicate is awaited.
  async waitForFunction(fn, arg = null, { timeout = 30000, polling = 50 } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const value = await this.evaluate(fn, arg).catch(noAnswerYet);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${fn.toString().slice(0, 160)}`);
      await new Promise((resolve) => setTimeout(resolve, typeof polling === 'number' ? polling : 50));
    }
  }

  locator(css) { return new Locator(this, [{ css }]); }
  getByRole(role, options) { return new Locator(this, [{ role, ...options }]); }
  async $(selector) { return (await this.locator(selector).count()) ? new Handle(this, selector) : null; }
  async waitForSelector(selector, { timeout = 30000 } = {}) {
    await this.locator(selector).waitFor({ timeout });
    return new Handle(this, selector);
  }
  click(selector) { return this.locator(selector).click(); }
  focus(selector) { return this.locator(selector).focus(); }
  title() { return this.evaluate(() => document.title); }
  textContent(selector) { return this.locator(selector).textContent(); }
  url() { return this.evaluate(() => location.href); }
  content() { return this.evaluate(() => document.documentElement.outerHTML); }

  async goto(url) { await this.backend.goto(url); }
  async reload() { await this.backend.reload(); }
  async close() { await this.backend.close(); }
  async screenshot({ path: file, clip = null } = {}) {
    let png = await this.backend.screenshot();
    if (clip) png = cropPng(png, clip);
    if (file) (await import('node:fs')).writeFileSync(file, png);
    return png;
  }
  async setViewportSize(size) { await this.backend.setViewport(size.width, size.height); this.viewport = { ...size }; }
  viewportSize() { return this.viewport; }
  emulateMedia(options) { return this.backend.emulateMedia(options); }
  addInitScript(fn) { return this.backend.addInitScript(typeof fn === 'function' ? `(${fn})()` : String(fn)); }
  // The driver's own evaluation, which the page's CSP does not govern (Chromium needs a
  // bypassCSP context and a real <script> for the same).
  async addScriptTag({ content }) { await this.backend.call(`() => {\n${content}\n}`, null, this.frame); }
  // Playwright's setInputFiles, where the driver has a way to choose files (paths on this machine).
  setInputFiles(selector, files) {
    if (!this.backend.setInputFiles) throw new Unsupported(this.engine, 'choose files for an input');
    return this.backend.setInputFiles(selector, [].concat(files), this.frame);
  }
  waitForTimeout(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
  async waitForEvent(name) {
    if (name === 'download') return this.backend.download();
    throw new Unsupported(this.engine, `wait for a "${name}" event`);
  }
  // One finger through the driver's input actions (pointerType "touch"): the browser's own
  // touch and pointer events, trusted, as a touch screen gives them.
  get touchscreen() {
    const backend = this.backend;
    if (!backend.touch) throw new Unsupported(this.engine, backend.noTouch || 'touch the page (no touch input in this driver)');
    return {
      touchStart: (x, y) => backend.touch('start', x, y),
      touchMove: (x, y) => backend.touch('move', x, y),
      touchEnd: () => backend.touch('end'),
      async tap(x, y) { await backend.touch('start', x, y); await backend.touch('end'); },
    };
  }
  context() { return this.ownerContext; }
}
