#!/usr/bin/env python3
"""Keeps the openings of an EPD file that are balanced under a variant's
rules: each position is searched to a fixed depth by Tally and by
fairy-stockfish (both playing the variant), and kept when neither sees a
mate nor more than its bound in centipawns either way. Comment lines are
dropped; kept lines are copied unchanged.

Usage: vet_openings.py TALLY VARIANT IN.epd TALLY_DEPTH TALLY_CP FSF_DEPTH FSF_CP

positions/openings-extinction.epd:
    vet_openings.py target/release/tally extinction \
        positions/openings-wide.epd 10 120 14 150
"""
import re
import subprocess
import sys

SCORE = re.compile(r" score (cp|mate) (-?\d+)")


class Uci:
    """A UCI engine on pipes, one position searched at a time."""

    def __init__(self, cmd, options):
        self.p = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        for line in self.p.stdout:
            if line.startswith(word):
                return line
        raise RuntimeError(f"engine closed before '{word}'")

    def score(self, fen, depth):
        """(kind, value) of the last score before bestmove."""
        self.send("ucinewgame")
        self.send(f"position fen {fen} 0 1")
        self.send(f"go depth {depth}")
        last = None
        for line in self.p.stdout:
            m = SCORE.search(line)
            if line.startswith("info") and m:
                last = (m.group(1), int(m.group(2)))
            if line.startswith("bestmove"):
                return last
        raise RuntimeError("engine closed during a search")

    def close(self):
        self.send("quit")
        self.p.wait()


def balanced(score, bound):
    return score is not None and score[0] == "cp" and abs(score[1]) <= bound


def main():
    tally, variant, path = sys.argv[1], sys.argv[2], sys.argv[3]
    t_depth, t_cp, f_depth, f_cp = (int(x) for x in sys.argv[4:8])
    engines = [
        (Uci(tally, [("UCI_Variant", variant)]), t_depth, t_cp),
        (
            Uci(
                "/usr/games/fairy-stockfish",
                [("UCI_Variant", variant), ("Threads", 1)],
            ),
            f_depth,
            f_cp,
        ),
    ]
    kept = dropped = 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fen = " ".join(line.split()[:4])
            scores = [e.score(fen, d) for e, d, _ in engines]
            if all(balanced(s, b) for s, (_, _, b) in zip(scores, engines)):
                sys.stdout.write(line)
                kept += 1
            else:
                dropped += 1
                print(f"line {n}: dropped, scores {scores}", file=sys.stderr)
    for e, _, _ in engines:
        e.close()
    print(f"kept {kept}, dropped {dropped}", file=sys.stderr)


if __name__ == "__main__":
    main()
