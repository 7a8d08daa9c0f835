"""Tabletop robotics on MuJoCo physics: a floating gripper, primitives, tasks from pixels."""
