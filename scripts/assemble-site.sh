#!/usr/bin/env bash
# Assembles the deployable static site: copy this folder to any static host, under any sub-path.
#   scripts/assemble-site.sh BUILD_DIR SITE_DIR FONT_CACHE_DIR QUIZC_WASM
set -euo pipefail
build=$1 site=$2 fonts=$3 quizc=$4
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$site/fonts" "$site/quizzes"
bash "$top/scripts/subset-font.sh" "$fonts/imquiz-sans.ttf"
cp "$fonts/imquiz-sans.ttf" "$site/fonts/"
# The faces of Markdown texts, fetched only for Markdown banks.
noto=/usr/share/fonts/truetype/noto
for face in bold:NotoSans-Bold italic:NotoSans-Italic bold-italic:NotoSans-BoldItalic; do
  bash "$top/scripts/subset-font.sh" "$fonts/imquiz-sans-${face%%:*}.ttf" "$noto/${face#*:}.ttf"
  cp "$fonts/imquiz-sans-${face%%:*}.ttf" "$site/fonts/"
done
bash "$top/scripts/subset-font.sh" "$fonts/imquiz-mono.ttf" /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf
cp "$fonts/imquiz-mono.ttf" "$site/fonts/"
cp "$build/imquiz.js" "$build/imquiz.wasm" "$build/imquiz-rich.js" "$build/imquiz-rich.wasm" "$build/imquiz-markdown.wasm" "$site/"
[ -f "$build/imquiz.wasm.map" ] && cp "$build/imquiz.wasm.map" "$site/"
for f in "$top"/web/*; do cp -r "$f" "$site/"; done

# The page's own scripts and styles, minified by esbuild (package.json): nothing in its output
# needs eval, so the CSP stays as it is; web/ keeps the readable source, and a source map beside
# each page file leads the browser's developer tools back to it. Page scripts keep to ES5 syntax: an
# old browser must still parse boot.js to be told what it lacks. The service worker is ES2017.
esbuild=$top/node_modules/.bin/esbuild
[ -x "$esbuild" ] || { echo "assemble-site.sh: $esbuild is missing (npm ci, or scripts/deps.sh)" >&2; exit 1; }
for f in "$top"/web/*.js; do
  options=(--target=es5 --sourcemap)
  # sw.js gets its build id written in below, which would shift what a map points at.
  [ "$(basename "$f")" = sw.js ] && options=(--target=es2017)
  "$esbuild" "$f" --minify "${options[@]}" --log-level=warning --outfile="$site/$(basename "$f")"
done
# Syntax colours: Prism's core and the grammars ImQuiz colours, one file added to the page only
# when a code block in one of those languages is shown (src/platform/web/code_highlighter.js).
"$esbuild" "$top/src/platform/web/code_highlighter.js" --bundle --minify --target=es5 --sourcemap --log-level=warning \
  --outfile="$site/imquiz-highlight.js"
# The math module (MathJax), loaded only when a bank shows math (scripts/bundle-math.mjs).
node "$top/scripts/bundle-math.mjs" "$site/imquiz-math.js"
for css in app rich; do   # rich.css: the mirror's styles for Markdown texts (web/rich.js links it)
  "$esbuild" "$top/web/$css.css" --minify --target=chrome87,edge88,firefox78,safari14 --sourcemap --log-level=warning \
    --outfile="$site/$css.css"
done
rm -rf "$site/quizzes"; mkdir -p "$site/quizzes"
cp "$top"/quizzes/*.json "$site/quizzes/"
# The launch banks' images (Markdown texts show them; the worker keeps them offline with them).
[ -d "$top/quizzes/images" ] && cp -r "$top/quizzes/images" "$site/quizzes/"
rm -f "$site/quizzes/schema.json"
# The launch banks' formulas, typeset now with the site's own MathJax bundle and kept beside each
# bank (x.formulas.json, named in the catalog): a learner's page draws them without loading
# MathJax (web/rich.js).
banks=()
for bank in "$site"/quizzes/*.json; do [ "$(basename "$bank")" = index.json ] || banks+=("$bank"); done
node "$top/scripts/check-math.mjs" --quizc "$quizc" --module "$site/imquiz-math.js" --write \
  --catalog "$site/quizzes/index.json" "${banks[@]}"

# The parts kept on first use (sw.js, ON_FIRST_USE) are not fingerprinted files, but their hash
# is in boot.js, which is: a change to the rich player alone is a new build all the same.
on_first_use=$(grep -o 'ON_FIRST_USE *= *\[[^]]*\]' "$site/sw.js" | sed 's/.*\[\(.*\)\]/\1/' | tr -d "'\" " | tr , ' ')
[ -n "$on_first_use" ] || { echo "assemble-site.sh: no ON_FIRST_USE list in $site/sw.js" >&2; exit 1; }
printf '\n/* parts on first use: %s */\n' "$(cd "$site" && cat $on_first_use | sha256sum | cut -c1-12)" >> "$site/boot.js"

# The service worker's cache name is the build's fingerprint (scripts/fingerprint-site.sh).
rm -f "$site/version.json"   # a fresh sw.js carries the placeholder, not the last build's id
version=$(bash "$top/scripts/fingerprint-site.sh" "$site")

# Precompressed copies for servers that can send them (see README, Deploy).
find "$site" -type f \( -name '*.js' -o -name '*.wasm' -o -name '*.html' -o -name '*.css' -o -name '*.json' \
  -o -name '*.ttf' -o -name '*.svg' -o -name '*.webmanifest' \) -print0 |
while IFS= read -r -d '' f; do
  gzip -9 -n -c "$f" > "$f.gz"
  brotli -q 11 -f -o "$f.br" "$f"
done

printf '%-28s %10s %10s %10s\n' file raw gzip brotli
total_raw=0 total_gz=0 total_br=0
for f in imquiz.js imquiz.wasm fonts/imquiz-sans.ttf index.html boot.js app.css a11y.js text-field.js; do
  [ -f "$site/$f" ] || continue
  raw=$(stat -c %s "$site/$f"); gz=$(stat -c %s "$site/$f.gz"); br=$(stat -c %s "$site/$f.br")
  total_raw=$((total_raw+raw)); total_gz=$((total_gz+gz)); total_br=$((total_br+br))
  printf '%-28s %10d %10d %10d\n' "$f" "$raw" "$gz" "$br"
done
printf '%-28s %10d %10d %10d\n' "app shell total" "$total_raw" "$total_gz" "$total_br"
for f in imquiz-rich.js imquiz-rich.wasm rich.js rich.css imquiz-markdown.wasm fonts/imquiz-sans-bold.ttf fonts/imquiz-sans-italic.ttf fonts/imquiz-sans-bold-italic.ttf \
         fonts/imquiz-mono.ttf imquiz-highlight.js; do   # fetched only for Markdown banks
  printf '%-28s %10d %10d %10d\n' "$f (Markdown only)" "$(stat -c %s "$site/$f")" "$(stat -c %s "$site/$f.gz")" "$(stat -c %s "$site/$f.br")"
done
f=imquiz-math.js   # fetched only when a bank shows math
printf '%-28s %10d %10d %10d\n' "$f (math only)" "$(stat -c %s "$site/$f")" "$(stat -c %s "$site/$f.gz")" "$(stat -c %s "$site/$f.br")"
echo "site: $site (build $version)"
