#!/usr/bin/env python3
"""Time to depth and nodes per second by thread count (not run by CI).

Usage: threads.py TALLY DEPTH THREADS... -- runs `go depth DEPTH` on the
chess positions of positions/bench.txt with each thread count (a new game
before each position, 64 MiB hash) and prints the total time, nodes and
nps per thread count, and the speed-up against the first count.
"""
import subprocess
import sys
import time
from pathlib import Path


def positions():
    bench = Path(__file__).resolve().parents[2] / "positions" / "bench.txt"
    for line in bench.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            variant, fen = line.split(" ", 1)
            if variant == "chess" and len(fen.split()) >= 4:
                yield fen


def run(tally, depth, threads):
    p = subprocess.Popen([tally], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(prefix):
        last = None
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith("info") and " nodes " in line:
                last = line
            if line.startswith(prefix):
                return last

    send("uci")
    wait("uciok")
    send(f"setoption name Threads value {threads}")
    send("setoption name Hash value 64")
    total_t = total_n = 0.0
    for fen in positions():
        send("ucinewgame")
        send(f"position fen {fen}")
        send("isready")
        wait("readyok")
        t0 = time.perf_counter()
        send(f"go depth {depth}")
        info = wait("bestmove")
        total_t += time.perf_counter() - t0
        words = info.split()
        total_n += int(words[words.index("nodes") + 1])
    send("quit")
    p.wait()
    return total_t, total_n


def main():
    tally, depth = sys.argv[1], int(sys.argv[2])
    counts = [int(x) for x in sys.argv[3:]] or [1, 2]
    base = None
    for t in counts:
        secs, nodes = run(tally, depth, t)
        nps = nodes / secs
        if base is None:
            base = (secs, nps)
        print(f"threads {t:2}: time {secs:7.2f} s  nodes {int(nodes):>11}  nps {nps:>11.0f}  "
              f"time-to-depth x{base[0] / secs:.2f}  nps x{nps / base[1]:.2f}")


if __name__ == "__main__":
    main()
