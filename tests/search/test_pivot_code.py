"""The pivot A*'s ahead-of-time build: used only when current, and equal to the JIT."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings

from kamicp import aot
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.search import pivot_astar, pivot_code, pivot_kernels
from tests.strategies import region_graphs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

needs_native = pytest.mark.skipif(
    not pivot_code.NATIVE and os.environ.get("KAMICP_NATIVE") != "required",
    reason="the ahead-of-time build is not installed (no C compiler at install time?)",
)


@needs_native
def test_the_ahead_of_time_build_is_in_use():
    # CI sets KAMICP_NATIVE=required: an install that silently lost the build fails here,
    # even where a run has since built one into the cache
    installed = pivot_code.NativeKernels(pivot_code.installed_library())
    assert installed.fingerprint() == int(pivot_code.source_fingerprint(), 16) - 2**63
    assert pivot_code.NATIVE
    assert pivot_astar.expand is pivot_code.expand
    assert isinstance(pivot_code.expand.__self__, pivot_code.NativeKernels)


def test_an_edited_kernel_is_never_run_from_an_old_build(monkeypatch):
    monkeypatch.setattr(pivot_code, "source_fingerprint", lambda root=None: "0" * 16)
    assert pivot_code.native_kernels() is None


def test_kamicp_jit_refuses_the_build(monkeypatch):
    monkeypatch.setenv("KAMICP_JIT", "1")
    assert pivot_code.native_kernels() is None


def test_the_fingerprint_covers_every_compiled_source(tmp_path):
    base = os.path.join(ROOT, "kamicp")
    for name in pivot_code.SOURCES:
        copy = tmp_path / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(open(os.path.join(base, name), "rb").read())
    same = pivot_code.source_fingerprint(tmp_path)
    assert same == pivot_code.source_fingerprint()
    for name in pivot_code.SOURCES:
        edited = tmp_path / name
        text = edited.read_bytes()
        edited.write_bytes(text + b"\n")
        assert pivot_code.source_fingerprint(tmp_path) != same, name
        edited.write_bytes(text)


def _outcomes(g, kernels) -> tuple:
    """The A*'s answers on ``g`` with the entry points of ``kernels``, for both a free and a
    required final colour, with slices of one expansion (the loop re-entered each time)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("open_start", "expand", "rehash"):
            patch.setattr(pivot_astar, name, getattr(kernels, name))
        patch.setattr(pivot_astar, "FIRST_WORK", 1)
        patch.setattr(pivot_astar, "FIRST_NODES", 4)  # the arrays and table grow, rehashed
        found = []
        for final in (None, g.k - 1):
            out = pivot_astar.pivot_astar(g, final_colour=final)
            found.append((out.moves, out.lower_bound, out.complete, out.nodes))
        return tuple(found)


@needs_native
@settings(max_examples=150, deadline=None)
@given(region_graphs(rules=("pivot",)))
def test_the_build_answers_as_the_jit_does(g):
    native = pivot_code.native_kernels()
    assert _outcomes(g, native) == _outcomes(g, pivot_kernels)


@needs_native
@pytest.mark.parametrize("seed", range(6))
def test_the_build_answers_as_the_jit_does_on_boards_of_two_words(seed):
    # 14x14 boards of 4-6 colours: over 64 regions, so every row is two or more words
    rng = np.random.default_rng(seed)
    k = 4 + seed % 3
    cells = {(r, c): int(rng.integers(0, k)) for r in range(14) for c in range(14)}
    palette = tuple("abcdef"[:k])
    g = region_graph(
        Board(geometry="square", cells=cells, palette=palette, rules="pivot", pivot=(0, 0))
    )
    native = pivot_code.native_kernels()
    assert _outcomes(g, native) == _outcomes(g, pivot_kernels)


