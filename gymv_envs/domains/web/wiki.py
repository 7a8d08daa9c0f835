"""Encyclopedia site: searchable articles with infoboxes and links, and an edit form.

Tasks: read an infobox fact, follow a link to answer a two-hop question, compare two
articles, add a category to an article.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc, search_form

SYLLABLES = ("ka", "lo", "ri", "ven", "tor", "mi", "sa", "dun", "el", "bra", "no", "vik", "ta", "mer", "ost", "ul")
CATEGORIES = ("Port cities", "Mountain towns", "River towns", "Historic capitals", "Island towns")


class WikiSite(Site):
    title = "OpenPedia"
    nav = (("/", "Main page"),)

    def generate(self, rng: np.random.Generator) -> None:
        n = (5, 9, 14)[self.difficulty]
        names: list[str] = []
        while len(names) < 2 * n:
            nm = "".join(R.choice(rng, SYLLABLES) for _ in range(int(rng.integers(2, 4)))).capitalize()
            if nm not in names:
                names.append(nm)
        self.cities = [{"name": names[i], "kind": "city", "population": int(rng.integers(2, 900)) * 1000 + int(rng.integers(0, 999)),
                        "founded": int(rng.integers(900, 1900)), "cats": []} for i in range(n)]
        self.regions = [{"name": names[n + i] + " Province", "kind": "region", "capital": self.cities[i]["name"],
                         "area": int(rng.integers(500, 90000)), "cats": []} for i in range(n)]
        self.articles = {a["name"]: a for a in self.cities + self.regions}

    def page_home(self, q: dict) -> str:
        feat = "".join(f"<li><a href='/wiki?t={esc(r['name'])}'>{esc(r['name'])}</a></li>" for r in self.regions[:3])
        return self.shell("Main page", f"<h1>Welcome to OpenPedia</h1>{search_form('/search', label='Search articles')}<h2>Featured</h2><ul>{feat}</ul><p class='muted'>OpenPedia has {len(self.articles)} articles.</p>")

    def page_search(self, q: dict) -> str:
        words = q.get("q", "").lower().split()
        hits = [t for t in self.articles if words and all(w in t.lower() for w in words)]
        items = "".join(f"<li><a href='/wiki?t={esc(t)}'>{esc(t)}</a></li>" for t in hits)
        return self.shell("Search", f"<h1>Search</h1>{search_form('/search', value=q.get('q', ''), label='Search articles')}<ul>{items or '<li>No results</li>'}</ul>")

    def page_wiki(self, q: dict) -> str:
        a = self.articles.get(q.get("t", ""))
        if a is None:
            return self.shell("Missing", "<h1>No such article</h1>")
        if a["kind"] == "city":
            box = f"<tr><th>Population</th><td>{a['population']:,}</td></tr><tr><th>Founded</th><td>{a['founded']}</td></tr>"
            text = f"{a['name']} is a city. It was founded in {a['founded']}."
        else:
            box = f"<tr><th>Capital</th><td><a href='/wiki?t={a['capital']}'>{a['capital']}</a></td></tr><tr><th>Area</th><td>{a['area']:,} km²</td></tr>"
            text = f"{a['name']} is a region whose capital is <a href='/wiki?t={a['capital']}'>{a['capital']}</a>."
        cats = ", ".join(a["cats"]) or "none"
        return self.shell(a["name"], f"<h1>{esc(a['name'])}</h1><table style='float:right;margin-left:12px'>{box}</table><p>{text}</p>"
                          f"<p class='muted'>Categories: {esc(cats)}</p><a id='edit' href='/edit?t={esc(a['name'])}'>Edit categories</a>")

    def page_edit(self, q: dict) -> str:
        t = q.get("t", "")
        return self.shell("Edit", f"<h1>Edit: {esc(t)}</h1><form id='edit' action='/do/edit'><input type='hidden' name='t' value='{esc(t)}'>"
                          "<p><label>Add category</label><input type='text' name='cat'></p><button type='submit'>Save</button></form>")

    def do_edit(self, q: dict) -> str:
        a = self.articles.get(q.get("t", ""))
        cat = q.get("cat", "").strip()
        if a is not None and cat and cat not in a["cats"]:
            a["cats"].append(cat)
        return f"/wiki?t={q.get('t', '')}"


def _route(name: str) -> tuple[Step, ...]:
    return (Step("form", "#search", (("#search input[name=q]", name),), url=f"/search?q={name}"), Step("link", f"/wiki?t={name}"))


class _WikiTask(WebEnv):
    site_cls = WikiSite


class WikiInfoboxFact(_WikiTask):
    __doc__ = web_doc("Read a city's population from its article in a generated encyclopedia.",
                      "Search the article, read the infobox.", "5/9/14 cities (more near-identical names)")

    def _setup(self, rng: np.random.Generator) -> None:
        self._c = R.choice(rng, self._site.cities)

    def _task_text(self) -> str:
        return f"You are on the OpenPedia encyclopedia. What is the population of {self._c['name']}? Answer with the number."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("population", answer_matches(self._final_answer, self._c["population"]))]

    def _plan(self) -> list[Goal]:
        return [Goal(_route(self._c["name"]), Step("answer", value=str(self._c["population"])))]

    def _answer(self) -> str:
        return f"population: {self._c['population']}"


class WikiCapitalFounded(_WikiTask):
    __doc__ = web_doc("Two hops in a generated encyclopedia: find a region's capital, then the year it was founded.",
                      "Search the region, follow the capital link, read the founding year.", "5/9/14 regions and cities")

    def _setup(self, rng: np.random.Generator) -> None:
        self._r = R.choice(rng, self._site.regions)
        self._c = self._site.articles[self._r["capital"]]

    def _task_text(self) -> str:
        return f"You are on the OpenPedia encyclopedia. In which year was the capital of {self._r['name']} founded? Answer with the year."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("year", answer_matches(self._final_answer, self._c["founded"]))]

    def _plan(self) -> list[Goal]:
        return [Goal((*_route(self._r["name"]), Step("link", f"/wiki?t={self._c['name']}")), Step("answer", value=str(self._c["founded"])))]

    def _answer(self) -> str:
        return f"founded: {self._c['founded']}"


class WikiOlderCity(_WikiTask):
    __doc__ = web_doc("Compare two (or three) cities' founding years in a generated encyclopedia and name the oldest.",
                      "Visit each article, compare, answer the name.", "0-1: two cities; 2: three cities")

    def _setup(self, rng: np.random.Generator) -> None:
        k = 3 if self.difficulty == 2 else 2
        while True:
            self._cs = R.sample(rng, self._site.cities, k)
            if len({c["founded"] for c in self._cs}) == k:
                break
        self._seen: set[str] = set()

    def _task_text(self) -> str:
        names = ", ".join(c["name"] for c in self._cs)
        return f"You are on the OpenPedia encyclopedia. Which of these cities was founded first: {names}? Answer with the city's name."

    def _oldest(self) -> str:
        return min(self._cs, key=lambda c: c["founded"])["name"]

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("oldest", answer_matches(self._final_answer, self._oldest()))]

    def _plan(self) -> list[Goal]:
        if self._url.startswith("/wiki?"):
            self._seen.add(self._url)
        goals = [Goal(_route(c["name"]), Step("done"), done=lambda c=c: any(f"t={c['name']}" in u for u in self._seen)) for c in self._cs]
        return [Goal(g.route, Step("link", "/"), g.done) for g in goals] + [Goal((), Step("answer", value=self._oldest()))]

    def _answer(self) -> str:
        return f"oldest: {self._oldest()} ({min(c['founded'] for c in self._cs)})"


class WikiAddCategory(_WikiTask):
    __doc__ = web_doc("Add a given category to a city's article in a generated encyclopedia.",
                      "Open the article, its edit page, type the category, save.", "5/9/14 articles; at 2 two articles")

    def _setup(self, rng: np.random.Generator) -> None:
        self._cs = R.sample(rng, self._site.cities, 2 if self.difficulty == 2 else 1)
        self._cat = R.choice(rng, CATEGORIES)

    def _task_text(self) -> str:
        names = " and ".join(c["name"] for c in self._cs)
        return f"You are on the OpenPedia encyclopedia. Add the category '{self._cat}' to the article(s) on {names}, then reply done."

    def _caption(self) -> list:
        return [f"{' and '.join(c['name'] for c in self._cs)}: add category '{self._cat}'"]

    def _criteria(self) -> list[tuple[str, bool]]:
        return [(f"{c['name']} has the category", self._cat in c["cats"]) for c in self._cs] + \
               [("no other article changed", all(not a["cats"] for a in self._site.articles.values() if a not in self._cs))]

    def _plan(self) -> list[Goal]:
        return [Goal((*_route(c["name"]), Step("link", f"/edit?t={c['name']}")), Step("form", "#edit", (("#edit input[name=cat]", self._cat),)),
                     done=lambda c=c: self._cat in c["cats"]) for c in self._cs] + [Goal((), Step("done"))]

    def _answer(self) -> str:
        return "category added to " + ", ".join(c["name"] for c in self._cs)


_TAGS = ("web", "site:wiki", "split:train")
SPECS = (
    TaskSpec("WebWikiInfoboxFact", WikiInfoboxFact, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebWikiCapitalFounded", WikiCapitalFounded, version=1, max_episode_steps=25, tags=_TAGS),
    TaskSpec("WebWikiOlderCity", WikiOlderCity, version=1, max_episode_steps=40, tags=_TAGS),
    TaskSpec("WebWikiAddCategory", WikiAddCategory, version=1, max_episode_steps=40, tags=_TAGS),
)
