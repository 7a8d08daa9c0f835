"""Business directory with a map (held-out template, tagged ``split:test``): listings by
category, business pages, a grid map with numbered pins, and a review form.

Tasks: find a phone number, name the best-rated business of a category, find the business
nearest a landmark on the map, leave a review.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc

KINDS = {"Cafe": ("Bean", "Brew", "Cup"), "Bakery": ("Crust", "Loaf", "Crumb"), "Pharmacy": ("Care", "Well", "Cure"),
         "Hardware": ("Bolt", "Tool", "Nail"), "Florist": ("Petal", "Bloom", "Stem")}
PREFIX = ("North", "Old", "Sunny", "Corner", "Little", "Royal", "Maple", "Harbor")
LANDMARKS = ("Town Hall", "Central Station", "City Park", "Museum")
GRID = 8


class DirectorySite(Site):
    title = "CityFinder"
    nav = (("/", "Categories"), ("/map", "Map"))
    held_out = True

    def generate(self, rng: np.random.Generator) -> None:
        n = (6, 12, 20)[self.difficulty]
        names = [f"{p} {w} {k}" for k, ws in KINDS.items() for p in PREFIX for w in ws]
        cells = R.sample(rng, [(r, c) for r in range(GRID) for c in range(GRID)], n + len(LANDMARKS))
        self.places = []
        for i, nm in enumerate(R.sample(rng, names, n)):
            self.places.append({"id": i + 1, "name": nm, "kind": nm.split()[-1], "rating": round(float(rng.integers(20, 50)) / 10, 1),
                                "phone": f"555-{int(rng.integers(1000, 9999))}", "cell": cells[i], "reviews": []})
        self.landmarks = {lm: cells[n + j] for j, lm in enumerate(LANDMARKS)}

    def kinds(self) -> list[str]:
        return sorted({p["kind"] for p in self.places})

    def page_home(self, q: dict) -> str:
        links = "".join(f"<li><a href='/list?k={k}'>{k}</a></li>" for k in self.kinds())
        return self.shell("Categories", f"<h1>Browse by category</h1><ul>{links}</ul><p class='muted'>{len(self.places)} businesses listed.</p>")

    def page_list(self, q: dict) -> str:
        k = q.get("k", "")
        rows = "".join(f"<div class='card'><a href='/place?id={p['id']}'>{esc(p['name'])}</a></div>" for p in self.places if p["kind"] == k)
        return self.shell(k, f"<h1>{esc(k)}</h1>{rows or '<p>None.</p>'}")

    def page_place(self, q: dict) -> str:
        p = self.places[int(q.get("id", "1")) - 1]
        stars = "".join(f"<label style='min-width:0'><input type='radio' name='stars' value='{s}' id='star-{s}'> {s}</label> " for s in range(1, 6))
        return self.shell(p["name"], f"<h1>{esc(p['name'])}</h1><p>Rating: <b>{p['rating']}</b> · Phone: {p['phone']} · Map square {chr(65 + p['cell'][0])}{p['cell'][1] + 1}</p>"
                          f"<form id='review' action='/do/review'><input type='hidden' name='id' value='{p['id']}'><p>Stars: {stars}</p>"
                          "<button type='submit'>Post review</button></form>")

    def do_review(self, q: dict) -> str:
        p = self.places[int(q.get("id", "1")) - 1]
        if q.get("stars", "").isdigit():
            p["reviews"].append(int(q["stars"]))
        return f"/place?id={p['id']}"

    def page_map(self, q: dict) -> str:
        where = {p["cell"]: f"<a href='/place?id={p['id']}' title='{esc(p['name'])}'>{p['id']}</a>" for p in self.places}
        where.update({c: f"<b>{lm}</b>" for lm, c in self.landmarks.items()})
        rows = "".join("<tr><th>" + chr(65 + r) + "</th>" + "".join(f"<td style='width:70px;height:34px;font-size:0.8em'>{where.get((r, c), '')}</td>" for c in range(GRID)) + "</tr>"
                       for r in range(GRID))
        legend = "".join(f"<span class='tag'>{p['id']}: {esc(p['name'])}</span> " for p in self.places)
        return self.shell("Map", f"<h1>City map</h1><table><tr><th></th>{''.join(f'<th>{c + 1}</th>' for c in range(GRID))}</tr>{rows}</table><p>{legend}</p>")


class _DirTask(WebEnv):
    site_cls = DirectorySite


class DirectoryPhone(_DirTask):
    __doc__ = web_doc("Find a business's phone number in a generated city directory (held-out template).",
                      "Open its category, then its page.", "6/12/20 businesses")

    def _setup(self, rng: np.random.Generator) -> None:
        self._p = R.choice(rng, self._site.places)

    def _task_text(self) -> str:
        return f"You are on the CityFinder directory. What is the phone number of {self._p['name']}? Answer with the number."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("phone", answer_matches(self._final_answer, self._p["phone"]))]

    def _plan(self) -> list[Goal]:
        return [Goal((Step("link", f"/list?k={self._p['kind']}"), Step("link", f"/place?id={self._p['id']}")), Step("answer", value=self._p["phone"]))]

    def _answer(self) -> str:
        return f"phone: {self._p['phone']}"


class DirectoryBestRated(_DirTask):
    __doc__ = web_doc("Name the best-rated business of a category in a generated city directory (held-out template).",
                      "Ratings are on each business's page: visit them all and compare.", "6/12/20 businesses")

    def _setup(self, rng: np.random.Generator) -> None:
        self._k = R.choice(rng, self._site.kinds())
        group = [p for p in self._site.places if p["kind"] == self._k]
        top = max(p["rating"] for p in group)
        best = [p for p in group if p["rating"] == top]
        for p in best[1:]:
            p["rating"] = round(top - 0.1, 1)
        self._best, self._group = best[0], group
        self._seen: set[int] = set()

    def _task_text(self) -> str:
        return f"You are on the CityFinder directory. Which {self._k.lower()} has the highest rating? Answer with its name."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("best", answer_matches(self._final_answer, self._best["name"]))]

    def _plan(self) -> list[Goal]:
        if self._url.startswith("/place?id="):
            self._seen.add(int(self._url.split("=")[1]))
        goals = [Goal((Step("link", f"/list?k={self._k}"), Step("link", f"/place?id={p['id']}")), Step("link", f"/list?k={self._k}"),
                      done=lambda p=p: p["id"] in self._seen) for p in self._group]
        return [*goals, Goal((), Step("answer", value=self._best["name"]))]

    def _answer(self) -> str:
        return f"best: {self._best['name']} ({self._best['rating']})"


class DirectoryNearest(_DirTask):
    __doc__ = web_doc("Name the business of a category closest to a landmark on a generated city map (held-out template).",
                      "The map is a lettered grid with numbered pins; distance is the number of squares (king moves).",
                      "6/12/20 businesses on the map")

    def _setup(self, rng: np.random.Generator) -> None:
        self._lm = R.choice(rng, LANDMARKS)
        lr, lc = self._site.landmarks[self._lm]
        dist = lambda p: max(abs(p["cell"][0] - lr), abs(p["cell"][1] - lc))
        places = self._site.places
        self._k = R.choice(rng, self._site.kinds())
        group = sorted((p for p in places if p["kind"] == self._k), key=lambda p: (dist(p), p["id"]))
        self._best = group[0]
        names = {p["name"] for p in places}
        for p in group[1:]:  # a tie for nearest becomes another kind of business (with a fresh name)
            if dist(p) == dist(self._best):
                other = next(k for k in KINDS if k != self._k)
                fresh = next(f"{a} {w} {other}" for a in PREFIX for w in KINDS[other] if f"{a} {w} {other}" not in names)
                names.add(fresh)
                p["name"], p["kind"] = fresh, other

    def _task_text(self) -> str:
        return f"You are on the CityFinder directory. On the map, which {self._k.lower()} is closest to the {self._lm}? Answer with its name."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("nearest", answer_matches(self._final_answer, self._best["name"]))]

    def _plan(self) -> list[Goal]:
        return [Goal((Step("link", "/map"),), Step("answer", value=self._best["name"]))]

    def _answer(self) -> str:
        return f"nearest: {self._best['name']}"


class DirectoryReview(_DirTask):
    __doc__ = web_doc("Leave a review with a given number of stars for a business in a generated directory (held-out template).",
                      "One review on exactly that business.", "6/12/20 businesses; at 2 two businesses")

    def _setup(self, rng: np.random.Generator) -> None:
        self._ps = R.sample(rng, self._site.places, 2 if self.difficulty == 2 else 1)
        self._stars = [int(rng.integers(1, 6)) for _ in self._ps]

    def _task_text(self) -> str:
        what = " and ".join(f"{s} stars to {p['name']}" for p, s in zip(self._ps, self._stars))
        return f"You are on the CityFinder directory. Post a review giving {what} (one review each), then reply done."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [(p["name"], p["reviews"] == [s]) for p, s in zip(self._ps, self._stars)] + \
               [("no other reviews", all(not p["reviews"] for p in self._site.places if p not in self._ps))]

    def _plan(self) -> list[Goal]:
        return [Goal((Step("link", f"/list?k={p['kind']}"), Step("link", f"/place?id={p['id']}")), Step("form", "#review", ((f"#star-{s}", True),)),
                     done=lambda p=p: bool(p["reviews"])) for p, s in zip(self._ps, self._stars)] + [Goal((), Step("done"))]

    def _answer(self) -> str:
        return "reviews: " + ", ".join(f"{p['id']}={s}" for p, s in zip(self._ps, self._stars))


_TAGS = ("web", "site:directory", "split:test")
SPECS = (
    TaskSpec("WebDirectoryPhone", DirectoryPhone, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebDirectoryBestRated", DirectoryBestRated, version=1, max_episode_steps=50, tags=_TAGS),
    TaskSpec("WebDirectoryNearest", DirectoryNearest, version=1, max_episode_steps=15, tags=_TAGS),
    TaskSpec("WebDirectoryReview", DirectoryReview, version=1, max_episode_steps=30, tags=_TAGS),
)
