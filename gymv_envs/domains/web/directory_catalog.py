"""Directory family: a business directory with maps as a catalogue site, tasks composed from the rubric grammar (`_facts`). Held out: its ids are tagged ``split:test``."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

DIRECTORY = Family(
    key="directory",
    brands=("CityFinder", "LocalHub", "YellowMap"),
    about="a business directory with maps",
    noun="business",
    plural="businesses",
    cats=("Cafes", "Dentists", "Gyms", "Bakeries", "Garages"),
    pics=("map", "map", "map", "dish", "car"),
    first=("Sunny", "Corner", "Golden", "Old Town", "Riverside", "Maple", "Central", "Lucky", "Bright", "Hilltop"),
    second=("Cafe", "Studio", "House", "Works", "Place", "Spot", "Point", "Hub", "Yard", "Garden"),
    num=("Distance", "number", 1, 40),
    unit="km",
    num2=("Rating", 1, 5),
    who=("Owner", ("K. Ito", "L. Moreau", "P. Singh", "R. Costa", "S. Berg")),
    date="Listed since",
    code="Licence",
    verb="Save place",
    list_name="Saved places",
    opt=("List", ("Favourites", "Try later", "Work")),
    qty=("Visits planned", 1, 5),
    when="",
    feature="",
    held_out=True,
)


class DirectoryTask(CatalogTask):
    __doc__ = catalog_doc(DIRECTORY, "Compose directory tasks over generated local businesses (held-out family).")
    family = DIRECTORY


SPECS = family_specs(DirectoryTask, "Directory")
