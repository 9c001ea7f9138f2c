#!/usr/bin/env bash
# Names the deployment's own origin next to every 'self' of the page's <meta> policy in an
# assembled site, for quizzes embedded in a sandboxed iframe without allow-same-origin. Such a
# document has an opaque origin, and WebKit (Safari on every iPhone and iPad) matches 'self'
# against that opaque origin, so it refuses the page's own scripts and styles (WebKit bug 316847;
# CSP3 matches 'self' against the document's URL). An explicit origin matches in every engine and
# trusts nothing new: it is the origin the files come from. The server's header policy needs the
# same origin (README, Deploy; docs/embedding.md, Sandboxed iframes): WebKit enforces both.
# Then re-fingerprints the build (index.html is part of it) and recompresses what changed.
#   scripts/site-origin.sh SITE_DIR https://quiz.example
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: site-origin.sh SITE_DIR ORIGIN   (e.g. build/web/site https://quiz.example)" >&2; exit 2; }
site=$1 origin=$2
index=$site/index.html
[ -f "$index" ] || { echo "site-origin.sh: no $index: give the assembled site's folder" >&2; exit 1; }
# An origin is scheme, host and optional port, nothing else: a path or a trailing slash would make
# the source expression mean something else, and a quote or a space would end it.
if ! [[ $origin =~ ^https?://[a-z0-9.-]+(:[0-9]{1,5})?$ ]]; then
  echo "site-origin.sh: '$origin' is not an origin: expected scheme://host[:port] in lower case, no path or trailing slash (e.g. https://quiz.example)" >&2
  exit 1
fi
line='<meta http-equiv="Content-Security-Policy" content="'
[ "$(grep -c "$line" "$index")" = 1 ] || { echo "site-origin.sh: $index has no single <meta http-equiv=\"Content-Security-Policy\">" >&2; exit 1; }
policy=$(grep "$line" "$index")
if [[ $policy == *"'self' $origin"* ]]; then echo "site-origin.sh: $index already names $origin"; exit 0; fi
# default-src, not connect-src: that may name bank servers (README, bank= links).
if [[ $policy =~ default-src\ \'self\'\ https?:// ]]; then
  echo "site-origin.sh: $index already names another origin next to 'self'; start again from the build's own site" >&2
  exit 1
fi
sed -i "/$line/s#'self'#'self' $origin#g" "$index"
version=$(bash "$top/scripts/fingerprint-site.sh" "$site")
for f in "$index" "$site/sw.js" "$site/version.json"; do
  gzip -9 -n -c "$f" > "$f.gz"
  brotli -q 11 -f -o "$f.br" "$f"
done
echo "site: $site names $origin in its page's policy (build $version)"
