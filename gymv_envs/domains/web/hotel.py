"""Hotel family: a hotel booking site as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

HOTEL = Family(
    key="hotel",
    brands=("StayWell", "RoomRadar", "InnSight"),
    about="a hotel booking site",
    noun="hotel",
    plural="hotels",
    cats=("Seaside", "Downtown", "Airport", "Mountain", "Lakeside"),
    pics=("hotel", "hotel", "hotel", "hotel", "hotel"),
    first=("Grand", "Royal", "Blue", "Harbor", "Cedar", "Palm", "Summit", "Old Mill", "Lake", "Star"),
    second=("Hotel", "Inn", "Suites", "Lodge", "Resort", "House", "Palace", "Retreat", "Rooms", "Court"),
    num=("Nightly rate", "money", 45, 600),
    unit="",
    num2=("Stars", 1, 5),
    who=("Chain", ("Marlow", "Hilltop", "Oasis", "Nordic")),
    date="Open since",
    code="Hotel code",
    verb="Book a room",
    list_name="Bookings",
    opt=("Room", ("Double", "Twin", "Suite", "Single")),
    qty=("Nights", 1, 7),
    when="Check-in",
    feature="a pool",
    held_out=False,
)


class HotelTask(CatalogTask):
    __doc__ = catalog_doc(
        HOTEL, "Compose hotel-booking tasks: the hotel with a pool, rates, stars, bookings with room, nights and check-in."
    )
    family = HOTEL


SPECS = family_specs(HotelTask, "Hotel")
