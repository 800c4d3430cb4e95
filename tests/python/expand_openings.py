#!/usr/bin/env python3
"""Grows an EPD file of openings by one ply: each position is searched by
Tally with MultiPV at a fixed depth, and every line whose value stays
within the bound (centipawns, either way, no mate) gives a new position,
the one after that line's first move. Repeats are dropped; the output is
shuffled with the seed so that a match's first pairs are spread over the
whole set.

Usage: expand_openings.py TALLY VARIANT IN.epd OUT.epd DEPTH MULTIPV CP SEED

positions/openings-sprt.epd (chess, two plies beyond openings-wide.epd):
    expand_openings.py target/release/tally chess \
        positions/openings-wide.epd /tmp/w1.epd 7 8 50 1
    expand_openings.py target/release/tally chess /tmp/w1.epd \
        positions/openings-sprt.epd 7 8 50 2
positions/openings-sprt-extinction.epd: the same from
openings-extinction.epd with VARIANT extinction and CP 120.
"""
import random
import re
import subprocess
import sys

import chess

INFO = re.compile(r" multipv (\d+) score (cp|mate) (-?\d+).* pv (\S+)")


def main():
    if len(sys.argv) != 9:
        sys.exit(__doc__)
    tally, variant, src, dst = sys.argv[1:5]
    depth, multipv, bound, seed = (int(a) for a in sys.argv[5:9])
    eng = subprocess.Popen(
        [tally], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        eng.stdin.write(line + "\n")

    def until(token):
        lines = []
        for line in eng.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(token):
                break
        return lines

    send("uci")
    until("uciok")
    send(f"setoption name UCI_Variant value {variant}")
    send(f"setoption name MultiPV value {multipv}")
    send("isready")
    until("readyok")
    seen = set()
    out = []
    with open(src) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 4:
                continue
            fen = " ".join(fields[:4]) + " 0 1"
            send("ucinewgame")
            send(f"position fen {fen}")
            send(f"go depth {depth}")
            best = {}
            for info in until("bestmove"):
                m = INFO.search(info)
                if m:
                    best[int(m[1])] = (m[2], int(m[3]), m[4])
            for kind, value, move in best.values():
                if kind != "cp" or abs(value) > bound:
                    continue
                board = chess.Board(fen)
                board.push(chess.Move.from_uci(move))
                epd = board.epd()
                if epd not in seen:
                    seen.add(epd)
                    out.append(epd)
    send("quit")
    eng.wait()
    random.Random(seed).shuffle(out)
    with open(dst, "w") as f:
        f.writelines(e + "\n" for e in out)
    print(f"{len(out)} openings from {src} written to {dst}")


if __name__ == "__main__":
    main()
