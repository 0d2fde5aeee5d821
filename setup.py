"""Build step of kamicp: the pivot A*'s compiled loop, ahead of time.

Everything else is declared in ``pyproject.toml``. Here Numba's ``pycc`` compiles the
kernels of ``kamicp/search/pivot_kernels.py`` into the extension
``kamicp.search.pivot_native``, so that a Flood-It solve need not import Numba
(``kamicp/search/pivot_code.py`` says when it is used). The build is optional: without a C
compiler, or if it fails, kamicp is installed without it and runs the same kernels through
Numba's JIT. ``KAMICP_NO_NATIVE=1`` skips it.
"""

import importlib
import os
import sys
import warnings

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildNative(build_ext):
    """Compile ``kamicp.search.pivot_native`` with Numba's pycc, or warn and go on."""

    def build_extension(self, ext):
        target = self.get_ext_fullpath(ext.name)
        try:
            compile_native(os.path.dirname(target), os.path.basename(target))
        except Exception as err:  # no compiler, no Numba: the JIT does the same work
            print(f"kamicp: the pivot search is not compiled ahead of time: {err}", file=sys.stderr)
            self.failed = True

    def get_outputs(self):
        return [] if getattr(self, "failed", False) else super().get_outputs()


def compile_native(folder: str, filename: str) -> None:
    """Compile the pivot kernels, with the fingerprint of their sources, into
    ``folder/filename``."""
    sys.path.insert(0, HERE)  # the kamicp being built, not one installed elsewhere
    try:
        warnings.simplefilter("ignore")  # pycc's pending deprecation
        from numba.pycc import CC

        kernels = importlib.import_module("kamicp.search.pivot_kernels")
        code = importlib.import_module("kamicp.search.pivot_code")
        from kamicp.jit import compile_kernels

        compile_kernels()
        fingerprint = int(code.source_fingerprint(os.path.join(HERE, "kamicp")), 16) - 2**63

        def stamp():
            return fingerprint

        cc = CC("pivot_native")
        cc.output_dir = folder
        cc.output_file = filename
        cc.verbose = False
        cc.export("fingerprint", "i8()")(stamp)
        for name, signature in kernels.EXPORTS.items():
            cc.export(name, signature)(getattr(kernels, name).py_func)
        os.makedirs(folder, exist_ok=True)
        cc.compile()
    finally:
        sys.path.remove(HERE)


if os.environ.get("KAMICP_NO_NATIVE"):
    setup()
else:
    setup(
        ext_modules=[Extension("kamicp.search.pivot_native", sources=[])],
        cmdclass={"build_ext": BuildNative},
    )
