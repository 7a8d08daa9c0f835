"""Logic gate input: find input values that make a drawn circuit's output 1."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.domains.logic._circuits import (
    INPUT_NAMES,
    WIRE_RULES,
    Circuit,
    apply_table,
    draw_circuit,
    format_bits,
    parse_bits,
    random_circuit,
)

# difficulty -> (inputs, gates, depth at least, largest share of assignments that satisfy)
LEVELS = {0: (3, 4, 2, 0.25), 1: (4, 7, 3, 0.25), 2: (5, 10, 4, 0.125)}
TWO_INPUT = ("AND", "OR", "XOR", "NAND", "NOR")


class LogicGateInput(SingleTurnEnv):
    """Satisfy a drawn logic circuit: input values that make its output 1.

    ## Description
    A schematic: input boxes on the left are named A, B, ... with unknown values (``A=?``),
    gates are boxes labelled AND, OR, XOR, NAND, NOR or NOT, wires run left to right (a dot
    where a wire branches; wires crossing without a dot are not connected), and the output
    terminal OUT is on the right. The answer is a value (0 or 1) for every input such that OUT
    is 1; every level has at least one such assignment and any of them is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, the inputs as ``A=1 B=0 C=1`` (any order, ``=`` or ``:``)
    or as bits in the order A, B, ... (``101``). ``"mcq"``: `Discrete(k)` over assignments;
    each wrong option is verified to give OUT = 0.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the schematic.

    ## Rewards
    1.0 if the circuit, evaluated on the assignment, outputs 1, else 0.0.

    ## Starting State
    A random acyclic circuit with one output where every input and gate is used; the last
    gate's operation is then drawn among those (of AND, OR, XOR, NAND, NOR; a NOT stays) for
    which at least one assignment and at most the level's share of them (a quarter, an eighth
    at difficulty 2) give 1, and at least three give 0; a circuit where none does is drawn
    again.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3 inputs, 4 gates, depth >= 2; 1: 4 inputs, 7 gates, depth >= 3;
    2: 5 inputs, 10 gates, depth >= 4), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: the last gate's operation drawn among those that give the level's share of
      satisfying assignments (v0 drew whole circuits again, six a level at difficulty 2, and
      only swapped a last AND, OR, NAND or NOR for its negation).
    """

    default_obs_size = (512, 640)

    def _configure(self) -> None:
        self.inputs, self.gates, self.min_depth, self.share = LEVELS[self.difficulty]
        self.names = tuple(INPUT_NAMES[: self.inputs])
        self.answer_hint = f"a value for every input, written as `{' '.join(f'{k}=<0 or 1>' for k in self.names)}`"

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        k = self.inputs
        full = (1 << (1 << k)) - 1
        while True:
            c = random_circuit(rng, k, self.gates, 1, self.min_depth)
            *first, (op, a, b) = c.gates  # the last gate is the output (nothing can read it)
            tabs = c.truth_tables()
            ops = ("NOT",) if op == "NOT" else TWO_INPUT
            tables = [apply_table(o, tabs[a], tabs[b] if b >= 0 else 0, full) for o in ops]
            fits = [i for i, t in enumerate(tables) if 1 <= t.bit_count() <= self.share * (1 << k)
                    and (1 << k) - t.bit_count() >= 3]
            if fits:
                i = fits[int(rng.integers(len(fits)))]
                self.circuit, self.table = Circuit(k, (*first, (ops[i], a, b))), tables[i]
                return

    def _bits(self, x: int) -> tuple[int, ...]:
        return tuple(x >> (self.inputs - 1 - i) & 1 for i in range(self.inputs))

    # -- draw
    def _draw(self) -> np.ndarray:
        return draw_circuit(self.obs_size, self.circuit, [f"{n}=?" for n in self.names])

    def _task_text(self) -> str:
        return (f"The image shows a logic circuit. The boxes on the left are its {self.inputs} inputs "
                f"{', '.join(self.names)}, whose values are not shown. {WIRE_RULES} The terminal on the right is the "
                "output OUT. Give a value (0 or 1) for every input so that OUT is 1; any such assignment is accepted.")

    def _state_text(self) -> str:
        return self.circuit.netlist()

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, ...] | None:
        return parse_bits(text, self.names)

    def _check(self, answer: tuple[int, ...]) -> bool:
        return self.circuit.output_values(tuple(answer))[0] == 1

    def _format(self, answer: tuple[int, ...]) -> str:
        return format_bits(answer, self.names)

    # -- oracle
    def _solve(self) -> tuple[int, ...]:
        low = self.table & -self.table  # the first satisfying assignment, counting A B C ... in binary
        return self._bits(low.bit_length() - 1)

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, ...]]:
        k, sats = self.inputs, [x for x in range(1 << self.inputs) if self.table >> x & 1]
        # one input flipped from a satisfying assignment (the base keeps those that give 0), then any
        flips = [self._bits(x ^ (1 << i)) for x in sats for i in range(k)]
        zeros = [self._bits(x) for x in range(1 << k) if not self.table >> x & 1]
        return interleave(rng, flips) + interleave(rng, zeros)


SPECS = (
    TaskSpec(name="LogicGateInput", entry_point=LogicGateInput, version=1, max_episode_steps=1,
             tags=("logic", "circuits", "boolean", "satisfiability")),
)
