"""A solve's answer as one JSON object: the shape every command that prints or writes a
result uses (``solve --json``, ``hint --json``, ``cross-check --json``, ``bench --json``,
``batch``).

The shape is named by its ``schema`` field (:data:`SCHEMA`) and written down as a JSON
Schema shipped beside this module (``result.schema.json``, read by :func:`result_schema`).
Moves are always a list of tokens in the notation ``check`` reads (``"2,2:G"``); the bounds
are ``lower_bound`` and ``upper_bound``; ``proved`` says whether the status rests on a proof.
"""

from __future__ import annotations

import json
from importlib import resources

from kamicp.game import notation
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph
from kamicp.result import Result

__all__ = ["FAILED", "SCHEMA", "failed_record", "move_tokens", "result_record", "result_schema"]

SCHEMA = "kamicp-result/1"
# The statuses of a run that gave no answer (bench, batch: a child process of its own):
# it raised, it was killed past its time limit, or it died.
FAILED = ("error", "killed", "crashed")
PROVED = ("optimal", "infeasible")


def move_tokens(board: Board, g: RegionGraph, moves) -> list[str] | None:
    """Moves as the tokens ``check`` reads, one a move.

    Parameters
    ----------
    board : Board
        The puzzle the moves are written for.
    g : RegionGraph
        Its region graph, which the moves refer to.
    moves : list of (int, int) or None
        The moves.

    Returns
    -------
    list of str or None
        One token a move; None for None.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GGR\\n")[0]
    >>> move_tokens(board, region_graph(board), [(1, 0)])
    ['0,2:G']
    """
    if moves is None:
        return None
    return [notation.format_move(board, g, m) for m in moves]


def result_record(
    board: Board,
    g: RegionGraph | None,
    result: Result,
    file: str | None = None,
    index: int | None = None,
) -> dict:
    """A solve's answer as the JSON object of :data:`SCHEMA`.

    Parameters
    ----------
    board : Board
        The puzzle.
    g : RegionGraph or None
        Its region graph, which the solution's moves refer to (None: a run stopped before
        it was built, with no solution).
    result : Result
        The solver's answer.
    file : str or None
        The puzzle's file, as messages show it.
    index : int or None
        The puzzle's 1-based index in its file.

    Returns
    -------
    dict
        ``schema``, ``name``, ``file``, ``index``, ``status``, ``proved``, ``moves``,
        ``lower_bound``, ``upper_bound``, ``solution``, ``solver``, ``seconds``, ``proof``,
        ``par`` and ``regions``; callers add the optional fields of the schema.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> from kamicp.solving.solve import solve
    >>> board = parse("GGR\\n")[0]
    >>> g = region_graph(board)
    >>> data = result_record(board, g, solve(g, "bfs"), "a.txt", 1)
    >>> data["schema"], data["status"], data["proved"], data["solution"]
    ('kamicp-result/1', 'optimal', True, ['0,0:R'])
    """
    return {
        "schema": SCHEMA,
        "name": board.name,
        "file": file,
        "index": index,
        "status": result.status,
        "proved": result.status in PROVED,
        "moves": result.moves,
        "lower_bound": result.lower_bound,
        "upper_bound": result.upper_bound,
        "solution": move_tokens(board, g, result.solution),
        "solver": result.solver,
        "seconds": round(result.seconds, 3),
        "proof": result.proof,
        "par": board.par,
        "regions": None if g is None else g.n,
    }


def failed_record(board: Board, solver: str, failure: dict) -> dict:
    """The JSON object of a run that gave no answer (:data:`FAILED`).

    Parameters
    ----------
    board : Board
        The puzzle.
    solver : str
        The solver that ran.
    failure : dict
        ``status`` (one of :data:`FAILED`), ``error``, and ``seconds`` and ``peak_mb`` where
        known (:func:`kamicp.procs.isolate.run_isolated`).

    Returns
    -------
    dict
        The fields of :func:`result_record`, no bounds nor moves, with ``error`` (and
        ``peak_mb`` when given).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> failed = failed_record(parse("GGR\\n")[0], "sat", {"status": "killed", "error": "-9"})
    >>> failed["status"], failed["proved"], failed["lower_bound"], failed["error"]
    ('killed', False, None, '-9')
    """
    out = {
        "schema": SCHEMA,
        "name": board.name,
        "file": None,
        "index": None,
        "status": failure["status"],
        "proved": False,
        "moves": None,
        "lower_bound": None,
        "upper_bound": None,
        "solution": None,
        "solver": solver,
        "seconds": round(float(failure.get("seconds", 0.0)), 3),
        "proof": "",
        "par": board.par,
        "regions": None,
        "error": str(failure.get("error", "")),
    }
    if "peak_mb" in failure:
        out["peak_mb"] = failure["peak_mb"]
    return out


def result_schema() -> dict:
    """The JSON Schema of :data:`SCHEMA`, as shipped with the package.

    Returns
    -------
    dict
        The schema (draft 2020-12).

    Examples
    --------
    >>> result_schema()["properties"]["schema"]["const"]
    'kamicp-result/1'
    """
    text = resources.files("kamicp.runs").joinpath("result.schema.json").read_text()
    return json.loads(text)
