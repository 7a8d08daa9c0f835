"""Catalogue sites: one engine, many site families (a `Family` is data), laid out by `_layout`.

Every family is a catalogue of items with the same kinds of fields under its own names: a name,
a category, a picture (drawn by `_images`, with a colour and maybe a feature such as a pool that
only the picture shows), a main number (a price, a salary, a duration), a second whole number
(a rating, bedrooms, servings), a person or organisation, a date and a reference code shown only
in the item's Details tab. Items are listed (filtered by category, sorted with a dropdown, paged
or infinitely scrolled, searched with autocomplete suggestions), each has a page with tabs and an
action form (a dropdown, a slider, a date picker for families with dates, and a confirmation
dialog), and the family's list page (cart, reading list, bookings...) shows what was added, with
drag handles to reorder and buttons to remove. A cookie banner greets some visitors.

Server-side state: ``saved`` (the list: entries of item id, option, quantity, date) and
``cookies``. The rubric (`_facts`) reads it.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from html import escape
from urllib.parse import urlencode

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.domains.web import _images, _layout
from gymv_envs.domains.web._site import Site


@dataclass(frozen=True)
class Family:
    """What one site family calls things; see the module docstring."""

    key: str  # site:<key>
    brands: tuple[str, ...]
    about: str  # "an online shop"
    noun: str
    plural: str
    cats: tuple[str, ...]
    pics: tuple[str, ...]  # one image kind per category
    first: tuple[str, ...]  # name = first + second
    second: tuple[str, ...]
    num: tuple[str, str, float, float]  # label, "money" | "number", low, high
    unit: str  # shown after a number ("km", "min"), "" for money
    num2: tuple[str, int, int]  # label, low, high
    who: tuple[str, tuple[str, ...]]  # label, values
    date: str  # label of the item's date
    code: str  # label of the reference code
    verb: str  # the action button: "Add to cart"
    list_name: str  # "Cart"
    opt: tuple[str, tuple[str, ...]]  # dropdown label, options
    qty: tuple[str, int, int]  # slider label, low, high
    when: str = ""  # date-picker label on the action form ("Check-in"), "" for none
    feature: str = ""  # what a flagged picture shows ("a pool"), "" for none
    held_out: bool = False

    def fmt(self, value: float) -> str:
        if self.num[1] == "money":
            return f"${value:,.2f}"
        return f"{value:,.1f} {self.unit}".strip() if not float(value).is_integer() else f"{int(value):,} {self.unit}".strip()


SORTS = (("", "Featured"), ("num_asc", "{num}: low to high"), ("num_desc", "{num}: high to low"),
         ("num2_desc", "{num2}: high to low"), ("name", "Name: A to Z"))
START = dt.date(2026, 5, 1)
LIST_SIZES = (8, 14, 24)


def href(path: str, **query: object) -> str:
    q = {k: v for k, v in query.items() if v not in (None, "", 0)}
    return path + ("?" + urlencode(q) if q else "")


class CatalogSite(Site):
    """A generated catalogue site of one `Family` (see the module docstring)."""

    family: Family = None  # set by the task
    styles: tuple[str, ...] = _layout.TRAIN_STYLES

    def __init__(self, rng: np.random.Generator, difficulty: int, family: Family, styles: tuple[str, ...]) -> None:
        self.family, self.styles = family, styles
        super().__init__(rng, difficulty)

    def generate(self, rng: np.random.Generator) -> None:
        f = self.family
        self.layout = _layout.draw_layout(rng, self.styles)
        self.brand = self.title = R.choice(rng, f.brands)
        self.logo = _images.url("logo", R.choice(rng, list(_images.COLOURS)), 0, False, self.brand)
        n = LIST_SIZES[self.difficulty]
        names = R.sample(rng, [f"{a} {b}" for a in f.first for b in f.second], n + 6)
        self.spare_names = names[n:]  # names no item has (infeasible tasks ask for one)
        colours = list(_images.COLOURS)
        lo, hi = f.num[2], f.num[3]
        self.items = []
        for i, name in enumerate(names[:n]):
            c = int(rng.integers(len(f.cats)))
            num = round(float(rng.uniform(lo, hi)), 2) if f.num[1] == "money" else float(int(rng.integers(int(lo), int(hi) + 1)))
            self.items.append({
                "id": i + 1, "name": name, "cat": f.cats[c], "pic": f.pics[c], "colour": R.choice(rng, colours),
                "flag": bool(f.feature) and bool(rng.random() < 0.35), "variant": int(rng.integers(8)), "num": num,
                "num2": int(rng.integers(f.num2[1], f.num2[2] + 1)), "who": R.choice(rng, f.who[1]),
                "date": (START + dt.timedelta(days=int(rng.integers(0, 60)))).isoformat(),
                "code": f"{f.code[:2].upper()}-{int(rng.integers(1000, 9999))}"})
        self.cookies = not self.layout.cookie
        self.saved: list[dict] = []
        self.next_eid = 1

    # ----------------------------------------------------------------- state
    def by_id(self, iid: int) -> dict | None:
        return self.items[iid - 1] if 1 <= iid <= len(self.items) else None

    def add_entry(self, iid: int, opt: str, qty: int, when: str) -> dict:
        e = {"eid": self.next_eid, "id": iid, "opt": opt, "qty": qty, "date": when}
        self.next_eid += 1
        self.saved.append(e)
        return e

    def sorted_items(self, cat: str, sort: str) -> list[dict]:
        items = [p for p in self.items if not cat or p["cat"] == cat]
        key = {"num_asc": lambda p: (p["num"], p["id"]), "num_desc": lambda p: (-p["num"], p["id"]),
               "num2_desc": lambda p: (-p["num2"], p["id"]), "name": lambda p: (p["name"], p["id"])}.get(sort)
        return sorted(items, key=key) if key else items

    # ----------------------------------------------------------------- serving
    def handle(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes]:
        if path.startswith("/img/"):
            return _images.serve(path)
        if path == "/more":
            return 200, "text/html; charset=utf-8", self._items_html(query, fragment=True).encode()
        return super().handle(path, query)

    def shell(self, title: str, body: str, crumbs: list[tuple[str, str]] | None = None) -> str:
        f, lay = self.family, self.layout
        nav = [("/", "Home", "home"), ("/saved", f"{f.list_name} ({len(self.saved)})", "cart" if f.list_name == "Cart" else "heart"),
               ("/help", "Help", "user")]
        cats = [(c, href("/", cat=c)) for c in f.cats]
        search = (f"<form id='search' action='/search' class='row'><span class='ac'><input type='text' name='q' "
                  f"placeholder='Search {escape(f.plural)}...' autocomplete='off' data-suggest='{escape(self._suggest())}'>"
                  f"<span class='sugg' hidden></span></span><button type='submit'>{_layout.icon('search')}Search</button></form>")
        return _layout.shell(lay, self.brand, self.logo, title, search + body, nav, cats, [("Home", "/"), *(crumbs or [])],
                             not self.cookies)

    def _suggest(self) -> str:
        return json.dumps([[p["name"], href("/item", id=p["id"])] for p in self.items])

    def _price(self, p: dict) -> str:
        return self.family.fmt(p["num"])

    def _entry_html(self, p: dict) -> str:
        f, lay = self.family, self.layout
        img = f"<img src='{_images.url(p['pic'], p['colour'], p['variant'], p['flag'])}' alt='{escape(f.noun)} picture'>"
        link = f"<a href='{href('/item', id=p['id'])}'>{escape(p['name'])}</a>"
        facts = f"<b>{self._price(p)}</b> <span class='muted'>{escape(f.num2[0])}: {p['num2']}</span>"
        if lay.listing == "table":
            return (f"<tr><td>{img}</td><td>{link}</td><td>{escape(p['cat'])}</td><td>{self._price(p)}</td><td>{p['num2']}</td>"
                    f"<td>{escape(p['who'])}</td></tr>")
        if lay.listing == "list":
            return f"<div class='card'>{img}<div>{link}<br><span class='muted'>{escape(p['cat'])} &middot; {escape(p['who'])}</span><br>{facts}</div></div>"
        return f"<div class='card'>{img}<div>{link}</div><div>{facts}</div></div>"

    def _items_html(self, q: dict, fragment: bool = False) -> str:
        lay = self.layout
        cat, sort = q.get("cat", ""), q.get("sort", "")
        page = max(1, int(q.get("page", "1") or 1)) if str(q.get("page", "1") or 1).isdigit() else 1
        items = self.sorted_items(cat, sort)
        pages = max(1, -(-len(items) // lay.per_page))
        shown = "".join(self._entry_html(p) for p in items[(page - 1) * lay.per_page: page * lay.per_page])
        more = ""
        if lay.infinite and page < pages:
            more = f"<div data-more='{href('/more', cat=cat, sort=sort, page=page + 1)}' class='muted'>Loading more...</div>"
        if fragment:
            return shown + more
        if lay.listing == "table":
            f = self.family
            body = (f"<table id='items'><tr><th></th><th>Name</th><th>Category</th><th>{escape(f.num[0])}</th>"
                    f"<th>{escape(f.num2[0])}</th><th>{escape(f.who[0])}</th></tr>{shown}</table>")
        else:
            body = f"<div id='items' class='{lay.listing}'>{shown}</div>"
        pager = ""
        if not lay.infinite and pages > 1:
            pager = "<p class='row'>" + " ".join(
                f"<a href='{href('/', cat=cat, sort=sort, page=k if k > 1 else 0)}'>Page {k}</a>" if k != page else f"<b>Page {k}</b>"
                for k in range(1, pages + 1)) + "</p>"
        return body + more + pager

    def page_home(self, q: dict) -> str:
        f, lay = self.family, self.layout
        cat, sort = q.get("cat", ""), q.get("sort", "")
        opts = "".join(f"<option value='{k}'{' selected' if k == sort else ''}>{escape(t.format(num=f.num[0], num2=f.num2[0]))}</option>" for k, t in SORTS)
        tools = f"<label for='sort' style='min-width:0'>Sort by</label> <select id='sort' name='sort' data-go>{opts}</select>"
        if lay.categories == "select":
            copts = "<option value=''>All categories</option>" + "".join(
                f"<option value='{escape(c)}'{' selected' if c == cat else ''}>{escape(c)}</option>" for c in f.cats)
            tools = f"<select id='cat-select' name='cat' data-go aria-label='Category'>{copts}</select> " + tools
        if lay.categories == "tags":
            tools = " ".join(f"<a class='tag' href='{href('/', cat=c)}'>{escape(c)}</a>" for c in f.cats) + " " + tools
        hero = ""
        if lay.style in ("topbar", "magazine") and not cat:
            hero = f"<div class='hero'>{escape(self.brand)}: {escape(f.about)}. New {escape(f.plural)} every week.</div>"
        title = cat or f"All {f.plural}"
        return self.shell(title, f"{hero}<h1>{escape(title)}</h1><div class='row'>{tools}</div>{self._items_html(q)}",
                          [(cat, "")] if cat else [])

    def page_search(self, q: dict) -> str:
        words = q.get("q", "").lower().split()
        hits = [p for p in self.items if words and all(w in p["name"].lower() for w in words)]
        body = "".join(f"<div class='card row'><img src='{_images.url(p['pic'], p['colour'], p['variant'], p['flag'])}' alt='' "
                       f"style='width:64px;height:48px'><a href='{href('/item', id=p['id'])}'>{escape(p['name'])}</a> "
                       f"<b>{self._price(p)}</b></div>" for p in hits)
        return self.shell("Search", f"<h1>Results for &ldquo;{escape(q.get('q', ''))}&rdquo;</h1>"
                          f"{body or f'<p>No {escape(self.family.plural)} match your search.</p>'}", [("Search", "")])

    def page_item(self, q: dict) -> str:
        f = self.family
        iid = int(q["id"]) if str(q.get("id", "")).isdigit() else 0
        p = self.by_id(iid)
        if p is None:
            return self.shell("Not found", f"<h1>No such {escape(f.noun)}</h1>")
        img = f"<img src='{_images.url(p['pic'], p['colour'], p['variant'], p['flag'])}' alt='{escape(f.noun)} picture' width='240' height='180'>"
        opt = "".join(f"<option>{escape(o)}</option>" for o in f.opt[1])
        lo, hi = f.qty[1], f.qty[2]
        when = ""
        if f.when:
            days = "".join(f"<button type='button' data-day='{(START + dt.timedelta(days=k)).isoformat()}'>{k + 1}</button>" for k in range(31))
            when = (f"<p><label>{escape(f.when)}</label><span class='dp'><input type='text' name='date' id='f-date' "
                    f"placeholder='YYYY-MM-DD' autocomplete='off'><span class='cal' hidden>{days}</span></span></p>")
        form = (f"<form id='act' action='/do/act' data-confirm='{escape(f.verb)}: {escape(p['name'])}?'>"
                f"<input type='hidden' name='id' value='{p['id']}'>"
                f"<p><label for='f-opt'>{escape(f.opt[0])}</label><select id='f-opt' name='opt'>{opt}</select></p>"
                f"<p><label for='f-qty'>{escape(f.qty[0])}</label><input type='range' id='f-qty' name='qty' min='{lo}' max='{hi}' value='{lo}' "
                f"style='width:200px'> <output id='f-qty-out'>{lo}</output></p>{when}"
                f"<button type='submit'>{_layout.icon('cart' if f.list_name == 'Cart' else 'heart')}{escape(f.verb)}</button></form>")
        stars = "&#9733;" * min(p["num2"], 5) if f.num2[2] <= 5 else str(p["num2"])
        tabs = ("<div class='tabs' role='tablist'><span role='tab' id='tab-overview' aria-controls='panel-overview' aria-selected='true'>Overview</span>"
                "<span role='tab' id='tab-details' aria-controls='panel-details' aria-selected='false'>Details</span></div>"
                f"<div class='panel' id='panel-overview'><p>{escape(f.who[0])}: <b>{escape(p['who'])}</b></p>"
                f"<p>{escape(f.date)}: {dt.date.fromisoformat(p['date']).strftime('%B %-d, %Y')}</p>"
                f"<p>{escape(f.num2[0])}: {stars} ({p['num2']})</p></div>"
                f"<div class='panel' id='panel-details' hidden><p>{escape(f.code)}: <b>{p['code']}</b></p>"
                f"<p>Category: {escape(p['cat'])}</p></div>")
        body = (f"<h1>{escape(p['name'])}</h1><div class='row' style='align-items:flex-start'>{img}<div>"
                f"<p>{escape(f.num[0])}: <b>{self._price(p)}</b></p>{form}</div></div>{tabs}")
        return self.shell(p["name"], body, [(p["cat"], href("/", cat=p["cat"])), (p["name"], "")])

    def page_saved(self, q: dict) -> str:
        f = self.family
        rows = []
        for e in self.saved:
            p = self.by_id(e["id"])
            extra = f", {escape(e['date'])}" if e["date"] else ""
            rows.append(f"<div class='saved-row' data-row='{e['eid']}' id='row-{e['eid']}'><span data-drag='{e['eid']}' "
                        f"id='handle-{e['eid']}' aria-label='Drag to reorder'>{_layout.icon('grip')}</span>"
                        f"<span style='flex:1'>{escape(p['name'])} &mdash; {escape(f.opt[0])}: {escape(e['opt'])}, "
                        f"{escape(f.qty[0])}: {e['qty']}{extra}</span>"
                        f"<a class='btn ghost' id='remove-{e['eid']}' href='{href('/do/remove', e=e['eid'])}'>Remove</a></div>")
        body = "".join(rows) or f"<p>Your {escape(f.list_name.lower())} is empty.</p>"
        return self.shell(f.list_name, f"<h1>Your {escape(f.list_name.lower())}</h1><p class='muted'>Drag the handles to reorder.</p><div id='rows'>{body}</div>",
                          [(f.list_name, "")])

    def page_help(self, q: dict) -> str:
        return self.shell("Help", f"<h1>Help</h1><p>Find {escape(self.family.plural)} with the search box or browse by category. "
                          f"Use the button on a page to {escape(self.family.verb.lower())}.</p>")

    def page_about(self, q: dict) -> str:
        return self.shell("About", f"<h1>About {escape(self.brand)}</h1><p>{escape(self.brand)} is {escape(self.family.about)}.</p>")

    def do_act(self, q: dict) -> str:
        f = self.family
        p = self.by_id(int(q["id"])) if str(q.get("id", "")).isdigit() else None
        if p is None:
            return "/"
        qty = int(q["qty"]) if str(q.get("qty", "")).isdigit() else f.qty[1]
        opt = q.get("opt", "") if q.get("opt", "") in f.opt[1] else f.opt[1][0]
        when = q.get("date", "").strip()[:10]
        self.add_entry(p["id"], opt, min(max(qty, f.qty[1]), f.qty[2]), when)
        return "/saved"

    def do_remove(self, q: dict) -> str:
        eid = int(q["e"]) if str(q.get("e", "")).isdigit() else 0
        self.saved = [e for e in self.saved if e["eid"] != eid]
        return "/saved"

    def do_reorder(self, q: dict) -> str:
        order = [int(x) for x in q.get("order", "").split(",") if x.isdigit()]
        by = {e["eid"]: e for e in self.saved}
        if sorted(order) == sorted(by):
            self.saved = [by[k] for k in order]
        return "/saved"

    def do_cookies(self, q: dict) -> str:
        self.cookies = True
        nxt = q.get("next", "/")
        return nxt if nxt.startswith("/") and not nxt.startswith("/do/") else "/"
