#!/usr/bin/env bash
# Builds the web release (or another web preset) and assembles its static site.
#   scripts/build-web.sh [web|web-debug]      -> build/<preset>/site
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-web}
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs Debian's acorn (TOOLCHAIN.md 1)
export EM_CLOSURE_COMPILER="$PWD/node_modules/.bin/google-closure-compiler"
[ -d "build/$preset" ] || cmake --preset "$preset" >/dev/null
cmake --build "build/$preset" -j"$(nproc)"
