"""Writes the README's catalogue table and a gallery image, both from the registry.

``python -m gymv_envs.catalogue [--readme README.md] [--gallery docs/gallery.png] [--check]``

The table goes between the ``<!-- catalogue:start -->`` and ``<!-- catalogue:end -->``
markers of the README. ``--check`` exits 1 when the README's table is stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
from PIL import Image

import gymv_envs
from gymv_envs.core.canvas import INK, draw_text, new_frame

START, END = "<!-- catalogue:start -->", "<!-- catalogue:end -->"


def _space(env_id: str) -> str:
    d = gymv_envs.describe(env_id)
    if d["protocol"] == "single_turn":
        return "answer: " + " / ".join(d["answer_formats"])
    return " / ".join(d["action_modes"])


def table() -> str:
    """The Markdown catalogue of every registered id."""
    lines = [f"{len(gymv_envs.ids())} ids in {len(gymv_envs.domain_names())} domains.", "",
             "| id | domain | protocol | actions | difficulties | budget | extras | summary |",
             "| --- | --- | --- | --- | --- | ---: | --- | --- |"]
    for env_id in gymv_envs.ids():
        d = gymv_envs.describe(env_id)
        lines.append(
            f"| `{env_id}` | {d['domain']} | {d['protocol'].replace('_', '-')} | {_space(env_id)} | "
            f"{', '.join(map(str, d['difficulties']))} | {d['max_episode_steps']} | "
            f"{', '.join(d['extras']) or '-'} | {d['summary']} |"
        )
    return "\n".join(lines)


def update_readme(path: Path) -> bool:
    """Rewrite the catalogue section of ``path``; returns whether it changed."""
    text = path.read_text()
    if START not in text or END not in text:
        raise ValueError(f"{path} has no {START} ... {END} section")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{START}\n{table()}\n{END}{tail}"
    if new != text:
        path.write_text(new)
        return True
    return False


def gallery(path: Path, tile: int = 160, cols: int = 6) -> None:
    """A grid of first frames (seed 0, difficulty 1) of every available id, labelled."""
    selected = gymv_envs.ids(available_only=True)
    rows = (len(selected) + cols - 1) // cols
    label = 18
    sheet = new_frame(rows * (tile + label), cols * tile, (255, 255, 255))
    for i, env_id in enumerate(selected):
        env = gym.make(env_id, difficulty=1, obs_size=(tile, tile))
        obs, _ = env.reset(seed=0)
        env.close()
        r, c = divmod(i, cols)
        y, x = r * (tile + label), c * tile
        sheet[y: y + tile, x: x + tile] = obs
        draw_text(sheet, env_id.removeprefix("GymV/"), (x + tile / 2, y + tile + label / 2), 11, INK)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.ascontiguousarray(sheet)).save(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gymv_envs.catalogue", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--readme", default="README.md")
    parser.add_argument("--gallery", default="docs/gallery.png", help="'' to skip the image")
    parser.add_argument("--check", action="store_true", help="only check that the README is up to date")
    args = parser.parse_args(argv)
    readme = Path(args.readme)
    try:
        text = readme.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        parser.error(f"cannot read --readme {readme}: {getattr(exc, 'strerror', None) or exc} (run it from the repository "
                     "root, or pass --readme PATH)")
    if START not in text or END not in text:
        parser.error(f"--readme {readme} has no catalogue section: add the lines {START} and {END} where the table goes")
    if args.gallery and Path(args.gallery).suffix.lower() not in Image.registered_extensions():
        parser.error(f"invalid --gallery {args.gallery}: not an image file name; valid endings: .png, .jpg, .webp, ... "
                     "('' to skip the image)")
    if args.check:
        current = text.split(START, 1)[1].split(END, 1)[0].strip()
        if current != table():
            print(f"{readme}: catalogue is stale; run python -m gymv_envs.catalogue", file=sys.stderr)
            return 1
        return 0
    changed = update_readme(readme)
    print(f"{readme}: catalogue {'updated' if changed else 'already up to date'}")
    if args.gallery:
        gallery(Path(args.gallery))
        print(f"wrote {args.gallery}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
