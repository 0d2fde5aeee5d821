"""SolveOptions from a command's arguments: every option of solve and bench reaches it."""

from __future__ import annotations

import pytest

from kamicp.cli.main import build_parser
from kamicp.runs.bench import BenchOptions
from kamicp.solving.options import ARGUMENT_FIELDS, SolveOptions


def test_every_solve_option_reaches_the_options():
    argv = ["solve", "x.txt", "--max-moves", "9", "--time-limit", "5", "--workers", "2"]
    argv += ["--node-limit", "100", "--probe", "1", "--strategy", "up", "--tetrapod-depth", "3"]
    argv += ["--beam-width", "8", "--journal", "j.log", "--ray", "local", "--solver", "idastar"]
    options = SolveOptions.from_args(build_parser(["solve"]).parse_args(argv))
    assert options == SolveOptions(
        max_moves=9,
        time_limit=5.0,
        workers=2,
        node_limit=100,
        probe=1.0,
        strategy="up",
        tetrapod_depth=3,
        beam_width=8,
        journal="j.log",
        ray="local",
    )


def test_options_left_out_keep_their_defaults():
    args = build_parser(["solve"]).parse_args(["solve", "x.txt"])
    assert SolveOptions.from_args(args) == SolveOptions()


def test_bench_takes_the_fields_its_command_has():
    argv = ["bench", "x.txt", "--time-limit", "7", "--strategy", "down", "--beam-width", "4"]
    options = SolveOptions.from_args(build_parser(["bench"]).parse_args(argv))
    assert options == SolveOptions(time_limit=7.0, strategy="down", beam_width=4)


def test_argument_fields_are_fields():
    assert set(ARGUMENT_FIELDS) <= set(SolveOptions.__dataclass_fields__)


def test_a_bench_needs_a_time_limit():
    with pytest.raises(ValueError, match="time limit"):
        BenchOptions(SolveOptions())
