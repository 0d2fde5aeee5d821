"""Numbers in words with their nouns, singular for one: "1 move", "4 moves".

Every message that puts a count before a noun says it through :func:`count`; this module
imports nothing, so that the rules engine and the solvers can use it as the command line
does.
"""

from __future__ import annotations

__all__ = ["count", "count_moves"]


def count(n: int, noun: str) -> str:
    """``n`` things in words: count(1, "move") is "1 move", count(4, "move") "4 moves".

    Parameters
    ----------
    n : int
        How many.
    noun : str
        The thing, singular; the plural adds an "s".

    Returns
    -------
    str
        The words.

    Examples
    --------
    >>> count(1, "move"), count(4, "region"), count(0, "colour")
    ('1 move', '4 regions', '0 colours')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def count_moves(n: int) -> str:
    """``n`` moves in words: "1 move", "4 moves".

    Parameters
    ----------
    n : int
        How many moves.

    Returns
    -------
    str
        The words.

    Examples
    --------
    >>> count_moves(1), count_moves(2)
    ('1 move', '2 moves')
    """
    return count(n, "move")
