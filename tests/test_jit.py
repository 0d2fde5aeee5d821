"""Kernels: Numba is imported by the first call of a kernel, not by the import of one."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest

from kamicp import jit


def _in_a_fresh_process(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_importing_every_module_with_kernels_does_not_import_numba():
    code = (
        "import sys\n"
        "import kamicp.bounds, kamicp.search.bitsets, kamicp.search.pivot_kernels\n"
        "import kamicp.game.label_loop\n"
        "print('numba' in sys.modules)"
    )
    assert _in_a_fresh_process(code) == "False"


def test_the_first_call_compiles_every_kernel_and_puts_them_in_place():
    code = (
        "import sys\nimport numpy as np\n"
        "from kamicp.search import bitsets, pivot_kernels\n"
        "from kamicp.jit import Kernel\n"
        "before = isinstance(bitsets.popcount, Kernel)\n"
        "count = bitsets.popcount(np.uint64(0b10110))\n"
        "after = [type(bitsets.popcount).__name__, type(pivot_kernels.sweep_bound).__name__]\n"
        "print(before, count, 'numba' in sys.modules, *after)"
    )
    assert _in_a_fresh_process(code) == "True 3 True CPUDispatcher CPUDispatcher"


def test_the_first_compile_chooses_the_cache_folder_not_the_import(tmp_path):
    code = (
        "import os, sys\nimport numpy as np\n"
        "import kamicp\n"
        "print('NUMBA_CACHE_DIR' in os.environ)\n"
        "from kamicp import jit\n"
        "from kamicp.search import bitsets\n"
        "bitsets.popcount(np.uint64(3))\n"
        "import numba\n"
        "print(os.environ['NUMBA_CACHE_DIR'] == numba.config.CACHE_DIR == jit.cache_folder())\n"
        "print(os.path.relpath(numba.config.CACHE_DIR, os.environ['XDG_CACHE_HOME']))"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    unset, agreed, where = done.stdout.split()
    assert (unset, agreed) == ("False", "True")
    assert os.path.dirname(where) == "kamicp" and len(os.path.basename(where)) == 16


def test_a_kernel_called_from_python_after_compilation_still_answers():
    from kamicp.search import bitsets

    rows = np.array([[0b0010], [0b0101], [0b1010], [0b0100]], dtype=np.uint64)
    start = np.array([0b0001], dtype=np.uint64)
    assert bitsets.border(start, rows).tolist() == [0b0010]
    jit.compile_kernels()  # nothing waiting: does nothing
    assert bitsets.border(start, rows).tolist() == [0b0010]


def test_trailing_zeros_in_a_kernel_and_in_python_agree_on_every_bit():
    from kamicp.search import bitsets

    rng = np.random.default_rng(5)
    words = [1 << i for i in range(64)] + [int(w) | 1 << 63 for w in rng.integers(1, 2**63, 200)]
    for x in words:
        expected = (x & -x).bit_length() - 1
        assert bitsets.lowest_bit(np.uint64(x)) == expected  # compiled: LLVM's cttz
        assert jit.trailing_zeros(np.uint64(x)) == expected  # from Python: its meaning


def test_an_inlined_kernel_is_compiled_into_its_callers_and_others_are_not():
    from kamicp.search import bitsets

    bitsets.popcount(np.uint64(1))  # compiles every kernel
    assert bitsets.sweep_bound.targetoptions["inline"] == "always"
    assert bitsets.greedy_colours.targetoptions["inline"] == "never"
    assert bitsets.sweep_bound(*_one_path()) == 3  # and it still runs from Python


def _one_path():
    neighbours = np.array([[0b0010], [0b0101], [0b1010], [0b0100]], dtype=np.uint64)
    masks = np.array([[0b0001], [0b1010], [0b0100]], dtype=np.uint64)
    start = np.array([0b0001], dtype=np.uint64)
    edge = np.array([0b0010], dtype=np.uint64)
    return start, edge, neighbours, masks, -1, np.empty((3, 1), dtype=np.uint64)


def test_cache_folders_unused_for_a_month_are_removed_and_no_others(tmp_path):
    root = tmp_path / "kamicp"
    current, recent, stale = (root / name for name in ("0123456789abcdef", "1" * 16, "2" * 16))
    mine = root / "bounds_cache"  # not a folder of compiled loops
    for folder in (current, recent, stale, mine):
        folder.mkdir(parents=True)
    month = time.time() - (jit.STALE_DAYS + 1) * 86400
    for folder in (current, stale, mine):
        os.utime(folder, (month, month))
    assert jit.prune_caches(str(current)) == [str(stale)]
    assert current.exists() and recent.exists() and mine.exists() and not stale.exists()
    assert current.stat().st_mtime > month  # marked as used


def test_a_cache_folder_the_user_chose_is_left_alone(tmp_path):
    chosen = tmp_path / "numba"
    other = tmp_path / ("3" * 16)
    other.mkdir()
    old = time.time() - 10**8
    os.utime(other, (old, old))
    assert jit.prune_caches(str(chosen)) == [] and other.exists()
    assert jit.prune_caches(str(tmp_path / "kamicp" / "x")) == []


def test_no_compiling_refuses_a_compile_and_runs_what_is_compiled(tmp_path, monkeypatch):
    import importlib.util

    import numba

    jit.compile_kernels()  # Numba imported and its compile events watched
    # a kernel whose Numba cache is empty: its source and its cache are this test's own
    (tmp_path / "tripling.py").write_text("def tripled(x):\n    return 3 * x\n")
    spec = importlib.util.spec_from_file_location("tripling", tmp_path / "tripling.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    triple = jit.kernel(module.tripled)
    jit.compile_kernels()
    with jit.no_compiling(), pytest.raises(jit.NotCompiled, match="tripled is not compiled"):
        triple(np.int64(2))
    assert triple(np.int64(2)) == 6  # compiled (or loaded) outside the block
    with jit.no_compiling():
        assert triple(np.int64(5)) == 15


def test_after_a_compile_stopped_by_ctrl_c_no_compiled_loop_is_trusted(monkeypatch):
    from numba.core import event

    jit.compile_kernels()
    monkeypatch.setattr(jit, "_broken", [False])
    with pytest.raises(KeyboardInterrupt), event.trigger_event("numba:compile", data={}):
        raise KeyboardInterrupt  # as a Ctrl-C midway through a compile
    with pytest.raises(jit.NotCompiled, match="interrupted"), jit.no_compiling():
        pass
