"""Every command answers an input that does not exist with one line and exit 2 (bad input),
never a traceback nor the code of a failed check."""

from __future__ import annotations

import pytest

from kamicp.cli.main import COMMANDS
from tests.cli.helpers import run

# what each command needs besides its input, so that the missing input is the only problem
OTHERS = {
    "check": ["0,0:G"],
    "render": ["--out", "{tmp}/x.svg"],
    "batch": ["--out", "{tmp}/rows.jsonl"],
    "export": ["--moves", "2"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_missing_input_is_bad_input(capsys, tmp_path, command):
    missing = str(tmp_path / "nowhere")
    others = [word.format(tmp=tmp_path) for word in OTHERS.get(command, [])]
    code, out, err = run(capsys, command, missing, *others)
    assert code == 2, (out, err)
    assert not out and err.count("\n") == 1 and "nowhere" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
