// The math module (imquiz-math.js on the site): MathJax's TeX input, SVG output and MathML, bundled
// by esbuild (scripts/bundle-math.mjs) into one file that the page runs in a worker only when a
// bank shows math (web/rich.js, host.math), or as a script where no worker can start. It sets
// globalThis.ImQuizMath and nothing else (in a worker, it also answers messages); the same bundle
// checks a bank's formulas for `quizc validate` under Node (scripts/check-math.mjs).
//
// Only what the supported subset needs is imported: the base and ams TeX packages (fractions,
// scripts, roots, sums, Greek, operators, relations, \text, environments), never `noerrors` or
// `noundefined` (an unknown macro or a missing brace must be an error, not red text in a formula),
// never `newcommand` (\def and \newcommand would let a formula loop) or `html` (\class, \style).
import { mathjax } from 'mathjax-full/js/mathjax.js';
import { TeX } from 'mathjax-full/js/input/tex.js';
import { SVG } from 'mathjax-full/js/output/svg.js';
import { liteAdaptor } from 'mathjax-full/js/adaptors/liteAdaptor.js';
import { RegisterHTMLHandler } from 'mathjax-full/js/handlers/html.js';
import { SerializedMmlVisitor } from 'mathjax-full/js/core/MmlTree/SerializedMmlVisitor.js';
import { STATE } from 'mathjax-full/js/core/MathItem.js';
import 'mathjax-full/js/input/tex/base/BaseConfiguration.js';
import 'mathjax-full/js/input/tex/ams/AmsConfiguration.js';

// Limits that keep hostile TeX from hanging or exhausting the page (quizzes/README.md, Math).
// A formula is typeset synchronously (in the worker, or on the main thread where none can start),
// so the limits are on what goes in: its length, its nesting, MathJax's own macro and buffer
// counts; and on what comes out: its size, which becomes a texture.
export const limits = {
  maxLength: 2000,          // characters of TeX
  maxNesting: 40,           // braces, \left...\right, environments
  maxMacros: 1000,          // MathJax stops expanding after this many macros (its default 10000)
  maxBuffer: 5 * 1024,      // characters a macro expansion may grow the input to (MathJax's default)
  maxWidthEx: 1200,         // the drawn formula, in ex of the text (a very long formula is ~300)
  maxHeightEx: 120,
};

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);
const tex = new TeX({
  packages: ['base', 'ams'],
  maxMacros: limits.maxMacros,
  maxBuffer: limits.maxBuffer,
  // MathJax would draw an error as red text inside the formula; we want it as an error.
  formatError: function (jax, error) { throw error; },
});
const svg = new SVG({ fontCache: 'none' });   // each SVG stands alone: it is drawn on its own
const page = mathjax.document('', { InputJax: tex, OutputJax: svg });
const serializer = new SerializedMmlVisitor();

function tooDeep(source) {
  let depth = 0;
  for (const match of source.matchAll(/\\[a-zA-Z]+|\\.|[{}]/g)) {
    const token = match[0];
    if (token === '{' || token === '\\left' || token === '\\begin') depth++;
    else if (token === '}' || token === '\\right' || token === '\\end') depth--;
    if (depth > limits.maxNesting) return true;
  }
  return false;
}

function number(text) {
  const value = parseFloat(text);
  return Number.isFinite(value) ? value : NaN;
}

// Typesets one formula. { width, height, verticalAlign (all in ex of the text), viewBox,
// body (the SVG's content, drawn in currentColor), mathml } or { error: the reason, in MathJax's
// words where it has them }. Never throws.
function typeset(source, display) {
  source = String(source);
  if (source.length > limits.maxLength)
    return { error: 'formula too long: ' + source.length + ' characters (the limit is ' + limits.maxLength + ')' };
  if (tooDeep(source)) return { error: 'formula nested too deeply (more than ' + limits.maxNesting + ' levels)' };
  try {
    const options = { display: !!display, em: 16, ex: 8, containerWidth: 80 * 16 };
    const mml = page.convert(source, Object.assign({ end: STATE.CONVERT }, options));
    const mathml = serializer.visitTree(mml);
    const container = page.convert(source, options);
    const root = adaptor.firstChild(container);
    const width = number(adaptor.getAttribute(root, 'width'));
    const height = number(adaptor.getAttribute(root, 'height'));
    const style = adaptor.getAttribute(root, 'style') || '';
    const align = /vertical-align:\s*(-?[0-9.]+)ex/.exec(style);
    if (!(width >= 0) || !(height >= 0)) return { error: 'MathJax gave no size for this formula' };
    if (width > limits.maxWidthEx || height > limits.maxHeightEx) {
      return { error: 'formula too large to draw: ' + Math.round(width) + ' x ' + Math.round(height) + ' ex (the limit is ' +
                      limits.maxWidthEx + ' x ' + limits.maxHeightEx + ')' };
    }
    const body = adaptor.childNodes(root).map(function (node) { return adaptor.outerHTML(node); }).join('');
    return { width: width, height: height, verticalAlign: align ? number(align[1]) : 0,
             viewBox: adaptor.getAttribute(root, 'viewBox') || '', body: body, mathml: mathml };
  } catch (error) {
    // A RangeError is the parser's recursion running out of stack: a formula too deep to read.
    if (error instanceof RangeError) return { error: 'formula nested too deeply to read' };
    const message = error && error.message ? String(error.message) : String(error);
    return { error: message.replace(/\s+/g, ' ').trim() || 'TeX error' };
  }
}

// Answers are kept by formula: the canvas, the mirror and the check of a bank ask for the same
// ones, and a formula is typeset once per page.
const answers = new Map();
function answer(source, display) {
  const key = (display ? 'D' : 'I') + source;
  let found = answers.get(key);
  if (!found) {
    found = typeset(source, display);
    if (answers.size > 2000) answers.clear();
    answers.set(key, found);
  }
  return found;
}

// What the app reads (app/math.h, decode_math_answer): lines "ok", width, height, vertical-align
// (ex), the viewBox, then the SVG's content to the end; or "error" and the message.
function encoded(source, display) {
  const found = answer(source, display);
  if (found.error) return 'error\n' + found.error;
  return ['ok', found.width, found.height, found.verticalAlign, found.viewBox, found.body].join('\n');
}

// The formula as MathML for the accessibility mirror, "" if it did not typeset.
function mathml(source, display) { return answer(source, display).mathml || ''; }

globalThis.ImQuizMath = { typeset: answer, encoded: encoded, mathml: mathml, limits: limits, version: mathjax.version };

// In a worker (web/rich.js starts one, so that MathJax's start-up and typesetting never hold the
// page's main thread): each message { tex, display } is answered with { tex, display, encoded,
// mathml }, in the order asked. Messages sent before this script finished are queued by the
// browser, so the page may ask at once.
if (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope) {
  globalThis.onmessage = function (event) {
    const tex = String(event.data && event.data.tex), display = !!(event.data && event.data.display);
    globalThis.postMessage({ tex: tex, display: display, encoded: encoded(tex, display), mathml: mathml(tex, display) });
  };
}
