"""Every shipped EPD file parses line by line with python-chess.

GUIs and match runners (Cute Chess among them) read an EPD file as one
position a line; a comment line or a blank line is read as a broken
position, so the shipped files hold positions only (positions/README.md
describes them).

Openings must parse as they are. The suites use two conventions of their
own, checked here too: `bm` and `am` name actions of the position after
the `moves` operand (a quoted list) is played, and in extinction, whose
rules python-chess does not know (kings may be captured, promoted to or
left attacked), a move operand needs only be a well-formed UCI move.

Usage: python3 tests/python/epd_files.py [ROOT]; prints 'N passed, N failed'.
"""

import pathlib
import re
import sys

import chess

SPECIALS = {"disk", "swap", "restore", "claim"}
UCI_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbnk]?$")


def check_line(path: pathlib.Path, line: str) -> None:
    """Raises ValueError if the line is not a position python-chess reads."""
    board = chess.Board()
    if "suites" not in path.parts:
        board.set_epd(line)
        return
    # The suites: the position and the other operations first.
    moves_ops = {}
    for op in ("bm", "am"):
        match = re.search(rf"\b{op} ([^;]*);", line)
        if match:
            moves_ops[op] = match.group(1).strip().strip('"').split()
            line = line.replace(match.group(0), "")
    ops = board.set_epd(line)
    extinction = path.name == "extinction.epd"
    played = ops.get("moves", "")
    if not isinstance(played, str):
        raise ValueError("the moves operand must be a quoted string")
    for text in played.split():
        if text in SPECIALS:
            board = None  # variant state python-chess cannot hold
            break
        board.push(board.parse_uci(text))
    for op, moves in moves_ops.items():
        if not moves:
            raise ValueError(f"empty {op}")
        for text in moves:
            if text in SPECIALS:
                continue
            if extinction or board is None:
                if not UCI_MOVE.match(text):
                    raise ValueError(f"{op} {text}: not a UCI move")
            else:
                board.parse_uci(text)


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    files = sorted(root.glob("positions/**/*.epd"))
    if not files:
        print("no EPD files found under", root / "positions")
        return 1
    bad = 0
    count = 0
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            count += 1
            try:
                check_line(path, line)
            except ValueError as err:
                bad += 1
                print(f"{path}:{number}: {err}")
    print(f"{count - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
