"""Reading and writing puzzle files: five text formats, detected from the content.

Every reader returns :class:`~kamicp.game.board.Board` objects and never guesses silently: an
unknown key, a ragged row, an edge to an unknown node, a self-loop, a pivot on a hole, a
colour out of range, an empty board or a wrong count raises
:class:`~kamicp.errors.InputError` naming the file and the line (the command line turns it
into one message and exit code 2). A missing, unreadable or non-UTF-8 file is reported the
same way. All readers and writers run in time linear in the size of the text.

Formats (the name in quotes is the ``fmt`` argument):

``'grid'`` -- kamicp grid text (extension ``.txt`` or ``.kami``)::

    # a comment: '#' starts a comment anywhere; blank lines are ignored
    name: first steps
    geometry: square
    rules: free
    par: 4
    optimum: 4
    RRGGB
    R..GB
    YYYBB

  Header lines ``key: value`` come before the rows (a line holding ``:`` is a header line).
  Keys, each at most once:

  - ``geometry``: ``square`` (default), ``triangle`` or ``hex`` (see :mod:`kamicp.game.geometry`
    for the coordinates: row r of the text is r, the c-th character of the row is c);
  - ``rules``: ``free`` (default, KAMI 2) or ``pivot`` (Flood-It);
  - ``pivot``: ``r,c`` (0-based) the pivot cell; default the first cell in reading order;
  - ``par``: the move count a game asks for (an upper bound, not necessarily optimal);
  - ``optimum``: a proved optimal move count (the shipped ``puzzles/`` record theirs here);
  - ``name``: a free-text name (default: the file name without extension);
  - ``palette``: the colour symbols in palette order, e.g. ``palette: RGBY``; spaces are
    ignored. It fixes the order of the colour indices and may list colours absent from the
    board (they can still be played). Default: the symbols present, sorted by code point.

  Each row is one line; every non-space character is one cell and spaces are ignored, so
  ``R G B`` and ``RGB`` are the same row. ``.`` is a hole; any other character is a colour
  except ``# : ; { [`` (reserved for comments, headers, move notation and detection) and
  characters that are not printable (control characters: a binary file's bytes). All
  rows have the same number of cells (pad with ``.``); a ragged row is an error.

``'flood'`` -- text dumped from Simon Tatham's ``flood``: a header ``W by H -> N`` and H
rows of W digits (indentation and spaces ignored); several boards may follow each other.
``N`` is the game's move limit (its greedy solver's count plus leniency), kept as ``par``: an
upper bound, not the optimum. Pivot rules, pivot the top-left cell; the palette is the digits
present, sorted. ``#`` comment lines and blank lines are skipped.

``'puz'`` -- a KAMI 2 level, one line of ``|``-separated fields (several lines: several
levels). Field 5 is the width w: rows of 2w triangles, geometry ``kami2``, cells
``(r, p, s)`` from :func:`kamicp.game.geometry.kami2_cell`. Field 6 is the number of triangles, a
multiple of 2w: 20w (10 rows) in the game's levels except Nuc2-4, whose 162 = 9 x 18 is 9
rows. Field 7 holds the run-length-encoded colours (``cXdd``: c repeated dd times; ``c`` then
a lowercase letter m: c repeated ord(m) - ord('a') + 3 times; else the character itself),
whose decoded length must equal field 6; digit ``0`` is a hole, ``1``..``6`` colours. The
palette is the digits present as strings, sorted. Field 8 is the game's par, field 11 the
designer's solution (kept in ``Board.solution``, tokens like ``219C``; may be empty). Free
rules; the name is the file name. The levels shipped in ``puzzles/puz`` use par for their
proved optimum (documented there).

``'json'`` -- a region graph::

    {"nodes": {"1": "Purple", "2": "Red"}, "edges": [[1, 2]],
     "rules": "free", "pivot": 1, "par": 1, "optimum": 1, "name": "two", "palette": [...]}

  Node ids may be integers or strings and become strings; ``edges`` defaults to none; the
  palette is the colour names present, sorted, unless ``palette`` lists them (in order, maybe
  with more). Geometry ``graph``. An edge to an unknown node, a self-loop, a repeated edge,
  an unknown key or a repeated key is an error. A top-level array holds several puzzles.

``'floodit99'`` -- the benchmark format of the 99 Flood-It boards (von Manteuffel 2023):
``#`` comment lines, then ``m n k``, then m*n integers 1..k row-major (on any number of
lines), then the optimal number of moves. For this format ``par`` holds that proved optimum
(``0``, "unknown", becomes ``None``). Pivot rules, pivot the top-left cell, palette
``'1'..'k'`` (all k colours, even absent ones).

Detection (:func:`detect`): JSON when the text starts with ``{`` or ``[``; ``flood`` when the
first line is ``W by H -> N``; ``puz`` when it starts with ``NN|``; ``floodit99`` when the
first content line is three integers, the last a single integer, and all between integers
(no valid grid looks like that: its first row would have 3 cells, its last 1); else grid.

A proved optimum the file records (an ``optimum`` key, the floodit-99 optimum) is kept in
``Board.optimum``; the writers put it back where the format has a place for it.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import sys
from dataclasses import dataclass
from json.decoder import scanstring
from json.scanner import NUMBER_RE

from kamicp.errors import InputError
from kamicp.game import geometry
from kamicp.game.board import RULES, Board

FORMATS = ("grid", "flood", "puz", "json", "floodit99")
EXTENSIONS = (".txt", ".puz", ".json", ".kami")
SKIPPED = ("README.md", "ORDER.yaml")

GRID_KEYS = ("geometry", "rules", "pivot", "par", "optimum", "name", "palette")
JSON_KEYS = ("nodes", "edges", "rules", "pivot", "par", "optimum", "name", "palette")
RESERVED = set(".#:;{[")

FLOOD_HEADER = re.compile(r"(\d+)\s*by\s*(\d+)\s*->\s*(\d+)")
PUZ_START = re.compile(r"\d\d\|")
INTEGER = re.compile(r"-?\d+")


# ----------------------------------------------------------------------------- entry points


def load(path: str, fmt: str | None = None, text: str | None = None) -> list[Board]:
    """Every puzzle in the file at ``path`` (or in ``text``, named ``path`` in messages).

    ``fmt`` (one of :data:`FORMATS`) overrides detection from the content.
    """
    if text is None:
        text = read_text(path)
    return parse(text, shown(path), fmt)


def parse(text: str, path: str = "<input>", fmt: str | None = None) -> list[Board]:
    """Every puzzle in ``text``; ``path`` names it in messages and board names."""
    text = text.removeprefix("\ufeff")
    fmt = fmt or detect(text)
    if fmt not in READERS:
        raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", path)
    boards = READERS[fmt](text, path)
    if not boards:
        raise InputError("no puzzle in the file", path, 1)
    return boards


STDIN = "-"  # the file name that means standard input
STDIN_SHOWN = "<stdin>"  # how messages name it


def shown(path: str) -> str:
    """How messages name ``path``: :data:`STDIN_SHOWN` for :data:`STDIN`."""
    return STDIN_SHOWN if path == STDIN else path


def read_text(path: str) -> str:
    """The file's text (standard input's for :data:`STDIN`); a missing, unreadable or
    non-UTF-8 file is an :class:`InputError`."""
    if path == STDIN:
        return decode(sys.stdin.buffer.read(), STDIN_SHOWN)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror or err}", path) from None
    return decode(data, path)


def decode(data: bytes, path: str) -> str:
    """UTF-8 text; anything else is an :class:`InputError` naming the line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(f"not UTF-8 text (byte {err.start})", path, line) from None


