"""The package's house rules, read from the source: no import cycle, no private name taken
from another module, no module over 500 lines, packages layered, public API kept short."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import networkx as nx
import pytest

import kamicp

PACKAGE = Path(kamicp.__file__).resolve().parent
MOST_LINES = 500
MOST_PARAMETERS = 8
# Each package may import only from packages on its own floor or below: the top-level
# modules (errors, result, api, __init__) and procs at the bottom, then game, formats,
# bounds, search, models, then solving, then runs, proof and view, then the web page, then cli.
FLOORS = {
    "procs": 0,
    "game": 1,
    "formats": 2,
    "bounds": 2,
    "search": 3,
    "models": 4,
    "solving": 5,
    "runs": 6,
    "proof": 6,
    "view": 6,
    "web": 7,
    "cli": 8,
}


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(path: Path, top_level_only: bool):
    """(imported module, names, line) of every ``import``/``from`` of kamicp in a file."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kamicp"):
            yield node.module, [a.name for a in node.names], node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("kamicp"):
                    yield alias.name, [], node.lineno


def target(module: str, name: str, known: dict) -> str:
    """The module an import reaches: ``from kamicp.game import rules`` reaches kamicp.game.rules."""
    return f"{module}.{name}" if f"{module}.{name}" in known else module


def import_graph(top_level_only: bool = False) -> nx.DiGraph:
    known = modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path in known.items():
        for module, names, _ in imports(path, top_level_only):
            for imported in names or [""]:
                reached = target(module, imported, known) if imported else module
                if reached != name and reached in known:
                    graph.add_edge(name, reached)
    return graph


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in FLOORS) else None


def test_no_import_cycle_between_modules():
    graph = import_graph()
    # a package's __init__ re-exports its modules: that edge is not a cycle of ideas
    facade = [(a, b) for a, b in graph.edges if b.startswith(a + ".")]
    graph.remove_edges_from(facade)
    assert list(nx.simple_cycles(graph)) == []


def test_packages_are_layered():
    wrong = []
    for a, b in import_graph().edges:
        pa, pb = package_of(a), package_of(b)
        if pa and pb and pa != pb and FLOORS[pb] > FLOORS[pa]:
            wrong.append(f"{a} -> {b}")
    assert wrong == []


def test_no_private_name_is_imported_from_another_module():
    taken = []
    for name, path in modules().items():
        for module, names, line in imports(path, top_level_only=False):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and module != name:
                taken.append(f"{path.name}:{line} takes {private} from {module}")
    assert taken == []


# Modules past MOST_LINES that hold one job all the same, each with its own cap and why. A
# module past the cap is a question, not an order to split: two jobs go to two modules, and
# one job stays whole, listed here. The stand-alone certificate checker is one file by
# design, so that a sceptic reads one file and runs it alone (encodings/certificates.md).
ONE_JOB = {"kamicp.proof.standalone": 1000}


def test_a_module_over_500_lines_is_one_job_listed_as_such():
    long = {
        name: f"{n} lines: two jobs? split it; one? list it in ONE_JOB, with why"
        for name, path in modules().items()
        if (n := len(path.read_text().splitlines())) > ONE_JOB.get(name, MOST_LINES)
    }
    assert long == {}


@pytest.mark.parametrize("name", [n for n in kamicp.__all__ if n != "__version__"])
def test_public_functions_take_at_most_8_parameters(name):
    obj = getattr(kamicp, name)
    functions = (
        [obj]
        if inspect.isfunction(obj)
        else [
            f
            for _, f in inspect.getmembers(obj, inspect.isfunction)
            if not f.__name__.startswith("_")
        ]
        + [m.__func__ for _, m in inspect.getmembers(obj, inspect.ismethod)]
    )
    for f in functions:
        assert len(inspect.signature(f).parameters) <= MOST_PARAMETERS, f.__qualname__


def test_the_layout_checks_see_the_package():
    # an empty module list would make every check above pass without reading anything
    known = modules()
    assert "kamicp.game.rules" in known and len(known) > 40
    assert import_graph().number_of_edges() > 100


def test_every_module_says_what_it_offers():
    import importlib

    missing, unknown = [], []
    for name, path in modules().items():
        if path.name in ("__init__.py", "__main__.py"):
            continue
        module = importlib.import_module(name)
        if not hasattr(module, "__all__"):
            missing.append(name)
        else:
            unknown += [f"{name}.{n}" for n in module.__all__ if not hasattr(module, n)]
    assert missing == [] and unknown == []
