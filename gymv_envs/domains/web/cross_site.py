"""Tasks that span sites: find a price in a shop (a catalogue family), pay it from the bank.

One loopback server mounts a start page of bookmarks at ``/``, the catalogue site at ``/a/`` and
the bank at ``/b/`` (their links rewritten under the prefix, an "All sites" link added), so the
agent moves between them by links, ``goto``, or tabs.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web import _images, _layout
from gymv_envs.domains.web._base import Goal, Step, WebEnv
from gymv_envs.domains.web._catalog import CatalogSite, href
from gymv_envs.domains.web._oracle import same_url
from gymv_envs.domains.web._site import NAV_SCRIPT, Site, esc
from gymv_envs.domains.web.bank import PAYEES, BankSite
from gymv_envs.domains.web.food_delivery import FOOD
from gymv_envs.domains.web.shop_catalog import SHOP

PAIRS = {"shop-bank": SHOP, "food-bank": FOOD}
_LINK = re.compile(r"""((?:href|action|data-more)=['"])/""")


class CrossSite(Site):
    """The start page, the catalogue site under /a/ and the bank under /b/."""

    title = "Start"

    def __init__(self, rng: np.random.Generator, difficulty: int, family: Any) -> None:
        self.a = CatalogSite(rng, difficulty, family, _layout.TRAIN_STYLES)
        self.b = BankSite(rng, difficulty)
        super().__init__(rng, difficulty)

    def generate(self, rng: np.random.Generator) -> None:
        pass

    @staticmethod
    def _mount(prefix: str, reply: tuple[int, str, bytes]) -> tuple[int, str, bytes]:
        status, ctype, body = reply
        if status in (302, 303):
            return status, ctype, (prefix + body.decode()).encode()
        if not ctype.startswith("text/html"):
            return reply
        html = _LINK.sub(lambda m: m.group(1) + prefix + "/", body.decode())
        html = html.replace("&quot;/item", f"&quot;{prefix}/item").replace("go('/do/", f"go('{prefix}/do/")
        html = html.replace("<body>", "<body><div style='background:#24292f;padding:3px 10px'><a id='portal' href='/' "
                            "style='color:#fff'>&larr; All sites</a></div>", 1)
        return status, ctype, html.encode()

    def handle(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes]:
        if path.startswith("/img/"):
            return _images.serve(path)
        for prefix, site in (("/a", self.a), ("/b", self.b)):
            if path == prefix or path.startswith(prefix + "/"):
                return self._mount(prefix, site.handle(path[len(prefix):] or "/", query))
        if path.strip("/"):
            return 404, "text/html", b"<h1>Not found</h1><a href='/'>Start</a>"
        tiles = "".join(f"<a href='{p}/' style='display:block;margin:14px 0;font-size:1.3em'>{esc(name)}</a>"
                        for p, name in (("/a", self.a.brand), ("/b", self.b.brand)))
        return 200, "text/html; charset=utf-8", (
            "<!doctype html><html><head><meta charset='utf-8'><title>Start</title><style>body{font:16px 'DejaVu Sans',sans-serif;"
            "margin:40px}</style><script>" + NAV_SCRIPT + "</script></head><body><h1>Bookmarks</h1>" + tiles + "</body></html>").encode()


class CrossShopBank(WebEnv):
    """Find a price on one site, then pay exactly that amount from an online bank on another.

    ## Description
    A start page of bookmarks leads to a catalogue site (``pair``: a web shop, or a food-delivery
    app; `_catalog`) and to the CivicBank online bank. The task names products (difficulty 0: one
    named product; 1: the cheapest product of a category; 2: the total of two named products, which
    must also end up in the cart, nothing else), and asks for a transfer of exactly that amount to a
    named payee (from a named account at difficulties 1 and 2, from any account at 0). The rubric
    reads the bank's recorded transfers and the shop's cart on the server (exactly one transfer;
    source, payee and amount to the cent).

    ## Action Space
    `Dict(kind, x, y, dx, dy, text, bid)`: see `_grammar`.

    ## Observation Space
    The page screenshot, `Box(0, 255, (H, W, 3), uint8)`, default 768x1024.

    ## Rewards
    1.0 when the episode ends with every criterion holding, else 0.0; `info["progress"]` the fraction.

    ## Starting State
    The start page with the two bookmarks.

    ## Episode End
    `done` (or `answer`) ends the episode; the step budget truncates.

    ## Arguments
    `pair`: shop-bank, food-bank. `difficulty`: 0, 1, 2 (3, 4 and 7 criteria). `observation`,
    `judge_mode`, `judge`, `action_timeout`, `shared_browser`, `obs_size`: see `_base`.

    ## Version History
    - v0: initial release
    """

    def __init__(self, pair: str = "shop-bank", **kwargs: Any) -> None:
        if not isinstance(pair, str) or pair not in PAIRS:   # a list or dict is not hashable
            raise ValueError(f"invalid pair={pair!r}; valid values: {', '.join(PAIRS)}")
        self.pair = pair
        super().__init__(**kwargs)

    def _make_site(self, rng: np.random.Generator) -> CrossSite:
        return CrossSite(rng, self.difficulty, PAIRS[self.pair])

    def _setup(self, rng: np.random.Generator) -> None:
        shop = self._site.a
        if self.difficulty == 1:
            cats = [c for c in shop.family.cats if len(shop.sorted_items(c, "")) >= 2]
            self._cat = R.choice(rng, cats or sorted({p["cat"] for p in shop.items}))
            self._items = [shop.sorted_items(self._cat, "num_asc")[0]]
        else:
            self._items = R.sample(rng, shop.items, 2 if self.difficulty == 2 else 1)
        self._amount = round(sum(p["num"] for p in self._items), 2)
        self._src = R.choice(rng, list(self._site.b.accounts))
        self._to = R.choice(rng, PAYEES)

    def _task_text(self) -> str:
        a, b = self._site.a, self._site.b
        if self.difficulty == 1:
            what = f"the price of the cheapest {a.family.noun} in {self._cat}"
        elif self.difficulty == 2:
            what = f"the total price of '{self._items[0]['name']}' and '{self._items[1]['name']}'"
        else:
            what = f"the price of '{self._items[0]['name']}'"
        extra = f" Also put both in the {a.family.list_name.lower()} (nothing else)." if self.difficulty == 2 else ""
        src = f"the '{self._src}' account" if self.difficulty else "any of your accounts"
        return (f"Your browser's start page links to {a.brand} and {b.brand}. On {a.brand}, find {what}. Then on {b.brand} "
                f"transfer exactly that amount from {src} to {self._to}.{extra} Then reply done.")

    def _caption(self) -> list:
        what = f"cheapest in {self._cat}" if self.difficulty == 1 else " + ".join(p["name"] for p in self._items)
        return [f"{what} -> {self._src + ' to ' if self.difficulty else ''}{self._to}"]

    def _criteria(self) -> list[tuple[str, bool]]:
        t = self._site.b.transfers
        one = len(t) == 1
        out = [("one transfer", one), ("payee", one and t[0]["to"] == self._to),
               ("amount", one and abs(t[0]["amount"] - self._amount) < 0.005)]
        if self.difficulty:
            out.insert(1, ("source account", one and t[0]["src"] == self._src))
        if self.difficulty == 2:
            cart = [e["id"] for e in self._site.a.saved]
            out += [(f"{p['name']} in the {self._site.a.family.list_name.lower()}", p["id"] in cart) for p in self._items]
            out.append(("nothing else added", sorted(cart) == sorted(p["id"] for p in self._items)))
        return out

    def _plan(self) -> list[Goal]:
        a, goals = self._site.a, []
        for p in self._items:
            route = (Step("link", "/a/"), Step("form", "#search", (("#search input[name=q]", p["name"]),),
                                              url=href("/a/search", q=p["name"])), Step("link", href("/a/item", id=p["id"])))
            if self.difficulty == 2:
                fields = (("#f-opt", a.family.opt[1][0], "select"), ("#f-qty", str(a.family.qty[1]), "slider"))
                goals.append(Goal(route, Step("form", "#act", fields, url="/a/saved"),
                                  done=lambda p=p: any(e["id"] == p["id"] for e in self._site.a.saved)))
            else:
                seen = ("seen", p["id"])
                goals.append(Goal(route[:-1], route[-1], done=lambda seen=seen, p=p: self._latch(seen, href("/a/item", id=p["id"]))))
        i = list(self._site.b.accounts).index(self._src)
        form = Step("form", "#transfer", ((f"#src-{i}", True), ("#transfer input[name=to]", self._to),
                                          ("#transfer input[name=amount]", f"{self._amount:.2f}")))
        goals.append(Goal((Step("link", "/"), Step("link", "/b/"), Step("link", "/b/transfer")), form,
                          done=lambda: bool(self._site.b.transfers)))
        return [*goals, Goal((), Step("done"))]

    def _latch(self, key: tuple, url: str) -> bool:
        seen = self.__dict__.setdefault("_seen", set())
        if key not in seen and same_url(self._url, url):
            seen.add(key)
        return key in seen

    def _generate(self, rng: np.random.Generator) -> None:
        self._seen: set = set()
        super()._generate(rng)

    def _answer(self) -> str:
        return f"transfer: {self._src} -> {self._to}, ${self._amount:,.2f}"


_TAGS = ("web", "site:shop", "site:bank", "cross-site", "split:train")
SPECS = (
    TaskSpec("WebCrossShopBank", CrossShopBank, max_episode_steps=80, tags=_TAGS, kwargs={"pair": "shop-bank"}),
    TaskSpec("WebCrossFoodBank", CrossShopBank, max_episode_steps=80, tags=("web", "site:food", "site:bank", "cross-site",
                                                                            "split:train"), kwargs={"pair": "food-bank"}),
)
