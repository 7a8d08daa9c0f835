"""Wrappers for GymV envs: one concept per module, composable in any order that makes sense.

- `StepBudget`: truncation at a step budget, with steps used/left in ``info``;
- `RewardClip`: step rewards clipped to [lo, hi], optionally the episodic return at zero;
- `CameraViews`: front / previous / left / right views as a Dict or one labelled tiled image;
- `FrameHistory`: the last k observations (stacked, channel-stacked or as a sequence);
- `TextActions`: step with a model's free-form reply, parsed by the env;
- `InstructionLevel`: goal / step / visual instructions on envs that have them;
- `RecordEpisode` and `replay`: captioned GIF/MP4 per episode, replayable frame for frame;
- `StateText`: the text-only ablation;
- `PixelsOnly`: pixel-only play (no feedback or state text, only the instruction and grammar);
- `ProgressShaping`: potential-based reward shaping from ``info["progress"]``, for training;
- `for_sb3` and `for_vlm`: the two recommended stacks;
- `load_wrapper`: a wrapper named as command lines name it (``module:Class{json kwargs}``).
"""
from gymv.wrappers._base_env import load_wrapper
from gymv.wrappers.camera_views import CameraViews
from gymv.wrappers.frame_history import FrameHistory
from gymv.wrappers.instruction_level import InstructionLevel
from gymv.wrappers.pixels_only import PixelsOnly
from gymv.wrappers.progress_shaping import ProgressShaping
from gymv.wrappers.record_episode import RecordEpisode, replay
from gymv.wrappers.reward_clip import RewardClip
from gymv.wrappers.stacks import for_sb3, for_vlm
from gymv.wrappers.state_text import StateText
from gymv.wrappers.step_budget import StepBudget
from gymv.wrappers.text_actions import TextActions

__all__ = ["CameraViews", "FrameHistory", "InstructionLevel", "PixelsOnly", "ProgressShaping", "RecordEpisode", "RewardClip", "StateText",
           "StepBudget", "TextActions", "for_sb3", "for_vlm", "load_wrapper", "replay"]


if __name__ == "wrappers":  # this folder imported by its path in a checkout, not as installed
    raise ImportError("GymV's wrappers are installed as gymv.wrappers: import gymv.wrappers (pip install -e . in a checkout); "
                      "a bare 'wrappers' is another package's name")
