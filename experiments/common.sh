# Shared settings of the experiment scripts (sourced, not run).
#
#   TALLY   the tally binary (default: target/release/tally)
#   OUT     where results files go (default: experiments/out, ignored by git)
#   JOBS    games at once in each run (tally match -c; default 1)
#   SHARD   K/N: play only shard K of N of every run (a job array sets it
#           through SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX with SHARDS)
#   SHARDS  the shard count of a job array
#   SCALE   multiplies every run's openings, hence its games (default 1)
#   OPENINGS  every run's openings instead (a smoke test: 1 or 2)
#
# Every run is a `tally match` with a results file: run a script again and
# each run resumes where it stopped; a finished run plays nothing more.

set -eu
TALLY=${TALLY:-target/release/tally}
OUT=${OUT:-experiments/out}
JOBS=${JOBS:-1}
SCALE=${SCALE:-1}
SHARD=${SHARD:-}
SHARDS=${SHARDS:-}
mkdir -p "$OUT"

# openings NAME FIRST COUNT: lines FIRST.. of positions/openings-sprt.epd
# (5,844 shuffled openings; each experiment takes its own slice, so no two
# experiments share a game) into $OUT/openings-NAME.epd; prints the path.
openings() {
    local n=${OPENINGS:-$(( $3 * SCALE ))}
    sed -n "$2,$(( $2 + n - 1 ))p" positions/openings-sprt.epd > "$OUT/openings-$1.epd"
    echo "$OUT/openings-$1.epd"
}

# elo E: the player words of Tally at UCI_Elo E (node-bounded: the level's
# own depth and nodes per move, docs/uci.md "Playing strength").
elo() {
    echo "option.UCI_LimitStrength=true option.UCI_Elo=$1"
}

# run ARGS...: one seeded, resumable, shardable tally match.
run() {
    "$TALLY" match --quiet -c "$JOBS" --hang-timeout 600 \
        ${SHARD:+--shard "$SHARD"} ${SHARDS:+--shards "$SHARDS"} "$@"
}
