#!/usr/bin/env bash
# Whether two builds of matchbox give a user the same files: for every preset in en, pl
# and ru, `boxes --json`, `verify --json` and the kit folder (labels.pdf, kit.pdf, the
# previews) compared byte for byte. For a change that should alter nothing a user sees
# (a refactor): build the old commit and the new one, then
#   bash benches/same-outputs.sh /tmp/old/matchbox target/release/matchbox
# Prints each difference and exits 1 if there is any. `PRESETS="hexapawn bachet"` and
# `LANGUAGES=en` narrow it; `VERIFY=0` skips verify (its sampled rows take the longest).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
presets=${PRESETS:-$("$new" presets | awk 'NF && $1 !~ /:$/ {print $1}')}
languages=${LANGUAGES:-en pl ru}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

differ=0
for preset in $presets; do
  for language in $languages; do
    kit="$work/$preset-$language.yaml"
    printf 'preset: %s\nlanguage: %s\n' "$preset" "$language" >"$kit"
    for side in old new; do
      bin=${!side}
      out="$work/$side/$preset-$language"
      mkdir -p "$out"
      "$bin" boxes --json --kit "$kit" >"$out/boxes.json"
      if [ "${VERIFY:-1}" = 1 ]; then
        "$bin" verify --json --kit "$kit" >"$out/verify.json" 2>/dev/null || true
      fi
      "$bin" kit --kit "$kit" --out "$out/kit" >/dev/null
      rm -f "$out/kit/.matchbox-files"
    done
    if ! diff -rq "$work/old/$preset-$language" "$work/new/$preset-$language"; then
      differ=1
    fi
  done
  echo "$preset: compared in $languages" >&2
done
exit $differ
