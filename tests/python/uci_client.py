#!/usr/bin/env python3
"""Tally through a real UCI client (python-chess): a short game, a MultiPV 3
analysis, an infinite search that is stopped, and the scoring variants.

Usage: uci_client.py PATH/TO/tally   (CI runs it on the release binary)
Exits non-zero on the first failed check.
"""

import sys
import time

import chess
import chess.engine


def check(cond, what):
    if not cond:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: uci_client.py PATH/TO/tally")
    engine = chess.engine.SimpleEngine.popen_uci([sys.argv[1]], timeout=30)
    try:
        check(engine.id.get("name", "").startswith("Tally"), "engine name")
        for name in ("Hash", "Threads", "MultiPV", "Move Overhead", "Ponder",
                     "UCI_ShowWDL", "UCI_Variant", "Scoring", "SpecialActions",
                     "DrawAdvantage", "EvalMode", "EvalFile", "RulesFile", "Clear Hash"):
            check(name in engine.options, f"option {name} declared")

        # A short game on a clock: every move legal (python-chess refuses
        # an illegal bestmove with an EngineError).
        board = chess.Board()
        clock = [2.0, 2.0]
        while not board.is_game_over(claim_draw=True) and board.ply() < 24:
            side = 0 if board.turn == chess.WHITE else 1
            limit = chess.engine.Limit(white_clock=clock[0], black_clock=clock[1],
                                       white_inc=0.02, black_inc=0.02)
            t = time.monotonic()
            result = engine.play(board, limit)
            clock[side] -= time.monotonic() - t
            clock[side] += 0.02
            check(clock[side] > 0, f"ply {board.ply() + 1} within the clock")
            check(result.move is not None and result.move in board.legal_moves,
                  f"ply {board.ply() + 1}: {result.move} legal")
            board.push(result.move)

        # Analysis with MultiPV 3.
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        check(len(infos) == 3, "MultiPV 3 gives three lines")
        firsts = [info["pv"][0] for info in infos]
        check(len(set(firsts)) == 3, f"three different first moves {firsts}")
        check(all(m in board.legal_moves for m in firsts), "first moves legal")
        scores = [info["score"].relative.score(mate_score=100000) for info in infos]
        check(scores == sorted(scores, reverse=True), f"lines best first {scores}")
        check(all(info["depth"] == 6 for info in infos), "depth 6 reached")
        check(all(info.get("multipv") == i + 1 for i, info in enumerate(infos)), "multipv numbers")

        # An infinite search, stopped.
        board = chess.Board()
        with engine.analysis(board) as analysis:
            depth = 0
            for info in analysis:
                depth = max(depth, info.get("depth", 0))
                if depth >= 6:
                    break
            t = time.monotonic()
            analysis.stop()
            best = analysis.wait()
            latency = time.monotonic() - t
        check(depth >= 6, "infinite search reached depth 6")
        check(best.move in board.legal_moves, f"bestmove {best.move} after stop")
        check(latency < 0.5, f"stop answered in {latency * 1000:.1f} ms")

        # A mate is reported as one, with the closing info string.
        board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        info = engine.analyse(board, chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
        check(info["score"].relative == chess.engine.Mate(1), f"mate in 1 ({info['score']})")
        check(info["pv"][0] == chess.Move.from_uci("h5f7"), "Qxf7#")

        # The scoring variants through an ordinary option, and WDL.
        engine.configure({"UCI_ShowWDL": True})
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=5))
        check("wdl" in info and sum(info["wdl"].relative) == 1000, "wdl in chess")
        for scoring in ("stylish", "wacky", "sets", "dynamic", "tiebraker", "chess"):
            engine.configure({"Scoring": scoring, "DrawAdvantage": "white"})
            board = chess.Board()
            board.push_uci("e2e4")
            result = engine.play(board, chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
            check(result.move in board.legal_moves, f"{scoring}: {result.move} legal")
            text = result.info.get("string", "")
            check(text.startswith("margin ") and f" {scoring} award " in text,
                  f"{scoring}: info string '{text}'")

        # A finished game: no move, no crash.
        board = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
        result = engine.play(board, chess.engine.Limit(depth=3))
        check(result.move in (None, chess.Move.null()), f"checkmated: {result.move}")
        engine.ping()
    finally:
        engine.quit()
    print("all python-chess checks passed")


if __name__ == "__main__":
    main()
