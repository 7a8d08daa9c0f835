"""The rubric grammar of the catalogue tasks: atomic facts composed into tasks, and their oracle.

An `Atom` is one thing a task asks for, with the rubric facts that must hold for it, the
oracle's sub-goals that make them hold, and its words in the instruction (one of several
paraphrases). Atom kinds:

==========  =====================================================  ===========================
kind        asks                                                   facts
==========  =====================================================  ===========================
read        a field of a named item (main number, second number,   1 (its part of the answer)
            person, date, the reference code in the Details tab)
colour      the colour of a named item's picture                   1
best        the name of the cheapest / dearest / best-rated item   1
            of a category (filter, then sort)
count       how many items a category has (filter, count)          1
compare     which of two named items has the larger number         1
add         put an item (named, the best of a category, or the     1 + one per option given
            item whose picture shows a colour / feature) on the    (dropdown, slider, date)
            list with given options
remove      take an entry off a list that starts filled            1
top         drag an entry to the top of the list                   1
unchanged   nothing else on the list changed                       1
infeasible  a named item that does not exist: the answer is that   2 (the reply says so; the
            the task cannot be done                                list is unchanged)
==========  =====================================================  ===========================

Tasks are composed per *pattern* (the id's ``task`` argument): ``lookup`` (answer atoms only),
``collect`` (adds with options), ``curate`` (removes, moves and adds on a filled list),
``errand`` (adds of items found by filtering and sorting, with a question), ``visual`` (items
known by their pictures). A difficulty's band is the number of facts: 1-3 (difficulty 0), 4-6
(1), 7-9 (2), WebGym's bands. About 5% of levels (``INFEASIBLE_RATE``) are infeasible.

Template: (family, pattern, the composition signature (the atom kinds in order, with the
options each add names), the intro and closing paraphrases). `CatalogTask.template` gives the
level's template; tests/test_web.py counts the distinct ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.domains.web._catalog import CatalogSite, Family

PATTERNS = ("lookup", "collect", "curate", "errand", "visual")
BANDS = ((1, 3), (4, 6), (7, 9))
INFEASIBLE_RATE = 0.05
INTROS = ("You are on {brand}, {about}.", "This is {brand}, {about}.", "The browser shows {brand}, {about}.",
          "Welcome to {brand}, {about}.")
CLOSE_ANSWER = ("Then answer with {what}.", "Finish by answering with {what}.", "Reply with {what} when you are done.")
CLOSE_DONE = ("Then reply done.", "When everything is in place, reply done.", "Leave everything else as it is and reply done.")
FALLBACK = " If the task cannot be done, answer that it cannot be done."


@dataclass
class Atom:
    """Plain data (levels pickle and copy): ``facts`` are (name, spec) and ``goals`` specs that
    `CatalogTask._holds` and `CatalogTask._goal` read."""

    kind: str
    text: str
    short: str
    facts: list[tuple[str, tuple]] = field(default_factory=list)
    goals: list[tuple] = field(default_factory=list)
    answer: tuple[Any, str, tuple[str, ...]] | None = None  # (expected, kind, other names)
    sig: str = ""
    page: str = ""  # title of the page that shows this fact (for the fact_page question)


class Composer:
    """Draws the atoms of one level (see the module docstring). ``env`` is the `CatalogTask`."""

    def __init__(self, env: Any, rng: np.random.Generator) -> None:
        self.env, self.rng = env, rng
        self.site: CatalogSite = env._site
        self.f: Family = self.site.family
        self.used: set[int] = set()

    # ----------------------------------------------------------------- helpers
    def pick(self, pool: list[dict] | None = None) -> dict:
        pool = [p for p in (pool or self.site.items) if p["id"] not in self.used] or list(pool or self.site.items)
        p = R.choice(self.rng, pool)
        self.used.add(p["id"])
        return p

    def say(self, *options: str) -> str:
        return R.choice(self.rng, options)

    def visit(self, p: dict, tab: bool = False) -> tuple:
        return ("visit", p["id"], tab)

    def listing(self, cat: str, sort: str = "") -> tuple:
        return ("listing", cat, sort)

    def best(self, cat: str, how: str) -> dict:
        items = self.site.sorted_items(cat, how)
        return items[0]

    def unique_best(self, cat: str, how: str) -> bool:
        items = self.site.sorted_items(cat, how)
        key = "num" if how.startswith("num_") else "num2"
        return len(items) >= 2 and items[0][key] != items[1][key] or len(items) == 1

    # ----------------------------------------------------------------- answer atoms
    def read(self) -> Atom:
        f = self.f
        p = self.pick()
        what = R.choice(self.rng, ["num", "num2", "who", "date", "code"])
        label = {"num": f.num[0].lower(), "num2": f.num2[0].lower(), "who": f.who[0].lower(), "date": f.date.lower(), "code": f.code}[what]
        kind = {"num": f.num[1], "num2": "count", "who": "name", "date": "date", "code": "name"}[what]
        others = tuple(sorted({q[what] for q in self.site.items} - {p[what]})) if kind == "name" else ()
        text = self.say(f"the {label} of '{p['name']}'", f"what the {label} of '{p['name']}' is", f"'{p['name']}': its {label}")
        return Atom("read", text, f"{label}? {p['name']}", [], [self.visit(p, tab=what == "code")],
                    (p[what], kind, others), f"read:{what}", p["name"])

    def colour(self) -> Atom:
        p = self.pick()
        others = tuple(c for c in sorted({q["colour"] for q in self.site.items} | {"red", "blue", "green"}) if c != p["colour"])
        text = self.say(f"the main colour of the picture of '{p['name']}'", f"which colour '{p['name']}' is in its picture")
        return Atom("colour", text, f"colour? {p['name']}", [], [self.visit(p)], (p["colour"], "name", others), "colour", p["name"])

    def best_atom(self) -> Atom | None:
        f = self.f
        for _ in range(6):
            cat = R.choice(self.rng, list(f.cats))
            how = R.choice(self.rng, ["num_asc", "num_desc", "num2_desc"])
            if self.unique_best(cat, how) and self.site.sorted_items(cat, how):
                p = self.best(cat, how)
                word = {"num_asc": f"lowest {f.num[0].lower()}", "num_desc": f"highest {f.num[0].lower()}",
                        "num2_desc": f"highest {f.num2[0].lower()}"}[how]
                others = tuple(q["name"] for q in self.site.items if q["id"] != p["id"])
                text = self.say(f"the name of the {f.noun} with the {word} in {cat}", f"which {f.noun} in {cat} has the {word}")
                return Atom("best", text, f"{word} in {cat}", [], [self.listing(cat, how), self.visit(p)],
                            (p["name"], "name", others), f"best:{how}", p["name"])
        return None

    def count(self) -> Atom:
        f = self.f
        cat = R.choice(self.rng, list(f.cats))
        n = len(self.site.sorted_items(cat, ""))
        text = self.say(f"how many {f.plural} are listed in {cat}", f"the number of {f.plural} in {cat}")
        return Atom("count", text, f"count {cat}", [], [self.listing(cat)], (n, "count", ()), "count")

    def compare(self) -> Atom | None:
        for _ in range(6):
            a, b = self.pick(), self.pick()
            if a["num"] != b["num"]:
                win = a if a["num"] > b["num"] else b
                label = self.f.num[0].lower()
                text = self.say(f"which of '{a['name']}' and '{b['name']}' has the higher {label}",
                                f"the one of '{a['name']}' and '{b['name']}' with the larger {label}")
                return Atom("compare", text, f"{label} {a['name']} vs {b['name']}", [], [self.visit(a), self.visit(b)],
                            (win["name"], "name", (a["name"], b["name"])), "compare", win["name"])
        return None

    # ----------------------------------------------------------------- state atoms
    def add(self, p: dict, ref: str, n_opts: int) -> Atom:
        f, site, env = self.f, self.site, self.env
        keys = ["opt", "qty"] + (["date"] if f.when else [])
        chosen = sorted(R.sample(self.rng, keys, min(n_opts, len(keys))), key=keys.index)
        want = {"opt": R.choice(self.rng, list(f.opt[1][1:])), "qty": int(self.rng.integers(f.qty[1] + 1, f.qty[2] + 1)),
                "date": f"2026-05-{int(self.rng.integers(2, 29)):02d}"}
        parts = {"opt": f"{f.opt[0].lower()} {want['opt']}", "qty": f"{f.qty[0].lower()} {want['qty']}",
                 "date": f"{f.when.lower()} {want['date']}"}
        spec = ", ".join(parts[k] for k in chosen)
        verb = f.verb.lower()
        text = self.say(f"{verb}: {ref}" + (f" ({spec})" if spec else ""), f"{verb} {ref}" + (f" with {spec}" if spec else ""))
        before = tuple(sorted(e["eid"] for e in site.saved))
        facts = [(f"{ref} on the {f.list_name.lower()}", ("entry", p["id"], before))]
        for k in chosen:
            facts.append((f"{ref}: {parts[k].split(' ')[0]} as asked", ("field", p["id"], before, k, want[k])))
        fields = [("#f-opt", want["opt"] if "opt" in chosen else f.opt[1][0], "select"),
                  ("#f-qty", str(want["qty"] if "qty" in chosen else f.qty[1]), "slider")]
        if f.when and "date" in chosen:
            fields.append(("#f-date", want["date"]))
        env.expect_add(p["id"])
        return Atom("add", text, f"+{p['name']}", facts, [("add", p["id"], before, tuple(fields))], None,
                    "add" + "".join(f"+{k}" for k in chosen), p["name"])

    def remove(self, e: dict) -> Atom:
        f = self.f
        name = self.site.by_id(e["id"])["name"]
        text = self.say(f"remove '{name}' from the {f.list_name.lower()}", f"take '{name}' off the {f.list_name.lower()}")
        self.env.expect_gone(e["eid"])
        return Atom("remove", text, f"-{name}", [(f"'{name}' removed", ("gone", e["eid"]))], [("remove", e["eid"])], None, "remove")

    def top(self, e: dict) -> Atom:
        f = self.f
        name = self.site.by_id(e["id"])["name"]
        text = self.say(f"move '{name}' to the top of the {f.list_name.lower()}", f"drag '{name}' to the first place of the {f.list_name.lower()}")
        self.env.expect_first(e["eid"])
        return Atom("top", text, f"^{name}", [(f"'{name}' first", ("first", e["eid"]))], [("top", e["eid"])], None, "top")

    def unchanged(self) -> Atom:
        return Atom("unchanged", "", "", [(f"nothing else changed on the {self.f.list_name.lower()}", ("unchanged",))], [], None, "unchanged")

    def infeasible(self) -> Atom:
        name = self.site.spare_names[0]
        verb = self.f.verb.lower()
        text = self.say(f"{verb} '{name}'", f"find the {self.f.num[0].lower()} of '{name}'")
        return Atom("infeasible", text, f"?{name}", [(f"'{name}' does not exist: said so", ("infeasible",)),
                                                       ("nothing changed", ("unchanged",))], [("search", name)], None, "infeasible")
