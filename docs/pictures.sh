#!/usr/bin/env bash
# Writes the README's pictures (docs/img/) with the program itself: a label of HER, a
# label of MENACE and a learning curve. The list of pictures and the commands that make
# them are in tests/readme_pictures.rs, which fails whenever a committed picture differs
# from what the program makes now; this script runs that test in "write" mode.
# Look at the new pictures before committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
MATCHBOX_UPDATE_PICTURES=1 cargo test --test readme_pictures
git status --short docs/img/