def detect(text: str) -> str:
    """The format of ``text``: one of :data:`FORMATS` (see the module docstring)."""
    text = text.removeprefix("\ufeff")
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        return "json"
    content = [line.strip() for line in text.splitlines()]
    content = [line for line in content if line and not line.startswith("#")]
    if not content:
        return "grid"
    first = content[0]
    if FLOOD_HEADER.fullmatch(first):
        return "flood"
    if PUZ_START.match(first):
        return "puz"
    if (
        len(content) >= 3
        and len(first.split()) == 3
        and len(content[-1].split()) == 1
        and all(INTEGER.fullmatch(tok) for line in content for tok in line.split())
    ):
        return "floodit99"
    return "grid"


def iter_paths(paths: list[str]) -> list[str]:
    """Files named by ``paths``: folders are expanded recursively, sorted, keeping files with
    a known extension (:data:`EXTENSIONS`) and skipping README.md and ORDER.yaml; files named
    directly are kept as given. A path that does not exist, or a folder with no puzzle file
    in it (a wrong folder, most likely: a benchmark of nothing says nothing), is an
    :class:`InputError`."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = []
            for folder, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                for name in files:
                    if name in SKIPPED or not name.endswith(EXTENSIONS):
                        continue
                    found.append(os.path.join(folder, name))
            if not found:
                kinds = ", ".join(EXTENSIONS)
                raise InputError(f"no puzzle file in this folder (none ends in {kinds})", path)
            out.extend(sorted(found))
        elif os.path.exists(path):
            out.append(path)
        else:
            raise InputError("no such file or folder", path)
    return out


def puzzles(paths: list[str]) -> list[tuple[str, int, Board]]:
    """(file, 1-based index in the file, board) for every puzzle under ``paths``
    (:func:`iter_paths`), every file read now: a bad one is an :class:`InputError` before a
    long run (bench, batch, cross-check) starts, not when its turn comes."""
    return [(path, i, board) for path in iter_paths(paths) for i, board in enumerate(load(path), 1)]


def stem(path: str) -> str:
    """The file name without folder and extension ("stdin" for standard input, "" for
    ``<input>``)."""
    if path.startswith("<"):
        return "stdin" if path == STDIN_SHOWN else ""
    return os.path.splitext(os.path.basename(path))[0]


def numbered(name: str, index: int, count: int) -> str:
    """The name of puzzle ``index`` (0-based) of ``count`` in one file."""
    return name if count == 1 else f"{name}-{index + 1}"


MOST_DIGITS = 18  # no count, size or coordinate of a puzzle comes near; int() stops at 4,300


def natural(text: str, what: str, path: str, line: int) -> int:
    """A non-negative integer, or an error naming ``what``."""
    if not re.fullmatch(r"\d+", text):
        raise InputError(f"{what} must be a non-negative integer, not {text!r}", path, line)
    if len(text) > MOST_DIGITS:
        raise InputError(f"{what} is too large ({len(text)} digits)", path, line)
    return int(text)


# ----------------------------------------------------------------------------- grid text


def read_grid(text: str, path: str) -> list[Board]:
    """kamicp grid text: header lines, then rows (see the module docstring)."""
    headers: dict[str, tuple[str, int]] = {}
    rows: list[tuple[int, str]] = []
    last = 1
    for number, raw in enumerate(text.splitlines(), 1):
        last = number
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" in line:
            key, _, value = line.partition(":")
            key = key.strip()
            if rows:
                raise InputError(f"header line {key!r} after the grid rows", path, number)
            if key not in GRID_KEYS:
                known = ", ".join(GRID_KEYS)
                raise InputError(f"unknown key {key!r} (known: {known})", path, number)
            if key in headers:
                raise InputError(f"key {key!r} given twice", path, number)
            headers[key] = (value.strip(), number)
            continue
        symbols = "".join(line.split())
        bad = sorted(set(symbols) & (RESERVED - {"."}))
        if bad:
            raise InputError(f"character {bad[0]!r} cannot be a colour", path, number)
        # A control character is no colour a user typed: most likely a binary or
        # wrongly encoded file (a NUL byte is valid UTF-8), so it is refused, not solved.
        hidden = [s for s in symbols if not s.isprintable()]
        if hidden:
            problem = f"character {hidden[0]!r} is not printable, so it cannot be a colour"
            raise InputError(problem, path, number)
        if rows and len(symbols) != len(rows[0][1]):
            raise InputError(
                f"ragged row: {len(symbols)} cells, the first row has {len(rows[0][1])}",
                path,
                number,
            )
        rows.append((number, symbols))
    if not rows:
        raise InputError("empty board: no grid rows", path, last)

    geo, geo_line = headers.get("geometry", ("square", 0))
    if geo not in geometry.GRID_GEOMETRIES:
        choices = "|".join(geometry.GRID_GEOMETRIES)
        raise InputError(f"unknown geometry {geo!r} ({choices})", path, geo_line)
    rules = header_rules(headers, path)
    present = sorted({s for _, row in rows for s in row} - {"."})
    if not present:
        raise InputError("empty board: every cell is a hole", path, rows[0][0])
    palette = tuple(present)
    if "palette" in headers:
        value, line = headers["palette"]
        palette = tuple("".join(value.split()))
        problem = palette_problem(palette, present, single=True)
        if problem:
            raise InputError(problem, path, line)
    index = {s: i for i, s in enumerate(palette)}
    cells = {}
    for r, (_, row) in enumerate(rows):
        for c, symbol in enumerate(row):
            if symbol != ".":
                cells[(r, c)] = index[symbol]
    pivot = None
    if "pivot" in headers:
        value, line = headers["pivot"]
        match = re.fullmatch(r"(\d+)\s*,\s*(\d+)", value)
        if not match:
            raise InputError(f"pivot must be row,column (0-based), not {value!r}", path, line)
        pivot = (
            natural(match.group(1), "pivot", path, line),
            natural(match.group(2), "pivot", path, line),
        )
        if pivot not in cells:
            inside = pivot[0] < len(rows) and pivot[1] < len(rows[0][1])
            where = "a hole" if inside else "off the board"
            raise InputError(f"pivot {value} is {where}", path, line)
    board = Board(
        geometry=geo,
        cells=cells,
        palette=palette,
        rules=rules,
        pivot=pivot,
        par=header_int(headers, "par", path),
        optimum=header_int(headers, "optimum", path),
        name=headers.get("name", (stem(path), 0))[0],
        source=path,
    )
    return [board]


def header_rules(headers: dict, path: str) -> str:
    rules, line = headers.get("rules", ("free", 0))
    if rules not in RULES:
        raise InputError(f"unknown rules {rules!r} (free or pivot)", path, line)
    return rules


def header_int(headers: dict, key: str, path: str) -> int | None:
    if key not in headers:
        return None
    value, line = headers[key]
    return natural(value, key, path, line)


def palette_problem(palette: tuple, present, single: bool) -> str | None:
    """Why ``palette`` cannot be used for colours ``present`` (None when it can)."""
    if not palette:
        return "empty palette"
    if len(set(palette)) != len(palette):
        return "palette lists a colour twice"
    if single and set(palette) & RESERVED:
        return f"palette symbol {sorted(set(palette) & RESERVED)[0]!r} cannot be a colour"
    if single and not all(s.isprintable() for s in palette):
        hidden = next(s for s in palette if not s.isprintable())
        return f"palette symbol {hidden!r} is not printable, so it cannot be a colour"
    missing = [s for s in present if s not in palette]
    if missing:
        return f"colour {missing[0]!r} is on the board but not in the palette"
    return None


def write_grid(board: Board) -> str:
    """Grid text for a square, triangle or hex board; headers only where not the default."""
    if board.geometry not in geometry.GRID_GEOMETRIES:
        raise InputError(f"a {board.geometry} board cannot be written as grid text", board.source)
    for symbol in board.palette:
        if len(symbol) != 1 or symbol.isspace() or symbol in RESERVED:
            raise InputError(f"palette symbol {symbol!r} cannot be a grid character", board.source)
    if any(r < 0 or c < 0 for r, c in board.cells):
        raise InputError("grid text needs non-negative coordinates", board.source)
    order = sorted(board.cells)
    lines = []
    if board.name:
        if "#" in board.name or not board.name.isprintable():
            raise InputError(f"name {board.name!r} cannot be written as grid text", board.source)
        lines.append(f"name: {board.name}")
    if board.geometry != "square":
        lines.append(f"geometry: {board.geometry}")
    if board.rules != "free":
        lines.append(f"rules: {board.rules}")
    if board.pivot != order[0]:
        lines.append(f"pivot: {board.pivot[0]},{board.pivot[1]}")
    if board.par is not None:
        lines.append(f"par: {board.par}")
    if board.optimum is not None:
        lines.append(f"optimum: {board.optimum}")
    present = sorted({board.palette[c] for c in board.cells.values()})
    if list(board.palette) != present:
        lines.append(f"palette: {''.join(board.palette)}")
    height = max(r for r, _ in order) + 1
    width = max(c for _, c in order) + 1
    for r in range(height):
        row = (board.cells.get((r, c)) for c in range(width))
        lines.append("".join("." if x is None else board.palette[x] for x in row))
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- Tatham flood


def read_flood(text: str, path: str) -> list[Board]:
    """Boards dumped from Tatham's ``flood``: ``W by H -> N`` then H rows of W digits."""
    found = []  # (header line, width, height, limit, rows)
    current = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if current is not None and len(current[4]) < current[2]:
            digits = "".join(line.split())
            if not digits.isdigit():
                raise InputError(f"expected a row of {current[1]} digits", path, number)
            if len(digits) != current[1]:
                raise InputError(
                    f"row has {len(digits)} digits, the header says {current[1]}", path, number
                )
            current[4].append(digits)
            continue
        match = FLOOD_HEADER.fullmatch(line)
        if not match:
            raise InputError("expected a header 'W by H -> N'", path, number)
        width, height, limit = (natural(x, "a header number", path, number) for x in match.groups())
        if width == 0 or height == 0:
            raise InputError("empty board: a side of length 0", path, number)
        current = (number, width, height, limit, [])
        found.append(current)
    if current is not None and len(current[4]) < current[2]:
        raise InputError(
            f"{len(current[4])} rows, the header on line {current[0]} says {current[2]}",
            path,
            len(text.splitlines()),
        )
    boards = []
    for i, (_, _, _, limit, rows) in enumerate(found):
        palette = tuple(sorted(set("".join(rows))))
        index = {s: j for j, s in enumerate(palette)}
        cells = {(r, c): index[d] for r, row in enumerate(rows) for c, d in enumerate(row)}
        board = Board(
            geometry="square",
            cells=cells,
            palette=palette,
            rules="pivot",
            pivot=(0, 0),
            par=limit,
            name=numbered(stem(path), i, len(found)),
            source=path,
        )
        boards.append(board)
    return boards


