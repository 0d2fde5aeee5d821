"""Every variable of both CP-SAT models has a name, once, as encodings/cpsat.md writes it
(``member[3][5]``: a name of the document with its indices), so an exported model reads as
the document."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.game.regions import from_edges, region_graph
from kamicp.models.cpsat.horizon import build_model
from kamicp.models.export import export_cpsat
from tests.strategies import boards

DOCUMENT = Path(__file__).resolve().parents[3] / "encodings" / "cpsat.md"
NAME = re.compile(r"([a-z_]+)((?:\[\d+\])+)")


def names_in_document() -> set[str]:
    """The names the document gives its variables: every ``name[`` inside backticks."""
    text = DOCUMENT.read_text(encoding="utf-8")
    spans = re.findall(r"`([^`]*)`", text)
    return {m for span in spans for m in re.findall(r"\b([a-z_]+)\[", span)}


def check_names(model) -> None:
    # CP-SAT itself adds an unnamed variable fixed to 1 for a constraint that Python has
    # already decided (``model.add(True)``: a bound over no colour); the models name all theirs
    names = [var.name for var in model.proto.variables if var.name or len(set(var.domain)) > 1]
    assert all(names), "a variable without a name"
    repeated = [name for name, count in Counter(names).items() if count > 1]
    assert repeated == []
    known = names_in_document()
    for name in names:
        match = NAME.fullmatch(name)
        assert match, name
        assert match.group(1) in known, f"{name}: not a name of encodings/cpsat.md"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards(), st.integers(1, 5), st.one_of(st.none(), st.integers(0, 7)))
def test_every_variable_is_named_once_as_the_document_does(board, horizon, choice):
    g = region_graph(board)
    final = None if choice is None else choice % g.k
    check_names(build_model(g, horizon, final)[0])
    bare = {"free": {"depth_bound": False, "max_pairs": 3}, "pivot": {"layer_bound": False}}
    check_names(build_model(g, horizon, final, **bare[g.rules])[0])


@pytest.mark.parametrize("rules", ["free", "pivot"])
def test_every_kind_of_variable_shows_in_a_deep_model(rules):
    # a ladder of two rows of six in three colours: every optional part makes variables
    edges = [(i, i + 1) for i in (0, 1, 2, 3, 4, 6, 7, 8, 9, 10)] + [(i, i + 6) for i in range(6)]
    g = from_edges([0, 1, 2, 0, 1, 2, 1, 2, 0, 1, 2, 0], edges, rules=rules)
    model, _ = build_model(g, 6)
    check_names(model)
    kinds = {NAME.fullmatch(v.name).group(1) for v in model.proto.variables}
    expected = {
        "free": {"colour", "active", "old", "new", "member", "root", "prefix", "level", "fin",
                 "dep", "overlap", "touch", "witness", "same_old", "back", "free", "grew",
                 "present", "same", "open"},
        "pivot": {"active", "chosen", "flood_colour", "flooded", "outside", "near", "far",
                  "joined", "touch", "can", "all_in", "apart", "both"},
    }  # fmt: skip
    assert kinds == expected[rules]


def test_the_exported_text_names_the_variables():
    text = export_cpsat(from_edges([0, 1, 0], [(0, 1), (1, 2)]), 1)
    assert 'name: "member[1][0]"' in text and 'name: "colour[1][2][1]"' in text
