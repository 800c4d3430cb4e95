#!/bin/sh
# Question 1, confirmation: the fitted handicap table (tally match
# --handicap D, the weaker player named) on fresh openings: 150 openings
# (slice 4001-4150 of positions/openings-sprt.epd, none of them in the
# measurement or the fit), each twice with colours reversed: 300 games a
# gap. The handicap follows the weaker player's colour in each game.
#
#   experiments/sets-handicap-confirm.sh
# then: tally experiment gap $OUT/sets-confirm/*.json --svg confirm.svg
. "$(dirname "$0")/common.sh"
LEVELS=${LEVELS:-"1000 1400"}
GAPS=${GAPS:-"200 400 600 800"}
book=$(openings confirm 4001 150)
mkdir -p "$OUT/sets-confirm"
for low in $LEVELS; do
    for d in $GAPS; do
        high=$(( low + d ))
        run -v sets -p "name=w$low $(elo $low)" -p "name=s$high $(elo $high)" \
            --nodes 1000000 --openings "$book" --handicap "$d" --weaker "w$low" \
            --results "$OUT/sets-confirm/L$low-D$d-{shard}.json"
    done
done