def rectangle(board: Board, what: str) -> tuple[int, int]:
    """Height and width of a full square board starting at (0, 0), else an error."""
    if board.geometry != "square":
        raise InputError(f"{what} needs a square grid, not {board.geometry}", board.source)
    height = max(r for r, _ in board.cells) + 1
    width = max(c for _, c in board.cells) + 1
    if len(board.cells) != height * width or min(board.cells) != (0, 0):
        raise InputError(f"{what} cannot hold holes", board.source)
    if board.rules != "pivot" or board.pivot != (0, 0):
        raise InputError(f"{what} needs pivot rules with the pivot at 0,0", board.source)
    return height, width


def write_flood(board: Board) -> str:
    """Tatham flood text; ``par`` is written as the move limit and must be known (the
    format has no place for an optimum)."""
    height, width = rectangle(board, "flood text")
    if not all(len(s) == 1 and s.isdigit() for s in board.palette):
        raise InputError("flood text needs digit colours", board.source)
    if board.par is None:
        raise InputError("flood text needs a move limit (par)", board.source)
    lines = [f"{width} by {height} -> {board.par}"]
    for r in range(height):
        lines.append("  " + "".join(board.palette[board.cells[(r, c)]] for c in range(width)))
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- KAMI 2 .puz


def decode_rle(data: str, path: str, line: int) -> str:
    """KAMI 2's run-length code (see the module docstring); linear in the output."""
    out = []
    i = 0
    while i < len(data):
        symbol = data[i]
        if not symbol.isdigit():
            raise InputError(f"colour code {symbol!r} at position {i} is not a digit", path, line)
        nxt = data[i + 1] if i + 1 < len(data) else ""
        if nxt == "X":
            count = data[i + 2 : i + 4]
            if not re.fullmatch(r"\d\d", count):
                raise InputError(f"run at position {i} needs two digits after X", path, line)
            out.append(symbol * int(count))
            i += 4
        elif "a" <= nxt <= "z":
            out.append(symbol * (ord(nxt) - ord("a") + 3))
            i += 2
        else:
            out.append(symbol)
            i += 1
    return "".join(out)


