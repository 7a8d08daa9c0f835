"""Command line entry: ``python -m benchmarks {demo,speed} ...``."""

from __future__ import annotations

import sys

COMMANDS = {
    "demo": "benchmarks.demo",
    "speed": "benchmarks.speed",
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        given = f"unknown command {argv[0]!r}; " if argv and argv[0] not in ("-h", "--help") else ""
        print(f"usage: python -m benchmarks {{{','.join(COMMANDS)}}} [options]\n{given}valid commands: {', '.join(COMMANDS)}",
              file=sys.stderr if given else sys.stdout)
        return 2 if given or not argv else 0
    import importlib

    return importlib.import_module(COMMANDS[argv[0]]).main(argv[1:])
