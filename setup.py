"""Build step of kamicp: the pivot A*'s compiled loop, ahead of time.

Everything else is declared in ``pyproject.toml``. Here the kernels of
``kamicp/search/pivot_kernels.py`` are compiled into the shared library
``kamicp/search/pivot_native.lib`` (``kamicp/aot.py``, ``kamicp/search/pivot_code.py``), so
that a Flood-It solve need not import Numba. The build is optional: without a linker, or
if it fails, kamicp is installed without it and runs the same kernels through Numba's JIT.
``KAMICP_NO_NATIVE=1`` skips it; ``KAMICP_CPU`` chooses the processor it is compiled for.
"""

import importlib
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildNative(build_ext):
    """Build the library of the pivot kernels, or warn and go on."""

    def build_extension(self, ext):
        target = self.get_ext_fullpath(ext.name)
        sys.path.insert(0, HERE)  # the kamicp being built, not one installed elsewhere
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            code = importlib.import_module("kamicp.search.pivot_code")
            code.build(target, os.path.join(HERE, "kamicp"))
        except Exception as err:  # no linker, no Numba: the JIT does the same work
            print(f"kamicp: the pivot search is not compiled ahead of time: {err}", file=sys.stderr)
            self.failed = True
        finally:
            sys.path.remove(HERE)

    def get_ext_filename(self, fullname):
        # a shared library for ctypes, not a Python extension: no extension's suffix, so
        # that nothing tries to import it as a module
        return os.path.join(*fullname.split(".")) + ".lib"

    def get_outputs(self):
        return [] if getattr(self, "failed", False) else super().get_outputs()


if os.environ.get("KAMICP_NO_NATIVE"):
    setup()
else:
    setup(
        ext_modules=[Extension("kamicp.search.pivot_native", sources=[])],
        cmdclass={"build_ext": BuildNative},
    )