def encode_rle(colours: str) -> str:
    """The inverse of :func:`decode_rle` (runs of 3..28 as letters, up to 99 with X)."""
    out = []
    i = 0
    while i < len(colours):
        j = i
        while j < len(colours) and colours[j] == colours[i] and j - i < 99:
            j += 1
        run = j - i
        if run <= 2:
            out.append(colours[i] * run)
        elif run <= 28:
            out.append(colours[i] + chr(ord("a") + run - 3))
        else:
            out.append(f"{colours[i]}X{run:02d}")
        i = j
    return "".join(out)


def read_puz(text: str, path: str) -> list[Board]:
    """KAMI 2 levels, one per non-blank line."""
    levels = [(n, raw.strip()) for n, raw in enumerate(text.splitlines(), 1) if raw.strip()]
    boards = []
    for i, (line, level) in enumerate(levels):
        fields = level.split("|")
        if len(fields) < 11:
            raise InputError(f"{len(fields)} fields separated by '|', expected 11", path, line)
        width = natural(fields[4], "the width (field 5)", path, line)
        size = natural(fields[5], "the size (field 6)", path, line)
        if width == 0:
            raise InputError("empty board: width 0", path, line)
        if size == 0 or size % (2 * width):
            raise InputError(f"size {size} is not a multiple of 2 x width {width}", path, line)
        colours = decode_rle(fields[6], path, line)
        if len(colours) != size:
            raise InputError(f"colours decode to {len(colours)} triangles, not {size}", path, line)
        bad = sorted(set(colours) - set("0123456"))
        if bad:
            raise InputError(f"colour digit {bad[0]} is out of range 0..6", path, line)
        palette = tuple(sorted(set(colours) - {"0"}))
        if not palette:
            raise InputError("empty board: every triangle is a hole", path, line)
        index = {s: j for j, s in enumerate(palette)}
        cells = {geometry.kami2_cell(k, width): index[d] for k, d in enumerate(colours) if d != "0"}
        par = natural(fields[7], "par (field 8)", path, line) if fields[7].strip() else None
        board = Board(
            geometry="kami2",
            cells=cells,
            palette=palette,
            rules="free",
            par=par,
            name=numbered(stem(path), i, len(levels)),
            width=width,
            solution=fields[10].strip() or None,
            source=path,
        )
        boards.append(board)
    return boards


