"""Wiki family: an encyclopedia of towns as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

WIKI = Family(
    key="wiki",
    brands=("OpenAtlas", "Wikiland", "CityPedia"),
    about="an encyclopedia of towns",
    noun="article",
    plural="articles",
    cats=("Cities", "Rivers", "Mountains", "Castles", "Lakes"),
    pics=("map", "map", "map", "house", "map"),
    first=("Vel", "Mor", "Tam", "Ost", "Ren", "Ala", "Bri", "Cor", "Dun", "Fal"),
    second=("ford", "heim", "ona", "gard", "vik", "burg", "stad", "mere", "port", "dale"),
    num=("Population", "number", 800, 900000),
    unit="",
    num2=("Founded (century)", 8, 20),
    who=("Region", ("North", "South", "East", "West", "Coast")),
    date="Last edited",
    code="Article id",
    verb="Add to reading list",
    list_name="Reading list",
    opt=("Folder", ("History", "Trips", "School")),
    qty=("Priority", 1, 5),
    when="",
    feature="",
    held_out=False,
)


class WikiTask(CatalogTask):
    __doc__ = catalog_doc(
        WIKI, "Compose encyclopedia tasks over generated articles: read facts, compare, count, build a reading list."
    )
    family = WIKI


SPECS = family_specs(WikiTask, "Wiki")
