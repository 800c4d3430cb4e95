#!/bin/sh
# Question 1, confirmation: the handicap table (tally match --handicap D
# --weaker-elo E, the weaker player named) on fresh openings, each played
# twice with colours reversed; the handicap follows the weaker player's
# colour in each game. Each run is LEVEL:GAP:FIRST:COUNT, COUNT openings
# from line FIRST of positions/openings-sprt.epd, slices used by neither
# the measurement nor the fit nor another confirmation:
# - the weaker at 1000, D = 200 to 600: 50 openings from 4001 (100 games);
# - the weaker at 1400, D = 200 and 400: 100 openings each from 4301 and
#   4401 (200 games).
#
#   experiments/sets-handicap-confirm.sh
#   RUNS="1400:400:4401:100" experiments/sets-handicap-confirm.sh
# then: tally experiment gap $OUT/sets-confirm/*.json --svg confirm.svg
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-"1000:200:4001:50 1000:400:4001:50 1000:600:4001:50 1400:200:4301:100 1400:400:4401:100"}
mkdir -p "$OUT/sets-confirm"
for r in $RUNS; do
    IFS=: read -r low d first count <<END
$r
END
    high=$(( low + d ))
    book=$(openings "confirm-$first" "$first" "$count")
    run -v sets -p "name=w$low $(elo $low)" -p "name=s$high $(elo $high)" \
        --nodes 1000000 --openings "$book" --handicap "$d" --weaker "w$low" \
        --weaker-elo "$low" \
        --results "$OUT/sets-confirm/L$low-D$d-F$first-{shard}.json"
done
