#!/usr/bin/env python3
"""Stop latency and movetime accuracy over raw pipes (not run by CI).

Usage: timing.py PATH/TO/tally [STOP_TRIALS] [MOVETIME_TRIALS]

Stop latency: `go infinite` in varied positions, a pause of 20 to 300 ms,
then `stop`; the time from writing `stop` to reading `bestmove`.
Movetime: `go movetime 1000`; the time from writing `go` to reading
`bestmove`. Prints min, median, mean, 99th percentile and max of each.
"""

import random
import statistics
import subprocess
import sys
import time

POSITIONS = [
    "startpos",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "fen r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
]


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine closed its output")
            if line.startswith(prefix):
                return line

    def ready(self):
        self.send("isready")
        self.until("readyok")


def summary(name, xs):
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    print(f"{name}: n {len(xs)}, min {xs[0]:.2f}, median {statistics.median(xs):.2f}, "
          f"mean {statistics.mean(xs):.2f}, p99 {p99:.2f}, max {xs[-1]:.2f} (ms)")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    e = Engine(sys.argv[1])
    stops = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    movetimes = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    rng = random.Random(7)
    e.send("uci")
    e.until("uciok")
    e.ready()
    lat = []
    for i in range(stops):
        e.send(f"position {POSITIONS[i % len(POSITIONS)]}")
        e.send("go infinite")
        e.ready()
        time.sleep(rng.uniform(0.02, 0.3))
        t = time.perf_counter()
        e.send("stop")
        e.until("bestmove")
        lat.append((time.perf_counter() - t) * 1000)
    summary("stop latency", lat)
    mt = []
    for i in range(movetimes):
        e.send(f"position {POSITIONS[i % len(POSITIONS)]}")
        e.ready()
        t = time.perf_counter()
        e.send("go movetime 1000")
        e.until("bestmove")
        mt.append((time.perf_counter() - t) * 1000)
    summary("go movetime 1000", mt)
    e.send("quit")
    e.p.wait(timeout=10)


if __name__ == "__main__":
    main()
