"""Command line entry: ``gymv-bench <command> ...`` (also ``python -m gymv.benchmarks <command> ...``)."""

from __future__ import annotations

import sys

COMMANDS = {
    "run": ("gymv.benchmarks.run", "an agent over registered ids: scores, intervals, reports, resume"),
    "compare": ("gymv.benchmarks.compare", "paired difference of two runs over shared seeds"),
    "validity": ("gymv.benchmarks.validity", "random and oracle scores per id and level; fails where chance does well"),
    "export-vqa": ("gymv.benchmarks.vqa.export", "freeze multiple-choice questions from live envs into a set"),
    "eval-vqa": ("gymv.benchmarks.vqa.evaluate", "answer a frozen set offline, with AgentVQA's format checks"),
    "agreement": ("gymv.benchmarks.vqa.agreement", "does offline accuracy rank agents like online scores?"),
    "speed": ("gymv.benchmarks.speed", "reset/s, step/s, render ms and peak RSS per id"),
    "overhead": ("gymv.benchmarks.overhead", "runner overhead over raw stepping, and worker scaling"),
    "judge-audit": ("gymv.benchmarks.judge_audit", "the web tasks' VLM judge against their exact rubric"),
    "demo": ("gymv.benchmarks.demo", "a quick per-id loop of a built-in agent"),
}


# what an interrupted command leaves, where it is more than nothing (run and eval-vqa also catch Ctrl-C themselves)
RESUMES = {
    "run": "the finished episodes are in --out; the same command again runs only the others",
    "agreement": "a VLM agent's replies so far are in its cache; the same command again asks only the others",
}


def usage() -> str:
    lines = [f"usage: gymv-bench {{{','.join(COMMANDS)}}} [options]   (gymv-bench --version: the installed version)",
             "", "commands:"]
    lines += [f"  {name:11} {text}" for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(usage(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        import platform

        import gymnasium

        import gymv_envs

        print(f"gymv-bench {gymv_envs.__version__} (gymnasium {gymnasium.__version__}, python {platform.python_version()})")
        return 0
    if argv[0] not in COMMANDS:
        print(f"{usage()}\nerror: unknown command {argv[0]!r}; valid commands: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    import importlib

    try:
        return importlib.import_module(COMMANDS[argv[0]][0]).main(argv[1:])
    except KeyboardInterrupt:   # Ctrl-C: a line, not a traceback from wherever the command was waiting
        print(f"gymv-bench {argv[0]}: interrupted; {RESUMES.get(argv[0], 'nothing was written')}", file=sys.stderr)
        return 130
    except OSError as exc:   # a full disk or a read-only folder while writing: a line naming it
        import errno

        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO):
            raise
        where = f" {exc.filename}" if exc.filename else ""
        print(f"gymv-bench {argv[0]}: cannot write{where}: {exc.strerror or exc}; what the command printed above is "
              f"all it finished; {RESUMES.get(argv[0], 'free some space or mend the folder and run it again')}",
              file=sys.stderr)
        return 1
