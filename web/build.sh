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
   web/src/worker.js web/src/unlzma.js web/src/zip.js web/src/transport.js \
   web/src/manifest.webmanifest web/src/icon.svg "$dist/"
# The lesson: the classroom page of `matchbox serve` itself, with the site's transport;
# and the module both pages share (page.js).
assets=crates/serve/src/assets
cp "$assets/index.html" "$dist/lesson.html"
cp "$assets/app.js" "$assets/page.js" "$assets/style.css" "$assets/favicon.svg" "$dist/"

# The engine a ninth smaller: binaryen's size passes over what rustc left (the same
# functions, so the same kits byte for byte; tests/web_site.rs checks). The features
# are those rustc's wasm32 target enables. Then packed with LZMA (unlzma.js unpacks it
# in the page's worker): 4.7 MB become 1.3 MB on the disk and on the network, where
# gzip leaves 1.8 MB and brotli 1.4 MB.
wasm=target/wasm32-unknown-unknown/web/matchbox_web.wasm
opt=target/wasm32-unknown-unknown/web/matchbox.wasm
if command -v wasm-opt >/dev/null; then
  wasm-opt -Oz --strip-debug --strip-producers \
    --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
    "$wasm" -o "$opt"
else
  echo "web/build.sh: no wasm-opt (Debian: apt-get install binaryen): the engine is left unshrunk" >&2
  cp "$wasm" "$opt"
fi
xz --format=lzma -9e --stdout "$opt" > "$dist/matchbox.lzma"

# Both pages say what they are to search engines and to the browser's app list (the
# pages' own files are left as the designer and the classroom screen keep them).
head='<meta name="description" content="Design a printable kit for a matchbox learning machine (MENACE, HER, Bachet'"'"'s game), see every box, and run the lesson in the browser.">\
<meta name="theme-color" content="#1d1b18">\
<link rel="manifest" href="manifest.webmanifest">'
for page in index.html lesson.html; do
  sed -i "s|^<title>|${head}\n<title>|" "$dist/$page"
  grep -q 'rel="manifest"' "$dist/$page" || { echo "web/build.sh: no <title> line in $page" >&2; exit 1; }
done

# Every file but the pages and the service worker is named by its content
# (name.HASH.ext), so that a server may let browsers keep it for ever: a new version is
# a new name. Renamed in an order where each file comes after the files it names, so
# that its hash covers their new names; every quoted mention of a name is rewritten, as
# a module's import names it too ('./page.js').
hashed=(matchbox.lzma icon.svg favicon.svg manifest.webmanifest designer.css style.css
        zip.js unlzma.js worker.js page.js engine.js transport.js designer.js app.js)
for name in "${hashed[@]}"; do
  hash=$(sha256sum "$dist/$name" | cut -c1-12)
  new="${name%.*}.$hash.${name##*.}"
  mv "$dist/$name" "$dist/$new"
  for file in "$dist"/*.html "$dist"/*.js "$dist"/*.css "$dist"/*.webmanifest; do
    sed -i -e "s|\"\(\./\)\{0,1\}${name//./\\.}\"|\"\1$new\"|g" \
           -e "s|'\(\./\)\{0,1\}${name//./\\.}'|'\1$new'|g" "$file"
  done
done

# The service worker's list of files and a version that changes with any of them.
files=$(cd "$dist" && ls | sort)
version=$(cd "$dist" && cat $files | sha256sum | cut -c1-16)
list=$(printf '"./",'; for f in $files; do printf '"%s",' "$f"; done)
sed -e "s/@VERSION@/$version/" -e "s|@FILES@|[${list%,}]|" web/src/sw.js > "$dist/sw.js"

echo "The site is in $PWD/$dist ($(du -sh "$dist" | cut -f1)): serve that folder with any file server,"
echo "for example: python3 -m http.server --directory $dist 8000, then open http://127.0.0.1:8000/"
