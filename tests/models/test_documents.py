"""The models' code and their documents number the same constraints: every label the code
cites (``(S7)`` in ``kamicp/models/sat``, ``(C12)`` in ``kamicp/models/cpsat``) heads a
constraint group of ``encodings/sat.md`` or ``encodings/cpsat.md``, every group there is
cited by the code, and the document numbers its groups 1, 2, ... in the order they appear."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODELS = {
    "S": ("encodings/sat.md", "kamicp/models/sat"),
    "C": ("encodings/cpsat.md", "kamicp/models/cpsat"),
}


def document_labels(document: str, letter: str) -> list[int]:
    """The numbers of the groups the document heads with ``**S7. ...`` (in its order)."""
    text = (ROOT / document).read_text(encoding="utf-8")
    return [int(n) for n in re.findall(rf"\*\*{letter}(\d+)\.", text)]


def cited_labels(package: str, letter: str) -> set[int]:
    """Every number the package's code cites, alone (``S7``) or as a range (``S1-S7``)."""
    found: set[int] = set()
    for path in sorted((ROOT / package).glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for lo, hi in re.findall(rf"\b{letter}(\d+)(?:\)?-\(?{letter}(\d+))?\b", text):
            found.update(range(int(lo), int(hi or lo) + 1))
    return found


@pytest.mark.parametrize("letter", sorted(MODELS))
def test_the_document_numbers_its_groups_in_order(letter):
    document, _ = MODELS[letter]
    labels = document_labels(document, letter)
    assert labels == list(range(1, len(labels) + 1)) and len(labels) > 10


@pytest.mark.parametrize("letter", sorted(MODELS))
def test_code_and_document_cite_the_same_groups(letter):
    document, package = MODELS[letter]
    assert cited_labels(package, letter) == set(document_labels(document, letter))
