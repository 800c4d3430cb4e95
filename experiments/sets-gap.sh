#!/bin/sh
# Question 1, measurement: SETS points under the default values between two
# Tally players whose UCI_Elo differ by D = 0, 200, 400, 600, 800, at two
# absolute levels (the weaker at 1000, and at 1400). Every pairing plays the
# same 200 openings (slice 1-200 of positions/openings-sprt.epd), each twice
# with colours reversed: 400 games. The --nodes cap is above every level's
# own node count, so each level plays its calibrated nodes.
#
#   experiments/sets-gap.sh            # all of it
#   SHARD=1/2 experiments/sets-gap.sh  # half (and 2/2 elsewhere)
# then: tally experiment handicap $OUT/sets-gap/*.json
. "$(dirname "$0")/common.sh"
LEVELS=${LEVELS:-"1000 1400"}
GAPS=${GAPS:-"0 200 400 600 800"}
book=$(openings gap 1 200)
mkdir -p "$OUT/sets-gap"
for low in $LEVELS; do
    for d in $GAPS; do
        high=$(( low + d ))
        run -v sets -p "name=w$low $(elo $low)" -p "name=s$high $(elo $high)" \
            --nodes 1000000 --openings "$book" \
            --results "$OUT/sets-gap/L$low-D$d-{shard}.json"
    done
done
