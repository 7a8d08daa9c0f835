"""Travel booking site: flight search by route and date, results, booking form with passengers.

Tasks: cheapest fare, count nonstop flights, book the cheapest flight, book the earliest
nonstop flight.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc, money

CITIES = ("Lisbon", "Madrid", "Berlin", "Vienna", "Oslo", "Athens", "Dublin", "Prague")
DATES = ("2026-05-04", "2026-05-05", "2026-05-06")
AIRLINES = ("SK", "LX", "AZ", "IB", "OS")
TRAVELLERS = ("Maya Chen", "Omar Aziz", "Lena Vogel", "Tariq Noor", "Iris Holm")


class TravelSite(Site):
    title = "FlyFinder"
    nav = (("/", "Search flights"), ("/trips", "My trips"))

    def generate(self, rng: np.random.Generator) -> None:
        k = (3, 6, 10)[self.difficulty]
        self.cities = R.sample(rng, CITIES, 4 + self.difficulty)
        self.flights = []
        for a in self.cities:
            for b in self.cities:
                if a == b:
                    continue
                for d in DATES:
                    for _ in range(k):
                        dep = int(rng.integers(6 * 12, 22 * 12)) * 5
                        self.flights.append({"no": f"{R.choice(rng, AIRLINES)}{len(self.flights) + 100}", "from": a, "to": b, "date": d,
                                             "dep": f"{dep // 60:02d}:{dep % 60:02d}", "stops": int(rng.integers(0, 3)),
                                             "price": float(rng.integers(40, 600))})
        self.bookings: list[dict] = []

    def find(self, a: str, b: str, d: str) -> list[dict]:
        return sorted((f for f in self.flights if f["from"] == a and f["to"] == b and f["date"] == d), key=lambda f: f["dep"])

    def flight(self, no: str) -> dict | None:
        return next((f for f in self.flights if f["no"] == no), None)

    def page_home(self, q: dict) -> str:
        cities = ", ".join(self.cities)
        return self.shell("Search", "<h1>Find a flight</h1><form id='search' action='/results'>"
                          "<p><label>From</label><input type='text' name='from'></p><p><label>To</label><input type='text' name='to'></p>"
                          "<p><label>Date (YYYY-MM-DD)</label><input type='text' name='date'></p><button type='submit'>Search</button></form>"
                          f"<p class='muted'>We fly between {cities} on {', '.join(DATES)}.</p>")

    def page_results(self, q: dict) -> str:
        a, b, d = q.get("from", "").strip().title(), q.get("to", "").strip().title(), q.get("date", "").strip()
        rows = "".join(f"<tr><td>{f['no']}</td><td>{f['dep']}</td><td>{'nonstop' if f['stops'] == 0 else str(f['stops']) + ' stop(s)'}</td>"
                       f"<td>{money(f['price'])}</td><td><a href='/book?f={f['no']}'>Select</a></td></tr>" for f in self.find(a, b, d))
        table = f"<table><tr><th>Flight</th><th>Departs</th><th>Stops</th><th>Fare</th><th></th></tr>{rows}</table>" if rows else "<p>No flights found.</p>"
        return self.shell("Results", f"<h1>{esc(a)} to {esc(b)} on {esc(d)}</h1>{table}")

    def page_book(self, q: dict) -> str:
        f = self.flight(q.get("f", ""))
        if f is None:
            return self.shell("Book", "<h1>Unknown flight</h1>")
        return self.shell("Book", f"<h1>Book {f['no']}</h1><p>{f['from']} to {f['to']}, {f['date']} {f['dep']}, {money(f['price'])} per person</p>"
                          f"<form id='book' action='/do/book'><input type='hidden' name='f' value='{f['no']}'>"
                          "<p><label>Passenger name</label><input type='text' name='name'></p>"
                          "<p><label>Passengers</label><input type='text' name='count'></p><button type='submit'>Book</button></form>")

    def do_book(self, q: dict) -> str:
        count = q.get("count", "").strip()
        self.bookings.append({"f": q.get("f", ""), "name": q.get("name", "").strip(), "count": int(count) if count.isdigit() else 0})
        return "/trips"

    def page_trips(self, q: dict) -> str:
        rows = "".join(f"<div class='card'>{b['f']}: {esc(b['name'])}, {b['count']} passenger(s)</div>" for b in self.bookings)
        return self.shell("Trips", f"<h1>My trips</h1>{rows or '<p>No trips booked.</p>'}")


class _TravelTask(WebEnv):
    site_cls = TravelSite

    def _setup(self, rng: np.random.Generator) -> None:
        self._a, self._b = R.sample(rng, self._site.cities, 2)
        self._date = R.choice(rng, DATES)
        flights = self._site.find(self._a, self._b, self._date)
        if not any(f["stops"] == 0 for f in flights):
            flights[int(rng.integers(len(flights)))]["stops"] = 0
        self._name, self._count = R.choice(rng, TRAVELLERS), int(rng.integers(1, 5))
        self._flights = flights

    def _route(self) -> tuple[Step, ...]:
        return (Step("form", "#search", (("#search input[name=from]", self._a), ("#search input[name=to]", self._b),
                                          ("#search input[name=date]", self._date)), url=f"/results?from={self._a}&to={self._b}&date={self._date}"),)

    def _trip(self) -> str:
        return f"from {self._a} to {self._b} on {self._date}"

    def _booking(self) -> dict | None:
        return self._site.bookings[-1] if self._site.bookings else None


class TravelCheapestFare(_TravelTask):
    __doc__ = web_doc("Find the cheapest fare for a route and date on a generated flight-search site.",
                      "The agent fills the search form and compares the results' fares.", "3/6/10 flights per route and date")

    def _task_text(self) -> str:
        return f"You are on the FlyFinder travel site. What is the cheapest fare for a flight {self._trip()}? Answer with the fare."

    def _best(self) -> float:
        return min(f["price"] for f in self._flights)

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("fare", answer_matches(self._final_answer, self._best()))]

    def _plan(self) -> list[Goal]:
        return [Goal(self._route(), Step("answer", value=money(self._best())))]

    def _answer(self) -> str:
        return f"fare: {money(self._best())}"


class TravelCountNonstop(_TravelTask):
    __doc__ = web_doc("Count the nonstop flights for a route and date on a generated flight-search site.",
                      "The agent searches and counts the rows marked nonstop.", "3/6/10 flights per route and date")

    def _task_text(self) -> str:
        return f"You are on the FlyFinder travel site. How many nonstop flights are there {self._trip()}? Answer with a number."

    def _n(self) -> int:
        return sum(f["stops"] == 0 for f in self._flights)

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("count", answer_matches(self._final_answer, self._n()))]

    def _plan(self) -> list[Goal]:
        return [Goal(self._route(), Step("answer", value=str(self._n())))]

    def _answer(self) -> str:
        return f"nonstop flights: {self._n()}"


class _Book(_TravelTask):
    def _choice(self) -> dict:
        raise NotImplementedError

    def _criteria(self) -> list[tuple[str, bool]]:
        b = self._booking()
        return [("booked", b is not None), ("right flight", b is not None and b["f"] == self._choice()["no"]),
                ("passenger name", b is not None and b["name"] == self._name), ("passengers", b is not None and b["count"] == self._count)]

    def _plan(self) -> list[Goal]:
        f = self._choice()
        form = Step("form", "#book", (("#book input[name=name]", self._name), ("#book input[name=count]", str(self._count))))
        return [Goal((*self._route(), Step("link", f"/book?f={f['no']}")), form, done=lambda: self._booking() is not None), Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"booking: {self._choice()['no']}"


class TravelBookCheapest(_Book):
    __doc__ = web_doc("Book the cheapest flight for a route and date, for a named passenger and a party size.",
                      "Search, compare fares, select, fill the booking form.", "3/6/10 flights per route and date")

    def _choice(self) -> dict:
        return min(self._flights, key=lambda f: (f["price"], f["dep"]))

    def _task_text(self) -> str:
        return (f"You are on the FlyFinder travel site. Book the cheapest flight {self._trip()} for {self._count} passenger(s) "
                f"under the name {self._name}, then reply done.")


class TravelBookEarliestNonstop(_Book):
    __doc__ = web_doc("Book the earliest nonstop flight for a route and date, for a named passenger and a party size.",
                      "Two constraints: nonstop, then earliest departure.", "3/6/10 flights per route and date")

    def _choice(self) -> dict:
        return min((f for f in self._flights if f["stops"] == 0), key=lambda f: (f["dep"], f["price"]))

    def _task_text(self) -> str:
        return (f"You are on the FlyFinder travel site. Book the earliest nonstop flight {self._trip()} for {self._count} passenger(s) "
                f"under the name {self._name}, then reply done.")


_TAGS = ("web", "site:travel", "split:train")
SPECS = (
    TaskSpec("WebTravelCheapestFare", TravelCheapestFare, version=1, max_episode_steps=25, tags=_TAGS),
    TaskSpec("WebTravelCountNonstop", TravelCountNonstop, version=1, max_episode_steps=25, tags=_TAGS),
    TaskSpec("WebTravelBookCheapest", TravelBookCheapest, version=1, max_episode_steps=40, tags=_TAGS),
    TaskSpec("WebTravelBookEarliestNonstop", TravelBookEarliestNonstop, version=1, max_episode_steps=40, tags=_TAGS),
)
