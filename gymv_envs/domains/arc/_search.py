"""Hypothesis search over compositions of the library's transformations: is a task's rule unique?

A hypothesis is ``g . recolour . core``: a *core* transformation of the family (with a cost, the
number of library steps it stands for; the identity costs 0), then optionally a *learned
recolouring* (a table from a cell key to a colour, fitted to the demonstrations; the key is the
cell's colour, which makes it a colour map that keeps the background and sends no colour to it,
or the size or size rank of the object the cell came from), then a symmetry ``g`` of D4 (the family's allowed subset). Its cost is the core's cost, plus
one for a recolouring, plus one for ``g`` other than the identity. Other orders of the same steps
are covered: a symmetry commutes with every colour map, and turning a direction-parametrised
core (gravity, shifts, moves) by ``g`` is the same core with the turned parameter before ``g``.

`search` lists every hypothesis up to a depth that explains all demonstrations, with its output
on the test input (None where the table learned from the demonstrations does not cover the test:
the demonstrations do not determine the output). A task is unique when every such output equals
the intended one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from gymv_envs.domains.arc._transforms import BG, D4_INVERSE, Scene, d4

CoreFn = Callable[[Scene], "np.ndarray | tuple[np.ndarray, np.ndarray] | None"]
Core = tuple[str, int, CoreFn]
KEYS = ("colour", "size", "rank")


@dataclass(frozen=True)
class Rule:
    """One hypothesis: core name, recolouring key and table (None: no recolouring), symmetry."""

    core: str
    key: str | None = None
    table: tuple[tuple[int, int], ...] = ()
    g: int = 0


def core_output(fn: CoreFn, scene: Scene, name: str | None = None) -> tuple[np.ndarray, np.ndarray | None] | None:
    """``(grid, src)`` of a core on a scene (src None for cell-wise cores); cached in the scene by name."""
    key = ("core", name)
    if name is not None and key in scene.cache:
        return scene.cache[key]
    out = fn(scene)
    if out is not None and not isinstance(out, tuple):
        out = (out, None)
    if name is not None:
        scene.cache[key] = out
    return out


def _features(scene: Scene, key: str) -> tuple[list[int], np.ndarray]:
    """Each object's key (its size, or its rank: 0 the unique largest, 1 the unique smallest, 2 any
    other object) as a list, and as a read-only array with a -1 after them (the key of no object)."""
    hit = scene.cache.get(("F", key))
    if hit is None:
        sizes = [o.size for o in scene.objects] or [0]
        if key == "size":
            feats = sizes
        else:
            feats = [2] * len(sizes)
            for value, code in ((min(sizes), 1), (max(sizes), 0)):
                if sizes.count(value) == 1:
                    feats[sizes.index(value)] = code
        keyed = np.array([*feats, -1])
        keyed.setflags(write=False)
        hit = scene.cache[("F", key)] = (feats, keyed)
    return hit


def key_array(key: str, z: np.ndarray, src: np.ndarray | None, scene: Scene) -> np.ndarray | None:
    """The key of each cell of ``z`` (flat); -1 on the cells of no object for the object keys."""
    if key == "colour":
        return z.ravel()
    if src is None:
        return None
    hit = scene.cache.get(("K", key))
    if hit is not None and hit[0] is src:  # the same source map (core outputs are cached in the scene)
        return hit[1]
    K = _features(scene, key)[1].take(src.ravel())  # src -1 (no object) takes the last: -1
    K.setflags(write=False)
    scene.cache[("K", key)] = (src, K)
    return K


def _background_kept(K: np.ndarray, z: np.ndarray, T: np.ndarray,
                     gs: Sequence[int]) -> tuple[list[int], np.ndarray, list[list[int]]]:
    """The background test of an object-key fit, shared by the object keys (their keys are negative on the
    same cells, those of no object): the symmetries ``gs`` (rows of ``T``) whose cells of no object
    keep z's colour, the object cells (mask), and those rows' target colours there (lists)."""
    obj = K >= 0
    if obj.all():
        keep = list(range(len(gs)))
    else:
        bg = ~obj
        keep = np.flatnonzero((T[:, bg] == z.ravel()[bg]).all(axis=1)).tolist()
    return [gs[j] for j in keep], obj, T[keep][:, obj].tolist() if keep else []


def _codes(z: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Each cell's (colour in z, colour in t) pair as one byte, ``z << 4 | t`` (colours are 0-9)."""
    if z.dtype == np.int8 and t.dtype == np.int8:  # the bytes as they are: no converted copies
        c = z.view(np.uint8) << 4
        c |= t.view(np.uint8)
        return c
    c = z.astype(np.uint8) << 4
    c |= t.astype(np.uint8)
    return c


