"""Libraries built ahead of time: they run without Numba, and a kernel that would need
Numba's runtime fails the build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from kamicp import aot

needs_linker = pytest.mark.skipif(
    not aot.linker() or shutil.which(aot.linker()[0]) is None,
    reason="no linker to build a shared library with (LDSHARED)",
)


def _entries() -> dict:
    """Three C entry points: one that runs without Numba, one that allocates, one that
    raises."""
    from numba import carray, cfunc, njit, types

    @njit
    def total(a):
        s = 0
        for x in a:
            s += x
        return s

    @njit
    def doubled_total(a):
        b = np.empty(a.shape[0], dtype=np.int64)  # Numba's runtime allocates this
        for i in range(a.shape[0]):
            b[i] = 2 * a[i]
        return total(b)

    @njit
    def checked_total(a):
        if a.shape[0] == 0:
            raise ValueError("empty")
        return total(a)

    signature = types.int64(types.CPointer(types.int64), types.int64)

    @cfunc(signature)
    def sum_entry(p, n):
        return total(carray(p, (n,)))

    @cfunc(signature)
    def doubled_entry(p, n):
        return doubled_total(carray(p, (n,)))

    @cfunc(signature)
    def checked_entry(p, n):
        return checked_total(carray(p, (n,)))

    return {"sum": sum_entry, "doubled": doubled_entry, "checked": checked_entry}


@needs_linker
def test_a_library_runs_its_entry_points_without_numba(tmp_path):
    path = tmp_path / "sums.so"
    aot.build_library({"sum": _entries()["sum"]}, path)
    os.chmod(tmp_path, 0o555)  # a read-only install opens it all the same
    try:
        code = (
            "import ctypes, sys\n"
            f"lib = ctypes.CDLL({str(path)!r})\n"
            "f = lib.kamicp_sum\n"
            "f.restype, f.argtypes = ctypes.c_int64, [ctypes.c_void_p, ctypes.c_int64]\n"
            "a = (ctypes.c_int64 * 4)(3, 4, 5, -2)\n"
            "print(f(a, 4), f(a, 2), 'numba' in sys.modules)"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    finally:
        os.chmod(tmp_path, 0o755)
    assert done.stdout.split() == ["10", "7", "False"], done.stderr


@needs_linker
@pytest.mark.parametrize(
    ("entry", "needs"), [("doubled", "NRT_MemInfo_alloc"), ("checked", "numba_do_raise")]
)
def test_an_entry_point_needing_numbas_runtime_fails_the_build(tmp_path, entry, needs):
    entries = _entries()
    with pytest.raises(aot.NeedsRuntime, match=needs):
        aot.build_library({"sum": entries["sum"], entry: entries[entry]}, tmp_path / "x.so")
    assert list(tmp_path.iterdir()) == []


@needs_linker
def test_a_failed_link_leaves_the_old_library_alone(tmp_path, monkeypatch):
    path = tmp_path / "sums.so"
    path.write_bytes(b"an older build")
    monkeypatch.setenv("LDSHARED", "false")  # a linker that fails
    with pytest.raises(RuntimeError, match="linking failed"):
        aot.build_library({"sum": _entries()["sum"]}, path)
    assert path.read_bytes() == b"an older build"
    assert [p.name for p in tmp_path.iterdir()] == ["sums.so"]


def test_the_target_cpu_is_generic_unless_chosen(monkeypatch):
    monkeypatch.delenv("KAMICP_CPU", raising=False)
    assert aot.target_cpu() == ("generic", "")
    monkeypatch.setenv("KAMICP_CPU", "x86-64-v3")
    assert aot.target_cpu() == ("x86-64-v3", "")
    monkeypatch.setenv("KAMICP_CPU", "host")
    name, features = aot.target_cpu()
    assert name and name != "host" and isinstance(features, str)


def test_numba_is_aimed_at_the_target_only_before_it_is_imported(monkeypatch):
    code = (
        "import os, sys\nfrom kamicp import aot\n"
        "aot.aim_numba()\nimport numba.core.config as c\n"
        "print(c.CPU_NAME)"
    )
    env = dict(os.environ, KAMICP_CPU="generic")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "generic", done.stderr
    import numba  # noqa: F401  (imported here already: the setting is not changed)

    monkeypatch.delenv("NUMBA_CPU_NAME", raising=False)
    aot.aim_numba()
    assert "NUMBA_CPU_NAME" not in os.environ


def test_the_linker_is_ldshared(monkeypatch):
    monkeypatch.setenv("LDSHARED", "cc -shared -O1")
    assert aot.linker() == ["cc", "-shared", "-O1"]


def test_an_llvmlite_without_the_new_pass_manager_fails_the_build_softly(tmp_path, monkeypatch):
    # its legacy pass manager mistakes the inlining attribute and aborts the process
    import llvmlite.binding as llvm

    entries = {"sum": _entries()["sum"]}  # compiled first: Numba itself needs it
    monkeypatch.delattr(llvm, "create_pass_builder")
    with pytest.raises(RuntimeError, match="llvmlite too old"):
        aot.build_library(entries, tmp_path / "x.so")
    assert list(tmp_path.iterdir()) == []
