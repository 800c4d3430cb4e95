#!/bin/sh
# Question 3: what style costs. In stylish, Tally's variant evaluation
# (variant) against the base evaluator (base: the chess evaluation read as
# expected points) and against Tally playing chess (chess: the same binary
# as an external engine told UCI_Variant chess, so it plays for mate and
# nothing else, while the referee scores the game as stylish), at UCI_Elo
# 1000 and at full strength at 2,000 nodes a move. A gauntlet: variant
# against each, 100 openings (slice 3001-3100 of
# positions/openings-sprt.epd) twice with colours reversed: 200 games a
# pairing.
#
#   experiments/style.sh
# then: tally experiment style $OUT/style/*.json --svg style.svg
. "$(dirname "$0")/common.sh"
NODES=${NODES:-2000}
LEVELS=${LEVELS:-"1000 full"}
book=$(openings style 3001 100)
mkdir -p "$OUT/style"
for level in $LEVELS; do
    if [ "$level" = full ]; then
        strength="" limit="--nodes $NODES"
    else
        strength=$(elo "$level") limit="--nodes 1000000"
    fi
    # shellcheck disable=SC2086
    run -v stylish --tournament gauntlet \
        -p "name=variant $strength" -p "name=base eval=base $strength" \
        -p "name=chess cmd=$TALLY option.UCI_Variant=chess $strength" \
        $limit --openings "$book" --results "$OUT/style/$level-{shard}.json"
done
