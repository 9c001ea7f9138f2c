#!/usr/bin/env bash
# Installs everything ImQuiz needs on a fresh Debian 12 machine, and nothing twice.
#   scripts/deps.sh            Debian packages + third-party sources + npm packages
#   scripts/deps.sh --native   only what the native build and tests need
# Third-party sources (Dear ImGui) are cached outside the work tree, in $IMQUIZ_CACHE (default
# ~/.cache/imquiz), keyed by version, so reruns are quick. No SDL: the app talks to the canvas
# through src/platform/web/ (docs/benchmark.md says what that saved).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${IMQUIZ_CACHE:-$HOME/.cache/imquiz}
mode=${1:-all}
mkdir -p "$cache"
log() { printf '[deps] %s\n' "$*" >&2; }

SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

native_pkgs=(g++ cmake ninja-build nlohmann-json3-dev catch2 python3 clang-14 libclang-rt-14-dev)
web_pkgs=(emscripten chromium fonts-noto-core fonts-dejavu-core fonttools brotli gzip dpkg-dev nodejs)

missing=()
want=("${native_pkgs[@]}")
[ "$mode" = --native ] || want+=("${web_pkgs[@]}")
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ "$mode" = --native ] && exit 0

# Source packages need a deb-src entry; Debian images ship only binary ones.
ensure_deb_src() {
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    log "adding a deb-src entry for bookworm"
    $SUDO tee /etc/apt/sources.list.d/imquiz-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    $SUDO apt-get update -qq
  fi
}

# fetch_source NAME VERSION DIR: unpacked Debian source tree of NAME at DIR.
fetch_source() {
  local name=$1 version=$2 dir=$3
  [ -d "$dir" ] && return 0
  ensure_deb_src
  log "fetching Debian source of $name $version"
  local tmp; tmp=$(mktemp -d "$cache/src.XXXX")
  (cd "$tmp" && apt-get source -qq "$name=$version" >/dev/null 2>&1 || apt-get source -qq "$name" >/dev/null)
  local unpacked; unpacked=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
  mv "$unpacked" "$dir"
  rm -rf "$tmp"
}

IMGUI_VERSION=1.86
fetch_source imgui "$IMGUI_VERSION+ds-1" "$cache/imgui-$IMGUI_VERSION"

ln -sfn "$cache/imgui-$IMGUI_VERSION" "$cache/imgui"

# npm packages for browser tests, the closure compiler and the site's minifier (esbuild), pinned by
# package-lock.json.
if [ ! -d "$here/node_modules/playwright-core" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  log "installing npm packages"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
