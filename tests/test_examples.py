"""The examples in the modules' docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import kamicp

# kamicp.__main__ runs the command line when imported
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(kamicp.__path__, "kamicp.")
    if info.name != "kamicp.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_the_modules_with_examples_are_found():
    # a wrong package path would make every test above pass without running anything
    tried = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert "kamicp.bounds.walks" in MODULES and tried >= 3
