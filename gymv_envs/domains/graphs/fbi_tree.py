"""FBI tree: the post-order of the B/I/F labels of the full binary tree over a drawn bit string."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import GraphQuestion
from gymv_envs.domains.graphs._render import Picture, binary_tree_layout, render

DEPTHS = {0: 2, 1: 3, 2: 4}  # the string has 2**depth bits
LEAF_FILL = {"0": (225, 225, 230), "1": (255, 220, 140)}


def fbi_postorder(bits: str) -> str:
    """B for all zeros, I for all ones, F for mixed; children (halves) before their parent."""
    kind = "B" if set(bits) == {"0"} else "I" if set(bits) == {"1"} else "F"
    if len(bits) == 1:
        return kind
    half = len(bits) // 2
    return fbi_postorder(bits[:half]) + fbi_postorder(bits[half:]) + kind


def fbi_preorder(bits: str) -> str:
    kind = "B" if set(bits) == {"0"} else "I" if set(bits) == {"1"} else "F"
    if len(bits) == 1:
        return kind
    half = len(bits) // 2
    return kind + fbi_preorder(bits[:half]) + fbi_preorder(bits[half:])


class FBITree(GraphQuestion):
    """Label the FBI tree of a bit string and give the labels in post-order.

    ## Description
    A full binary tree is drawn whose leaves, left to right, carry the bits of a string of length
    ``2**d``; each inner vertex stands for the substring under it (its left half and right half
    are its children) and shows ``?``. Every vertex is labelled B if its substring is all zeros,
    I if it is all ones and F if it is mixed. The answer is the labels in post-order (left
    subtree, right subtree, vertex), leaves included: ``2**(d+1) - 1`` letters. It is unique.

    ## Action Space
    ``answer_format="open"``: `Text`, the letters B, F, I (spaces allowed). ``"mcq"``:
    `Discrete(k)`; wrong options are the pre-order, the post-order of a string with one bit
    flipped, and the answer with one letter changed.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the tree, bits on the leaves.

    ## Rewards
    1.0 for the exact string, else 0.0.

    ## Starting State
    A random bit string that is neither all zeros nor all ones.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 bits, 1: 8, 2: 16), ``answer_format``, ``num_options``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the B/F/I labels in post-order as one string of letters"

    def _generate(self, rng: np.random.Generator) -> None:
        d = DEPTHS[self.difficulty]
        width = 2 ** d
        while True:
            runs = rng.integers(0, 2, width)  # runs of equal bits make B and I inner vertices likely
            for i in range(1, width):
                if rng.random() < 0.5:
                    runs[i] = runs[i - 1]
            self.bits = "".join(str(int(b)) for b in runs)
            if len(set(self.bits)) == 2:
                break
        pos, edges = _tree(width)
        self.pos, self.edges = pos.copy(), list(edges)
        self.labels = ["?"] * (width - 1) + list(self.bits)
        self.answer = fbi_postorder(self.bits)

    def _picture(self) -> Picture:
        return _picture(self.pos, self.edges, self.bits)

    def _draw(self) -> np.ndarray:
        """The tree is the same for every level of a difficulty; only the leaves differ: each leaf's
        square is copied from one of two cached frames (all leaves 0, all leaves 1), which gives the
        very pixels of a full drawing while no two leaves' squares meet (else it is drawn whole)."""
        cached = _leaf_frames(self.obs_size, len(self.bits))
        if cached is None:
            return super()._draw()
        frames, squares, placed = cached
        out = frames[0].copy()
        for b, (x0, y0, x1, y1) in zip(self.bits, squares):
            if b == "1":
                out[y0:y1, x0:x1] = frames[1][y0:y1, x0:x1]
        self.placed = placed
        return out

    def _task_text(self) -> str:
        return ("The image shows a full binary tree over a string of bits: the leaves, left to right, carry the "
                "bits, and each inner vertex (shown as ?) stands for the bits below it. Label every vertex B if "
                "all its bits are 0, I if all are 1, and F if they are mixed. Give the labels of all vertices, "
                "leaves included, in post-order (left subtree, right subtree, then the vertex).")

    def _state_text(self) -> str:
        return f"bits: {self.bits}"

    def _parse_answer(self, text: str):
        t = re.sub(r"[\s,;\-]+", "", text.strip().strip(".").upper())
        return t if t and len(t) < 200 and re.fullmatch(r"[BFI]+", t) else None

    def _check(self, answer) -> bool:
        return answer == self.answer

    def _solve(self) -> str:
        return self.answer

    def _near_misses(self, rng: np.random.Generator) -> list[str]:
        out = [fbi_preorder(self.bits)]
        for i in rng.permutation(len(self.bits)):
            flipped = self.bits[:i] + ("1" if self.bits[i] == "0" else "0") + self.bits[i + 1:]
            out.append(fbi_postorder(flipped))
        for i in rng.permutation(len(self.answer)):
            for c in "BFI":
                if c != self.answer[i]:
                    out.append(self.answer[:i] + c + self.answer[i + 1:])
        return out