def write_puz(board: Board) -> str:
    """One KAMI 2 level line; colours must be the digits 1..6, the board free rules.

    The line has no optimum field: ``par`` is written (the shipped levels set par to it).
    """
    if board.geometry != "kami2":
        raise InputError(f"a {board.geometry} board cannot be written as .puz", board.source)
    if board.rules != "free":
        raise InputError(".puz levels are played under free rules", board.source)
    if not all(s in "123456" and len(s) == 1 for s in board.palette):
        raise InputError(".puz colours must be the digits 1..6", board.source)
    width = board.width
    # The game's boards have 10 rows; taller boards keep their rows (holes are not cells).
    rows = max(10, max(r for r, _, _ in board.cells) + 1)
    flat = ["0"] * (rows * 2 * width)
    for cell, colour in board.cells.items():
        flat[geometry.kami2_index(cell, width)] = board.palette[colour]
    par = "" if board.par is None else str(board.par)
    fields = ["01", "Default", "0", "0", str(width), str(len(flat)), encode_rle("".join(flat))]
    fields += [par, "", "0", board.solution or ""]
    return "|".join(fields) + "\n"


# ----------------------------------------------------------------------------- JSON graphs


@dataclass(frozen=True)
class Located:
    """A JSON value and the line it starts on (for an object's member: the key's line)."""

    value: object
    line: int


