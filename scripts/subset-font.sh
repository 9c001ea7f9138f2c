#!/usr/bin/env bash
# Subsets Debian's Noto Sans to what ImQuiz draws: Latin, Latin-1, Latin Extended-A, Cyrillic and
# typographic punctuation. Keep these ranges in step with src/ui/theme.cpp (the atlas ranges) and
# tests/unit/test_ui_strings.cpp. Noto Sans has no arrows (U+2190...) and no minus sign (U+2212).
# The faces of Markdown texts are subset the same way: Noto Sans Bold, Italic and Bold Italic, and
# DejaVu Sans Mono for code (Debian's fonts-noto-core has no Noto Sans Mono).
#   scripts/subset-font.sh OUT.ttf [SOURCE.ttf]
set -euo pipefail
out=$1
src=${2:-/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf}
[ -f "$out" ] && [ "$out" -nt "$0" ] && [ "$out" -nt "$src" ] && exit 0
mkdir -p "$(dirname "$out")"
pyftsubset "$src" --output-file="$out" \
  --unicodes="U+0020-007E,U+00A0-017F,U+0400-045F,U+0490-0491,U+2010-2027,U+2030-203A,U+20AC,U+2116,U+2122" \
  --layout-features='' --no-hinting --desubroutinize --drop-tables+=GSUB,GPOS,GDEF,DSIG \
  --name-IDs='1,2' --notdef-outline
