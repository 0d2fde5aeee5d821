"""The fixed CNF of one horizon and its DIMACS text (encodings/sat.md, "Determinism and DIMACS").

:func:`cnf_for_horizon` builds the non-incremental CNF of one horizon (the encoding of
:func:`kamicp.models.sat.encoding.encoding`, everything hard, no assumption),
:func:`to_dimacs` writes it with a comment per variable, and :func:`dimacs_for_horizon` does
both, headed by what the formula asks. The same puzzle always gives the same text, byte for
byte.
"""

from __future__ import annotations

from pysat.formula import CNF

from kamicp.game.regions import RegionGraph
from kamicp.models.sat.encoding import encoding
from kamicp.models.sat.variables import describe

__all__ = ["cnf_for_horizon", "to_dimacs", "dimacs_for_horizon"]


def cnf_for_horizon(
    g: RegionGraph, horizon: int, final_colour: int | None = None, **options: bool
) -> tuple[CNF, dict[int, str]]:
    """The CNF "solvable in at most ``horizon`` moves", every clause hard.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.
    **options
        Parts of the encoding (see :func:`kamicp.models.sat.encoding.encoding`).

    Returns
    -------
    (CNF, dict)
        The formula and each variable's meaning in words. Deterministic: the same puzzle
        always gives the same clauses.
    """
    enc = encoding(g, final_colour, guarded=False, **options)
    enc.horizon(horizon)
    cnf = CNF(from_clauses=enc.take())
    cnf.nv = max(cnf.nv, enc.formula.top)
    names = {v: describe(name, g) for v, name in enc.names().items()}
    return cnf, names


def to_dimacs(cnf: CNF, names: dict[int, str], comments: list[str] | tuple = ()) -> str:
    """DIMACS text: ``comments``, one ``c var N = meaning`` line per variable, the clauses.

    Parameters
    ----------
    cnf : pysat.formula.CNF
        The formula.
    names : dict
        Each variable's meaning.
    comments : sequence of str
        Lines for the head of the file.

    Returns
    -------
    str
        The DIMACS text, one line per clause.

    Examples
    --------
    >>> print(to_dimacs(CNF(from_clauses=[[1, -2]]), {1: "a", 2: "b"}, ["hi"]), end="")
    c hi
    c var 1 = a
    c var 2 = b
    p cnf 2 1
    1 -2 0
    """
    lines = [f"c {line}" for line in comments]
    lines += [f"c var {v} = {text}" for v, text in sorted(names.items())]
    lines.append(f"p cnf {cnf.nv} {len(cnf.clauses)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in cnf.clauses]
    return "\n".join(lines) + "\n"


def dimacs_for_horizon(g: RegionGraph, horizon: int, final_colour: int | None = None) -> str:
    """:func:`to_dimacs` of :func:`cnf_for_horizon`, headed by what the formula asks.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.

    Returns
    -------
    str
        The DIMACS text.
    """
    cnf, names = cnf_for_horizon(g, horizon, final_colour)
    head = [
        f"kamicp SAT encoding ({g.rules} rules): solvable in at most {horizon} moves"
        + ("" if final_colour is None else f", ending in {g.palette[final_colour]}"),
        f"{g.n} regions, {g.k} colours; see encodings/sat.md",
    ]
    return to_dimacs(cnf, names, head)
