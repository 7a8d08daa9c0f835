"""`CatalogTask`: the env of every catalogue family, its tasks composed by `_facts.Composer`.

A family file defines ``class <Family>Task(CatalogTask): family = ...`` and registers
``SPECS = family_specs(<Family>Task, "<Name>")``: one id per pattern (``Web<Name>Lookup``,
``...Collect``, ``...Curate``, ``...Errand``, ``...Visual``), and for a training family one more,
``Web<Name>HeldOutLayout`` (an errand on the held-out layout styles, tagged ``split:test``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web import _answers, _layout
from gymv_envs.domains.web._base import WebEnv
from gymv_envs.domains.web._catalog import CatalogSite, Family, href
from gymv_envs.domains.web._facts import (
    BANDS,
    CLOSE_ANSWER,
    CLOSE_DONE,
    FALLBACK,
    INFEASIBLE_RATE,
    INTROS,
    PATTERNS,
    Atom,
    Composer,
)
from gymv_envs.domains.web._oracle import Goal, Step, same_url

LAYOUT_SETS = {"train": _layout.TRAIN_STYLES, "test": _layout.TEST_STYLES}
BUDGETS = {"lookup": 70, "collect": 110, "curate": 90, "errand": 110, "visual": 110}


class CatalogTask(WebEnv):
    """Base of the catalogue families (the class docstring comes from `catalog_doc`)."""

    family: ClassVar[Family]

    def __init__(self, task: str = "lookup", layouts: str = "train", **kwargs: Any) -> None:
        if task not in PATTERNS:
            raise ValueError(f"invalid task={task!r}; valid values: {', '.join(PATTERNS)}")
        if not isinstance(layouts, str) or layouts not in LAYOUT_SETS:   # a list or dict is not hashable
            raise ValueError(f"invalid layouts={layouts!r}; valid values: {', '.join(LAYOUT_SETS)}")
        self.task, self.layouts = task, layouts
        super().__init__(**kwargs)

    def _make_site(self, rng: np.random.Generator) -> CatalogSite:
        return CatalogSite(rng, self.difficulty, self.family, LAYOUT_SETS[self.layouts])

    # ----------------------------------------------------------------- composing
    def _setup(self, rng: np.random.Generator) -> None:
        site = self._site
        self._latches: set = set()
        self._adds: list[int] = []
        self._gone: set[int] = set()
        self._first: int | None = None
        c = Composer(self, rng)
        if self.task == "curate":
            for p in R.sample(rng, site.items, 3 + 2 * self.difficulty):
                f = site.family
                site.add_entry(p["id"], R.choice(rng, list(f.opt[1])), int(rng.integers(f.qty[1], f.qty[2] + 1)), "")
        self._initial_saved = [dict(e) for e in site.saved]
        self.infeasible = bool(rng.random() < INFEASIBLE_RATE)
        lo, hi = BANDS[self.difficulty]
        target = int(rng.integers(max(lo, 2 if self.task != "lookup" else 1), hi + 1))
        atoms = [c.infeasible()] if self.infeasible else self._compose(c, rng, target)
        self._atoms = atoms
        self._intro, self._close = int(rng.integers(len(INTROS))), int(rng.integers(len(CLOSE_ANSWER)))

    def _compose(self, c: Composer, rng: np.random.Generator, target: int) -> list[Atom]:
        atoms: list[Atom] = []
        n = lambda: sum(len(a.facts) + (a.answer is not None) for a in atoms) + (self.task != "lookup")  # noqa: E731
        asks = {"lookup": (c.read, c.best_atom, c.count, c.compare), "errand": (c.count, c.best_atom, c.read),
                "visual": (c.colour,)}
        guard = 0
        while n() < target and guard < 40:
            guard += 1
            room = target - n()
            made: Atom | None = None
            if self.task == "lookup":
                made = R.choice(rng, list(asks["lookup"]))()
            elif self.task == "collect":
                p = c.pick()
                made = c.add(p, f"'{p['name']}'", min(room - 1, int(rng.integers(0, 3))))
            elif self.task == "curate":
                live = [e for e in self._site.saved if e["eid"] not in self._gone and e["eid"] != self._first]
                kind = R.choice(rng, ["remove", "top", "add"] if self._first is None else ["remove", "add"])
                if kind == "remove" and len(live) > 1:
                    made = c.remove(R.choice(rng, live))
                elif kind == "top" and len(live) > 1:
                    made = c.top(R.choice(rng, live[1:]))
                elif kind == "add":
                    p = c.pick([q for q in self._site.items if q["id"] not in {e["id"] for e in self._site.saved}])
                    made = c.add(p, f"'{p['name']}'", min(room - 1, int(rng.integers(0, 2))))
            elif self.task in ("errand", "visual"):
                ask = sum(a.answer is not None for a in atoms) == 0 and (room == 1 or rng.random() < 0.35)
                if ask:
                    made = R.choice(rng, list(asks[self.task]))()
                else:
                    made = self._found_add(c, rng, min(room - 1, int(rng.integers(0, 3))))
            if made is not None:
                atoms.append(made)
        if self.task != "lookup":
            atoms.append(c.unchanged())
        return atoms

    def _found_add(self, c: Composer, rng: np.random.Generator, opts: int) -> Atom | None:
        """An add whose item is known by a description: the best of a category, or its picture."""
        f, site = self._site.family, self._site
        taken = set(self._adds)
        for _ in range(8):
            cat = R.choice(rng, list(f.cats))
            items = [p for p in site.items if p["cat"] == cat]
            if self.task == "visual":
                if f.feature and rng.random() < 0.5:
                    hits = [p for p in items if p["flag"]]
                    if len(hits) == 1 and hits[0]["id"] not in taken:
                        return c.add(hits[0], f"the {f.noun} in {cat} whose picture shows {f.feature}", opts)
                    continue
                col = R.choice(rng, sorted({p["colour"] for p in items}) or ["red"])
                hits = [p for p in items if p["colour"] == col]
                if len(hits) == 1 and hits[0]["id"] not in taken:
                    return c.add(hits[0], f"the {col} one among the {cat} {f.plural}", opts)
                continue
            how = R.choice(rng, ["num_asc", "num_desc", "num2_desc"])
            if items and c.unique_best(cat, how):
                p = c.best(cat, how)
                if p["id"] in taken:
                    continue
                word = {"num_asc": f"lowest {f.num[0].lower()}", "num_desc": f"highest {f.num[0].lower()}",
                        "num2_desc": f"highest {f.num2[0].lower()}"}[how]
                atom = c.add(p, f"the {f.noun} with the {word} in {cat}", opts)
                atom.goals = [c.listing(cat, how), c.visit(p), *atom.goals]
                return atom
        return None

    # ----------------------------------------------------------------- expectations (for "unchanged")
    def expect_add(self, iid: int) -> None:
        self._adds.append(iid)

    def expect_gone(self, eid: int) -> None:
        self._gone.add(eid)

    def expect_first(self, eid: int) -> None:
        self._first = eid

    def rest_unchanged(self) -> bool:
        now = {e["eid"]: e for e in self._site.saved}
        for e in self._initial_saved:
            if e["eid"] not in self._gone and now.get(e["eid"]) != e:
                return False
        old = {e["eid"] for e in self._initial_saved}
        new = sorted(e["id"] for e in self._site.saved if e["eid"] not in old)
        return new == sorted(self._adds)

    # ----------------------------------------------------------------- oracle helpers
    def route_to(self, p: dict) -> tuple[Step, ...]:
        return (Step("form", "#search", (("#search input[name=q]", p["name"]),), url=href("/search", q=p["name"])),
                Step("link", href("/item", id=p["id"])))

    def route_to_listing(self, cat: str, sort: str = "") -> tuple[Step, ...]:
        from gymv_envs.domains.web._catalog import SORTS

        f = self._site.family
        first = (Step("select", "#cat-select", value=cat, url=href("/", cat=cat)) if self._site.layout.categories == "select"
                 else Step("link", href("/", cat=cat)))
        if not sort:
            return (first,)
        label = dict(SORTS)[sort].format(num=f.num[0], num2=f.num2[0])
        return first, Step("select", "#sort", value=label, url=href("/", cat=cat, sort=sort))

    def latch(self, key: Any, cond: Any) -> bool:
        if key in self._latches:
            return True
        if cond():
            self._latches.add(key)
            return True
        return False

    def at(self, url: str) -> bool:
        return same_url(self._url, url)

    def on_item(self, p: dict) -> bool:
        return self.at(href("/item", id=p["id"]))

    def tab_open(self, p: dict) -> bool:
        if not self.on_item(p):
            return False
        probe = self._probe(["#panel-details"])[0]
        return probe is not None and probe["w"] > 0 and probe["h"] > 0

    # ----------------------------------------------------------------- rubric and oracle
    def _asks(self) -> list[Atom]:
        return [a for a in self._atoms if a.answer is not None]

    def _reply_value(self, a: Atom) -> str:
        value, kind, _ = a.answer
        return self._site.family.fmt(value) if kind in ("money", "number") else str(value)

    def _entry(self, iid: int, before: tuple) -> dict | None:
        return next((e for e in self._site.saved if e["id"] == iid and e["eid"] not in before), None)

    def _holds(self, spec: tuple) -> bool:
        kind = spec[0]
        if kind == "entry":
            return self._entry(spec[1], spec[2]) is not None
        if kind == "field":
            return (self._entry(spec[1], spec[2]) or {}).get(spec[3]) == spec[4]
        if kind == "gone":
            return all(e["eid"] != spec[1] for e in self._site.saved)
        if kind == "first":
            return bool(self._site.saved) and self._site.saved[0]["eid"] == spec[1]
        if kind == "unchanged":
            return self.rest_unchanged()
        if kind == "infeasible":
            return _answers.says_infeasible(self._final_answer or "")
        raise ValueError(spec)

    def _goal(self, spec: tuple) -> Goal:
        kind = spec[0]
        if kind == "visit":
            p = self._site.by_id(spec[1])
            route = self.route_to(p)
            if spec[2]:
                return Goal(route, Step("click", "#tab-details"), done=lambda: self.latch(("tab", p["id"]), lambda: self.tab_open(p)))
            return Goal(route[:-1], route[-1], done=lambda: self.latch(("seen", p["id"]), lambda: self.on_item(p)))
        if kind == "listing":
            steps, url = self.route_to_listing(spec[1], spec[2]), href("/", cat=spec[1], sort=spec[2])
            return Goal(steps[:-1], steps[-1], done=lambda: self.latch(("list", url), lambda: self.at(url)))
        if kind == "add":
            p = self._site.by_id(spec[1])
            return Goal(self.route_to(p), Step("form", "#act", spec[3], url="/saved"),
                        done=lambda: self._entry(spec[1], spec[2]) is not None)
        if kind == "remove":
            return Goal((Step("link", "/saved"),), Step("click", f"#remove-{spec[1]}"), done=lambda: self._holds(("gone", spec[1])))
        if kind == "top":
            return Goal((Step("link", "/saved"),), Step("drag", f"#handle-{spec[1]}", value="#rows > [data-row]:first-child"),
                        done=lambda: self._holds(("first", spec[1])))
        if kind == "search":
            step = Step("form", "#search", (("#search input[name=q]", spec[1]),), url=href("/search", q=spec[1]))
            return Goal((), step, done=lambda: self.latch(("search", spec[1]), lambda: self._url.startswith("/search")))
        raise ValueError(spec)

    def _criteria(self) -> list[tuple[str, bool]]:
        out = [(name, self._holds(spec)) for a in self._atoms for name, spec in a.facts]
        asks = self._asks()
        parts = _answers.split_parts(self._final_answer, len(asks)) if asks and self._final_answer else None
        for i, a in enumerate(asks):
            value, kind, others = a.answer
            ok = parts is not None and _answers.matches(parts[i], value, kind, others)
            out.append((f"answer {i + 1}: {a.short}", ok))
        return out

    def _plan(self) -> list[Goal]:
        goals = [self._goal(g) for a in self._atoms for g in a.goals]
        if self.infeasible:
            return [*goals, Goal((), Step("answer", value="This cannot be done: it is not on the site (infeasible)."))]
        asks = self._asks()
        if asks:
            return [*goals, Goal((), Step("answer", value="; ".join(self._reply_value(a) for a in asks)))]
        return [*goals, Goal((), Step("done"))]

    def _task_text(self) -> str:
        site, f = self._site, self._site.family
        intro = INTROS[self._intro].format(brand=site.brand, about=f.about)
        doing = [a.text[0].upper() + a.text[1:] + "." for a in self._atoms if a.answer is None and a.text]
        asks = self._asks()
        body = " ".join(doing)
        if asks:
            body += (" " if body else "") + "Find out " + "; ".join(a.text for a in asks) + "."
            what = "the value" if len(asks) == 1 else f"these {len(asks)} values in this order, separated by semicolons"
            body += " " + CLOSE_ANSWER[self._close].format(what=what)
        elif not self.infeasible:
            body += " " + CLOSE_DONE[self._close]
        return f"{intro} {body}{FALLBACK}"

    def _caption(self) -> list:
        return [" ".join(a.short for a in self._atoms if a.short)]

    def _meaning(self) -> str:
        """What the instruction asks, without its seeded wording (intro, closing, each fact's
        paraphrase): the facts by name, the pages asked about and the kinds of answers. Levels that
        differ only in wording share it, and their captions (the meaning, not the wording) too."""
        return repr((self.infeasible, [(a.kind, a.sig, [name for name, _ in a.facts], a.page, a.answer and a.answer[1])
                                       for a in self._atoms]))

    def _answer(self) -> str:
        if self.infeasible:
            return f"cannot be done: no '{self._site.spare_names[0]}' on this site"
        asks = self._asks()
        adds = [a.page for a in self._atoms if a.kind == "add"]
        out = "answers: " + "; ".join(self._reply_value(a) for a in asks) if asks else "state"
        return out + (f" | added: {', '.join(adds)}" if adds else "")

    @property
    def template(self) -> tuple:
        """(family, pattern, composition signature, intro, closing): what the instruction is made from."""
        return (self._site.family.key, self.task, tuple(a.sig for a in self._atoms), self._intro, self._close)

    def _fact_page(self) -> tuple[str, list[str]] | None:
        # one page holds the fact, and the task does not name it (a comparison needs two pages,
        # and a named item would give the answer away)
        pages = [a.page for a in self._atoms if a.page and a.kind in ("read", "colour")]
        if len(set(pages)) != 1 or pages[0].lower() in self.instruction.lower():
            return None
        return pages[0], [p["name"] for p in self._site.items if p["name"] not in pages]


def catalog_doc(f: Family, summary: str) -> str:
    """The Gymnasium-style docstring of a family's task class."""
    return f"""{summary}

    ## Description
    A generated catalogue site of {f.plural} ({', '.join(f.cats)}), laid out by a seeded layout generator
    (`_layout`: top bar / sidebar / dashboard styles for training, magazine / split held out), with
    pictures drawn by us, a category filter, a sort dropdown, paging or infinite scroll, search with
    suggestions, item pages with tabs, an action form ("{f.verb}": {f.opt[0].lower()} dropdown, {f.qty[0].lower()}
    slider{', ' + f.when.lower() + ' date picker' if f.when else ''}, a confirmation dialog), a {f.list_name.lower()}
    page with drag-and-drop reordering, and maybe a cookie banner. The task is composed from the rubric
    grammar (`_facts`): ``task`` picks the pattern; the facts all must hold. About 5% of levels are
    infeasible (answer that the task cannot be done). Served on 127.0.0.1; the rubric is checked on the
    server-side state and the final answer, read by the shared answer reader (`_answers`).

    ## Action Space
    `Dict(kind, x, y, dx, dy, text, bid)`: see `_grammar` (click, double_click, hover, select, drag,
    scroll, type, key, back, forward, goto, new_tab, switch_tab, fill, answer, done; element-id forms
    with an outline observation).

    ## Observation Space
    The page screenshot, `Box(0, 255, (H, W, 3), uint8)`, default 768x1024; ``observation`` adds the outline.

    ## Rewards
    1.0 when the episode ends with every fact holding, else 0.0; `info["progress"]` is the fraction that hold.

    ## Starting State
    The site's start page, freshly generated (a filled {f.list_name.lower()} for ``curate``).

    ## Episode End
    `answer(...)` or `done` ends the episode; the step budget truncates.

    ## Arguments
    `task`: lookup, collect, curate, errand, visual. `layouts`: train (top bar, sidebar, dashboard) or
    test (magazine, split). `difficulty`: 0 (1-3 facts), 1 (4-6 facts), 2 (7-9 facts); the catalogue has
    8/14/24 {f.plural}. `observation`: screenshot, axtree, both. `judge_mode`: off, and, replace, audit.
    `judge`, `action_timeout`, `shared_browser`, `obs_size`: see `_base`.

    ## Version History
    - v0: initial release
    """


def family_specs(cls: type, name: str) -> tuple[TaskSpec, ...]:
    f = cls.family
    split = "split:test" if f.held_out else "split:train"
    tags = ("web", f"site:{f.key}", split, "heldout:family" if f.held_out else "layout:train")
    specs = [TaskSpec(f"Web{name}{p.title()}", cls, max_episode_steps=BUDGETS[p], tags=tags, kwargs={"task": p})
             for p in PATTERNS]
    if not f.held_out:
        specs.append(TaskSpec(f"Web{name}HeldOutLayout", cls, max_episode_steps=BUDGETS["errand"],
                              tags=("web", f"site:{f.key}", "split:test", "heldout:layout"),
                              kwargs={"task": "errand", "layouts": "test"}))
    return tuple(specs)
