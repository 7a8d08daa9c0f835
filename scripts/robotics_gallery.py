"""Gallery of the robotics ids: the first frame of each from the scene camera and the wrist camera.

    MUJOCO_GL=egl python scripts/robotics_gallery.py --out docs/robotics_gallery.png

One row per id (difficulty 1, seed 0): scene view, wrist view (``render_view("wrist")``), labelled
with the id and the instruction's goal. Needs the ``robotics`` extra.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

os.environ.setdefault("MUJOCO_GL", "egl")


def gallery(out: Path, tile: int = 200, cols: int = 4, difficulty: int = 1) -> Path:
    import gymnasium as gym
    from PIL import Image, ImageDraw, ImageFont

    import gymv_envs

    ids = gymv_envs.ids("GymV/Robot*", available_only=True)
    if not ids:
        raise SystemExit("no robotics id is available: install the robotics extra (pip install 'gymv[robotics]')")
    shots = []
    for env_id in ids:
        env = gym.make(env_id, difficulty=difficulty, obs_size=(tile, tile))
        try:
            obs, _ = env.reset(seed=0)
            shots.append((env_id.split("/")[1].removesuffix("-v0"), obs, env.unwrapped.render_view("wrist")))
        finally:
            env.close()
    font_path = Path(gymv_envs.__file__).parent / "core" / "assets" / "fonts" / "DejaVuSans.ttf"
    font = ImageFont.truetype(str(font_path), 13)
    label = 20
    cell_w = 2 * tile + 6
    rows = -(-len(shots) // cols)
    sheet = Image.new("RGB", (cols * cell_w, rows * (tile + label)), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for i, (name, front, wrist) in enumerate(shots):
        x, y = (i % cols) * cell_w, (i // cols) * (tile + label)
        sheet.paste(Image.fromarray(np.asarray(front)), (x, y))
        sheet.paste(Image.fromarray(np.asarray(wrist)), (x + tile + 2, y))
        draw.text((x + 4, y + tile + 3), f"{name}  (scene | wrist)", fill=(30, 30, 30), font=font)
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out, optimize=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/robotics_gallery.png"))
    parser.add_argument("--tile", type=int, default=200, help="pixels per view (default 200)")
    parser.add_argument("--difficulty", type=int, default=1, choices=(0, 1, 2))
    args = parser.parse_args()
    print(gallery(args.out, args.tile, difficulty=args.difficulty))


if __name__ == "__main__":
    main()