def _colour_fit(z: np.ndarray, t: np.ndarray, table: dict[int, int]) -> bool:
    """The colour key's `_fits` and `_table` for one demonstration, with the background check:
    whether a colour map that keeps the background (and sends no colour to it) takes z to t and
    agrees with ``table``, which it extends. One set of (z, t) colour pairs instead of a sort."""
    if z.size <= 64 and z.dtype == np.int8 and t.dtype == np.int8:  # a small grid: the pairs in Python
        pairs = {a << 4 | b for a, b in zip(z.tobytes(), t.tobytes())}
    else:
        pairs = set(_codes(z, t).tobytes())
    for p in pairs:
        a, b = p >> 4, p & 15
        if (a == BG) != (b == BG) or table.setdefault(a, b) != b:
            return False
    return True


def _colour_fits(z: np.ndarray, T: np.ndarray) -> np.ndarray:
    """`_fits` for the colour key over the rows of ``T``: one bincount of (row, z, t) codes."""
    n = T.shape[0]
    codes = (z.ravel().astype(np.intp) << 4) | T.astype(np.intp)
    codes += (np.arange(n) << 8)[:, None]
    hit = np.bincount(codes.ravel(), minlength=n << 8).reshape(n, 16, 16) > 0
    return (hit.sum(axis=2) <= 1).all(axis=1)


def _fit_table(K: np.ndarray, z: np.ndarray, t: np.ndarray, table: dict[int, int]) -> bool:
    """`_fits` for one target and then `_table`, at once: the cells with negative keys keep z's
    colour, and the (key, target) pairs of the others extend ``table`` without a conflict (a key
    with two targets conflicts with itself). ``table`` may be changed when False is returned."""
    obj = K >= 0
    tf = t.ravel()
    if not obj.all():
        bg = ~obj
        if not (tf[bg] == z.ravel()[bg]).all():
            return False
    for code in set(((K[obj].astype(np.intp) << 4) + tf[obj]).tolist()):
        k, v = code >> 4, code & 15
        if table.setdefault(k, v) != v:
            return False
    return True


_NONZERO = bytes([0] + [1] * 255)  # bytes.translate table: a grid's int8 bytes -> its (g != 0) bool bytes


@functools.lru_cache(maxsize=256)
def _d4_groups(h: int, w: int, modifiers: tuple[int, ...]) -> tuple[tuple[tuple[int, int], list[int], np.ndarray], ...]:
    """The symmetries ``modifiers`` grouped by the shape of an h x w grid under their inverses: each
    group's shape, symmetries, and (len, h * w) flat indices, ``y.ravel()[index[j]]`` the flat
    ``d4(y, D4_INVERSE[gs[j]])`` (read-only, cached)."""
    cells = np.arange(h * w).reshape(h, w)
    groups: dict[tuple[int, int], list[tuple[int, np.ndarray]]] = {}
    for g in modifiers:
        t = d4(cells, D4_INVERSE[g])
        groups.setdefault(t.shape, []).append((g, t.ravel()))
    out = []
    for shape, rows in groups.items():
        index = np.stack([r for _, r in rows])
        index.setflags(write=False)
        out.append((shape, [g for g, _ in rows], index))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _colour_lut(table: tuple[tuple[int, int], ...]) -> np.ndarray:
    """A colour table as an int8 look-up array over 0-15 (-1: not in the table); read-only, cached."""
    lut = np.full(16, -1, dtype=np.int8)
    for k, v in table:
        lut[k] = v
    lut.setflags(write=False)
    return lut


