"""Region graphs as JSON: nodes with a colour name each, and the edges between them.

::

    {"nodes": {"1": "Purple", "2": "Red"}, "edges": [[1, 2]],
     "rules": "free", "pivot": 1, "par": 1, "optimum": 1, "name": "two", "palette": [...]}

Node ids may be integers or strings and become strings; ``edges`` defaults to none; the
palette is the colour names present, sorted, unless ``palette`` lists them (in order, maybe
with more). Geometry ``graph``. An edge to an unknown node, a self-loop, a repeated edge, an
unknown key or a repeated key is an error naming its line: :func:`located_json` keeps the
line of every value. A top-level array holds several puzzles.

Examples
--------
>>> text = '{"nodes": {"1": "Purple", "2": "Red"}, "edges": [[1, 2]]}'
>>> board = read_json(text, "two.json")[0]
>>> board.geometry, board.palette, board.edges, board.name
('graph', ('Purple', 'Red'), (('1', '2'),), 'two')
>>> located_json('{\\n "a": [1,\\n 2]}').value["a"].value[1]
Located(value=2, line=3)
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from json.decoder import scanstring
from json.scanner import NUMBER_RE

from kamicp.errors import InputError
from kamicp.formats.files import numbered, stem
from kamicp.formats.grid import palette_problem
from kamicp.game.board import RULES, Board
from kamicp.game.regions import region_graph

__all__ = [
    "JSON_KEYS",
    "Located",
    "graph_board",
    "located_json",
    "read_json",
    "write_json",
]

JSON_KEYS = ("nodes", "edges", "rules", "pivot", "par", "optimum", "name", "palette")


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
    """``text`` parsed as JSON, every value with its line, so errors can point at a member.

    Parameters
    ----------
    text : str
        Valid JSON (check it with :func:`json.loads` first: this parser trusts the syntax).

    Returns
    -------
    Located
        The top value; objects hold a dict of :class:`Located` members, arrays a list.

    Raises
    ------
    InputError
        When an object repeats a key (the error has the key's line but no path).

    Notes
    -----
    Recursive descent, linear in the length of the text.
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
    """The puzzles in region-graph JSON: one puzzle object, or an array of them.

    Parameters
    ----------
    text : str
        The file's text.
    path : str
        The file's name, for messages and the boards' default names.

    Returns
    -------
    list of Board
        The puzzles in the text, in order.

    Raises
    ------
    InputError
        When the text is malformed, naming ``path`` and the line.
    """
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


def _node_id(item: Located, what: str, path: str) -> str:
    """A node id (integer or string) as a string."""
    if isinstance(item.value, bool) or not isinstance(item.value, (int, str)):
        raise InputError(f"{what} must be an integer or a string", path, item.line)
    return str(item.value)


def _json_natural(item: Located, key: str, path: str) -> int:
    if isinstance(item.value, bool) or not isinstance(item.value, int) or item.value < 0:
        raise InputError(f"{key} must be a non-negative integer", path, item.line)
    return item.value


def graph_board(item: Located, path: str, default_name: str) -> Board:
    """The puzzle a located JSON object describes.

    Parameters
    ----------
    item : Located
        The object, from :func:`located_json`.
    path : str
        The file, for messages.
    default_name : str
        The board's name when the object gives none.

    Returns
    -------
    Board
        A ``graph`` board.

    Raises
    ------
    InputError
        When the object is malformed, naming the line of the offending member.
    """
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
        a, b = (_node_id(x, "an edge's end", path) for x in edge.value)
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
        pivot = _node_id(members["pivot"], "the pivot", path)
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
        par=_json_natural(members["par"], "par", path) if "par" in members else None,
        optimum=_json_natural(members["optimum"], "optimum", path)
        if "optimum" in members
        else None,
        name=name,
        edges=tuple(edges),
        source=path,
    )
    return board


def write_json(board: Board) -> str:
    """``board`` as region-graph JSON.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    str
        The text. A grid board is contracted first: one node per region, named by its
        region number (as in ``kamicp show --regions``), the pivot being the pivot's region.
        Each edge is on a line of its own.
    """
    if board.geometry == "graph":
        nodes = {str(cell): board.palette[board.cells[cell]] for cell in board.order}
        edges = [[str(a), str(b)] for a, b in board.edges]
        pivot = str(board.pivot)
    else:
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
