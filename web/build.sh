#!/usr/bin/env bash
# Builds the static site: the engine compiled to WebAssembly and the page around it, in
# web/dist/. Any plain file server can serve that folder (see the README).
# Usage: bash web/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# Built for the browser with the `web` profile (Cargo.toml: optimised across crates and
# for size), as a cdylib alone (an rlib too would leave out LTO); the native builds keep
# their own profiles.
cargo rustc --locked --profile web -p matchbox-web --target wasm32-unknown-unknown --crate-type cdylib

dist=web/dist
rm -rf "$dist"
mkdir -p "$dist"
cp web/src/index.html web/src/designer.css web/src/designer.js web/src/engine.js \
   web/src/worker.js web/src/zip.js web/src/transport.js "$dist/"
# The lesson: the classroom page of `matchbox serve` itself, with the site's transport.
assets=crates/serve/src/assets
cp "$assets/index.html" "$dist/lesson.html"
cp "$assets/app.js" "$assets/style.css" "$assets/favicon.svg" "$dist/"
cp target/wasm32-unknown-unknown/web/matchbox_web.wasm "$dist/matchbox.wasm"

# The service worker's list of files and a version that changes with any of them.
files=$(cd "$dist" && ls | sort)
version=$(cd "$dist" && cat $files | sha256sum | cut -c1-16)
list=$(printf '"./",'; for f in $files; do printf '"%s",' "$f"; done)
sed -e "s/@VERSION@/$version/" -e "s|@FILES@|[${list%,}]|" web/src/sw.js > "$dist/sw.js"

echo "The site is in $PWD/$dist ($(du -sh "$dist" | cut -f1)): serve that folder with any file server,"
echo "for example: python3 -m http.server --directory $dist 8000, then open http://127.0.0.1:8000/"
