"""The physics of a world3d level: the compiled MuJoCo model, the agent's controller, state.

The agent is a capsule (0.7 m long along its heading, 0.4 m wide) on two world-aligned slide
joints and a yaw hinge, driven by velocity actuators: a move commands a body-frame velocity for
its duration and then zero while the body settles, so an unobstructed move covers exactly
speed x duration (a first-order velocity loop preserves the commanded distance); a turn
commands its yaw with a stiff, critically damped position servo. Walls, furniture and things are collision geometry, and
light crates are bodies on planar joints with floor friction (joint friction loss), so they
move when pushed. Everything advances by `mujoco.mj_step` in chunks of `CHUNK` seconds,
between which the env moves walking characters and checks its events.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gymv_envs.domains.world3d._render import import_mujoco
from gymv_envs.domains.world3d._scene import TIMESTEP, fill_textures, geom_labels, merged_meshes

CHUNK = 0.1          # seconds simulated between event checks
SETTLE = 0.2         # seconds of zero command after a move (the velocity loop settles)
TURN_TIME = 0.3      # seconds a turn is commanded for


class Sim:
    """One level's MuJoCo model and data (rebuilt from its XML after unpickling)."""

    def __init__(self, xml: str, texts: dict[int, np.ndarray], dynamic_things: list[int], mocap_things: list[int]) -> None:
        mujoco = import_mujoco()
        self.mujoco = mujoco
        self.model = mujoco.MjModel.from_xml_string(xml)
        self.dynamic_textures = fill_textures(self.model, texts)
        self.dynamic_meshes = merged_meshes(self.model, mujoco)
        self.data = mujoco.MjData(self.model)
        self.labels = geom_labels(self.model, mujoco)
        self.mocap = {i: int(self.model.body_mocapid[self.model.body(f"t{i}").id]) for i in mocap_things}
        self.crate_qpos = {i: int(self.model.jnt_qposadr[self.model.joint(f"t{i}_x").id]) for i in dynamic_things}
        self.crate_dof = {i: int(self.model.jnt_dofadr[self.model.joint(f"t{i}_x").id]) for i in dynamic_things}
        self.steps_per_chunk = int(round(CHUNK / TIMESTEP))
        self.spec = mujoco.mjtState.mjSTATE_INTEGRATION
        self.agent_body = self.model.body("agent").id
        # static colliders are in group 0, or COLLIDER_GROUP where their looks are merged meshes
        self._colliders = np.array([1, 0, 0, 1, 1, 0], dtype=np.uint8)
        self._walls = np.array([1, 0, 0, 0, 1, 0], dtype=np.uint8)
        self.aq = int(self.model.jnt_qposadr[self.model.joint("agent_x").id])   # agent x, y, yaw in qpos
        self.av = int(self.model.jnt_dofadr[self.model.joint("agent_x").id])
        mujoco.mj_forward(self.model, self.data)

    # ----------------------------------------------------------------- state
    def get_state(self) -> np.ndarray:
        state = np.empty(self.mujoco.mj_stateSize(self.model, self.spec), dtype=np.float64)
        self.mujoco.mj_getState(self.model, self.data, state, self.spec)
        return state

    def set_state(self, state: np.ndarray) -> None:
        self.mujoco.mj_setState(self.model, self.data, state, self.spec)
        self.mujoco.mj_forward(self.model, self.data)

    def pose(self) -> tuple[float, float, float]:
        q, a = self.data.qpos, self.aq
        return float(q[a]), float(q[a + 1]), float(q[a + 2])

    def set_pose(self, x: float, y: float, yaw: float) -> None:
        self.data.qpos[self.aq:self.aq + 3] = (x, y, yaw)
        self.data.qvel[self.av:self.av + 3] = 0.0
        self.data.ctrl[:] = (0.0, 0.0, yaw)

    def crate_pose(self, i: int) -> tuple[float, float, float]:
        a = self.crate_qpos[i]
        return tuple(float(v) for v in self.data.qpos[a:a + 3])  # type: ignore[return-value]

    def set_crate(self, i: int, x: float, y: float, yaw: float) -> None:
        a = self.crate_qpos[i]
        self.data.qpos[a:a + 3] = (x, y, yaw)
        d = self.crate_dof[i]
        self.data.qvel[d:d + 3] = 0.0

    def set_mocap(self, i: int, x: float, y: float, z: float, yaw: float) -> None:
        m = self.mocap[i]
        self.data.mocap_pos[m] = (x, y, z)
        self.data.mocap_quat[m] = (np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2))

    def refresh(self) -> None:
        """Recompute positions after kinematic changes (mocap things, teleports)."""
        self.mujoco.mj_kinematics(self.model, self.data)

    # ----------------------------------------------------------------- control
    def yaw(self) -> float:
        return float(self.data.qpos[self.aq + 2])

    def run(self, seconds: float, forward: float = 0.0, left: float = 0.0, heading: float | None = None,
            each_chunk: Callable[[float], bool] | None = None) -> bool:
        """Command a body-frame velocity (m/s) for ``seconds`` while the yaw servo holds
        ``heading`` (default: the current one), in chunks; ``each_chunk(dt)`` runs after every
        chunk and stops the run by returning True. Returns whether it was stopped."""
        self.data.ctrl[2] = self.yaw() if heading is None else heading
        left_s = seconds
        while left_s > 1e-9:
            dt = min(CHUNK, left_s)
            yaw = self.yaw()
            c, s = np.cos(yaw), np.sin(yaw)
            self.data.ctrl[0] = c * forward - s * left
            self.data.ctrl[1] = s * forward + c * left
            self.mujoco.mj_step(self.model, self.data, nstep=max(1, int(round(dt / TIMESTEP))))
            left_s -= dt
            if each_chunk is not None and each_chunk(dt):
                self.data.ctrl[:2] = 0.0
                return True
        self.data.ctrl[:2] = 0.0
        return False

    def move(self, forward: float, left: float, seconds: float, heading: float | None = None,
             each_chunk: Callable[[float], bool] | None = None) -> bool:
        """Walk at a body-frame velocity for ``seconds`` holding ``heading``, then settle; returns
        whether it was stopped early."""
        heading = self.yaw() if heading is None else heading
        if self.run(seconds, forward, left, heading, each_chunk):
            return True
        return self.run(SETTLE, 0.0, 0.0, heading, each_chunk)

    def turn(self, angle: float, each_chunk: Callable[[float], bool] | None = None, target: float | None = None) -> bool:
        """Turn by ``angle`` radians (or to ``target``): the yaw servo drives there for
        `TURN_TIME` plus `SETTLE` (a tenth of a second more per quarter turn beyond); a turn blocked by contacts stays where it was stopped."""
        target = self.yaw() + angle if target is None else target
        seconds = TURN_TIME + SETTLE + 0.1 * round(abs(target - self.yaw()) / np.pi * 2)
        stopped = self.run(seconds, 0.0, 0.0, target, each_chunk)
        if abs(target - self.yaw()) > np.radians(2):
            self.data.ctrl[2] = self.yaw()   # blocked: stop pushing
        return stopped

    def ray(self, x: float, y: float, angle: float, z: float = 0.5, walls_only: bool = False) -> tuple[float, int]:
        """Distance to the first collider along a horizontal ray from (x, y) (the agent excluded;
        -1 when nothing is hit) and the id of the geom hit; ``walls_only`` sees static scenery only."""
        geomid = np.array([-1], dtype=np.int32)
        groups = self._walls if walls_only else self._colliders
        d = self.mujoco.mj_ray(self.model, self.data, np.array([x, y, z]), np.array([np.cos(angle), np.sin(angle), 0.0]),
                               groups, 1, self.agent_body, geomid)
        return float(d), int(geomid[0])
