"""Kernels built ahead of time into a shared library that runs without Numba.

A library is built from C entry points that Numba compiles over kernels (``numba.cfunc``):
:func:`build_library` takes their LLVM IR (``inspect_llvm``), optimises and compiles it
with llvmlite into one object file, and links that with the linker Python was built with
(``LDSHARED``). Opening the library with :mod:`ctypes` takes about a millisecond, where
importing Numba and loading the same code from its cache takes about half a second
(BENCHMARKS.md, "Start-up"). Only public interfaces are used: Numba's ``cfunc``, ``carray``
and ``inspect_llvm``, llvmlite's binding layer, and the system's linker.

The library must need nothing of Numba's at run time: no memory from Numba's runtime
(``np.empty`` in a kernel) and no Python exception. Each entry point's Numba function is
inlined into its C wrapper, whose error paths the optimiser then drops, as a function that
cannot fail never reaches them; Numba's reference counts, on arrays that no runtime owns
(``carray``), fold away as constants. Any function still called outside the library, LLVM's
intrinsics aside, makes the build fail (:class:`NeedsRuntime`) naming it, so that a kernel
that allocates breaks the build, never a run.

Examples
--------
>>> import sysconfig
>>> bool(linker()) == bool(sysconfig.get_config_var("LDSHARED") or os.environ.get("LDSHARED"))
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

__all__ = ["EXPORT_PREFIX", "NeedsRuntime", "aim_numba", "build_library", "linker", "target_cpu"]

# Each entry point ``name`` is exported as the C symbol EXPORT_PREFIX + name.
EXPORT_PREFIX = "kamicp_"


class NeedsRuntime(RuntimeError):
    """An entry point calls a function outside the library (Numba's runtime, Python's)."""


def linker() -> list[str]:
    """The command that links objects into a shared library: ``LDSHARED`` from the
    environment, else the one Python was built with; empty where there is none."""
    import shlex  # here and below: a run that only opens a library imports none of these
    import sysconfig

    command = os.environ.get("LDSHARED") or sysconfig.get_config_var("LDSHARED") or ""
    return shlex.split(command)


def target_cpu(cpu: str | None = None) -> tuple[str, str]:
    """The CPU a library is compiled for, and its features: ``cpu``, else ``KAMICP_CPU``
    from the environment (``host`` for this machine's), else LLVM's generic CPU of the
    platform, which any processor of it runs, as a wheel must. The pivot A*'s loops gain
    nothing from this machine's own (BENCHMARKS.md, "Start-up")."""
    import llvmlite.binding as llvm

    chosen = cpu or os.environ.get("KAMICP_CPU", "generic")
    if chosen == "host":
        return llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    return chosen, ""


def aim_numba() -> None:
    """Have Numba optimise for :func:`target_cpu` too (``NUMBA_CPU_NAME``), where Numba is
    not imported yet: it reads the setting then. Otherwise its IR is tuned to this machine,
    which is correct on any CPU, only less apt."""
    if "numba" not in sys.modules:
        cpu, features = target_cpu()
        os.environ["NUMBA_CPU_NAME"] = cpu
        os.environ["NUMBA_CPU_FEATURES"] = features


def build_library(
    entries: Mapping[str, object], path: str | os.PathLike, cpu: str | None = None
) -> None:
    """Compile the Numba C entry points ``entries`` (export name: ``numba.cfunc`` object)
    into the shared library ``path``, written whole or not at all, for the CPU ``cpu``
    (``host``, an LLVM name, or None for :func:`target_cpu`).

    Parameters
    ----------
    entries : mapping of str to numba CFunc
        The entry points, each exported as :data:`EXPORT_PREFIX` + its name.
    path : path-like
        Where the library goes; the folder must exist.
    cpu : str, optional
        The processor to compile for.

    Raises
    ------
    NeedsRuntime
        An entry point still calls Numba's runtime or Python after inlining.
    RuntimeError
        No linker is known (``LDSHARED``), or it failed.

    Notes
    -----
    Every function of the module is made internal and always inlined (those Numba marks
    ``noinline`` aside, its reference counts), so each entry point becomes one function; the
    optimiser (LLVM's O3 pipeline) then propagates constants across the rest and removes
    what is unused.
    """
    import subprocess
    import tempfile

    import llvmlite.binding as llvm

    if not hasattr(llvm, "create_pass_builder"):
        raise RuntimeError("llvmlite too old: LLVM's new pass manager is needed (Numba 0.61+)")
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    # stage 1: one module of every entry point and the kernels it calls
    module = None
    exports = {}
    for name, entry in entries.items():
        part = llvm.parse_assembly(entry.inspect_llvm())
        exports[entry.native_name] = EXPORT_PREFIX + name
        if module is None:
            module = part
        else:
            module.link_in(part)
    if module is None:
        raise ValueError("no entry points to build")
    # stage 2: the entry points exported under their names, everything else inlined
    for function in module.functions:
        if function.is_declaration:
            continue
        if function.name in exports:
            function.name = exports[function.name]
        else:
            function.linkage = llvm.Linkage.internal
            if b"noinline" not in b" ".join(function.attributes).split():
                function.add_function_attribute("alwaysinline")
    for variable in module.global_variables:
        if not variable.is_declaration:
            variable.linkage = llvm.Linkage.internal
    cpu, features = target_cpu(cpu)
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu=cpu, features=features, opt=3, reloc="pic", codemodel="default"
    )
    module.verify()  # before the optimiser, which aborts the process on invalid IR
    passes = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(3))
    passes.getModulePassManager().run(module, passes)
    module.verify()
    # stage 3: nothing may be left to call outside the library
    outside = sorted(
        f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")
    )
    if outside:
        raise NeedsRuntime(f"the entry points still call {', '.join(outside)}")
    # stage 4: object and link, into a temporary file renamed over the target
    command = linker()
    if not command:
        raise RuntimeError("no linker known: set LDSHARED")
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        obj = os.path.join(scratch, "entries.o")
        with open(obj, "wb") as out:
            out.write(machine.emit_object(module))
        built = os.path.join(scratch, "library.so")
        done = subprocess.run([*command, obj, "-o", built], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"linking failed: {done.stderr.strip() or done.stdout.strip()}")
        os.replace(built, path)
