"""Another solver's claims, judged: each claimed move count (and solution, and optimality)
found ``right``, ``wrong`` or ``undecided`` by replaying it and by kamicp's own solve.

A claims file is CSV with a header, or JSON lines (one object a line: the first character
that is not blank is ``{``), one claim a row:

- ``puzzle``: a puzzle file, relative to the claims file's folder; ``file#N`` for the N-th
  (from 1) puzzle of a file that holds several;
- ``moves``: the claimed number of moves;
- ``solution`` (optional): the moves in kamicp's notation (:mod:`kamicp.game.notation`);
  a list of move tokens in JSON;
- ``optimal`` (optional): ``true`` when the count is claimed to be the optimum (true, false,
  1, 0, yes, no; empty is false). Without it, the claim is that the puzzle is solvable in
  at most ``moves`` moves.

Every row is read, and every puzzle it names loaded, before the first claim is judged: a bad
row is an :class:`~kamicp.errors.InputError` naming the claims file and the line.

A solution is judged by the rules engine alone: it must be read, be legal, end in one
colour and have exactly ``moves`` moves. What is left, kamicp solves (the portfolio by
default) within the time limit: an optimal claim is right when kamicp proves the same
optimum, wrong when it finds a shorter solution or proves ``moves`` moves impossible; a
count alone is right when kamicp solves the puzzle in at most that many moves, wrong when
it proves that none does. What the time limit leaves open is ``undecided``.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from kamicp import bounds, formats
from kamicp.errors import IllegalMove, InputError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.plural import count, count_moves
from kamicp.result import Result
from kamicp.runs.record import result_record
from kamicp.solving.options import DEFAULT_SOLVER
from kamicp.solving.solve import SolveOptions, solve

__all__ = [
    "COLUMNS",
    "VERDICTS",
    "Claim",
    "ClaimCheck",
    "bounds_text",
    "check_claim",
    "check_claims",
    "claim_record",
    "read_claims",
]

COLUMNS = ("puzzle", "moves", "solution", "optimal")
REQUIRED = ("puzzle", "moves")
VERDICTS = ("right", "wrong", "undecided")
TRUE, FALSE = ("true", "1", "yes"), ("false", "0", "no", "")
REPLAY = "check"  # the solver named in the record of a claim its solution's replay decided


@dataclass(frozen=True)
class Claim:
    """One row of a claims file, its puzzle loaded.

    ``puzzle`` is the text of the row (``small.txt#2``), ``file`` the puzzle file as found
    from the claims file's folder, ``index`` the puzzle's 1-based place in it, ``line`` the
    row's line in the claims file.
    """

    puzzle: str
    moves: int
    solution: str | None
    optimal: bool
    line: int
    file: str
    index: int
    board: Board = field(repr=False, compare=False)


@dataclass
class ClaimCheck:
    """A claim judged: its ``verdict`` (one of :data:`VERDICTS`), the one-line ``reason``,
    and kamicp's ``result`` on the puzzle's region graph ``graph``; ``max_moves`` is the
    question that result answers, "solvable in at most that many moves?" (None: the
    optimum, or no solve)."""

    claim: Claim
    verdict: str
    reason: str
    result: Result
    graph: RegionGraph
    max_moves: int | None = None


def read_claims(path: str) -> list[Claim]:
    """Every claim of the claims file at ``path``, each puzzle loaded.

    Parameters
    ----------
    path : str
        A CSV file with a header, or a JSON-lines file (see the module's docstring);
        :data:`kamicp.formats.STDIN` for standard input, whose puzzles are then found from
        the current folder.

    Returns
    -------
    list of Claim
        In the order of the file (at least one).

    Raises
    ------
    kamicp.errors.InputError
        For a file that cannot be read or holds no claim, or a bad row: a column missing
        or unknown, a count that is not a number of moves, a puzzle that cannot be read, an
        index past the file's puzzles; the message names ``path`` and the line.
    """
    shown = formats.shown(path)
    text = formats.read_text(path).removeprefix("\ufeff")
    folder = "" if path == formats.STDIN else os.path.dirname(path)
    json_lines = text.lstrip()[:1] == "{"
    rows = _json_rows(text, shown) if json_lines else _csv_rows(text, shown)
    loaded: dict[str, list[Board]] = {}
    claims = [_claim(row, line, shown, folder, loaded) for line, row in rows]
    if not claims:
        raise InputError("no claim in the file (a header, then one claim a row)", shown, 1)
    return claims


def _csv_rows(text: str, shown: str) -> Iterator[tuple[int, dict]]:
    """(line, {column: text}) of each row of a CSV claims file after its header."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header, start = None, 1
    try:
        for row in reader:
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if header is None:
                header = _header([cell.strip().lower() for cell in row], shown, line)
                continue
            if len(row) > len(header):
                problem = f"{count(len(row), 'field')}, the header names {len(header)}"
                raise InputError(problem, shown, line)
            yield line, {name: cell.strip() for name, cell in zip(header, row, strict=False)}
    except csv.Error as err:
        raise InputError(f"not CSV: {err}", shown, reader.line_num) from None


def _header(names: list[str], shown: str, line: int) -> list[str]:
    """The columns of a CSV header, checked."""
    expected = f"(the first row names the columns: {', '.join(COLUMNS)})"
    for name in REQUIRED:
        if name not in names:
            raise InputError(f"no column {name} in the header {expected}", shown, line)
    for name in filter(None, names):  # a trailing comma names no column: left unread
        if name not in COLUMNS:
            raise InputError(f"unknown column {name!r} {expected}", shown, line)
        if names.count(name) > 1:
            raise InputError(f"column {name} named twice in the header", shown, line)
    return names


def _json_rows(text: str, shown: str) -> Iterator[tuple[int, dict]]:
    """(line, object) of each non-blank line of a JSON-lines claims file."""
    for line, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg} (column {err.colno})", shown, line) from None
        if not isinstance(row, dict):
            raise InputError("not a JSON object (one claim a line)", shown, line)
        for name in row:
            if name not in COLUMNS:
                known = ", ".join(COLUMNS)
                raise InputError(f"unknown field {name!r} (a claim has {known})", shown, line)
        yield line, row


def _claim(row: dict, line: int, shown: str, folder: str, loaded: dict) -> Claim:
    """The claim of one row, its puzzle loaded (files kept in ``loaded``, read once)."""

    def bad(problem: str) -> InputError:
        return InputError(problem, shown, line)

    for name in REQUIRED:
        if row.get(name) in (None, ""):
            raise bad(f"no {name} given")
    puzzle = row["puzzle"]
    if not isinstance(puzzle, str):
        raise bad(f"puzzle: a file name, not {puzzle!r}")
    moves = _moves(row["moves"], bad)
    solution = row.get("solution")
    if isinstance(solution, list) and all(isinstance(t, str) for t in solution):
        solution = " ".join(solution)
    if solution is not None and not isinstance(solution, str):
        raise bad(f"solution: moves in notation, not {solution!r}")
    optimal = _flag(row.get("optimal"), bad)
    file, index = _where(puzzle.strip(), folder)
    if file not in loaded:
        try:
            loaded[file] = formats.load(file)
        except InputError as err:
            raise bad(f"puzzle {puzzle}: {err}") from None
    boards = loaded[file]
    if index is None:
        if len(boards) > 1:
            raise bad(f"puzzle {puzzle}: the file holds {len(boards)} puzzles: name one, file#N")
        index = 1
    if not 1 <= index <= len(boards):
        raise bad(f"puzzle {puzzle}: no puzzle {index}, the file holds {len(boards)}")
    board = boards[index - 1]
    return Claim(puzzle, moves, solution or None, optimal, line, file, index, board)


def _moves(value, bad: Callable[[str], InputError]) -> int:
    """The claimed count: a number of moves (an integer, or its digits)."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and notation.ASCII_NUMBER.fullmatch(value.strip()):
        number = int(value.strip())
    else:
        raise bad(f"moves: not a number of moves: {value!r}")
    if number < 0:
        raise bad(f"moves: not a number of moves: {value!r}")
    return number


def _flag(value, bad: Callable[[str], InputError]) -> bool:
    """The ``optimal`` column: true or false (and their other spellings)."""
    if value is None or isinstance(value, bool):
        return bool(value)
    text = str(value).strip().lower()
    if text in TRUE or text in FALSE:
        return text in TRUE
    raise bad(f"optimal: {value!r} is not true or false (true/false, 1/0, yes/no)")


def _where(puzzle: str, folder: str) -> tuple[str, int | None]:
    """The file and the 1-based index (None: not given) of ``file#N`` or ``file``."""
    name, sep, tail = puzzle.rpartition("#")
    if sep and notation.ASCII_NUMBER.fullmatch(tail):
        return os.path.join(folder, name), int(tail)
    return os.path.join(folder, puzzle), None


def check_claims(
    claims: list[Claim],
    time_limit: float | None = None,
    done: Callable[[], None] | None = None,
    solver: str = DEFAULT_SOLVER,
) -> Iterator[ClaimCheck]:
    """Judge ``claims`` one by one (:func:`check_claim`).

    Parameters
    ----------
    claims : list of Claim
        What :func:`read_claims` read.
    time_limit : float or None
        Seconds of kamicp's solve for each claim.
    done : callable or None
        Called with no argument after each claim (a progress bar).
    solver : str
        The solver that decides what a replay leaves open.

    Returns
    -------
    iterator of ClaimCheck
        One per claim, judged as it is asked for.

    Raises
    ------
    KeyboardInterrupt
        When a solve was interrupted: Ctrl-C stops the whole run.
    """
    for claim in claims:
        yield check_claim(claim, time_limit, solver)
        if done is not None:
            done()


def check_claim(
    claim: Claim, time_limit: float | None = None, solver: str = DEFAULT_SOLVER
) -> ClaimCheck:
    """Judge one claim: its solution replayed, then what is left solved by kamicp.

    Parameters
    ----------
    claim : Claim
        The claim.
    time_limit : float or None
        Seconds for kamicp's solve, if one is needed.
    solver : str
        One of :data:`kamicp.solving.options.SOLVERS`.

    Returns
    -------
    ClaimCheck
        ``wrong`` for a solution that cannot be read, is illegal, leaves several colours
        or has another number of moves than the claim; else, for an optimal claim, ``right``
        when kamicp proves that optimum, ``wrong`` when it finds a shorter solution (given
        in the reason) or proves the count impossible; for a count alone, ``right`` when a
        solution of at most that many moves is at hand (the claim's, or kamicp's), ``wrong``
        when kamicp proves there is none; ``undecided`` when the time limit leaves it open.

    Raises
    ------
    KeyboardInterrupt
        When kamicp's solve was interrupted (Ctrl-C).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> board = parse("GGR\\nGRR\\n")[0]
    >>> claim = Claim("two.txt", 1, "0,0:R", True, 2, "two.txt", 1, board)
    >>> check = check_claim(claim, 10)
    >>> check.verdict, check.reason
    ('right', 'proved optimal: lower bound 1 (admissible bound) meets a solution (given)')
    >>> check_claim(Claim("two.txt", 0, None, True, 3, "two.txt", 1, board)).reason
    'proved that 0 moves are impossible: lower bound 1 (admissible bound)'
    """
    board, m = claim.board, claim.moves
    g = region_graph(board)
    known = None
    if claim.solution is not None:
        known, problem = _replayed(board, g, claim.solution, m)
        if problem:
            return ClaimCheck(claim, "wrong", problem, _replay_result(g, None, problem), g)
        if not claim.optimal:
            why = f"its solution solves the board in {count_moves(m)}"
            return ClaimCheck(claim, "right", why, _replay_result(g, known, why), g)
    asked = None if claim.optimal else m
    r = solve(g, solver, SolveOptions(max_moves=asked, time_limit=time_limit, known=known))
    if r.interrupted:
        raise KeyboardInterrupt  # Ctrl-C stops the whole run, not one claim
    verdict, reason = _verdict(board, g, claim, r, time_limit)
    return ClaimCheck(claim, verdict, reason, r, g, asked)


def _replayed(board: Board, g: RegionGraph, text: str, m: int) -> tuple[list | None, str]:
    """The moves of a claimed solution and "", or None and why it is no solution of ``m``."""
    try:
        moves = notation.parse_moves(board, g, text)
    except IllegalMove as err:
        return None, f"its solution cannot be read: {err}"
    try:
        end = rules.replay(g, moves)
    except IllegalMove as err:
        return None, f"its solution breaks the rules: {err}"
    if not rules.is_solved(end):
        left = count(len(set(end)), "colour")
        return None, f"its solution leaves {left} after {count_moves(len(moves))}"
    if len(moves) != m:
        return None, f"its solution solves the board in {count_moves(len(moves))}, not {m}"
    return moves, ""


def _replay_result(g: RegionGraph, moves: list | None, why: str) -> Result:
    """kamicp's answer where the replay alone decided: the start's quick lower bound (no
    walks nor tripods: milliseconds on any board), and the claim's solution if it is one."""
    lower = bounds.lower_bound(g, walks=False)
    if moves is None:
        return Result("unknown", None, lower, None, REPLAY, proof=why)
    status = "optimal" if lower >= len(moves) else "feasible"
    return Result(status, moves, lower, len(moves), REPLAY, proof=why)


def _verdict(board: Board, g: RegionGraph, claim: Claim, r: Result, time_limit) -> tuple:
    """(verdict, reason) of a claim from kamicp's answer ``r``: the optimum asked for an
    optimal claim, "solvable in at most ``claim.moves``?" for a count alone."""
    m = claim.moves
    if r.lower_bound >= bounds.UNSOLVABLE:
        return "wrong", "proved that no sequence of moves solves the board"
    if r.lower_bound > m or r.status == "infeasible":
        verb = "is" if m == 1 else "are"
        return "wrong", f"proved that {count_moves(m)} {verb} impossible: {_why(r)}"
    if claim.optimal and r.solution is not None and len(r.solution) < m:
        shorter = notation.format_moves(board, g, r.solution)
        return "wrong", f"not optimal: kamicp solves it in {count_moves(r.moves)}: {shorter}"
    if claim.optimal and r.status == "optimal":  # its moves are m: neither above nor below
        return "right", f"proved optimal: {r.proof}"
    if not claim.optimal and r.solution is not None and len(r.solution) <= m:
        found = notation.format_moves(board, g, r.solution)
        return "right", f"kamicp solves it in {count_moves(r.moves)}: {found}"
    limit = "" if time_limit is None else f" in {time_limit:g} s"
    return "undecided", f"not settled{limit}: {bounds_text(r, words=True)}"


def _why(r: Result) -> str:
    """What a proved lower bound rests on, without the horizon it was compared with or the
    solution it meets."""
    return r.proof.split(" above ")[0].split(" meets ")[0] or f"lower bound {r.lower_bound}"


def bounds_text(r: Result, words: bool = False) -> str:
    """What ``r`` proves about the optimum, in a few characters.

    Parameters
    ----------
    r : Result
        kamicp's answer.
    words : bool
        ``4 <= optimum <= 6`` rather than ``4..6``.

    Returns
    -------
    str
        The optimum (``4``), the bounds (``4..6``), the lower bound alone (``>=4``), or
        ``unsolvable``.

    Examples
    --------
    >>> bounds_text(Result("unknown", None, 4, 6, "sat"))
    '4..6'
    >>> bounds_text(Result("unknown", None, 4, None, "sat"), words=True)
    'optimum >= 4'
    """
    low, high = r.lower_bound, r.upper_bound
    if low >= bounds.UNSOLVABLE:
        return "unsolvable"
    if high is None:
        return f"optimum >= {low}" if words else f">={low}"
    if low >= high:
        return f"optimum {high}" if words else str(high)
    return f"{low} <= optimum <= {high}" if words else f"{low}..{high}"


def claim_record(check: ClaimCheck) -> dict:
    """A judged claim as one JSON object: kamicp's result (:func:`result_record`) with
    ``verdict``, ``reason`` and the claim itself under ``claim``.

    Parameters
    ----------
    check : ClaimCheck
        The judged claim.

    Returns
    -------
    dict
        An object of :data:`kamicp.runs.record.SCHEMA`, with ``max_moves`` where kamicp
        was asked "solvable in at most that many moves?".
    """
    c = check.claim
    data = result_record(c.board, check.graph, check.result, c.file, c.index)
    if check.max_moves is not None:
        data["max_moves"] = check.max_moves
    data["verdict"], data["reason"] = check.verdict, check.reason
    data["claim"] = {
        "puzzle": c.puzzle,
        "moves": c.moves,
        "solution": c.solution,
        "optimal": c.optimal,
        "line": c.line,
    }
    return data
