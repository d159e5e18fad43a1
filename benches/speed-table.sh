#!/usr/bin/env bash
# The table of whole-command speeds in docs/performance.md: each row is one `matchbox`
# command, run RUNS times (default 5) per binary, the binaries taking turns so that a busy
# moment of the machine falls on all of them; prints the median wall-clock time and the
# median CPU time (user + system) as a Markdown table.
#
#   cargo build --release && bash benches/speed-table.sh [OTHER_BINARY] target/release/matchbox
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BINARY [BINARY...]" >&2; exit 2; }
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'preset: menace\npreviews: false\n' >"$work/menace-no-previews.yaml"
printf 'preset: bachet\nstones: 1000\n' >"$work/nim-1000.yaml"
printf 'preset: hexapawn\nrows: 8\ncols: 3\n' >"$work/hexapawn-8x3.yaml"

rows=(
  "\`kit --preset menace\`, previews off|kit --kit $work/menace-no-previews.yaml --out $work/out"
  "\`kit --preset menace\`, 304 previews at 150 dpi|kit --preset menace --out $work/out"
  "\`kit --preset hexapawn\` (19 labels, 9-page kit)|kit --preset hexapawn --out $work/out"
  "\`verify --preset hexapawn\`|verify --preset hexapawn"
  "\`kit --preset octapawn\` (2,791 labels and previews)|kit --preset octapawn --out $work/out"
  "\`kit\`, nim with 1,000 stones (999 labels)|kit --kit $work/nim-1000.yaml --out $work/out"
  "\`kit\`, hexapawn 8 rows x 3 cols (8,902 labels)|kit --kit $work/hexapawn-8x3.yaml --out $work/out"
  "\`simulate --preset menace --opponent random --games 5000000\`|simulate --preset menace --opponent random --games 5000000"
)

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

header="| work |"
rule="| --- |"
for bin in "$@"; do
  header+=" $bin |"
  rule+=" --- |"
done
echo "$header"
echo "$rule"
for row in "${rows[@]}"; do
  name=${row%%|*}
  read -r -a args <<<"${row#*|}"
  for b in $(seq $#); do : >"$work/times-$b"; rm -f "$work/failed-$b"; done
  for _ in $(seq "$runs"); do
    b=0
    for bin in "$@"; do
      b=$((b + 1))
      # A command that fails is timed as "fails", not allowed to end the table.
      if /usr/bin/time -f "%e %U %S" -o "$work/time" "$bin" "${args[@]}" >/dev/null 2>"$work/err"; then
        cat "$work/time" >>"$work/times-$b"
      else
        : >"$work/failed-$b"
      fi
    done
  done
  line="| $name |"
  for b in $(seq $#); do
    if [ -e "$work/failed-$b" ]; then
      line+=" fails: $(tail -1 "$work/err") |"
      continue
    fi
    wall=$(awk '{print $1}' "$work/times-$b" | median)
    cpu=$(awk '{print $2 + $3}' "$work/times-$b" | median)
    if [ "${args[0]}" = simulate ]; then
      line+=" $(awk -v w="$wall" 'BEGIN {printf "%.1f M games/s", 5 / w}') |"
    else
      line+=" $wall s ($cpu s CPU) |"
    fi
  done
  echo "$line"
done
