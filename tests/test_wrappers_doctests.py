"""The examples in every wrapper's docstring run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["step_budget", "reward_clip", "camera_views", "frame_history", "text_actions", "instruction_level",
           "record_episode", "state_text", "stacks"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"wrappers.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0, f"wrappers.{name} has no doctest"
    assert result.failed == 0
