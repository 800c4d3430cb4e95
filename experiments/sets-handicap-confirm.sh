#!/bin/sh
# Question 1, confirmation: the handicap table (tally match --handicap D
# --weaker-elo E, the weaker player named) on fresh openings, each played
# twice with colours reversed; the handicap follows the weaker player's
# colour in each game. Two rounds, on slices of positions/openings-sprt.epd
# used by neither the measurement nor the fit:
# - the first: 50 openings (slice 4001-4050, 100 games a row), the weaker
#   at 1000, D = 200 to 600 (the defaults below);
# - the second, with the rows fitted at 1400 and the gap of 800 at 1000:
#   100 openings (slice 4101-4200, 200 games a row).
#
#   experiments/sets-handicap-confirm.sh
#   FIRST=4101 COUNT=100 RUNS="1000:800 1400:200 1400:400 1400:600" experiments/sets-handicap-confirm.sh
# then: tally experiment gap $OUT/sets-confirm/*.json --svg confirm.svg
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-"1000:200 1000:400 1000:600"}
FIRST=${FIRST:-4001}
COUNT=${COUNT:-50}
book=$(openings "confirm-$FIRST" "$FIRST" "$COUNT")
mkdir -p "$OUT/sets-confirm"
for r in $RUNS; do
    low=${r%:*} d=${r#*:}
    high=$(( low + d ))
    run -v sets -p "name=w$low $(elo $low)" -p "name=s$high $(elo $high)" \
        --nodes 1000000 --openings "$book" --handicap "$d" --weaker "w$low" \
        --weaker-elo "$low" \
        --results "$OUT/sets-confirm/L$low-D$d-F$FIRST-{shard}.json"
done
