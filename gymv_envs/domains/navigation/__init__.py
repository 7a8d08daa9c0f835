"""Navigation: moving an agent to goals in 2D and first-person worlds."""