@needs_native
@pytest.mark.parametrize("command", ["solve", "info"])
def test_a_flood_it_board_is_solved_and_described_without_numba(command):
    code = (
        "import sys\nfrom kamicp.cli.main import main\n"
        f"code = main([{command!r}, 'puzzles/square/pivot.txt'])\n"
        "print(code, 'numba' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert "optimal" in done.stdout if command == "solve" else "regions" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "0 False"


def test_kernels_run_under_the_jit_where_no_build_is(tmp_path):
    # the fallback: the same solve in a process that refuses the build
    env = dict(os.environ, KAMICP_JIT="1")
    code = (
        "import sys\nfrom kamicp.search import pivot_code\nfrom kamicp.cli.main import main\n"
        "code = main(['solve', 'puzzles/square/pivot.txt'])\n"
        "print(code, pivot_code.NATIVE, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True
    )
    assert "status:   optimal" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "0 False"


@pytest.mark.parametrize("words", [1, 3])
def test_rehash_keeps_every_entry_findable(words):
    rng = np.random.default_rng(words)
    store = rng.integers(0, 2**63, size=(40, words), dtype=np.int64).astype(np.uint64)
    old = np.full(64, -1, dtype=np.int64)
    for node in range(40):
        old[pivot_kernels.table_slot(old, store, store[node])] = node
    new = np.full(128, -1, dtype=np.int64)
    pivot_code.rehash(old, new, store)
    assert sorted(new[new >= 0].tolist()) == list(range(40))
    for node in range(40):
        assert new[pivot_kernels.table_slot(new, store, store[node])] == node


@pytest.mark.skipif(not aot.linker(), reason="no linker to build a shared library with")
def test_the_build_makes_a_library_of_these_sources(tmp_path):
    path = tmp_path / "pivot.so"
    pivot_code.build(path)
    native = pivot_code.NativeKernels(str(path))
    assert native.fingerprint() == int(pivot_code.source_fingerprint(), 16) - 2**63
    g = region_graph(
        Board(
            geometry="square",
            cells={(r, c): (r * 3 + c * c) % 4 for r in range(6) for c in range(6)},
            palette=tuple("abcd"),
            rules="pivot",
            pivot=(0, 0),
        )
    )
    assert _outcomes(g, native) == _outcomes(g, pivot_kernels)


@pytest.mark.parametrize(
    "array",
    [
        np.zeros((3, 2), dtype=np.int64),  # another type
        np.zeros((2, 3), dtype=np.uint64),  # another shape
        np.zeros((3, 4), dtype=np.uint64)[:, ::2],  # not contiguous
    ],
)
def test_an_array_the_library_would_misread_is_refused(array):
    with pytest.raises(TypeError, match="C-contiguous uint64 array of shape"):
        pivot_code.address(array, np.uint64, 3, 2)
    assert pivot_code.address(np.zeros((3, 2), dtype=np.uint64), np.uint64, 3, 2) > 0


@pytest.mark.skipif(not aot.linker(), reason="no linker to build a shared library with")
def test_an_edit_is_built_into_the_cache_once_and_then_runs_without_numba(tmp_path):
    source = tmp_path / "src"
    shutil.copytree(
        os.path.join(ROOT, "kamicp"),
        source / "kamicp",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    kernels = source / "kamicp" / "search" / "pivot_kernels.py"
    kernels.write_text(kernels.read_text() + "\n# an edit: the installed library is stale\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "KAMICP_JIT")}
    env.update(PYTHONPATH=str(source), XDG_CACHE_HOME=str(tmp_path / "cache"))
    code = (
        "import sys\nfrom kamicp.search import pivot_code\nfrom kamicp.cli.main import main\n"
        f"code = main(['solve', {os.path.join(ROOT, 'puzzles/square/pivot.txt')!r}])\n"
        "print(code, pivot_code.__file__, pivot_code.NATIVE, 'numba' in sys.modules,"
        " file=sys.stderr)"
    )
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
        )
        assert "status:   optimal" in done.stdout, done.stderr
        runs.append(done.stderr.strip().splitlines()[-1].split())
    where = str(source / "kamicp" / "search" / "pivot_code.py")
    assert runs[0] == ["0", where, "False", "True"]  # built at the first call
    assert runs[1] == ["0", where, "True", "False"]  # found in the cache
    assert len(list((tmp_path / "cache" / "kamicp").glob(f"*/{pivot_code.LIBRARY}"))) == 1


def test_the_first_call_without_a_library_builds_once_for_every_thread(monkeypatch):
    import threading

    from kamicp.jit import no_compiling

    built = []

    def build_slowly():
        built.append(threading.get_ident())
        time.sleep(0.2)  # the other threads arrive while it builds
        return "the library"

    monkeypatch.setattr(pivot_code, "_native", None)
    monkeypatch.setattr(pivot_code, "_chosen", [])
    monkeypatch.setattr(pivot_code, "built_here", build_slowly)
    with no_compiling():  # nothing may be built here: the JIT's, and no choice made
        assert pivot_code.kernels_in_use() is pivot_kernels
    assert built == []
    seen = []
    threads = [
        threading.Thread(target=lambda: seen.append(pivot_code.kernels_in_use())) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1
    assert seen == ["the library"] * 4
