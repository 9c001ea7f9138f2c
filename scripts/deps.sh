#!/usr/bin/env bash
# Installs everything ImQuiz needs on a fresh Debian 12 machine, and nothing twice.
#   scripts/deps.sh            Debian packages + third-party sources + wasm SDL2 + npm packages
#   scripts/deps.sh --native   only what the native build and tests need
# Third-party sources and the wasm SDL2 build are cached outside the work tree, in
# $IMQUIZ_CACHE (default ~/.cache/imquiz), keyed by version and flags, so reruns are quick.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${IMQUIZ_CACHE:-$HOME/.cache/imquiz}
mode=${1:-all}
mkdir -p "$cache"
log() { printf '[deps] %s\n' "$*" >&2; }

SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

native_pkgs=(g++ cmake ninja-build nlohmann-json3-dev catch2 libsdl2-dev python3 clang-14 libclang-rt-14-dev)
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
SDL_VERSION=2.26.5
fetch_source imgui "$IMGUI_VERSION+ds-1" "$cache/imgui-$IMGUI_VERSION"
fetch_source libsdl2 "$SDL_VERSION+dfsg-1" "$cache/sdl2-src-$SDL_VERSION"

# SDL2 for wasm, trimmed to what a GL-only ImGui app uses (video, events, touch, keyboard, timers).
# SDL_LEAN_AND_MEAN drops the software blitters, RLE and YUV code (a GL app never blits surfaces):
# 200 KB of the wasm raw, 30 KB gzip (docs/benchmark.md). No internal assertions in a release.
sdl_flags=(-DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF
  -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF -DSDL_SENSOR=OFF -DSDL_POWER=OFF -DSDL_RENDER=OFF -DSDL_LOCALE=OFF
  -DSDL_MISC=OFF -DSDL_FILESYSTEM=OFF -DSDL_DUMMYVIDEO=OFF -DSDL_OFFSCREEN=OFF -DSDL_DISKAUDIO=OFF
  -DSDL_DUMMYAUDIO=OFF -DSDL_ATOMIC=OFF -DSDL_CPUINFO=OFF -DSDL_LOADSO=OFF -DSDL_THREADS=OFF
  -DSDL_ASSERTIONS=disabled)
sdl_cflags="-Oz -DSDL_LEAN_AND_MEAN=1"
sdl_key=$(printf '%s ' "$SDL_VERSION" $sdl_cflags "${sdl_flags[@]}" | sha1sum | cut -c1-10)
sdl_prefix="$cache/sdl2-wasm-$SDL_VERSION-$sdl_key"
if [ ! -f "$sdl_prefix/lib/libSDL2.a" ]; then
  log "building SDL2 $SDL_VERSION for wasm (about 6 minutes, once)"
  export NODE_PATH=/usr/share/nodejs
  b=$(mktemp -d "$cache/sdl2-build.XXXX")
  emcmake cmake -S "$cache/sdl2-src-$SDL_VERSION" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=MinSizeRel \
    -DCMAKE_C_FLAGS="$sdl_cflags" -DCMAKE_INSTALL_PREFIX="$sdl_prefix" "${sdl_flags[@]}" >"$b.log" 2>&1 \
    || { cat "$b.log" >&2; exit 1; }
  cmake --build "$b" >>"$b.log" 2>&1 && cmake --install "$b" >>"$b.log" 2>&1 || { tail -50 "$b.log" >&2; exit 1; }
  rm -rf "$b" "$b.log"
fi
ln -sfn "$sdl_prefix" "$cache/sdl2-wasm"
ln -sfn "$cache/imgui-$IMGUI_VERSION" "$cache/imgui"

# npm packages for browser tests, the closure compiler and the site's minifier (esbuild), pinned by
# package-lock.json.
if [ ! -d "$here/node_modules/playwright-core" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  log "installing npm packages"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
