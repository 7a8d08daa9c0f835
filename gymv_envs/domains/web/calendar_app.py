"""Calendar site: a month grid of events, day pages, event pages with delete, a new-event form.

Tasks: find an event's date, count a day's events, add an event, delete events.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc

TITLES = ("Dentist", "Yoga class", "Team sync", "Piano lesson", "Book club", "Car service", "Parents' evening",
          "Budget review", "Lunch with Sam", "Gym session", "Vet visit", "Code review", "Haircut", "Movie night",
          "Garden club", "Quiz night", "Guitar lesson", "Board meeting", "Swim practice", "Bake sale")
MONTH = "2026-07"


class CalendarSite(Site):
    title = "DayPlanner"
    nav = (("/", "Month"), ("/new", "New event"))

    def generate(self, rng: np.random.Generator) -> None:
        n = (6, 12, 20)[self.difficulty]
        self.events = [{"id": i + 1, "title": t, "day": int(rng.integers(1, 32)), "time": f"{int(rng.integers(8, 20)):02d}:{R.choice(rng, ('00', '30'))}",
                        "deleted": False} for i, t in enumerate(R.sample(rng, TITLES, n))]

    def live(self) -> list[dict]:
        return [e for e in self.events if not e["deleted"]]

    def page_home(self, q: dict) -> str:
        cells = []
        for day in range(1, 32):
            evs = "".join(f"<div><a href='/event?id={e['id']}'>{esc(e['title'])}</a></div>" for e in sorted(self.live(), key=lambda e: e["time"]) if e["day"] == day)
            cells.append(f"<td style='vertical-align:top;height:58px;width:120px'><a href='/day?d={day}'><b>{day}</b></a>{evs}</td>")
        rows = "".join("<tr>" + "".join(cells[i:i + 7]) + "</tr>" for i in range(0, 31, 7))
        return self.shell("Month", f"<h1>July 2026</h1><table style='font-size:0.8em'>{rows}</table>")

    def page_day(self, q: dict) -> str:
        d = int(q.get("d", "1") or 1)
        evs = "".join(f"<div class='card'>{e['time']} <a href='/event?id={e['id']}'>{esc(e['title'])}</a></div>"
                      for e in sorted(self.live(), key=lambda e: e["time"]) if e["day"] == d)
        return self.shell("Day", f"<h1>{MONTH}-{d:02d}</h1>{evs or '<p>No events.</p>'}")

    def page_event(self, q: dict) -> str:
        e = self.events[int(q.get("id", "1")) - 1]
        return self.shell(e["title"], f"<h1>{esc(e['title'])}</h1><p>{MONTH}-{e['day']:02d} at {e['time']}</p>"
                          + ("<p>This event was deleted.</p>" if e["deleted"] else f"<a id='delete' class='btn' href='/do/delete?id={e['id']}'>Delete event</a>"))

    def do_delete(self, q: dict) -> str:
        self.events[int(q.get("id", "1")) - 1]["deleted"] = True
        return "/"

    def page_new(self, q: dict) -> str:
        return self.shell("New", "<h1>New event</h1><form id='new' action='/do/add'><p><label>Title</label><input type='text' name='title'></p>"
                          "<p><label>Date (YYYY-MM-DD)</label><input type='text' name='date'></p><p><label>Time (HH:MM)</label><input type='text' name='time'></p>"
                          "<button type='submit'>Save</button></form>")

    def do_add(self, q: dict) -> str:
        date = q.get("date", "").strip()
        day = int(date[-2:]) if date.startswith(MONTH + "-") and date[-2:].isdigit() and 1 <= int(date[-2:]) <= 31 else 0
        if day:
            self.events.append({"id": len(self.events) + 1, "title": q.get("title", "").strip(), "day": day, "time": q.get("time", "").strip(), "deleted": False})
        return "/"


class _CalTask(WebEnv):
    site_cls = CalendarSite


class CalendarFindDate(_CalTask):
    __doc__ = web_doc("Find the date of a named event in a generated calendar.",
                      "The month grid shows titles; the answer is the date as YYYY-MM-DD.", "6/12/20 events in the month")

    def _setup(self, rng: np.random.Generator) -> None:
        self._e = R.choice(rng, self._site.events)

    def _task_text(self) -> str:
        return f"You are in the DayPlanner calendar. On which date is '{self._e['title']}'? Answer with the date as YYYY-MM-DD."

    def _date(self) -> str:
        return f"{MONTH}-{self._e['day']:02d}"

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("date", answer_matches(self._final_answer, self._date()))]

    def _plan(self) -> list[Goal]:
        return [Goal((Step("link", f"/event?id={self._e['id']}"),), Step("answer", value=self._date()))]

    def _answer(self) -> str:
        return f"date: {self._date()}"


class CalendarCountDay(_CalTask):
    __doc__ = web_doc("Count the events on a given day of a generated calendar.",
                      "The agent opens the day (or reads the month grid) and counts.", "6/12/20 events in the month")

    def _setup(self, rng: np.random.Generator) -> None:
        days = [e["day"] for e in self._site.events]
        self._day = max(set(days), key=lambda d: (days.count(d), -d)) if self.difficulty else R.choice(rng, days)

    def _task_text(self) -> str:
        return f"You are in the DayPlanner calendar. How many events are there on {MONTH}-{self._day:02d}? Answer with a number."

    def _n(self) -> int:
        return sum(e["day"] == self._day for e in self._site.live())

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("count", answer_matches(self._final_answer, self._n()))]

    def _plan(self) -> list[Goal]:
        return [Goal((Step("link", f"/day?d={self._day}"),), Step("answer", value=str(self._n())))]

    def _answer(self) -> str:
        return f"events that day: {self._n()}"


class CalendarAddEvent(_CalTask):
    __doc__ = web_doc("Add an event with a given title, date and time to a generated calendar.",
                      "The rubric checks that exactly one such event exists with the right date and time.",
                      "0: title and date; 1-2: plus a time, busier month")

    def _setup(self, rng: np.random.Generator) -> None:
        self._title = R.choice(rng, [t for t in TITLES if t not in {e["title"] for e in self._site.events}] or ["Picnic"])
        self._day = int(rng.integers(1, 32))
        self._time = f"{int(rng.integers(8, 20)):02d}:15" if self.difficulty else ""

    def _task_text(self) -> str:
        at = f" at {self._time}" if self._time else ""
        return f"You are in the DayPlanner calendar. Add an event '{self._title}' on {MONTH}-{self._day:02d}{at}, then reply done."

    def _mine(self) -> list[dict]:
        return [e for e in self._site.live() if e["title"] == self._title]

    def _criteria(self) -> list[tuple[str, bool]]:
        m = self._mine()
        out = [("one such event", len(m) == 1), ("date", len(m) == 1 and m[0]["day"] == self._day)]
        return out + ([("time", len(m) == 1 and m[0]["time"] == self._time)] if self._time else [])

    def _plan(self) -> list[Goal]:
        fields = [("#new input[name=title]", self._title), ("#new input[name=date]", f"{MONTH}-{self._day:02d}")]
        if self._time:
            fields.append(("#new input[name=time]", self._time))
        return [Goal((Step("link", "/new"),), Step("form", "#new", tuple(fields)), done=lambda: bool(self._mine())), Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"event: {self._title} / {self._day} / {self._time}"


class CalendarDeleteEvents(_CalTask):
    __doc__ = web_doc("Delete named events (1/2/3 by difficulty) from a generated calendar, and nothing else.",
                      "Each deletion is an event page's Delete button.", "number of events to delete and month size")

    def _setup(self, rng: np.random.Generator) -> None:
        self._ids = [e["id"] for e in R.sample(rng, self._site.events, self.difficulty + 1)]

    def _task_text(self) -> str:
        names = ", ".join(f"'{self._site.events[i - 1]['title']}'" for i in self._ids)
        return f"You are in the DayPlanner calendar. Delete the event(s) {names} and no other event, then reply done."

    def _criteria(self) -> list[tuple[str, bool]]:
        ev = self._site.events
        return [(f"event {i} deleted", ev[i - 1]["deleted"]) for i in self._ids] + \
               [("others kept", not any(e["deleted"] for e in ev if e["id"] not in self._ids))]

    def _plan(self) -> list[Goal]:
        return [Goal((Step("link", f"/event?id={i}"),), Step("click", "#delete"), done=lambda i=i: self._site.events[i - 1]["deleted"])
                for i in self._ids] + [Goal((), Step("done"))]

    def _answer(self) -> str:
        return "delete events " + ", ".join(map(str, self._ids))


_TAGS = ("web", "site:calendar", "split:train")
SPECS = (
    TaskSpec("WebCalendarFindDate", CalendarFindDate, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebCalendarCountDay", CalendarCountDay, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebCalendarAddEvent", CalendarAddEvent, version=1, max_episode_steps=30, tags=_TAGS),
    TaskSpec("WebCalendarDeleteEvents", CalendarDeleteEvents, version=1, max_episode_steps=30, tags=_TAGS),
)
