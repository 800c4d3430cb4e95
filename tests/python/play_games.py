#!/usr/bin/env python3
"""Tally against Tally on a clock, through python-chess (not run by CI).

Usage: play_games.py PATH/TO/tally [GAMES] [BASE_S] [INC_S]

Plays GAMES games (default 200) at BASE_S + INC_S seconds (default 1 + 0.01),
one at a time, colours alternating, the scoring variant cycling through
chess, stylish, wacky, sets, dynamic and tiebraker (standard rules: both
sides are Tally with SpecialActions off). Each game starts with four random
plies (seeded) so that games differ. The clock runs on this side, around
each engine.play call, so the pipe and python-chess count against the
engine. A game ends by checkmate, stalemate, insufficient material,
threefold repetition or the 50-move rule (standard rules, as a GUI
enforces them), a time loss, an illegal or missing move, or at 600 plies
(adjudicated a draw).

Prints one line per game and a summary; exits non-zero if any game was lost
on time or by an illegal move.
"""

import random
import sys
import time

import chess
import chess.engine

VARIANTS = ["chess", "stylish", "wacky", "sets", "dynamic", "tiebraker"]


def play_game(engines, number, variant, white, rng, base, inc):
    board = chess.Board()
    for _ in range(4):
        board.push(rng.choice(list(board.legal_moves)))
    for e in engines:
        e.configure({"Scoring": variant})
    clock = {chess.WHITE: base, chess.BLACK: base}
    least = base
    slowest = 0.0
    while True:
        if board.is_game_over(claim_draw=True):
            return board.result(claim_draw=True), board.outcome(claim_draw=True).termination.name, board.ply(), least, slowest
        if board.ply() >= 600:
            return "1/2-1/2", "ADJUDICATED", board.ply(), least, slowest
        mover = board.turn
        engine = engines[0] if (mover == chess.WHITE) == (white == 0) else engines[1]
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        t = time.monotonic()
        try:
            result = engine.play(board, limit, game=number)
        except chess.engine.EngineError as err:
            return ("0-1" if mover == chess.WHITE else "1-0"), f"ILLEGAL_MOVE ({err})", board.ply(), least, slowest
        spent = time.monotonic() - t
        slowest = max(slowest, spent)
        clock[mover] -= spent
        least = min(least, clock[mover])
        if clock[mover] < 0:
            return ("0-1" if mover == chess.WHITE else "1-0"), "TIME_LOSS", board.ply(), least, slowest
        clock[mover] += inc
        if result.move is None or result.move == chess.Move.null() or result.move not in board.legal_moves:
            return ("0-1" if mover == chess.WHITE else "1-0"), f"ILLEGAL_MOVE ({result.move})", board.ply(), least, slowest
        board.push(result.move)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    cmd = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    base = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    inc = float(sys.argv[4]) if len(sys.argv) > 4 else 0.01
    rng = random.Random(2024)
    engines = [chess.engine.SimpleEngine.popen_uci([cmd]), chess.engine.SimpleEngine.popen_uci([cmd])]
    tally = {"time_losses": 0, "illegal": 0, "results": {}, "terminations": {}}
    least_overall = base
    slowest_overall = 0.0
    started = time.monotonic()
    try:
        for g in range(games):
            variant = VARIANTS[g % len(VARIANTS)]
            white = g % 2
            result, why, plies, least, slowest = play_game(engines, g, variant, white, rng, base, inc)
            least_overall = min(least_overall, least)
            slowest_overall = max(slowest_overall, slowest)
            if why == "TIME_LOSS":
                tally["time_losses"] += 1
            if why.startswith("ILLEGAL_MOVE"):
                tally["illegal"] += 1
            tally["results"][result] = tally["results"].get(result, 0) + 1
            key = why.split(" ")[0]
            tally["terminations"][key] = tally["terminations"].get(key, 0) + 1
            print(f"game {g + 1:3} {variant:9} engine{white + 1} white: {result:7} {why} "
                  f"plies {plies} least clock {least * 1000:.0f} ms slowest move {slowest * 1000:.0f} ms",
                  flush=True)
    finally:
        for e in engines:
            e.quit()
    print(f"games {games}, time losses {tally['time_losses']}, illegal moves {tally['illegal']}, "
          f"results {tally['results']}, endings {tally['terminations']}, "
          f"least clock left {least_overall * 1000:.0f} ms, slowest move {slowest_overall * 1000:.0f} ms, "
          f"{time.monotonic() - started:.0f} s")
    if tally["time_losses"] or tally["illegal"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
