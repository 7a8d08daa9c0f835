"""RealEstate family: a real-estate listings site as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

REALESTATE = Family(
    key="realestate",
    brands=("HomeFind", "NestSpot", "KeyRealty"),
    about="a real-estate listings site",
    noun="home",
    plural="homes",
    cats=("Houses", "Cottages", "Villas", "Townhouses", "Cabins"),
    pics=("house", "house", "house", "house", "house"),
    first=("12", "27", "4", "88", "31", "56", "9", "140", "63", "7"),
    second=(
        "Oak Lane",
        "Bay Road",
        "Mill Street",
        "Hill View",
        "Elm Court",
        "Lake Drive",
        "Rose Way",
        "Park Row",
        "Brook End",
        "Cliff Walk",
    ),
    num=("Price", "money", 90000, 950000),
    unit="",
    num2=("Bedrooms", 1, 6),
    who=("Agent", ("Hart & Co", "Blue Door", "Keystone", "Homely")),
    date="Listed",
    code="Listing id",
    verb="Request a viewing",
    list_name="Viewings",
    opt=("Time", ("Morning", "Afternoon", "Evening")),
    qty=("People", 1, 4),
    when="Viewing date",
    feature="a pool",
    held_out=False,
)


class RealEstateTask(CatalogTask):
    __doc__ = catalog_doc(
        REALESTATE, "Compose real-estate tasks: listing pictures (the one with a pool), prices, bedrooms, viewings."
    )
    family = REALESTATE


SPECS = family_specs(RealEstateTask, "RealEstate")
