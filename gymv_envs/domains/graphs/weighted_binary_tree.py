"""Weighted binary tree: choose the binary tree over 1..n (in-order fixed) whose recursive score is largest."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import BACKGROUND, GRID_LINE, INK, WHITE, fit_text_size, new_frame
from gymv_envs.core.vector import Layer

SIZES = {0: 4, 1: 6, 2: 8}
SCORE_INK = (20, 60, 160)


def best_trees(scores: tuple[int, ...]) -> tuple[int, list[list[int]], list[list[list[int]]]]:
    """Interval dynamic programme: (best score, best[i][j], the optimal roots of every interval i..j).

    A tree over i..j with root k scores left * right + scores[k]; an empty subtree scores 1 and a
    single vertex its own score."""
    n = len(scores)
    best = [[1] * (n + 1) for _ in range(n + 1)]
    roots: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            if i == j:
                best[i][j], roots[i][j] = scores[i], [i]
                continue
            vals = []
            for k in range(i, j + 1):
                left = best[i][k - 1] if k > i else 1
                right = best[k + 1][j] if k < j else 1
                vals.append(left * right + scores[k])
            top = max(vals)
            best[i][j] = top
            roots[i][j] = [i + x for x, v in enumerate(vals) if v == top]
    return best[0][n - 1], best, roots


def tree_score(scores, preorder: list[int]) -> int | None:
    """The score of the tree whose in-order is 0..n-1 and whose pre-order is ``preorder`` (None if no such tree)."""
    pos = 0

    def build(lo: int, hi: int) -> int | None:
        nonlocal pos
        if lo > hi:
            return 1
        if pos >= len(preorder) or not lo <= preorder[pos] <= hi:
            return None
        k = preorder[pos]
        pos += 1
        left = build(lo, k - 1)
        right = build(k + 1, hi) if left is not None else None
        if right is None:
            return None
        return scores[k] if lo == hi else left * right + scores[k]

    n = len(scores)
    if sorted(preorder) != list(range(n)):
        return None
    value = build(0, n - 1)
    return value if pos == n else None


class WeightedBinaryTree(SingleTurnEnv):
    """Build the highest-scoring binary tree over a row of scored vertices.

    ## Description
    A row of ``n`` boxes is drawn: vertex ``1 .. n`` (above each box) and its score (inside). A
    binary tree must have these vertices in this in-order (left to right). Its score is defined
    recursively: an empty subtree scores 1, a single vertex its own score, and otherwise
    ``score(left subtree) * score(right subtree) + score(root)``. The answer is the pre-order
    (root, left subtree, right subtree) of a tree with the largest score; any optimal tree is
    accepted (an interval dynamic programme finds the optimum).

    ## Action Space
    ``answer_format="open"``: `Text`, the vertex numbers in pre-order (``3 1 2 4``).
    ``"mcq"``: `Discrete(k)`; wrong options are trees with another root (built optimally below),
    the tree rooted at the largest score, the chains ``1 2 .. n`` and ``n .. 1``, and random trees.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the numbered, scored boxes.

    ## Rewards
    1.0 for the pre-order of a tree (with the given in-order) of the largest score, else 0.0.

    ## Starting State
    Scores drawn from 1-9.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 vertices, 1: 6, 2: 8), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the vertex numbers of a best tree in pre-order, separated by spaces"

    def _generate(self, rng: np.random.Generator) -> None:
        n = SIZES[self.difficulty]
        while True:
            self.scores = tuple(int(s) for s in rng.integers(1, 10, n))
            self.best, self.table, self.roots = best_trees(self.scores)
            if len(set(self.scores)) > 1:
                break

    def _draw(self) -> np.ndarray:
        return _row_picture(self.obs_size, self.scores).copy()

    def _task_text(self) -> str:
        return ("The image shows vertices 1 to n in a row, each box holding the vertex's score. Build a binary tree "
                "whose in-order (left subtree, vertex, right subtree) is 1, 2, ..., n. Its score is: an empty "
                "subtree scores 1, a single vertex scores its own score, and any other tree scores (score of its "
                "left subtree) x (score of its right subtree) + (score of its root). Give the pre-order (root, "
                "then left subtree, then right subtree) of a tree with the largest possible score.")

    def _state_text(self) -> str:
        return "scores: " + " ".join(map(str, self.scores))

    def _parse_answer(self, text: str):
        t = text.strip().strip("[]().")
        if not t or len(t) > 400 or not re.fullmatch(r"\d+(?:[\s,;>\-]+\d+)*", t):
            return None
        return tuple(int(x) - 1 for x in re.findall(r"\d+", t))

    def _check(self, answer) -> bool:
        return tree_score(self.scores, list(answer)) == self.best

    def _format(self, answer) -> str:
        return " ".join(str(v + 1) for v in answer)

    def _preorder(self, lo: int, hi: int, choose=min, first: int | None = None) -> list[int]:
        if lo > hi:
            return []
        k = first if first is not None else choose(self.roots[lo][hi])
        return [k] + self._preorder(lo, k - 1, choose) + self._preorder(k + 1, hi, choose)

    def _solve(self):
        return tuple(self._preorder(0, len(self.scores) - 1))

    def _near_misses(self, rng: np.random.Generator) -> list:
        n = len(self.scores)
        out = [tuple(self._preorder(0, n - 1, first=k)) for k in rng.permutation(n)]
        out.append(tuple(self._preorder(0, n - 1, first=int(np.argmax(self.scores)))))
        out += [tuple(range(n)), tuple(range(n - 1, -1, -1))]

        def any_tree(lo: int, hi: int) -> list[int]:
            if lo > hi:
                return []
            k = int(rng.integers(lo, hi + 1))
            return [k] + any_tree(lo, k - 1) + any_tree(k + 1, hi)

        out += [tuple(any_tree(0, n - 1)) for _ in range(30)]
        return out


