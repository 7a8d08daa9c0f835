"""The examples in every wrapper module's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import gymv.wrappers

MODULES = sorted(m.name for m in pkgutil.iter_modules(gymv.wrappers.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"gymv.wrappers.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0, f"gymv.wrappers.{name} has no doctest"
    assert result.failed == 0
