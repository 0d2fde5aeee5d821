"""Every document section and test file the code cites exists (a citation that points
nowhere sends a reader to look for what is gone), and the documents keep their sizes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "kamicp").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py"))
# BENCHMARKS.md, "Section" / encodings/x.md, "Section" / encodings/x.md (Bound 5...
SECTION = re.compile(r'((?:BENCHMARKS|encodings/[a-z_]+)\.md)`*,?\s+"([^"]+)"')
BOUND = re.compile(r"(encodings/[a-z_]+\.md)`*,?\s+\(?(Bound \d+|Lemma \d+|R\d+)\b")
DOCUMENT = re.compile(r"\b((?:encodings/[a-z_]+|BENCHMARKS|README)\.md)\b")
TEST_FILE = re.compile(r"\b(tests/[\w/]+\.py)\b")


def headings(document: str) -> list[str]:
    """The document's headings and the labels of its bold-led paragraphs and list items
    (``**R7. ...**``, ``- **Journal**``)."""
    found = []
    for line in (ROOT / document).read_text(encoding="utf-8").splitlines():
        line = line.removeprefix("- ")
        if line.startswith("#"):
            found.append(line.lstrip("#").strip())
        elif label := re.match(r"\*\*(.+?)(?<!\\)\*\*", line):  # an escaped \* is text
            found.append(label.group(1))
    return [name.replace("\\", "") for name in found]


def citations(pattern: re.Pattern) -> list[tuple[str, str, str]]:
    found = []
    for path in SOURCES:
        # a citation may wrap, in a docstring or across comment lines
        text = re.sub(r"\n\s*#\s*", " ", path.read_text(encoding="utf-8"))
        text = " ".join(text.split())
        for match in pattern.finditer(text):
            found.append((str(path.relative_to(ROOT)), *match.groups()))
    return found


@pytest.mark.parametrize("where, document, section", citations(SECTION))
def test_a_cited_section_is_a_heading_of_its_document(where, document, section):
    names = headings(document)
    assert any(h.startswith(section.replace("\\", "")) for h in names), (where, section)


@pytest.mark.parametrize("where, document, name", citations(BOUND))
def test_a_cited_bound_or_lemma_is_a_heading_of_its_document(where, document, name):
    names = headings(document)
    assert any(re.match(rf"{re.escape(name)}\b", h) for h in names), (where, name)


def test_every_cited_document_and_test_file_exists():
    missing = [
        (where, name)
        for pattern in (DOCUMENT, TEST_FILE)
        for where, name in citations(pattern)
        if not (ROOT / name).exists()
    ]
    assert missing == []


def test_the_front_door_and_the_reference_keep_their_sizes():
    # the README is a front door of at most 300 lines, BENCHMARKS.md a reference of 600
    for name, most in (("README.md", 300), ("BENCHMARKS.md", 600)):
        assert len((ROOT / name).read_text(encoding="utf-8").splitlines()) <= most, name
