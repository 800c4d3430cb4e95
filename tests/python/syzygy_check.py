"""Tally's Syzygy probes agree with python-chess's on the same files.

Positions of every material the shipped tables cover (tests/data/syzygy:
KQvK, KRvK, KPvK, KBvK, KNvK, KRvKR), drawn at random with a fixed seed,
both sides to move. python-chess's prober (`chess.syzygy`) gives each its
WDL (as if reached by a capture or pawn move, -2 loss to 2 win) and DTZ
(plies); Tally is given the same folder as `SyzygyPath` and prints both on
the last line of `d` (`Tablebases: WDL w DTZ d`). Every position must
agree on both.

Usage: python3 tests/python/syzygy_check.py TALLY [TABLES];
prints 'N passed, N failed' and exits non-zero on a failure.
"""

import pathlib
import random
import subprocess
import sys

import chess
import chess.syzygy

ROOT = pathlib.Path(__file__).resolve().parents[2]
MATERIALS = ["KQvK", "KRvK", "KPvK", "KBvK", "KNvK", "KRvKR"]
PER_MATERIAL = 40
SEED = 102


def random_board(rng: random.Random, material: str, white_to_move: bool) -> chess.Board:
    """A legal position (not necessarily reachable) of `material`."""
    strong, weak = material.split("v")
    while True:
        board = chess.Board(None)
        board.turn = chess.WHITE if white_to_move else chess.BLACK
        squares = rng.sample(chess.SQUARES, len(strong) + len(weak))
        pieces = [(c, chess.WHITE) for c in strong] + [(c, chess.BLACK) for c in weak]
        for square, (letter, color) in zip(squares, pieces):
            board.set_piece_at(square, chess.Piece.from_symbol(letter if color else letter.lower()))
        if board.is_valid():
            return board


def positions() -> list[chess.Board]:
    rng = random.Random(SEED)
    boards = []
    for material in MATERIALS:
        for i in range(PER_MATERIAL):
            boards.append(random_board(rng, material, i % 2 == 0))
    return boards


def tally_probes(tally: str, tables: pathlib.Path, boards: list[chess.Board]) -> list[tuple[int, int] | None]:
    """Tally's (WDL, DTZ) of each board, from `d`; None where it printed none."""
    commands = ["uci", f"setoption name SyzygyPath value {tables}"]
    for board in boards:
        commands += [f"position fen {board.fen()}", "d"]
    commands.append("quit")
    out = subprocess.run(
        [tally], input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=120, check=True
    ).stdout
    results: list[tuple[int, int] | None] = []
    for line in out.splitlines():
        if line.startswith("Fen: "):
            results.append(None)
        elif line.startswith("Tablebases: ") and results:
            words = line.split()
            results[-1] = (int(words[2]), int(words[4]))
        elif line.startswith("info string error"):
            raise SystemExit(f"tally: {line}")
    return results


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tally = sys.argv[1]
    tables = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "tests" / "data" / "syzygy"
    boards = positions()
    tally = tally_probes(tally, tables, boards)
    if len(tally) != len(boards):
        print(f"tally printed {len(tally)} boards for {len(boards)} positions")
        return 1
    passed = failed = 0
    kinds = set()
    with chess.syzygy.open_tablebase(str(tables)) as tb:
        for board, got in zip(boards, tally):
            want = (tb.probe_wdl(board), tb.probe_dtz(board))
            kinds.add(want[0])
            if got == want:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {board.fen()}: python-chess WDL {want[0]} DTZ {want[1]}, tally {got}")
    # The sample must cover wins, draws and losses, or it proves little.
    if not {-2, 0, 2} <= kinds:
        print(f"FAIL the positions' WDL values cover only {sorted(kinds)}")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
