#!/bin/sh
# Question 1, fit: SETS with a handicap of factor K (every value paid to the
# weaker player multiplied by K, the weaker holding the draw advantage; both
# players play to the handicapped values) between Tally players whose UCI_Elo
# differ by D. For each level and gap, each factor of the gap's grid plays
# 50 openings (slice 1001-1050 of positions/openings-sprt.epd) twice with
# colours reversed, the handicap following the weaker player's colour: 100
# games. `tally experiment fit` then finds the factor that makes the mean
# margin 0 for each gap (geometric between the two grid factors around it).
#
# The grids bracket each level's and gap's even factor (weaker at 1000,
# D = 200: 1 to 32; 400: 8 to 32; 600: 16 and 32; 800: 12.25 and 20;
# weaker at 1400, D = 200: 1.5 and 2.5; 400: 2.5 and 5; 600 is not fitted:
# its stronger level, 2000, is too slow for the machine's hour); GRID gives
# one grid to every level and gap.
#
#   experiments/sets-handicap-fit.sh
#   GRID="2 4 8" GAPS="200" LEVELS="1400" experiments/sets-handicap-fit.sh
# then: tally experiment fit $OUT/sets-fit/*.json
. "$(dirname "$0")/common.sh"
LEVELS=${LEVELS:-"1000 1400"}
GAPS=${GAPS:-"200 400 600 800"}
GRID=${GRID:-}
grid() {
    if [ -n "$GRID" ]; then
        echo "$GRID"
        return
    fi
    case $1:$2 in
        1000:200) echo "1 2 4 8 16 32" ;;
        1000:400) echo "8 16 32" ;;
        1000:600) echo "16 32" ;;
        1000:800) echo "12.25 20" ;;
        1400:200) echo "1.5 2.5" ;;
        1400:400) echo "2.5 5" ;;
    esac
}
book=$(openings fit 1001 50)
mkdir -p "$OUT/sets-fit"
for low in $LEVELS; do
    for d in $GAPS; do
        high=$(( low + d ))
        for k in $(grid "$low" "$d"); do
            "$TALLY" rules sets --handicap-factor "$k" --weaker black > "$OUT/sets-fit/factor-$k.toml"
            run -v sets -p "name=w$low $(elo $low)" -p "name=s$high $(elo $high)" \
                --nodes 1000000 --openings "$book" \
                --rules "$OUT/sets-fit/factor-$k.toml" --weaker "w$low" \
                --results "$OUT/sets-fit/L$low-D$d-K$k-{shard}.json"
        done
    done
done
