"""Domain-neutral game and puzzle rules, generators and solvers that more than one task uses.

Pure code: no drawing (no `gymv_envs.core.canvas`, no PIL) and no env classes; tasks in any
domain import these, and nothing here imports a domain. One module per game or puzzle family.
"""