WHITESPACE = re.compile(r"[ \t\n\r]*")
# json.loads also accepts NaN and the infinities; they must parse here too (and are then
# rejected where a number is expected, with their line).
WORDS = (
    ("true", True),
    ("false", False),
    ("null", None),
    ("NaN", float("nan")),
    ("Infinity", float("inf")),
    ("-Infinity", float("-inf")),
)


def located_json(text: str) -> Located:
    """Parse JSON keeping line numbers, for errors that point at the offending member.

    The text must already be valid JSON (checked with :func:`json.loads` first); a repeated
    key raises. Recursive descent, linear in the text.
    """
    breaks = [i for i, ch in enumerate(text) if ch == "\n"]

    def line_of(i: int) -> int:
        return bisect.bisect_left(breaks, i) + 1

    def skip(i: int) -> int:
        return WHITESPACE.match(text, i).end()

    def value(i: int, line: int | None = None) -> tuple[Located, int]:
        i = skip(i)
        line = line_of(i) if line is None else line
        ch = text[i]
        if ch == "{":
            out: dict[str, Located] = {}
            i = skip(i + 1)
            if text[i] == "}":
                return Located(out, line), i + 1
            while True:
                i = skip(i)
                key_line = line_of(i)
                key, i = scanstring(text, i + 1)
                i = skip(i) + 1  # the ':'
                item, i = value(i, key_line)
                if key in out:
                    raise InputError(f"key {key!r} given twice", None, key_line)
                out[key] = item
                i = skip(i)
                if text[i] == "}":
                    return Located(out, line), i + 1
                i += 1  # the ','
        if ch == "[":
            items: list[Located] = []
            i = skip(i + 1)
            if text[i] == "]":
                return Located(items, line), i + 1
            while True:
                item, i = value(i)
                items.append(item)
                i = skip(i)
                if text[i] == "]":
                    return Located(items, line), i + 1
                i += 1
        if ch == '"':
            string, i = scanstring(text, i + 1)
            return Located(string, line), i
        for word, meaning in WORDS:
            if text.startswith(word, i):
                return Located(meaning, line), i + len(word)
        match = NUMBER_RE.match(text, i)
        number = match.group(0)
        parsed = int(number) if match.group(2) is None and match.group(3) is None else None
        return Located(float(number) if parsed is None else parsed, line), match.end()

    return value(0)[0]


def read_json(text: str, path: str) -> list[Board]:
    """Region-graph JSON: one puzzle object, or an array of them."""
    try:
        json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"bad JSON: {err.msg} (column {err.colno})", path, err.lineno) from None
    except RecursionError:
        raise InputError("bad JSON: nested too deeply", path, 1) from None
    except ValueError:  # an integer of over 4,300 digits, which int() refuses
        raise InputError("bad JSON: a number of more than 4,300 digits", path, 1) from None
    try:
        top = located_json(text)
    except InputError as err:
        raise InputError(err.problem, path, err.line) from None
    items = top.value if isinstance(top.value, list) else [top]
    if not items:
        raise InputError("empty array: no puzzle", path, top.line)
    name = stem(path)
    return [graph_board(item, path, numbered(name, i, len(items))) for i, item in enumerate(items)]


