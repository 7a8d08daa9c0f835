"""scripts/level_hashes.py, the refactor check: fresh-env and in-turn fingerprints agree for a correct env, and
the in-turn mode sees a level's state carried into the next."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gymv_envs.core.env import SingleTurnEnv
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "level_hashes.py"


def test_fresh_and_in_turn_fingerprints_agree(tmp_path):
    files = []
    for mode in ([], ["--in-turn"]):
        out = tmp_path / f"h{len(files)}.jsonl"
        proc = subprocess.run([sys.executable, str(SCRIPT), "--pattern", "GymV/OddOneOut*", "--seeds", "0,1,2",
                               "--out", str(out), *mode], capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        files.append(str(out))
    proc = subprocess.run([sys.executable, str(SCRIPT), "--compare", *files], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0 and ", 0 differ" in proc.stdout, proc.stdout


def test_in_turn_sees_a_state_text_kept_from_the_last_level(monkeypatch):
    import gymnasium as gym

    mod = load_script("level_hashes")
    kw = {"difficulty": 0}
    fresh = [mod.fingerprint("GymV/OddOneOut-v0", kw, seed, 2, 2) for seed in (0, 1)]
    env = gym.make("GymV/OddOneOut-v0", **kw)
    assert [mod.fingerprint("GymV/OddOneOut-v0", kw, seed, 2, 2, env) for seed in (0, 1)] == fresh
    original = SingleTurnEnv._new_level

    def forgetful(self):  # the bug the in-turn mode found: the state text of the last level kept
        cached = self._state_cache
        original(self)
        self._state_cache = cached

    monkeypatch.setattr(SingleTurnEnv, "_new_level", forgetful)
    env = gym.make("GymV/OddOneOut-v0", **kw)
    turn = [mod.fingerprint("GymV/OddOneOut-v0", kw, seed, 2, 2, env) for seed in (0, 1)]
    assert turn[0] == fresh[0] and turn[1] != fresh[1]
