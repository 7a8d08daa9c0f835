"""Tree traversal: the pre-order, in-order or post-order sequence of a drawn binary tree."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import GraphQuestion, fmt_sequence, parse_sequence
from gymv_envs.domains.graphs._render import Picture, binary_tree_layout

SIZES = {0: 5, 1: 7, 2: 10}
ORDERS = ("pre-order", "in-order", "post-order")


def random_binary_tree(rng: np.random.Generator, n: int) -> tuple[list[int], list[int]]:
    """(left, right) child arrays (-1: none) of a random binary tree on 0..n-1 rooted at 0."""
    left, right = [-1] * n, [-1] * n
    for v in range(1, n):
        while True:
            u = int(rng.integers(v))
            side = left if rng.random() < 0.5 else right
            if side[u] < 0:
                side[u] = v
                break
    return left, right


def traverse(left, right, root: int, kind: str) -> list[int]:
    """The vertices of a binary tree in pre-order, in-order or post-order."""
    out: list[int] = []

    def walk(v: int) -> None:
        if v < 0:
            return
        if kind == "pre-order":
            out.append(v)
        walk(left[v])
        if kind == "in-order":
            out.append(v)
        walk(right[v])
        if kind == "post-order":
            out.append(v)

    walk(root)
    return out


class TreeTraversal(GraphQuestion):
    """List a drawn binary tree's vertices in pre-order, in-order or post-order.

    ## Description
    A binary tree with lettered vertices is drawn with its root at the top; a left child is drawn
    below and to the left of its parent, a right child below and to the right (each vertex sits
    at its in-order position). The instruction asks for one of the three depth-first orders:
    pre-order (vertex, left subtree, right subtree), in-order (left, vertex, right) or post-order
    (left, right, vertex). The answer is unique.

    ## Action Space
    ``answer_format="open"``: `Text`, all vertex letters in order (``D B A C``). ``"mcq"``:
    `Discrete(k)`; wrong options are the other two orders, the level order, and the answer with two
    neighbours swapped.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree.

    ## Rewards
    1.0 for the exact sequence, else 0.0.

    ## Starting State
    A random binary tree (each new vertex becomes a free left or right child of an earlier one),
    random letters, and a random one of the three orders.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices, 1: 7, 2: 10), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "every vertex letter once, in the order asked, separated by spaces"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        self._name_labels(n)
        perm = [int(v) for v in rng.permutation(n)]  # vertex i of the generated tree gets letter perm[i]
        left, right = random_binary_tree(rng, n)
        self.left, self.right = [-1] * n, [-1] * n
        for v in range(n):
            self.left[perm[v]] = perm[left[v]] if left[v] >= 0 else -1
            self.right[perm[v]] = perm[right[v]] if right[v] >= 0 else -1
        self.root = perm[0]
        self.kind = ORDERS[int(rng.integers(3))]
        self.edges = [(v, c) for v in range(n) for c in (self.left[v], self.right[v]) if c >= 0]
        self.pos = binary_tree_layout(self.left, self.right, self.root)
        self.answer = tuple(traverse(self.left, self.right, self.root, self.kind))

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels, keep_aspect=False)

    def _task_text(self) -> str:
        return (f"The image shows a binary tree with its root at the top; left children hang to the left of their "
                f"parent and right children to the right. List all the vertices in {self.kind} (pre-order: vertex, "
                "then its left subtree, then its right subtree; in-order: left subtree, vertex, right subtree; "
                "post-order: left subtree, right subtree, vertex).")

    def _caption(self) -> list:
        return [f"{self.kind.capitalize()} traversal?"]

    def _parse_answer(self, text: str):
        seq = parse_sequence(text, self.labels)
        return tuple(seq) if seq else None

    def _check(self, answer) -> bool:
        return tuple(answer) == self.answer

    def _format(self, answer) -> str:
        return fmt_sequence(answer, self.labels)

    def _solve(self):
        return self.answer

    def _near_misses(self, rng: np.random.Generator) -> list:
        out = [tuple(traverse(self.left, self.right, self.root, k)) for k in ORDERS if k != self.kind]
        level, queue = [], [self.root]
        while queue:
            v = queue.pop(0)
            level.append(v)
            queue += [c for c in (self.left[v], self.right[v]) if c >= 0]
        out.append(tuple(level))
        a = list(self.answer)
        for i in rng.permutation(len(a) - 1):
            b = a[:]
            b[i], b[i + 1] = b[i + 1], b[i]
            out.append(tuple(b))
        return out


SPECS = (
    TaskSpec(name="TreeTraversal", entry_point=TreeTraversal, max_episode_steps=1,
             tags=("graph", "trees", "traversal")),
)
