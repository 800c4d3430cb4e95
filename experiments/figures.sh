#!/bin/sh
# The tables and figures of docs/experiments.md from the results of the
# other scripts: every table printed (markdown), every figure written to
# $FIGURES (default docs/experiments) as SVG.
#
#   experiments/figures.sh > tables.md
. "$(dirname "$0")/common.sh"
FIGURES=${FIGURES:-docs/experiments}
mkdir -p "$FIGURES"
# table NAME ARGS...: a heading and tally experiment ARGS's table.
table() {
    printf '\n### %s\n\n' "$1"
    shift
    "$TALLY" experiment "$@"
}
table "SETS points by gap" gap --svg "$FIGURES/sets-gap.svg" "$OUT"/sets-gap/*.json
table "Handicap fit" fit --svg "$FIGURES/sets-fit.svg" "$OUT"/sets-fit/*.json
if ls "$OUT"/sets-confirm/*.json >/dev/null 2>&1; then
    table "Handicap confirmation" gap --svg "$FIGURES/sets-confirm.svg" "$OUT"/sets-confirm/*.json
fi
table "Draws" draws --svg "$FIGURES/draws-tied.svg" --rule-svg "$FIGURES/draws-rule.svg" "$OUT"/draws/*.json
table "Style" style --svg "$FIGURES/style.svg" "$OUT"/style/*.json
