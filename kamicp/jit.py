"""Compiled loops whose compiler is loaded on first use.

kamicp's inner loops are compiled by Numba (``njit(cache=True)``), but importing Numba and
readying its compiler takes about half a second, more than a whole 16x16 Flood-It solve by
the ahead-of-time build of the pivot search (:mod:`kamicp.search.pivot_code`). So a loop
is declared with :func:`kernel` instead: it stays a plain function, and on the first call
of any kernel Numba is imported and every kernel declared so far becomes a Numba
dispatcher, which compiles (or loads from Numba's cache) at its own first call. A command
that calls none, or only the ahead-of-time build, never imports Numba.

Numba finds a kernel's callees among its module's globals when it compiles it, so
:func:`compile_kernels` puts the compiled dispatchers in place of the kernels there, and in
every kamicp module that imported a kernel by name.

Compiled code reaches a run one way: each loop is declared here once, and Numba compiles it,
either on its first call, cached in :func:`cache_folder` (one folder per state of kamicp's
sources, so that an edit or an upgrade compiles afresh and a read-only install still caches,
in the user's cache folder), or, for the pivot A*'s entry points, at install time into a
library that runs without Numba (:mod:`kamicp.aot`, :mod:`kamicp.search.pivot_code`), used
only while it was built from these very sources.

A kernel may use an :class:`Instruction` such as :data:`trailing_zeros`: one machine
instruction, made as a Numba intrinsic when the kernels are compiled. A step of an inner loop
is declared ``@kernel(inline=True)`` and compiled into its callers.

A compile takes up to seconds a kernel on a first run. Code that must answer at once (the
answer of an interrupted solve) runs inside :func:`no_compiling`: there a kernel that would
be compiled raises :class:`NotCompiled` instead (loading one from Numba's cache is allowed),
through Numba's compile events.

Examples
--------
>>> import numpy as np
>>> from kamicp.search.bitsets import popcount  # a kernel, compiled on its first call
>>> popcount(np.uint64(0b1011))
3
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = [
    "STALE_DAYS",
    "Instruction",
    "Kernel",
    "NotCompiled",
    "cache_folder",
    "compile_kernels",
    "first_run",
    "kernel",
    "no_compiling",
    "prune_caches",
    "refusing",
    "stopped_midway",
    "trailing_zeros",
]

# Cache folders of other states of the sources (:func:`cache_folder`) that no run has
# used for this many days are removed: each upgrade or edit leaves one behind, 4-9 MB each.
STALE_DAYS = 30

_CACHE_NAME = re.compile(r"[0-9a-f]{16}")  # the folders kamicp names, and only those

_waiting: list[Kernel] = []  # kernels declared and not compiled yet
_instructions: list[Instruction] = []  # instructions not made yet
_refusing = [0]  # how many no_compiling blocks are open
_watching = [False]  # whether Numba's compile events are watched (once Numba is imported)
_broken = [False]  # whether a compile was interrupted (Ctrl-C) midway in this process


class NotCompiled(RuntimeError):
    """A kernel would have been compiled inside :func:`no_compiling`."""


@contextmanager
def no_compiling() -> Iterator[None]:
    """Within the block, a kernel that needs compiling raises :class:`NotCompiled`.

    Kernels compiled already, or in Numba's cache, run as always. Nested blocks are allowed.
    After a compile that an interrupt stopped midway, the block itself raises
    :class:`NotCompiled`: the callees that compile had registered may be half made (Numba
    then fails with "no compiled object yet").

    Examples
    --------
    >>> with no_compiling():
    ...     pass
    """
    if _broken[0]:
        raise NotCompiled("a compile was interrupted midway: the compiled loops are not used")
    _refusing[0] += 1
    try:
        yield
    finally:
        _refusing[0] -= 1


def refusing() -> bool:
    """Whether a :func:`no_compiling` block is open, or a compile was stopped midway.

    Examples
    --------
    >>> with no_compiling():
    ...     refusing()
    True
    """
    return bool(_refusing[0] or _broken[0])


def stopped_midway() -> None:
    """Note that a compile was stopped midway though no KeyboardInterrupt came out of it (one
    that Numba's compiler swallowed, seen by the error the half-made loop gives later): from
    now on :func:`no_compiling` refuses, as after an interrupt it saw."""
    _broken[0] = True


def _watch_compiles() -> None:
    """Refuse Numba's compiles inside :func:`no_compiling`, and note a compile that an
    interrupt stopped (Numba's ``numba:compile`` event)."""
    from numba.core import event

    class Refuser(event.Listener):
        def on_start(self, ev) -> None:
            if _refusing[0]:
                raise NotCompiled(f"{ev.data['dispatcher'].py_func.__name__} is not compiled")

        def on_end(self, ev) -> None:
            # the end of a failed compile is told while its exception unwinds
            if isinstance(sys.exc_info()[1], KeyboardInterrupt):
                _broken[0] = True

    event.register("numba:compile", Refuser())
    _watching[0] = True


class Kernel:
    """A function to be compiled by Numba's ``njit(cache=True)`` when a kernel is first called.

    Calling it compiles it (see :func:`compile_kernels`) and calls the compiled loop.
    ``py_func`` is the plain function, as on a Numba dispatcher; ``inline`` says whether
    it is compiled into its callers (:func:`kernel`).
    """

    def __init__(self, func: Callable, inline: bool = False) -> None:
        self.py_func = func
        self.inline = inline
        self.compiled: Callable | None = None
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self.__wrapped__ = func
        _waiting.append(self)

    def __call__(self, *args, **kwargs):
        if self.compiled is None:
            compile_kernels()
        return self.compiled(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<kernel {self.__module__}.{self.__qualname__}>"


def kernel(
    func: Callable | None = None, *, inline: bool = False
) -> Kernel | Callable[[Callable], Kernel]:
    """Declare ``func`` a compiled loop (Numba's nopython mode, cached on disk).

    Parameters
    ----------
    func : callable
        A function Numba can compile in nopython mode; the kernels it calls must be
        declared before it is first called.
    inline : bool
        Compile the function into each kernel that calls it (Numba's ``inline="always"``),
        for a step of an inner loop: the call and the reference counts of its array
        arguments go, which makes the pivot A* 1.25x faster (BENCHMARKS.md, "Pivot rules:
        the default route").
        Used as ``@kernel(inline=True)``.

    Returns
    -------
    Kernel
        The function, compiled on the first call of any kernel.
    """
    if func is None:
        return lambda f: Kernel(f, inline=inline)
    return Kernel(func, inline=inline)


class Instruction:
    """One machine instruction for kernels, as a Numba intrinsic made when the kernels are
    compiled (:func:`compile_kernels`); called from Python it runs ``py_func``, its meaning."""

    def __init__(self, py_func: Callable, build: Callable[[], Callable]) -> None:
        self.py_func = py_func
        self.build = build
        self.compiled: Callable | None = None
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        _instructions.append(self)

    def __call__(self, *args):
        return self.py_func(*args)

    def __repr__(self) -> str:
        return f"<instruction {self.__name__}>"


def _trailing_zeros(x) -> int:
    """The index of the lowest set bit of a non-zero 64-bit word."""
    x = int(x)
    return (x & -x).bit_length() - 1


def _build_trailing_zeros() -> Callable:
    """LLVM's ``cttz`` (one ``tzcnt`` or ``bsf``) on a 64-bit word."""
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def trailing_zeros(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.uint64(types.uint64), codegen

    return trailing_zeros


# The lowest set bit's index, one instruction in a kernel: 11% of the pivot A*'s time against
# a de Bruijn multiply and table (BENCHMARKS.md, "Pivot rules: the default route").
trailing_zeros = Instruction(_trailing_zeros, _build_trailing_zeros)


def compile_kernels() -> None:
    """Import Numba and compile every kernel declared so far.

    Compilation itself is lazy in Numba (a dispatcher compiles for the argument types of
    its first call, or loads them from its cache), so this costs the import and about a
    millisecond a kernel. The kamicp modules' globals that name a kernel are pointed at its
    dispatcher, which is where Numba looks for a kernel's callees.
    """
    if not _waiting and not any(i.compiled is None for i in _instructions):
        return
    # set before Numba is imported, which reads it then; children inherit it
    cache = os.environ.setdefault("NUMBA_CACHE_DIR", cache_folder())
    if first_run(cache):
        from kamicp.procs.progress import notice

        notice("compiling kamicp's loops, once after an install or an upgrade")
    prune_caches(cache)
    from numba import njit  # the compiler: imported only when a compiled loop runs

    if not _watching[0]:  # the first compile of this process
        from numba.core import config

        config.CACHE_DIR = cache  # where other code imported Numba first, it read no folder
        _watch_compiles()
    for instruction in _instructions:
        if instruction.compiled is None:
            instruction.compiled = instruction.build()
    for waiting in _waiting:
        if waiting.compiled is None:
            how = "always" if waiting.inline else "never"
            waiting.compiled = njit(cache=True, inline=how)(waiting.py_func)
    _waiting.clear()
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "kamicp" or name.startswith("kamicp.")):
            continue
        if name == __name__:  # the instructions here stay callable from Python
            continue
        space = vars(module)
        for key, value in list(space.items()):
            if isinstance(value, (Kernel, Instruction)) and value.compiled is not None:
                space[key] = value.compiled


def cache_folder() -> str:
    """Where Numba caches the compiled loops: ``NUMBA_CACHE_DIR`` where the user set it, else
    ``kamicp/<digest>`` in the user's cache folder (files written inside an installed package
    would not be pip's to remove), the digest that of the sources' paths, times and sizes.
    Numba checks only the file of each cached function, not the files of the functions
    compiled into it, so a cache kept across a change elsewhere could run a callee's old code.
    O(files) system calls, about a millisecond.

    Examples
    --------
    >>> os.path.isabs(cache_folder())
    True
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    digest = hashlib.blake2b(digest_size=8)
    root = os.path.dirname(os.path.abspath(__file__))
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name}:{stat.st_mtime_ns}:{stat.st_size};".encode())
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "kamicp", digest.hexdigest())


def first_run(cache: str) -> bool:
    """Whether Numba's cache folder for these sources holds nothing yet: the loops are
    compiled now, seconds to a minute, where later runs load them in milliseconds.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first_run(folder), first_run(os.path.join(folder, "absent"))
    (True, True)
    >>> first_run("")  # no folder chosen: Numba's own, not kamicp's to judge
    False
    """
    if not cache:
        return False
    try:
        with os.scandir(cache) as entries:
            return next(entries, None) is None
    except OSError:  # absent (or unreadable): nothing cached
        return True


def prune_caches(current: str, days: float = STALE_DAYS) -> list[str]:
    """Mark the cache folder ``current`` as used now, and remove the folders beside it that
    kamicp named (16 hex digits, in a folder named ``kamicp``) and no run has used for
    ``days`` days. A folder the user chose (``NUMBA_CACHE_DIR``) is left alone.

    Parameters
    ----------
    current : str
        The cache folder of these sources.
    days : float
        How long a folder may go unused.

    Returns
    -------
    list of str
        The folders removed.

    Examples
    --------
    >>> prune_caches("/somewhere/of/the/users")  # not a folder kamicp named: nothing happens
    []
    """
    parent, name = os.path.split(os.path.normpath(current))
    if not _CACHE_NAME.fullmatch(name) or os.path.basename(parent) != "kamicp":
        return []
    try:
        os.makedirs(current, exist_ok=True)
        os.utime(current)
        entries = list(os.scandir(parent))
    except OSError:  # a read-only home, say: the cache is Numba's to do without
        return []
    removed = []
    oldest = time.time() - days * 86400
    for entry in entries:
        if entry.name == name or not _CACHE_NAME.fullmatch(entry.name):
            continue
        try:
            if entry.is_dir(follow_symlinks=False) and entry.stat().st_mtime < oldest:
                shutil.rmtree(entry.path)
                removed.append(entry.path)
        except OSError:  # in use by a run of other sources, or removed by one: left to it
            continue
    return removed
