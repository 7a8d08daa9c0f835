"""world3d frames do not depend on which world drew first in the process (shared GL contexts)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("mujoco")

import gymv_envs  # noqa: E402,F401 - registers the ids
from gymv_envs.domains.world3d import _render  # noqa: E402


def _first_frame(env_id: str, seed: int) -> np.ndarray:
    env = gym.make(env_id, obs_size=(40, 40))
    try:
        return env.reset(seed=seed)[0]
    finally:
        env.close()


def _fresh_contexts() -> None:
    # as in a new process: the next render makes its own contexts (the old ones stay alive, unused)
    _render._GLPool.contexts, _render._GLPool.owners, _render._GLPool.users = {}, {}, {}


@pytest.mark.parametrize("first", ["GymV/World3DTownErrand-v3", "GymV/World3DSignTrail-v1"])
def test_a_frame_is_the_same_whichever_world_drew_before_it(first):
    # a town's floor plane is 190 m across, a one-room world's far smaller: an MjrContext bakes its
    # maker's planes and material-to-texture table, so before contexts were keyed by them the room
    # came out wrong
    _fresh_contexts()
    alone = _first_frame("GymV/World3DOneRoom-v2", 0)
    _fresh_contexts()
    _first_frame(first, 5)
    after = _first_frame("GymV/World3DOneRoom-v2", 0)
    assert np.array_equal(alone, after)


def _boxes_frame(merge_tile: float) -> tuple[np.ndarray, int]:
    from gymv_envs.domains.world3d._render import WorldRenderer
    from gymv_envs.domains.world3d._scene import build_xml
    from gymv_envs.domains.world3d._sim import Sim
    from gymv_envs.domains.world3d._world import TRAIN_THEMES, Prim

    tint = (0.8, 0.5, 0.4, 1.0)
    prims = [Prim("box", 4.0, 1.2, 1.5, 0.5, 2.0, 1.5, yaw=0.4, material="brick", rgba=tint),
             Prim("box", 5.5, -1.5, 1.0, 1.0, 0.3, 1.0, yaw=-0.2, material="brick", rgba=tint),
             Prim("box", 4.5, 0.0, 2.9, 2.0, 2.5, 0.1, material="", rgba=(0.45, 0.3, 0.26, 1.0), collide=False),
             Prim("box", 4.5, -0.5, 3.3, 1.0, 1.0, 0.1, material="", rgba=(0.45, 0.3, 0.26, 1.0), collide=False),
             Prim("box", 3.0, 0.0, 0.006, 3.0, 1.0, 0.004, material="road", collide=False),
             Prim("box", 3.0, 2.0, 0.007, 1.0, 3.0, 0.004, material="road", collide=False)]
    xml = build_xml(prims, [], (12, 12), TRAIN_THEMES[0], (0.3, 0.2, -1.0), 1.0, 0.9, 10.0, 75.0, (64, 64), {},
                    False, merge_tile=merge_tile)
    sim = Sim(xml, {}, [], [])
    sim.set_pose(0.0, 0.0, 0.0)
    sim.refresh()
    renderer = WorldRenderer(sim.model, sim.data, 64, 64, dynamic=sim.dynamic_textures, dynamic_meshes=sim.dynamic_meshes)
    return renderer.render("front"), len(sim.dynamic_meshes)


def test_merged_boxes_look_like_the_box_geoms_they_replace():
    # each merged face carries the texture coordinates MuJoCo gives a box face (texrepeat x the
    # box's half-sizes on a texuniform material), so bricks, tints and shading come out the same
    boxes, none = _boxes_frame(0.0)
    merged, meshes = _boxes_frame(40.0)
    assert none == 0 and meshes >= 3
    assert (boxes.sum(axis=2) > 0).mean() > 0.5          # the boxes fill much of the view
    differ = np.abs(boxes.astype(int) - merged.astype(int)).max(axis=2) > 2
    assert differ.mean() < 0.003     # identical here; a face with its texture scaled wrong: over 1%


def test_town_levels_that_share_a_context_draw_their_own_merged_meshes():
    # levels with the same mesh count share an MjrContext; each uploads its merged meshes again
    # when another level drew on that context last
    _fresh_contexts()
    alone = _first_frame("GymV/World3DTownErrand-v3", 1)
    _fresh_contexts()
    a = gym.make("GymV/World3DTownErrand-v3", obs_size=(40, 40))
    b = gym.make("GymV/World3DTownErrand-v3", obs_size=(40, 40))
    try:
        first = a.reset(seed=0)[0]
        assert np.array_equal(b.reset(seed=1)[0], alone)
        assert a.unwrapped.renderer.baked == b.unwrapped.renderer.baked
        assert np.array_equal(a.unwrapped._draw(), first)
    finally:
        a.close()
        b.close()


def _episode_digest(env_id: str, seed: int) -> str:
    import hashlib

    env = gym.make(env_id, obs_size=(40, 40))
    try:
        digest = hashlib.sha256(env.reset(seed=seed)[0].tobytes())
        env.action_space.seed(seed)
        for _ in range(3):
            digest.update(env.step(env.action_space.sample())[0].tobytes())
        return digest.hexdigest()
    finally:
        env.close()


@pytest.mark.parametrize("env_id", ["GymV/World3DFourRooms-v1", "GymV/RobotDrawerOpen-v0"])
def test_envs_stepped_from_several_threads_render_as_from_one(env_id):
    """The runner's thread executor (a VLM evaluation) steps envs from worker threads. One GL context per
    process was current on one thread at a time: a second thread's render failed (EGL_BAD_ACCESS, "Default
    framebuffer is not complete") or drew another thread's frame. Each thread now renders on its own."""
    import concurrent.futures as cf

    seeds = [0, 1, 2, 3]
    alone = {s: _episode_digest(env_id, s) for s in seeds}
    with cf.ThreadPoolExecutor(max_workers=3) as pool:
        together = list(pool.map(lambda s: _episode_digest(env_id, s), seeds * 2))
    assert together == [alone[s] for s in seeds * 2]