def node_id(item: Located, what: str, path: str) -> str:
    """A node id (integer or string) as a string."""
    if isinstance(item.value, bool) or not isinstance(item.value, (int, str)):
        raise InputError(f"{what} must be an integer or a string", path, item.line)
    return str(item.value)


def json_natural(item: Located, key: str, path: str) -> int:
    if isinstance(item.value, bool) or not isinstance(item.value, int) or item.value < 0:
        raise InputError(f"{key} must be a non-negative integer", path, item.line)
    return item.value


def graph_board(item: Located, path: str, default_name: str) -> Board:
    """One region-graph puzzle object."""
    if not isinstance(item.value, dict):
        raise InputError("a puzzle must be a JSON object", path, item.line)
    members: dict[str, Located] = item.value
    for key, member in members.items():
        if key not in JSON_KEYS:
            known = ", ".join(JSON_KEYS)
            raise InputError(f"unknown key {key!r} (known: {known})", path, member.line)
    if "nodes" not in members:
        raise InputError("no 'nodes' in the puzzle", path, item.line)
    nodes = members["nodes"]
    if not isinstance(nodes.value, dict):
        raise InputError("'nodes' must map node ids to colour names", path, nodes.line)
    if not nodes.value:
        raise InputError("empty board: no nodes", path, nodes.line)
    colour_of: dict[str, str] = {}
    for key, colour in nodes.value.items():
        if not isinstance(colour.value, str) or not colour.value:
            raise InputError(f"node {key}: the colour must be a name", path, colour.line)
        colour_of[key] = colour.value
    present = sorted(set(colour_of.values()))
    palette = tuple(present)
    if "palette" in members:
        listed = members["palette"]
        if not isinstance(listed.value, list) or not all(
            isinstance(x.value, str) for x in listed.value
        ):
            raise InputError("'palette' must be a list of colour names", path, listed.line)
        palette = tuple(x.value for x in listed.value)
        problem = palette_problem(palette, present, single=False)
        if problem:
            raise InputError(problem, path, listed.line)
    edges = []
    seen = set()
    listed = members.get("edges", Located([], item.line))
    if not isinstance(listed.value, list):
        raise InputError("'edges' must be a list of [node, node] pairs", path, listed.line)
    for edge in listed.value:
        if not isinstance(edge.value, list) or len(edge.value) != 2:
            raise InputError("an edge must be a pair [node, node]", path, edge.line)
        a, b = (node_id(x, "an edge's end", path) for x in edge.value)
        for end in (a, b):
            if end not in colour_of:
                raise InputError(f"edge [{a}, {b}] names unknown node {end}", path, edge.line)
        if a == b:
            raise InputError(f"self-loop: edge [{a}, {b}]", path, edge.line)
        if frozenset((a, b)) in seen:
            raise InputError(f"edge [{a}, {b}] given twice", path, edge.line)
        seen.add(frozenset((a, b)))
        edges.append((a, b))
    rules = "free"
    if "rules" in members:
        rules = members["rules"].value
        if rules not in RULES:
            raise InputError(
                f"unknown rules {rules!r} (free or pivot)", path, members["rules"].line
            )
    pivot = None
    if "pivot" in members:
        pivot = node_id(members["pivot"], "the pivot", path)
        if pivot not in colour_of:
            raise InputError(f"pivot {pivot} is not a node", path, members["pivot"].line)
    name = default_name
    if "name" in members:
        name = members["name"].value
        if not isinstance(name, str):
            raise InputError("'name' must be a string", path, members["name"].line)
    index = {s: i for i, s in enumerate(palette)}
    board = Board(
        geometry="graph",
        cells={key: index[colour] for key, colour in colour_of.items()},
        palette=palette,
        rules=rules,
        pivot=pivot,
        par=json_natural(members["par"], "par", path) if "par" in members else None,
        optimum=json_natural(members["optimum"], "optimum", path) if "optimum" in members else None,
        name=name,
        edges=tuple(edges),
        source=path,
    )
    return board


