#!/usr/bin/env bash
# Saves what users see of every preset in en, pl and ru, and compares two saves byte for byte:
# `boxes --json`, `verify --json` (fixed seed and runs), and the kit folder (labels.pdf,
# kit.pdf, previews, the .matchbox-files manifest).
#
#   benches/compare-outputs.sh save BIN DIR     write BIN's outputs into DIR
#   benches/compare-outputs.sh OLD NEW          compare; OLD and NEW are each a saved DIR or a
#                                               binary (its outputs are saved to a temporary DIR)
# Exits non-zero if any file differs or is missing on one side.
set -euo pipefail

RUNS=${RUNS:-200}
SEED=${SEED:-7}

save() {
  local bin dir
  bin=$(realpath "$1")
  mkdir -p "$2"
  dir=$(realpath "$2")
  local presets
  presets=$("$bin" presets | awk 'NF && $1 !~ /:$/ {print $1}')
  for preset in $presets; do
    for language in en pl ru; do
      local d="$dir/$preset-$language"
      mkdir -p "$d"
      printf 'preset: %s\nlanguage: %s\n' "$preset" "$language" >"$d/kit.yaml"
      (
        cd "$d"
        "$bin" boxes --kit kit.yaml --json >boxes.json
        "$bin" verify --kit kit.yaml --json --runs "$RUNS" --seed "$SEED" >verify.json || true
        "$bin" kit --kit kit.yaml --out kit >/dev/null
      )
    done
  done
}

outputs() {
  if [ -d "$1" ]; then
    echo "$1"
  else
    local d
    d=$(mktemp -d)
    save "$1" "$d"
    echo "$d"
  fi
}

if [ "${1:-}" = save ]; then
  save "$2" "$3"
  exit 0
fi

old=$(outputs "$1")
new=$(outputs "$2")
if diff -r "$old" "$new" >/dev/null; then
  echo "identical: $(find "$old" -type f | wc -l) files"
else
  diff -rq "$old" "$new" | head -50
  exit 1
fi