def apply_rule(rule: Rule, cores: dict[str, CoreFn], scene: Scene) -> np.ndarray | None:
    """The rule's output for ``scene`` (None: the core does not apply, or a key is not in the table)."""
    out = core_output(cores[rule.core], scene, rule.core)
    if out is None:
        return None
    z, src = out
    if rule.key is not None:
        if rule.key == "colour":  # every cell is keyed by its colour: one look-up table over 0-15
            vals = _colour_lut(rule.table).take(z)
            if b"\xff" in vals.tobytes():  # an int8 -1: a colour not in the table
                return None
            return d4(vals if vals.dtype == z.dtype else vals.astype(z.dtype), rule.g)
        if src is None:  # an object key needs the cells' source objects
            return None
        # an object key: each object's colour from the table (-2: its key is not in it), by source object
        table = dict(rule.table)
        colour = np.array([table.get(f, -2) for f in _features(scene, rule.key)[0]] + [-1], dtype=np.int8)
        pix = colour.take(src.ravel())
        if b"\xfe" in pix.tobytes():  # an int8 -2: a key not in the table
            return None
        z = np.where(pix >= 0, pix, z.ravel()).astype(z.dtype, copy=False).reshape(z.shape)
    return d4(z, rule.g)


def search(cores: Sequence[Core], keys: Sequence[str], modifiers: Sequence[int],
           demos: Sequence[tuple[Scene, np.ndarray]], test: Scene, depth: int,
           truth: bytes | None = None) -> list[tuple[Rule, bytes | None]]:
    """Every hypothesis of cost <= depth that explains all demonstrations, with its test output
    (`pack`, or None when undetermined). With ``truth``, stops at the first hypothesis whose output
    differs from it (the task is then not unique)."""
    table_of = {name: fn for name, _, fn in cores}
    targets: list[dict[int, np.ndarray]] = [{} for _ in demos]

    def target(i: int, g: int) -> np.ndarray:
        t = targets[i].get(g)
        if t is None:
            t = targets[i][g] = d4(demos[i][1], D4_INVERSE[g])
        return t

    # demonstration 1 under each inverse symmetry, grouped by shape (one gather per group): exact
    # matches by a dict lookup, recolourings by one vectorised fit over the group
    y0 = demos[0][1]
    groups = {}
    for shape, gs, index in _d4_groups(*y0.shape, tuple(modifiers)):
        T = y0.ravel()[index]
        raw, n = T.tobytes(), T.shape[1]
        nonzero = raw.translate(_NONZERO) if T.dtype == np.int8 else (T != BG).tobytes()
        exact: dict[bytes, list[int]] = {}
        masks: dict[bytes, list[int]] = {}
        for j, g in enumerate(gs):
            exact.setdefault(raw[j * n:(j + 1) * n], []).append(g)
            masks.setdefault(nonzero[j * n:(j + 1) * n], []).append(g)
            targets[0][g] = T[j].reshape(shape)
        groups[shape] = (gs, exact, masks, T, raw)
    found: list[tuple[Rule, bytes | None]] = []
    for name, cost, fn in cores:
        if cost > depth:
            continue
        outs = {0: core_output(fn, demos[0][0], name)}
        if outs[0] is None:
            continue
        z, src = outs[0]
        group = groups.get(z.shape)
        if group is None:
            continue
        gs, exact, masks, T, raw = group
        zraw = z.tobytes()
        cands: list[tuple[int, str | None]] = [(g, None) for g in exact.get(zraw, ()) if cost + (g != 0) <= depth]
        if cost + 1 < depth:
            learn = gs
        elif cost + 1 == depth and 0 in gs:
            learn = (0,)
        else:
            learn = ()
        live = None  # the object keys' rows of `learn` whose cells of no object keep z's colour, and their object cells
        for key in keys if learn else ():
            if key == "colour":
                # a colour map keeps the background (and maps no colour to it): the masks must agree
                zmask = zraw.translate(_NONZERO) if z.dtype == np.int8 else (z != BG).tobytes()
                fit = [g for g in masks.get(zmask, ()) if g in learn]
                if fit and z.size * len(fit) <= 256 and z.dtype == np.int8 and T.dtype == np.int8:
                    for g in fit:  # small grids: each row's (z, t) colour pairs in Python, one t per z colour
                        j = gs.index(g) * z.size
                        pairs = set(zip(zraw, raw[j:j + z.size]))
                        if len({a for a, _ in pairs}) == len(pairs):
                            cands.append((g, key))
                elif fit:
                    fits = _colour_fits(z, T[[gs.index(g) for g in fit]])
                    cands += [(g, key) for g, ok in zip(fit, fits) if ok]
                continue
            K = key_array(key, z, src, demos[0][0])
            if K is None:
                continue
            if live is None:  # the same for every object key: a key is negative where no object is
                live = _background_kept(K, z, T if learn is gs else T[[gs.index(0)]], learn)
            fit, obj, rows = live
            if fit:
                Kc = (K[obj].astype(np.intp) << 4).tolist()
                for g, row in zip(fit, rows):
                    codes = {k + t for k, t in zip(Kc, row)}
                    if len({c >> 4 for c in codes}) == len(codes):  # each key one target
                        cands.append((g, key))
        for g, key in cands:
            rule = _verify(name, fn, g, key, demos, outs, target)
            if rule is None:
                continue
            pred = apply_rule(rule, table_of, test)
            if pred is None and core_output(fn, test, name) is None:
                continue  # the core does not apply to the test: no competing answer
            code = None if pred is None else pack(pred)
            found.append((rule, code))
            if truth is not None and code != truth:
                return found
    return found


