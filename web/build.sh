#!/usr/bin/env bash
# Builds the static site: the engine compiled to WebAssembly and the page around it, in
# web/dist/. Any plain file server can serve that folder (see the README).
# Usage: bash web/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# Built for the browser: optimised across crates and for size (the site stays under
# 8 MB; MENACE's kit takes a fifth of a second), no unwinding, no symbol names; the
# native builds keep their own profile.
CARGO_PROFILE_RELEASE_LTO=true \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
CARGO_PROFILE_RELEASE_PANIC=abort \
CARGO_PROFILE_RELEASE_STRIP=true \
CARGO_PROFILE_RELEASE_OPT_LEVEL=s \
  cargo build --locked --release -p matchbox-web --target wasm32-unknown-unknown

dist=web/dist
rm -rf "$dist"
mkdir -p "$dist"
cp web/src/index.html web/src/designer.css web/src/designer.js web/src/engine.js \
   web/src/worker.js web/src/words.js web/src/zip.js "$dist/"
cp crates/serve/src/assets/favicon.svg "$dist/"
cp target/wasm32-unknown-unknown/release/matchbox_web.wasm "$dist/matchbox.wasm"

# The service worker's list of files and a version that changes with any of them.
files=$(cd "$dist" && ls | sort)
version=$(cd "$dist" && cat $files | sha256sum | cut -c1-16)
list=$(printf '"./",'; for f in $files; do printf '"%s",' "$f"; done)
sed -e "s/@VERSION@/$version/" -e "s|@FILES@|[${list%,}]|" web/src/sw.js > "$dist/sw.js"

echo "The site is in $PWD/$dist ($(du -sh "$dist" | cut -f1)): serve that folder with any file server,"
echo "for example: python3 -m http.server --directory $dist 8000, then open http://127.0.0.1:8000/"
