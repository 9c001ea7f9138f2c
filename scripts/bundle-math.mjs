// Bundles the math module (src/math/imquiz_math.mjs + MathJax from npm) into one minified file:
//   node scripts/bundle-math.mjs OUT_FILE
// MathJax's TeX font carries every alphabet of Unicode's mathematical letters; the ones outside
// the supported subset (quizzes/README.md, Math) are left out here, which is most of the file's
// size: Fraktur (\mathfrak), sans-serif (\mathsf), typewriter (\mathtt) and old-style digits. A
// formula that still uses them is typeset, its letters drawn in the browser's own fonts.
import * as esbuild from 'esbuild';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2];
if (!out) { console.error('usage: node scripts/bundle-math.mjs OUT_FILE'); process.exit(2); }

const droppedVariants = /fonts\/tex\/(fraktur|fraktur-bold|sans-serif|sans-serif-bold|sans-serif-italic|sans-serif-bold-italic|monospace|tex-oldstyle|tex-oldstyle-bold)\.js$/;
// In the normal variant: the Fraktur, bold Fraktur, sans-serif and monospace letters of the
// Mathematical Alphanumeric Symbols block (double-struck \mathbb and script stay).
const droppedLetters = (code) => (code >= 0x1D504 && code <= 0x1D537) || (code >= 0x1D56C && code <= 0x1D6A3);
const glyphLine = /^\s+0x([0-9A-F]+): /;

const trimFont = {
  name: 'trim-tex-font',
  setup(build) {
    build.onLoad({ filter: /mathjax-full\/js\/output\/(svg|common)\/fonts\/tex\/[a-z-]+\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const variant = droppedVariants.test(args.path);
      const normal = /fonts\/tex\/normal\.js$/.test(args.path);
      if (!variant && !normal) return { contents: source, loader: 'js' };
      const kept = source.split('\n').filter((line) => {
        const glyph = glyphLine.exec(line);
        return !glyph || (!variant && !droppedLetters(parseInt(glyph[1], 16)));
      });
      return { contents: kept.join('\n'), loader: 'js' };
    });
  },
};

await esbuild.build({
  entryPoints: [path.join(top, 'src/math/imquiz_math.mjs')],
  bundle: true, minify: true, format: 'iife', target: 'es2017', legalComments: 'none',
  logLevel: 'warning', outfile: out, plugins: [trimFont],
});
