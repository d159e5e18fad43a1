#!/usr/bin/env bash
# Cuts the kit's fonts (DejaVu Sans 2.37, regular, bold and oblique, and DejaVu Sans Mono
# for commands and keys, from the `dejavu` crate) down to the characters in unicodes.txt,
# without hinting (the PDF's and the previews' glyphs are drawn from outlines at print
# sizes, never hinted). Run by hand when unicodes.txt
# changes; the results are committed, so a build needs nothing but cargo. The kit
# crate's tests check that the files here and unicodes.txt agree.
# Needs fontTools 4.68.0: pip install fonttools==4.68.0
# Usage: bash crates/kit/fonts/subset.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../../.."
manifest=$(cargo metadata --format-version 1 |
  python3 -c 'import json,sys; print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"] == "dejavu"))')
ttf="$(dirname "$manifest")/assets/dejavu-fonts-ttf-2.37/ttf"
listed() { sed -e 's/#.*//' "$here/$1" | awk 'NF { printf "%sU+%s", sep, $1; sep = "," }'; }
for font in DejaVuSans DejaVuSans-Bold DejaVuSans-Oblique DejaVuSansMono; do
  # The monospaced face sets only commands and keys: ASCII (unicodes-mono.txt).
  if [ "$font" = DejaVuSansMono ]; then unicodes=$(listed unicodes-mono.txt); else unicodes=$(listed unicodes.txt); fi
  # Every layout feature kept (kerning above all), so that a text is as wide as before;
  # no timestamps changed, so the same input gives the same bytes.
  pyftsubset "$ttf/$font.ttf" --unicodes="$unicodes" --layout-features='*' \
    --no-hinting --notdef-outline --drop-tables+=FFTM --output-file="$here/$font.tmp"
  mv "$here/$font.tmp" "$here/$font.ttf"
done
cp "$ttf/../LICENSE" "$here/LICENSE"
ls -l "$here"/*.ttf
