"""world3d: long-horizon navigation and interaction in procedurally generated MuJoCo worlds."""
