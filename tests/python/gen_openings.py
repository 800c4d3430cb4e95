#!/usr/bin/env python3
"""Generates balanced match openings: random walks over Stockfish's best
few moves, kept when the last move is quiet and Stockfish judges the end
position nearly equal.

Usage: gen_openings.py COUNT SEED > positions/openings-wide.epd
"""
import random
import sys

import chess
import chess.engine

count, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
eng.configure({"Threads": 1, "Hash": 32})
seen = set()
out = []
while len(out) < count:
    board = chess.Board()
    plies = rng.choice([8, 9, 10])
    for _ in range(plies):
        infos = eng.analyse(board, chess.engine.Limit(depth=8), multipv=5)
        best = infos[0]["score"].relative.score(mate_score=10000)
        ok = [i["pv"][0] for i in infos
              if best - i["score"].relative.score(mate_score=10000) <= 40]
        board.push(rng.choice(ok))
    key = board.epd()
    last = board.pop()
    quiet = not board.is_capture(last) and not board.gives_check(last)
    board.push(last)
    if key in seen or not quiet:
        continue
    info = eng.analyse(board, chess.engine.Limit(depth=14))
    cp = info["score"].white().score(mate_score=10000)
    if abs(cp) > 40:
        continue
    seen.add(key)
    line = chess.Board().variation_san(board.move_stack)
    out.append(f'{key} id "w{len(out) + 1:03d} {line} ({cp:+d})";')
    print(out[-1], file=sys.stderr)
eng.quit()
# Plain EPD only: GUIs read every line as a position (positions/README.md
# describes the file).
for line in out:
    print(line)
