#!/bin/sh
# Question 2: draws under each scoring. At three strength levels the same
# openings are played under chess, sets, dynamic, tiebraker (the disk on:
# both players are Tally) and stylish, the two players alike:
#
# - UCI_Elo 1400 and 1800 (node-bounded levels; the --nodes cap is above
#   their own counts): 100 openings (slice 2001-2100 of
#   positions/openings-sprt.epd), each twice with colours reversed: 200
#   games a scoring;
# - full strength at 20,000 nodes a move: 200 openings (slice 2001-2200),
#   each once (--no-reverse: the same deterministic engine on both sides
#   would repeat the game with colours reversed): 200 games a scoring.
#
#   experiments/draws.sh
# then: tally experiment draws $OUT/draws/*.json --svg tied.svg --rule-svg rule.svg
. "$(dirname "$0")/common.sh"
NODES=${NODES:-20000}
LEVELS=${LEVELS:-"1400 1800 full"}
VARIANTS=${VARIANTS:-"chess sets dynamic tiebraker stylish"}
pairs=$(openings draws 2001 100)
once=$(openings draws-once 2001 200)
mkdir -p "$OUT/draws"
for level in $LEVELS; do
    for v in $VARIANTS; do
        if [ "$level" = full ]; then
            run -v "$v" -p "name=a" -p "name=b" --nodes "$NODES" --no-reverse \
                --openings "$once" --results "$OUT/draws/$level-$v-{shard}.json"
        else
            run -v "$v" -p "name=a $(elo "$level")" -p "name=b $(elo "$level")" \
                --nodes 1000000 --openings "$pairs" \
                --results "$OUT/draws/$level-$v-{shard}.json"
        fi
    done
done
