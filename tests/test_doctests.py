"""The examples in the engine's docstrings run: each module of dsl/ and interpreter/ is imported under its
installed name and its doctests run, so a docstring that says what a function gives stays true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import boardrule.dsl
import boardrule.interpreter


def _modules():
    names = []
    for package in (boardrule.dsl, boardrule.interpreter):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_give_what_they_say(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (run with -s)"


def test_the_engine_has_examples_to_run():
    attempted = sum(doctest.testmod(importlib.import_module(n), optionflags=doctest.ELLIPSIS, verbose=False,
                                    report=False).attempted for n in ("boardrule.dsl.types",
                                                                       "boardrule.interpreter.compiler.compiled"))
    assert attempted >= 3
