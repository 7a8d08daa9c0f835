"""Logic gate output: read a drawn circuit of gates with given inputs and name the values on its output wires."""

from __future__ import annotations

import itertools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.domains.logic._circuits import (
    INPUT_NAMES,
    WIRE_RULES,
    apply,
    draw_circuit,
    format_bits,
    output_names,
    parse_bits,
    random_circuit,
)

# difficulty -> (inputs, gates, outputs, depth at least)
LEVELS = {0: (3, 4, 2, 2), 1: (4, 7, 3, 3), 2: (5, 10, 3, 4)}


class LogicGateOutput(SingleTurnEnv):
    """Evaluate a drawn logic circuit: the values on its named output wires.

    ## Description
    A schematic: input boxes on the left show their names and values (``A=1``), gates are boxes
    labelled AND, OR, XOR, NAND, NOR or NOT, wires run left to right (a dot where a wire
    branches; wires crossing without a dot are not connected), and output terminals on the
    right are named P, Q, R from the top. The answer is the value (0 or 1) on every output.

    ## Action Space
    ``answer_format="open"``: `Text`, the outputs as ``P=1 Q=0`` (any order, ``=`` or ``:``) or
    as bits in the order P, Q, ... (``10``). ``"mcq"``: `Discrete(k)` over output vectors.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the schematic.

    ## Rewards
    1.0 if every output value is right (the circuit evaluated gate by gate), else 0.0.

    ## Starting State
    A random acyclic circuit where every input and gate is used and the unread gates are
    the outputs (drawn again until the counts and the depth hold); random input values.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3 inputs, 4 gates, 2 outputs, depth >= 2; 1: 4 inputs, 7 gates, 3 outputs,
    depth >= 3; 2: 5 inputs, 10 gates, 3 outputs, depth >= 4), ``answer_format``, ``num_options``,
    ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    default_obs_size = (512, 640)

    def _configure(self) -> None:
        self.inputs, self.gates, self.outputs, self.min_depth = LEVELS[self.difficulty]
        self.names = output_names(self.outputs)
        self.answer_hint = f"the value of each output, written as `{' '.join(f'{k}=<0 or 1>' for k in self.names)}`"

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.circuit = random_circuit(rng, self.inputs, self.gates, self.outputs, self.min_depth)
        self.assignment = tuple(int(v) for v in rng.integers(0, 2, self.inputs))

    # -- draw
    def _draw(self) -> np.ndarray:
        text = [f"{INPUT_NAMES[i]}={v}" for i, v in enumerate(self.assignment)]
        return draw_circuit(self.obs_size, self.circuit, text)

    def _task_text(self) -> str:
        outs = ", ".join(self.names)
        return (f"The image shows a logic circuit. The boxes on the left are its {self.inputs} inputs, each with its "
                f"name and value (0 or 1). {WIRE_RULES} The terminals on the right are the outputs {outs}. "
                f"What value (0 or 1) does each of the outputs {outs} carry?")

    def _state_text(self) -> str:
        given = " ".join(f"{INPUT_NAMES[i]}={v}" for i, v in enumerate(self.assignment))
        return f"{given}\n{self.circuit.netlist()}"

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, ...] | None:
        return parse_bits(text, self.names)

    def _check(self, answer: tuple[int, ...]) -> bool:
        return tuple(answer) == self.circuit.output_values(self.assignment)

    def _format(self, answer: tuple[int, ...]) -> str:
        return format_bits(answer, self.names)

    # -- oracle
    def _solve(self) -> tuple[int, ...]:
        return self.circuit.output_values(self.assignment)

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, ...]]:
        sol, c = self._solution, self.circuit
        flipped = [tuple(v ^ (i == k) for i, v in enumerate(sol)) for k in range(len(sol))]
        # similar wrong methods: one gate read as its negation (AND for NAND, ...), or the inputs flipped
        swap = {"AND": "NAND", "NAND": "AND", "OR": "NOR", "NOR": "OR", "XOR": "OR", "NOT": "NOT"}
        misread = []
        for j in range(len(c.gates)):
            vals = list(self.assignment)
            for g, (op, a, b) in enumerate(c.gates):
                op = swap[op] if g == j and op != "NOT" else op
                v = apply(op, vals[a], vals[b] if b >= 0 else 0)
                vals.append(1 - v if g == j and op == "NOT" else v)
            misread.append(tuple(vals[o] for o in c.outputs))
        others = list(itertools.product((0, 1), repeat=len(sol)))
        return interleave(rng, flipped, misread) + [others[int(i)] for i in rng.permutation(len(others))]


SPECS = (
    TaskSpec(name="LogicGateOutput", entry_point=LogicGateOutput, max_episode_steps=1,
             tags=("logic", "circuits", "boolean")),
)
