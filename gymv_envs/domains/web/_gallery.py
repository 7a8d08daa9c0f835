"""`gallery`: one picture of first screenshots across the catalogue families and layout styles.

    python -c "from gymv_envs.domains.web import gallery; gallery('docs/web_gallery.png')"
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def gallery(path: str | Path = "docs/web_gallery.png", cols: int = 5, tile: tuple[int, int] = (240, 320),
            max_seeds: int = 40) -> Path:
    """First screenshots of every catalogue family, family i in layout style i mod 5 (held-out styles
    included), labelled ``family / style``; written to ``path`` (PNG) and returned."""
    import gymnasium as gym
    from PIL import Image, ImageDraw, ImageFont

    import gymv_envs
    from gymv_envs.core.rng import level_generator
    from gymv_envs.domains.web import _layout

    ids = [i for i in gymv_envs.ids(domain="web") if gymv_envs.describe(i)["kwargs"].get("task") == "lookup"]
    shots = []
    for k, env_id in enumerate(ids):
        style = _layout.STYLES[k % len(_layout.STYLES)]
        layouts = "test" if style in _layout.TEST_STYLES else "train"
        env = gym.make(env_id, layouts=layouts, obs_size=(768, 1024)).unwrapped
        try:
            for seed in range(max_seeds):  # the first level whose site has this style (generation alone is cheap)
                if env._make_site(level_generator(seed)).layout.style == style:
                    break
            obs, _ = env.reset(seed=seed)
            shots.append((f"{env._site.family.key} / {style}", obs))
        finally:
            env.close()
    th, tw = tile
    rows = -(-len(shots) // cols)
    label = 18
    sheet = Image.new("RGB", (cols * tw, rows * (th + label)), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(str(Path(__file__).resolve().parents[2] / "core" / "assets" / "fonts" / "DejaVuSans.ttf"), 12)
    for i, (name, obs) in enumerate(shots):
        x, y = (i % cols) * tw, (i // cols) * (th + label)
        sheet.paste(Image.fromarray(np.asarray(obs)).resize((tw, th), Image.Resampling.LANCZOS), (x, y))
        draw.text((x + 4, y + th + 2), name, fill=(30, 30, 30), font=font)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out, optimize=True)
    return out
