"""`jsonable`: numpy values made plain for JSON (records, trajectories, checkpoint metadata)."""

from __future__ import annotations

from typing import Any

import numpy as np


def jsonable(value: Any) -> Any:
    """``value`` with numpy arrays and scalars turned into lists and Python numbers, tuples into
    lists and mapping keys into strings, recursively.

    >>> jsonable({"a": np.arange(2), 3: (np.float32(0.5), True)})
    {'a': [0, 1], '3': [0.5, True]}
    """
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