def _verify(name: str, fn: CoreFn, g: int, key: str | None, demos, outs: dict, target) -> Rule | None:
    table: dict[int, int] = {}
    changed = False
    for i, (scene, _) in enumerate(demos):
        if i not in outs:
            outs[i] = core_output(fn, scene, name)
        if outs[i] is None:
            return None
        z, src = outs[i]
        t = target(i, g)
        if t.shape != z.shape:
            return None
        if key is None:
            if t.tobytes() != z.tobytes():
                return None
            continue
        if key == "colour":
            if not _colour_fit(z, t, table):
                return None
        else:
            K = key_array(key, z, src, scene)
            if K is None or not _fit_table(K, z, t, table):
                return None
        changed |= t.tobytes() != z.tobytes()
    if key is not None and not changed:
        return None  # the recolouring changes nothing shown: the same rule without it is listed
    return Rule(name, key, tuple(sorted(table.items())), g)


def pack(grid: np.ndarray) -> bytes:
    """A grid as bytes, shape included (so 2x3 and 3x2 grids differ)."""
    return bytes(grid.shape) + grid.astype(np.int8).tobytes()


def unique(cores, keys, modifiers, demos, test, depth, truth: np.ndarray) -> bool:
    """Whether every hypothesis up to ``depth`` that explains the demonstrations gives ``truth``."""
    code = pack(truth)
    found = search(cores, keys, modifiers, demos, test, depth, truth=code)
    return bool(found) and all(c == code for _, c in found)


def partial_outputs(cores, modifiers, demos, test, depth) -> list[np.ndarray]:
    """Test outputs of hypotheses (no recolouring) that explain some but not all demonstrations:
    the plausible wrong answers of multiple choice, most demonstrations explained first."""
    scored = []
    for _, cost, fn in cores:
        for g in modifiers:
            if cost + (g != 0) > depth:
                continue
            hits = 0
            for scene, y in demos:
                out = core_output(fn, scene)
                hits += out is not None and d4(out[0], g).shape == y.shape and (d4(out[0], g) == y).all()
            out = core_output(fn, test)
            if 0 < hits < len(demos) and out is not None:
                scored.append((-hits, len(scored), d4(out[0], g)))
    return [grid for *_, grid in sorted(scored, key=lambda t: t[:2])]

