#!/usr/bin/env bash
# Writes an assembled site's build fingerprint into its sw.js and version.json: the service worker
# caches one build under this name and refuses files that do not hash to it, so a page never runs
# the JavaScript of one build with the wasm of another. Run again after changing a fingerprinted
# file (scripts/site-origin.sh does), or the offline copy of the changed site never installs.
#   scripts/fingerprint-site.sh SITE_DIR
set -euo pipefail
site=$1
# The files, and their order, are sw.js's FINGERPRINTED (minified or not): it checks them itself.
fingerprinted=$(grep -o 'FINGERPRINTED *= *\[[^]]*\]' "$site/sw.js" | sed 's/.*\[\(.*\)\]/\1/' | tr -d "'\" " | tr , ' ')
[ -n "$fingerprinted" ] || { echo "fingerprint-site.sh: no FINGERPRINTED list in $site/sw.js" >&2; exit 1; }
version=$(cd "$site" && cat $fingerprinted | sha256sum | cut -c1-12)
# The worker carries the placeholder of web/sw.js, or the fingerprint written in before.
previous=__IMQUIZ_BUILD__
if [ -f "$site/version.json" ]; then
  previous=$(sed -n 's/^{"build":"\([0-9a-f]*\)"}$/\1/p' "$site/version.json")
  [ -n "$previous" ] || { echo "fingerprint-site.sh: $site/version.json is not {\"build\":\"<hex>\"}" >&2; exit 1; }
fi
grep -q "$previous" "$site/sw.js" || { echo "fingerprint-site.sh: $site/sw.js does not carry build $previous" >&2; exit 1; }
sed -i "s/$previous/$version/g" "$site/sw.js"
printf '{"build":"%s"}\n' "$version" > "$site/version.json"
echo "$version"
