"""Shop site: product listing with search and category filters, product pages, cart, checkout.

Tasks: find a price, add products to the cart, add the cheapest of a category, check out.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc, money, search_form

CATEGORIES = {"Shoes": ("Sneakers", "Boots", "Loafers", "Sandals"), "Bags": ("Backpack", "Tote", "Duffel", "Satchel"),
              "Lamps": ("Desk Lamp", "Floor Lamp", "Lantern", "Night Light"), "Mugs": ("Mug", "Tumbler", "Cup", "Flask"),
              "Jackets": ("Parka", "Raincoat", "Blazer", "Fleece")}
ADJECTIVES = ("Blue", "Red", "Green", "Black", "White", "Amber", "Grey", "Olive", "Coral", "Navy", "Ivory", "Teal")
PER_PAGE = 6


class ShopSite(Site):
    title = "ShopLane"
    nav = (("/", "Home"), ("/cart", "Cart"))

    def generate(self, rng: np.random.Generator) -> None:
        n = (8, 14, 24)[self.difficulty]
        names = [f"{a} {noun}" for cat, nouns in CATEGORIES.items() for a in ADJECTIVES for noun in nouns]
        cats = {f"{a} {noun}": cat for cat, nouns in CATEGORIES.items() for a in ADJECTIVES for noun in nouns}
        picked = R.sample(rng, names, n)
        self.products = [{"id": i + 1, "name": nm, "cat": cats[nm], "price": round(float(rng.integers(500, 20000)) / 100, 2),
                          "rating": int(rng.integers(1, 6))} for i, nm in enumerate(picked)]
        self.cart: list[int] = []
        self.orders: list[dict] = []

    def by_id(self, pid: int) -> dict:
        return self.products[pid - 1]

    def _cards(self, items: list[dict]) -> str:
        return "".join(f"<div class='card'><a href='/product?id={p['id']}'>{esc(p['name'])}</a> "
                       f"<span class='muted'>{p['cat']}</span> <b>{money(p['price'])}</b></div>" for p in items)

    def _listing(self, title: str, items: list[dict], base: str, page: int) -> str:
        pages = max(1, -(-len(items) // PER_PAGE))
        shown = items[(page - 1) * PER_PAGE: page * PER_PAGE]
        sep = "&" if "?" in base else "?"
        pager = " ".join(f"<a href='{base}{sep}page={k}'>Page {k}</a>" if k != page else f"<b>Page {k}</b>" for k in range(1, pages + 1))
        cats = " ".join(f"<a class='tag' href='/category?c={c}'>{c}</a>" for c in sorted({p['cat'] for p in self.products}))
        return self.shell(title, f"<h1>{esc(title)}</h1>{search_form('/search')}<p>{cats}</p>{self._cards(shown)}<p>{pager}</p>")

    def page_home(self, q: dict) -> str:
        return self._listing("All products", self.products, "/", int(q.get("page", "1") or 1))

    def page_category(self, q: dict) -> str:
        c = q.get("c", "")
        return self._listing(f"Category: {c}", [p for p in self.products if p["cat"] == c], f"/category?c={c}", int(q.get("page", "1") or 1))

    def page_search(self, q: dict) -> str:
        words = q.get("q", "").lower().split()
        hits = [p for p in self.products if words and all(w in p["name"].lower() for w in words)]
        return self.shell("Search", f"<h1>Search results</h1>{search_form('/search', value=q.get('q', ''))}"
                          f"{self._cards(hits) or '<p>No products found.</p>'}")

    def page_product(self, q: dict) -> str:
        p = self.by_id(int(q.get("id", "1")))
        stars = "&#9733;" * p["rating"] + "&#9734;" * (5 - p["rating"])
        return self.shell(p["name"], f"<h1>{esc(p['name'])}</h1><p class='muted'>{p['cat']} · {stars}</p>"
                          f"<p>Price: <b>{money(p['price'])}</b></p><a id='add' class='btn' href='/do/add?id={p['id']}'>Add to cart</a>")

    def do_add(self, q: dict) -> str:
        self.cart.append(int(q.get("id", "0")))
        return "/cart"

    def do_remove(self, q: dict) -> str:
        pid = int(q.get("id", "0"))
        if pid in self.cart:
            self.cart.remove(pid)
        return "/cart"

    def page_cart(self, q: dict) -> str:
        rows = "".join(f"<div class='card'>{esc(self.by_id(i)['name'])} {money(self.by_id(i)['price'])} "
                       f"<a href='/do/remove?id={i}'>Remove</a></div>" for i in self.cart)
        total = sum(self.by_id(i)["price"] for i in self.cart)
        return self.shell("Cart", f"<h1>Your cart</h1>{rows or '<p>The cart is empty.</p>'}<p>Total: <b>{money(total)}</b></p>"
                          + ("<a id='checkout-link' class='btn' href='/checkout'>Checkout</a>" if self.cart else ""))

    def page_checkout(self, q: dict) -> str:
        return self.shell("Checkout", "<h1>Checkout</h1><form id='checkout' action='/do/order'>"
                          "<p><label>Full name</label><input type='text' name='name'></p>"
                          "<p><label>City</label><input type='text' name='city'></p><button type='submit'>Place order</button></form>")

    def do_order(self, q: dict) -> str:
        if self.cart:
            self.orders.append({"items": sorted(self.cart), "name": q.get("name", "").strip(), "city": q.get("city", "").strip()})
            self.cart = []
        return "/order"

    def page_order(self, q: dict) -> str:
        return self.shell("Order", f"<h1>Thank you!</h1><p>{len(self.orders)} order(s) placed.</p>")


def _find_route(site: ShopSite, p: dict) -> tuple[Step, ...]:
    return (Step("form", "#search", (("#search input[name=q]", p["name"]),), url=f"/search?q={p['name']}"),
            Step("link", f"/product?id={p['id']}"))


class _ShopTask(WebEnv):
    site_cls = ShopSite

    def _pick(self, rng: np.random.Generator) -> dict:
        pool = self._site.products[:PER_PAGE] if self.difficulty == 0 else self._site.products[PER_PAGE:]
        return R.choice(rng, pool)


class ShopFindPrice(_ShopTask):
    __doc__ = web_doc("Find the price of a named product in a generated web shop.",
                      "A seeded shop (8/14/24 products over pages, categories, search); the agent answers one product's price.",
                      "0: product on the first page; 1-2: bigger catalogue, needs search or paging")

    def _setup(self, rng: np.random.Generator) -> None:
        self._target = self._pick(rng)

    def _task_text(self) -> str:
        return f"You are on the ShopLane web shop. What is the price of the product '{self._target['name']}'? Answer with the price."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("price", answer_matches(self._final_answer, self._target["price"]))]

    def _plan(self) -> list[Goal]:
        return [Goal(_find_route(self._site, self._target), Step("answer", value=money(self._target["price"])))]

    def _answer(self) -> str:
        return money(self._target["price"])


class ShopAddToCart(_ShopTask):
    __doc__ = web_doc("Put named products (1/2/3 by difficulty) into the cart of a generated web shop, then finish.",
                      "The cart must hold exactly the named products, one of each.", "number of products and catalogue size")

    def _setup(self, rng: np.random.Generator) -> None:
        pool = self._site.products[PER_PAGE:] if self.difficulty else self._site.products[:PER_PAGE]
        self._targets = R.sample(rng, pool, self.difficulty + 1)

    def _task_text(self) -> str:
        names = " and ".join(f"'{p['name']}'" for p in self._targets)
        return f"You are on the ShopLane web shop. Add {names} to the cart (one of each, nothing else), then reply done."

    def _criteria(self) -> list[tuple[str, bool]]:
        cart = self._site.cart
        return [(f"{p['name']} in cart", cart.count(p["id"]) == 1) for p in self._targets] + \
               [("nothing else in cart", set(cart) <= {p["id"] for p in self._targets})]

    def _plan(self) -> list[Goal]:
        return [Goal(_find_route(self._site, p), Step("click", "#add"), done=lambda p=p: p["id"] in self._site.cart)
                for p in self._targets] + [Goal((), Step("done"))]

    def _answer(self) -> str:
        return "cart: " + "; ".join(p["name"] for p in self._targets)


class ShopCheapestInCategory(_ShopTask):
    __doc__ = web_doc("Add the cheapest product of a category to the cart of a generated web shop.",
                      "Open the category, compare prices (over pages at higher difficulty), add the cheapest.",
                      "catalogue size: more distractors per category")

    def _setup(self, rng: np.random.Generator) -> None:
        cats = sorted({p["cat"] for p in self._site.products})
        self._cat = R.choice(rng, cats)
        items = [p for p in self._site.products if p["cat"] == self._cat]
        self._best = min(items, key=lambda p: (p["price"], p["id"]))

    def _task_text(self) -> str:
        return f"You are on the ShopLane web shop. Add the cheapest product in the category '{self._cat}' to the cart, then reply done."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("cheapest in cart", self._best["id"] in self._site.cart), ("only it", set(self._site.cart) <= {self._best["id"]})]

    def _plan(self) -> list[Goal]:
        route = (Step("link", f"/category?c={self._cat}"), Step("link", f"/product?id={self._best['id']}"))
        page = [p["id"] for p in self._site.products if p["cat"] == self._cat].index(self._best["id"]) // PER_PAGE + 1
        if page > 1:
            route = (route[0], Step("link", f"/category?c={self._cat}&page={page}"), route[1])
        return [Goal(route, Step("click", "#add"), done=lambda: self._best["id"] in self._site.cart), Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"cart: {self._best['name']} at {money(self._best['price'])}"


class ShopCheckout(_ShopTask):
    __doc__ = web_doc("Buy a named product and ship it to a given name and city in a generated web shop.",
                      "Search, add to cart, open the cart, check out, fill the shipping form; the order's items, name and city are checked.",
                      "catalogue size; at 2 two products")

    NAMES = ("Ada Park", "Ben Ortiz", "Chloe Wu", "Dev Rao", "Eva Lind", "Femi Cole")
    CITIES = ("Lyon", "Porto", "Osaka", "Quito", "Tromso", "Austin")

    def _setup(self, rng: np.random.Generator) -> None:
        pool = self._site.products[PER_PAGE:] if self.difficulty else self._site.products[:PER_PAGE]
        self._targets = R.sample(rng, pool, 2 if self.difficulty == 2 else 1)
        self._name, self._city = R.choice(rng, self.NAMES), R.choice(rng, self.CITIES)

    def _task_text(self) -> str:
        names = " and ".join(f"'{p['name']}'" for p in self._targets)
        return (f"You are on the ShopLane web shop. Buy {names} (one each) and ship the order to "
                f"{self._name} in {self._city}: place the order through the checkout form, then reply done.")

    def _order(self) -> dict | None:
        return self._site.orders[-1] if self._site.orders else None

    def _criteria(self) -> list[tuple[str, bool]]:
        o = self._order()
        return [("order placed", o is not None),
                ("right items", o is not None and o["items"] == sorted(p["id"] for p in self._targets)),
                ("right name", o is not None and o["name"] == self._name),
                ("right city", o is not None and o["city"] == self._city)]

    def _plan(self) -> list[Goal]:
        ordered = lambda: self._order() is not None
        goals = [Goal(_find_route(self._site, p), Step("click", "#add"), done=lambda p=p: ordered() or p["id"] in self._site.cart)
                 for p in self._targets]
        form = Step("form", "#checkout", (("#checkout input[name=name]", self._name), ("#checkout input[name=city]", self._city)))
        goals.append(Goal((Step("link", "/cart"), Step("link", "/checkout")), form, done=ordered))
        return [*goals, Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"order: {'; '.join(p['name'] for p in self._targets)} to {self._name}, {self._city}"


_TAGS = ("web", "site:shop", "split:train")
SPECS = (
    TaskSpec("WebShopFindPrice", ShopFindPrice, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebShopAddToCart", ShopAddToCart, version=1, max_episode_steps=40, tags=_TAGS),
    TaskSpec("WebShopCheapestInCategory", ShopCheapestInCategory, version=1, max_episode_steps=30, tags=_TAGS),
    TaskSpec("WebShopCheckout", ShopCheckout, version=1, max_episode_steps=50, tags=_TAGS),
)
