"""Travel family: a flight booking site as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

TRAVEL = Family(
    key="travel",
    brands=("FlyFinder", "SkyHop", "TripNest"),
    about="a flight booking site",
    noun="flight",
    plural="flights",
    cats=("Lisbon", "Berlin", "Oslo", "Athens", "Dublin"),
    pics=("ticket", "ticket", "ticket", "ticket", "ticket"),
    first=("SK", "LX", "AZ", "IB", "OS", "KL", "AF", "BA", "TP", "LH"),
    second=("101", "202", "303", "404", "505", "606", "707", "808", "909", "111"),
    num=("Fare", "money", 40, 900),
    unit="",
    num2=("Stops", 0, 2),
    who=("Airline", ("Scandi", "Alpen", "Azzurra", "Iberia", "Austro")),
    date="Departs",
    code="Fare code",
    verb="Book",
    list_name="Trips",
    opt=("Cabin", ("Economy", "Premium", "Business")),
    qty=("Passengers", 1, 6),
    when="Travel date",
    feature="",
    held_out=False,
)


class TravelTask(CatalogTask):
    __doc__ = catalog_doc(
        TRAVEL, "Compose flight-booking tasks: find fares, filter by destination, book with cabin, passengers and date."
    )
    family = TRAVEL


SPECS = family_specs(TravelTask, "Travel")
