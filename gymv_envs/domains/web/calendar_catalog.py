"""Calendar family: a shared calendar of events as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

CALENDAR = Family(
    key="calendar",
    brands=("DayPlan", "Agendo", "TimeGrid"),
    about="a shared calendar of events",
    noun="event",
    plural="events",
    cats=("Work", "Family", "Sport", "Health", "Travel"),
    pics=("doc", "avatar", "bike", "doc", "ticket"),
    first=("Team", "Budget", "Dentist", "Soccer", "Yoga", "Flight", "Design", "Parent", "Book", "Launch"),
    second=("Review", "Meeting", "Check", "Practice", "Session", "Trip", "Sync", "Evening", "Club", "Party"),
    num=("Duration", "number", 15, 240),
    unit="min",
    num2=("Attendees", 1, 20),
    who=("Organiser", ("Ana", "Bo", "Chen", "Dara", "Eli", "Femi")),
    date="Date",
    code="Event code",
    verb="RSVP",
    list_name="My events",
    opt=("Response", ("Going", "Maybe", "Not going")),
    qty=("Guests", 1, 5),
    when="Reminder on",
    feature="",
    held_out=False,
)


class CalendarTask(CatalogTask):
    __doc__ = catalog_doc(CALENDAR, "Compose calendar tasks over generated events: read, filter, count, RSVP with options.")
    family = CALENDAR


SPECS = family_specs(CalendarTask, "Calendar")
