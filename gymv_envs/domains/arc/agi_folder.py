"""ARC-AGI tasks from a folder the user supplies (official JSON format); nothing bundled or downloaded."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from gymv_envs.domains.arc._base import ArcEnv
from gymv_envs.domains.arc._search import Core, Rule
from gymv_envs.domains.arc._transforms import Scene

MAX_SIDE = 30
FORMAT = "a folder of ARC-AGI task files (*.json, each {\"train\": [{\"input\": grid, \"output\": grid}, ...], \"test\": [...]})"


def _grid(value: Any) -> np.ndarray | None:
    """A rectangular grid of digits 0-9 up to 30 x 30, or None."""
    if not isinstance(value, list) or not value or not all(isinstance(r, list) and r for r in value):
        return None
    if len(value) > MAX_SIDE or any(len(r) != len(value[0]) or len(r) > MAX_SIDE for r in value):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for r in value for v in r):
        return None
    return np.array(value, dtype=np.int8)


def load_tasks(folder: str | os.PathLike) -> list[tuple[str, list[tuple[np.ndarray, np.ndarray]], list[tuple[np.ndarray, np.ndarray]]]]:
    """(name, train pairs, test pairs with a known output) of every readable task under ``folder``,
    sorted by name; files that are not valid tasks are skipped."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"ArcAgiFolder: data_dir={str(folder)!r} is not a folder; valid values: {FORMAT}")
    tasks = []
    for path in sorted(root.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        if not isinstance(data, dict):
            continue
        pairs = {}
        for part in ("train", "test"):
            items = data.get(part)
            pairs[part] = [(_grid(p.get("input")), _grid(p.get("output"))) for p in items if isinstance(p, dict)] \
                if isinstance(items, list) else []
            pairs[part] = [(a, b) for a, b in pairs[part] if a is not None and b is not None]
        if pairs["train"] and pairs["test"]:
            tasks.append((str(path.relative_to(root)), pairs["train"], pairs["test"]))
    if not tasks:
        raise ValueError(f"ArcAgiFolder: data_dir={str(folder)!r} holds no task with a test output; valid values: {FORMAT}")
    return tasks


class ArcAgiFolder(ArcEnv):
    """Solve ARC-AGI tasks loaded from a folder of the official JSON files.

    ## Description
    Each level is one test pair of one task found under ``data_dir`` (``*.json``, searched
    recursively; files that are not tasks, and test pairs without an output, are skipped): the
    task's training pairs are the demonstrations, drawn like every ARC-style id. Nothing is
    bundled or downloaded: bring the ARC-AGI data (or any task in its format). The answer is the
    task's test output; its uniqueness is the task author's (the official tasks are designed to
    have one answer), not checked here. The difficulty picks a third of the tasks by size (the
    largest grid of a task): 0 the smallest, 2 the largest (every level uses all tasks when
    there are fewer than three).

    ## Action Space
    ``answer_format="open"``: `Text`, the output grid as rows of colour digits separated by ``/``
    (spaces, commas, new lines, colour names and JSON lists are read too). ``"mcq"``:
    `Discrete(k)` over candidate grids (the answer turned or mirrored, shifted by one cell, with a
    colour swapped or one cell changed, the test input).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: one grey panel per pair, the test framed in orange with a
    '?', and a legend of the ten colour digits.

    ## Rewards
    1.0 for the exact output grid, else 0.0.

    ## Starting State
    The task and test pair are drawn from the seed among the difficulty's tasks.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``data_dir`` (required: the folder of task files; a missing folder or one without tasks
    raises ValueError), ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``. Not registered (it cannot run without data): make it with
    ``ArcAgiFolder(data_dir=...)`` or register it under an id of your own with
    ``gymnasium.register(..., kwargs={"data_dir": ...})``.

    ## Version History
    - v0: initial version.
    """

    def __init__(self, data_dir: str | os.PathLike | None = None, **kwargs: Any) -> None:
        if not isinstance(data_dir, (str, os.PathLike)):
            raise ValueError(f"ArcAgiFolder needs data_dir=...; valid values: {FORMAT}")
        tasks = load_tasks(data_dir)
        self.data_dir = str(data_dir)
        size = lambda t: max(g.size for pair in t[1] + t[2] for g in pair)  # noqa: E731
        ranked = sorted(tasks, key=lambda t: (size(t), t[0]))
        third = len(ranked) / 3
        self._levels = {d: (ranked[int(d * third):int((d + 1) * third)] if len(ranked) >= 3 else ranked)
                        for d in (0, 1, 2)}
        super().__init__(**kwargs)

    def _cores(self) -> list[Core]:
        return [("identity", 0, lambda s: s.grid)]

    def _generate(self, rng: np.random.Generator) -> None:
        tasks = self._levels[self.difficulty]
        self.task, train, tests = tasks[int(rng.integers(len(tasks)))]
        x, y = tests[int(rng.integers(len(tests)))]
        self.rule = Rule("task")
        self.demos = [(Scene(a), b) for a, b in train]
        self.test, self.truth = Scene(x), y
        self._text = None

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list[Scene]]:
        raise NotImplementedError  # levels are loaded, not sampled


SPECS = ()  # needs data: see the class docstring (Arguments)
