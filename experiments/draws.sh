#!/bin/sh
# Question 2: draws under each scoring. At three strength levels the same
# openings are played under chess, sets, dynamic, tiebraker (the disk on:
# both players are Tally) and stylish, the two players alike:
#
# - UCI_Elo 1000 and 1400 (node-bounded levels; the --nodes cap is above
#   their own counts): 100 openings (slice 2001-2100 of
#   positions/openings-sprt.epd), each twice with colours reversed: 200
#   games a scoring;
# - full strength at 2,000 nodes a move: the same 100 openings, each once
#   (--no-reverse: the same deterministic engine on both sides would
#   repeat the game with colours reversed): 100 games a scoring.
#
#   experiments/draws.sh
# then: tally experiment draws $OUT/draws/*.json --svg tied.svg --rule-svg rule.svg
. "$(dirname "$0")/common.sh"
NODES=${NODES:-2000}
LEVELS=${LEVELS:-"1000 1400 full"}
VARIANTS=${VARIANTS:-"chess sets dynamic tiebraker stylish"}
book=$(openings draws 2001 100)
mkdir -p "$OUT/draws"
for level in $LEVELS; do
    for v in $VARIANTS; do
        if [ "$level" = full ]; then
            run -v "$v" -p "name=a" -p "name=b" --nodes "$NODES" --no-reverse \
                --openings "$book" --results "$OUT/draws/$level-$v-{shard}.json"
        else
            run -v "$v" -p "name=a $(elo "$level")" -p "name=b $(elo "$level")" \
                --nodes 1000000 --openings "$book" \
                --results "$OUT/draws/$level-$v-{shard}.json"
        fi
    done
done
