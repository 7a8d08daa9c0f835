"""`TaskSpec`: what the registry knows about one id beyond its class."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

PROTOCOLS = ("single_turn", "multi_turn")
DOMAIN_PACKAGE = "gymv_envs.domains"
_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")


def domain_of_module(module: str) -> str | None:
    """``"puzzles"`` for ``gymv_envs.domains.puzzles.maze_path``; ``None`` outside the domains package."""
    head = DOMAIN_PACKAGE + "."
    if not module.startswith(head):
        return None
    domain = module[len(head):].split(".", 1)[0]
    return domain or None


@dataclass(frozen=True)
class TaskSpec:
    """Registry metadata for one id, ``GymV/<name>-v<version>``.

    What the env class itself declares (protocol, difficulties, action modes, answer
    formats, instruction levels, views, extras) is read from the class, not repeated here.

    Args:
        name: CamelCase task name, unique across domains.
        entry_point: the env class (a `VisionEnv` subclass).
        domain: the domain; left out, it is the folder of the class's module
            (``gymv_envs/domains/<domain>/<task>.py``), which is how every GymV task gets it.
            Tasks defined elsewhere must name one.
        max_episode_steps: the step budget applied by ``gym.make``.
        max_return: best achievable episodic return, for ``100 * clip(R / max_return, 0, 1)``.
        version: bumped when generation, rules, reward or pixels change.
        tags: free-form labels used by ``gymv_envs.ids(tags=...)``.
        kwargs: default constructor arguments of this id (variants are arguments).
    """

    name: str
    entry_point: type
    max_episode_steps: int
    max_return: float = 1.0
    version: int = 0
    tags: tuple[str, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    domain: str | None = None

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"task name {self.name!r} must be CamelCase letters and digits")
        if int(self.max_episode_steps) < 1:
            raise ValueError(f"{self.name}: max_episode_steps must be >= 1")
        if not self.max_return > 0:
            raise ValueError(f"{self.name}: max_return must be > 0")
        module_domain = domain_of_module(getattr(self.entry_point, "__module__", ""))
        if self.domain is None:
            if module_domain is None:
                raise ValueError(f"{self.name}: pass domain=...; only classes under {DOMAIN_PACKAGE}.<domain> "
                                 "get theirs from the module path")
            object.__setattr__(self, "domain", module_domain)
        elif module_domain is not None and self.domain != module_domain:
            raise ValueError(f"{self.name}: domain={self.domain!r} but its module is in the {module_domain!r} folder")
        object.__setattr__(self, "tags", tuple(self.tags))
        object.__setattr__(self, "kwargs", MappingProxyType(dict(self.kwargs)))

    @property
    def id(self) -> str:
        return f"GymV/{self.name}-v{self.version}"

    @property
    def entry_point_string(self) -> str:
        cls = self.entry_point
        return f"{cls.__module__}:{cls.__qualname__}"