@functools.lru_cache(maxsize=64)
def _row_picture(obs_size: tuple[int, int], scores: tuple[int, ...]) -> np.ndarray:
    """The row of boxes with the scores in them (read-only): the cached row of empty boxes of this many
    vertices with the score digits blended over it, where no digit touches a box's outline or another
    digit (as at every usual size); else drawn whole, digits and outlines in one layer."""
    base, outline, (x0, y0, side, val) = _row_boxes(obs_size, len(scores))
    img = base.copy()
    layer = Layer(img)
    boxes = []
    for i, s in enumerate(scores):
        x = x0 + i * side
        boxes.append(layer.text(str(s), (x + side / 2, y0 + side * 0.44), val, SCORE_INK, bold=True))
    pix = np.concatenate([c[0] for c in layer._chunks])
    # digits in boxes (x0, y0, x1, y1) left to right that do not meet share no pixel: the sort only where they do
    apart = all(a[2] <= b[0] for a, b in zip(boxes, boxes[1:]))
    if outline[pix].any() or (not apart and len(np.unique(pix)) < len(pix)):
        return _row_picture_whole(obs_size, scores)
    layer.flush()
    img.setflags(write=False)
    return img


def _row_geometry(obs_size: tuple[int, int], n: int) -> tuple[float, float, float, int, int]:
    H, W = obs_size
    side = min(W * 0.9 / n, H * 0.45)
    x0, y0 = (W - side * n) / 2, (H - side) / 2 + side * 0.2
    num = fit_text_size("8", int(side * 0.5), int(side * 0.32), bold=True)
    val = fit_text_size("8", int(side * 0.6), int(side * 0.5), bold=True)
    return x0, y0, side, num, val


@functools.lru_cache(maxsize=32)
def _row_boxes(obs_size: tuple[int, int], n: int):
    """(the row of n empty boxes, a flat mask of their outlines' pixels, (x0, y0, side, digit size))."""
    H, W = obs_size
    img = new_frame(H, W, BACKGROUND)
    x0, y0, side, num, val = _row_geometry(obs_size, n)
    layer = Layer(img)
    for i in range(n):
        x = x0 + i * side
        layer.rect(x + side * 0.06, y0, x + side * 0.94, y0 + side * 0.88, WHITE)
        layer.text(str(i + 1), (x + side / 2, y0 - side * 0.25), num, INK, bold=True)
    layer.flush()
    for i in range(n):
        x = x0 + i * side
        layer.polyline([(x + side * 0.06, y0), (x + side * 0.94, y0), (x + side * 0.94, y0 + side * 0.88),
                        (x + side * 0.06, y0 + side * 0.88)], max(1.0, side / 40), GRID_LINE, closed=True)
    outline = np.zeros(H * W, dtype=bool)
    outline[np.concatenate([c[0] for c in layer._chunks])] = True
    # the digits' colour in the layer (no pixels): where outlines overlap each other they take their largest
    # coverage, as when they are composited with the digits
    layer._chunks.append((np.empty(0, dtype=np.intp), np.empty(0, dtype=np.uint8), SCORE_INK))
    layer.flush()
    img.setflags(write=False)
    return img, outline, (x0, y0, side, val)


def _row_picture_whole(obs_size: tuple[int, int], scores: tuple[int, ...]) -> np.ndarray:
    H, W = obs_size
    img = new_frame(H, W, BACKGROUND)
    x0, y0, side, num, val = _row_geometry(obs_size, len(scores))
    layer = Layer(img)
    for i in range(len(scores)):
        x = x0 + i * side
        layer.rect(x + side * 0.06, y0, x + side * 0.94, y0 + side * 0.88, WHITE)
        layer.text(str(i + 1), (x + side / 2, y0 - side * 0.25), num, INK, bold=True)
    layer.flush()
    for i, s in enumerate(scores):
        x = x0 + i * side
        layer.polyline([(x + side * 0.06, y0), (x + side * 0.94, y0), (x + side * 0.94, y0 + side * 0.88),
                        (x + side * 0.06, y0 + side * 0.88)], max(1.0, side / 40), GRID_LINE, closed=True)
        layer.text(str(s), (x + side / 2, y0 + side * 0.44), val, SCORE_INK, bold=True)
    layer.flush()
    img.setflags(write=False)
    return img


SPECS = (
    TaskSpec(name="WeightedBinaryTree", entry_point=WeightedBinaryTree, max_episode_steps=1,
             tags=("trees", "dynamic-programming", "interval-dp")),
)
