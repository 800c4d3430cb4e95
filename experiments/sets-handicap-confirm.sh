#!/bin/sh
# Question 1, confirmation: the handicap table (tally match --handicap D,
# the weaker player named) on fresh openings: 50 openings (slice 4001-4050
# of positions/openings-sprt.epd, none of them in the measurement or the
# fit), each twice with colours reversed: 100 games a gap. The handicap
# follows the weaker player's colour in each game. The weaker at 1000
# (D = 200 to 600, the level of the fit) and at 1400 (D = 200 and 400: the
# table carried to another level).
#
#   experiments/sets-handicap-confirm.sh
#   RUNS="1400:600" experiments/sets-handicap-confirm.sh
# then: tally experiment gap $OUT/sets-confirm/*.json --svg confirm.svg
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-"1000:200 1000:400 1000:600 1400:200 1400:400"}
book=$(openings confirm 4001 50)
mkdir -p "$OUT/sets-confirm"
for r in $RUNS; do
    low=${r%:*} d=${r#*:}
    high=$(( low + d ))
    run -v sets -p "name=w$low $(elo $low)" -p "name=s$high $(elo $high)" \
        --nodes 1000000 --openings "$book" --handicap "$d" --weaker "w$low" \
        --results "$OUT/sets-confirm/L$low-D$d-{shard}.json"
done