def write_json(board: Board) -> str:
    """Region-graph JSON. A grid board is contracted first: one node per region, named by
    its region number (as in ``kamicp show --regions``), the pivot being the pivot's region."""
    if board.geometry == "graph":
        nodes = {str(cell): board.palette[board.cells[cell]] for cell in board.order}
        edges = [[str(a), str(b)] for a, b in board.edges]
        pivot = str(board.pivot)
    else:
        from kamicp.game.regions import region_graph  # regions imports board; keep formats light

        g = region_graph(board)
        nodes = {str(i): board.palette[c] for i, c in enumerate(g.colour)}
        edges = [[str(a), str(b)] for a, b in g.edges()]
        pivot = str(g.pivot)
    data: dict[str, object] = {}
    if board.name:
        data["name"] = board.name
    data["rules"] = board.rules
    if board.rules == "pivot" or pivot != next(iter(nodes)):
        data["pivot"] = pivot
    if board.par is not None:
        data["par"] = board.par
    if board.optimum is not None:
        data["optimum"] = board.optimum
    used = sorted(set(nodes.values()))
    if list(board.palette) != used:
        data["palette"] = list(board.palette)
    data["nodes"] = nodes
    data["edges"] = edges
    # One edge per line keeps hand-edited files readable and error lines meaningful.
    body = json.dumps(data, indent=1)
    body = re.sub(r"\[\s+(\"[^\"]*\"),\s+(\"[^\"]*\")\s+\]", r"[\1, \2]", body)
    return body + "\n"


# ----------------------------------------------------------------------------- floodit-99


def read_floodit99(text: str, path: str) -> list[Board]:
    """``m n k``, m*n colours 1..k, then the optimum; ``#`` lines are comments."""
    tokens = []  # (token, line)
    for number, raw in enumerate(text.splitlines(), 1):
        if raw.strip().startswith("#"):
            continue
        tokens.extend((tok, number) for tok in raw.split())
    if not tokens:
        raise InputError("empty file: expected 'm n k'", path, 1)
    for tok, line in tokens:
        if not INTEGER.fullmatch(tok):
            raise InputError(f"{tok!r} is not an integer", path, line)
        if len(tok) > MOST_DIGITS:
            raise InputError(f"a number of {len(tok)} digits is too large", path, line)
    header = tokens[0][1]
    if sum(1 for _, line in tokens if line == header) != 3:
        raise InputError("the first line must be 'm n k'", path, tokens[0][1])
    rows, cols, k = (int(tok) for tok, _ in tokens[:3])
    if rows <= 0 or cols <= 0:
        raise InputError(f"empty board: {rows} x {cols}", path, header)
    if k <= 0:
        raise InputError(f"{k} colours", path, header)
    body = tokens[3:]
    need = rows * cols + 1
    if len(body) < need:
        last = body[-1][1] if body else header
        raise InputError(
            f"{len(body)} numbers after the header, expected {rows * cols} colours and the optimum",
            path,
            last,
        )
    if len(body) > need:
        raise InputError("numbers after the optimum", path, body[need][1])
    cells = {}
    for i, (tok, line) in enumerate(body[:-1]):
        colour = int(tok)
        if not 1 <= colour <= k:
            raise InputError(f"colour {colour} is out of range 1..{k}", path, line)
        cells[divmod(i, cols)] = colour - 1
    optimum_text, optimum_line = body[-1]
    optimum = natural(optimum_text, "the optimum", path, optimum_line) or None
    board = Board(
        geometry="square",
        cells=cells,
        palette=tuple(str(c) for c in range(1, k + 1)),
        rules="pivot",
        pivot=(0, 0),
        par=optimum,
        optimum=optimum,
        name=stem(path),
        source=path,
    )
    return [board]


def write_floodit99(board: Board) -> str:
    """The floodit-99 format, with ``Board.optimum`` (0 when unknown) as the last line."""
    height, width = rectangle(board, "the floodit-99 format")
    palette = tuple(str(c) for c in range(1, len(board.palette) + 1))
    if board.palette != palette:
        raise InputError("the floodit-99 format needs the palette 1..k", board.source)
    colours = " ".join(str(board.cells[divmod(i, width)] + 1) for i in range(height * width))
    return f"{height} {width} {len(palette)}\n{colours}\n{board.optimum or 0}\n"


# ----------------------------------------------------------------------------- dispatch

READERS = {
    "grid": read_grid,
    "flood": read_flood,
    "puz": read_puz,
    "json": read_json,
    "floodit99": read_floodit99,
}

WRITERS = {
    "grid": write_grid,
    "flood": write_flood,
    "puz": write_puz,
    "json": write_json,
    "floodit99": write_floodit99,
}


def dump(board: Board, fmt: str) -> str:
    """``board`` as text of format ``fmt``; :func:`parse` reads it back.

    ``Board.optimum`` is written where the format has a place for it (grid text, JSON,
    floodit-99).

    Raises :class:`InputError` when the board does not fit the format (a graph as grid
    text, holes in flood text, ...).
    """
    if fmt not in WRITERS:
        raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", board.source)
    return WRITERS[fmt](board)