def _picture(pos: np.ndarray, edges, bits: str) -> Picture:
    w = len(bits)
    fills = [None] * (w - 1) + [LEAF_FILL[b] for b in bits]
    return Picture(pos, edges, ["?"] * (w - 1) + list(bits), fills=fills, keep_aspect=False)


@functools.lru_cache(maxsize=8)
def _tree(width: int) -> tuple[np.ndarray, tuple[tuple[int, int], ...]]:
    """Layout and edges of the full binary tree over ``width`` leaves (read-only)."""
    n = 2 * width - 1  # heap order: vertex i has children 2i+1 and 2i+2
    left = [2 * i + 1 if 2 * i + 1 < n else -1 for i in range(n)]
    right = [2 * i + 2 if 2 * i + 2 < n else -1 for i in range(n)]
    pos = binary_tree_layout(left, right, 0)
    pos[width - 1 + 1::2, 1] += 0.6  # every other leaf a little lower: room for bigger vertices
    pos.setflags(write=False)
    return pos, tuple((i, c) for i in range(n) for c in (left[i], right[i]) if c >= 0)


@functools.lru_cache(maxsize=12)  # two frames each: a few MB at the usual sizes
def _leaf_frames(obs_size: tuple[int, int], width: int):
    """(frames with every leaf 0 and every leaf 1, each leaf's square (x0, y0, x1, y1) holding all it
    draws (disc, ring, label), where the vertices went), or None where two leaves' squares meet."""
    pos, edges = _tree(width)
    drawn = [render(obs_size, _picture(pos, edges, b * width)) for b in "01"]
    H, W = obs_size
    r = drawn[0][1].radius
    half = int(np.ceil(round(r * 2) / 2 + 1)) + 1  # past the disc's mask on every side
    squares = []
    for i in range(width - 1, 2 * width - 1):
        cx, cy = (int(round(float(c))) for c in drawn[0][1].centers[i])
        x0, y0, x1, y1 = cx - half, cy - half, cx + half + 1, cy + half + 1
        for _, placed in drawn:  # the label may reach past its disc at tiny sizes
            lx0, ly0, lx1, ly1 = placed.label_boxes[i]
            x0, y0, x1, y1 = min(x0, lx0), min(y0, ly0), max(x1, lx1), max(y1, ly1)
        squares.append((max(0, x0), max(0, y0), min(W, x1), min(H, y1)))
    for i, a in enumerate(squares):
        for b in squares[i + 1:]:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                return None
    for frame, _ in drawn:
        frame.setflags(write=False)
    return (drawn[0][0], drawn[1][0]), tuple(squares), drawn[0][1]


SPECS = (
    TaskSpec(name="FBITree", entry_point=FBITree, max_episode_steps=1,
             tags=("graph", "trees", "recursion", "traversal")),
)
