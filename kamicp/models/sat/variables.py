"""What each variable of the CNF encodings means, in words (``encodings/sat.md``).

The encodings name their variables by tuples such as ``('x', t, r, c)``; :func:`describe`
turns a name into the sentence that heads a DIMACS file's ``c var N = ...`` lines
("Determinism and DIMACS").
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph

__all__ = ["describe"]


def describe(name: tuple, g: RegionGraph) -> str:
    """A variable's meaning in words, for DIMACS comments.

    Parameters
    ----------
    name : tuple
        The variable's name in the encoding's pool, e.g. ``('x', t, r, c)``.
    g : RegionGraph
        The puzzle (for its palette).

    Returns
    -------
    str
        The sentence.

    Raises
    ------
    KeyError
        If the name's kind is unknown.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> describe(("x", 2, 1, 0), from_edges([0, 1], [(0, 1)]))
    'colour of region 1 after step 2 is 0'
    """
    p = g.palette
    kind, rest = name[0], name[1:]
    text = {
        "x": lambda t, r, c: f"colour of region {r} after step {t} is {p[c]}",
        "st": lambda t, r, j: f"region {r} after step {t} was last merged by step {j}",
        "in": lambda t, r: f"region {r} is recoloured by step {t}",
        "root": lambda t, r: f"step {t} recolours region {r}, never merged before",
        "sel": lambda t, j: f"step {t} recolours the region merged by step {j}",
        "nc": lambda t, c: f"step {t} recolours to {p[c]}",
        "noop": lambda t: f"step {t} is padding (no move)",
        "ad": lambda t, r: f"region {r} touches the set recoloured by step {t}",
        "sn": lambda t, r: f"region {r} has the new colour of step {t} before it",
        "A": lambda t, j: f"the region merged by step {j} touches the set of step {t}",
        "q": lambda t, r, j: f"region {r} witnesses that step {j}'s region touches step {t}",
        "nm": lambda t, r: f"region {r} is in the region merged by step {t}",
        "pr": lambda t, i, c: f"colour {p[c]} is in island {i} after step {t} or is final",
        "nb": lambda t, r: f"region {r} is in or next to the set recoloured by step {t}",
        "dep": lambda u, t: f"step {t} acts in or next to the set recoloured by step {u}",
        "w": lambda u, t, r: f"region {r} shows step {t} acts next to step {u}'s set",
        "blocked": lambda u, t: f"step {t} acts next to a set recoloured by steps {u}..{t - 1}",
        "ge": lambda t, r: f"no region below {r} is recoloured by step {t}",
        "f": lambda c: f"final colour is {p[c]}",
        "goal": lambda t: f"solved after step {t}",
        "fl": lambda t, r: f"region {r} is flooded after step {t}",
        "c": lambda t, c: f"flood colour after step {t} is {p[c]}",
        "need": lambda t, c: f"colour {p[c]} still needs a move after step {t}",
        "cr": lambda t, u: f"the centre after step {t} is region {u}, never merged",
        "cs": lambda t, i, j: f"the centre of island {i} after step {t} is step {j}'s region",
        "R": lambda t, u, j: f"region {u} is within {j} of the centre after step {t}",
        "a": lambda t, u, j: (
            f"region {u} touches a region within {j - 1} of the centre after step {t}"
        ),
        "K": lambda t, i, j, d: (
            f"step {j}'s region is within {d} of island {i}'s centre after step {t}"
        ),
        "y": lambda t, u, j, d: (
            f"region {u} brings step {j}'s region within {d} of the centre after step {t}"
        ),
        "cz": lambda t, z: f"region {z} is the centre after step {t} (layer bound)",
        "open": lambda t, z, b: (
            f"boundary {b} around region {z} is crossed by one colour after step {t}"
        ),
        "same": lambda t, u, w: f"regions {u} and {w} have one colour after step {t}",
        "gain": lambda t, r: f"region {r} joins the merged region or flood at step {t}",
        "aux": lambda label: f"auxiliary variable of a cardinality constraint ({label})",
    }[kind]
    return text(*rest)
