"""Files and folders: folders expand to their puzzle files, and a missing, unreadable or
non-UTF-8 file is an InputError naming it."""

from __future__ import annotations

import os
import re

import pytest

from kamicp import formats
from kamicp.errors import InputError


def test_iter_paths(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.puz").write_text("x")
    (tmp_path / "b" / "README.md").write_text("x")
    (tmp_path / "a.json").write_text("x")
    (tmp_path / "c.kami").write_text("x")
    (tmp_path / "ORDER.yaml").write_text("x")
    (tmp_path / "notes.md").write_text("x")
    single = tmp_path / "plain.dat"
    single.write_text("x")
    found = formats.iter_paths([str(single), str(tmp_path)])
    names = [os.path.relpath(p, tmp_path) for p in found]
    assert names == ["plain.dat", "a.json", os.path.join("b", "z.puz"), "c.kami"]
    with pytest.raises(InputError, match="no such file or folder"):
        formats.iter_paths([str(tmp_path / "missing")])
    (tmp_path / "empty").mkdir()  # a folder of no puzzle: a wrong folder, most likely
    (tmp_path / "empty" / "notes.md").write_text("x")
    with pytest.raises(InputError, match="empty: no puzzle file in this folder"):
        formats.iter_paths([str(tmp_path / "empty")])


def test_unreadable_files(tmp_path):
    missing = tmp_path / "missing.txt"
    with pytest.raises(InputError, match=re.escape(f"{missing}: no such file")):
        formats.load(str(missing))
    with pytest.raises(InputError, match="is a folder"):
        formats.load(str(tmp_path))
    latin = tmp_path / "latin.txt"
    latin.write_bytes("ab\nba\n# caf\u00e9\n".encode("latin-1"))
    with pytest.raises(InputError) as info:
        formats.load(str(latin))
    assert info.value.line == 3 and "UTF-8" in info.value.problem
    with pytest.raises(InputError, match="unknown format"):
        formats.parse("ab\n", fmt="gif")
