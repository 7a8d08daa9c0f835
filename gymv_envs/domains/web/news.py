"""News family: a news site as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

NEWS = Family(
    key="news",
    brands=("DailyLedger", "MorningPost", "CityWire"),
    about="a news site",
    noun="article",
    plural="articles",
    cats=("Politics", "Sport", "Science", "Business", "Culture"),
    pics=("doc", "bike", "book", "doc", "video"),
    first=("Harbor", "Council", "Stadium", "Museum", "Satellite", "Market", "Festival", "Bridge", "Library", "Airport"),
    second=("Reopens", "Votes", "Expands", "Wins", "Launches", "Rallies", "Returns", "Delayed", "Approved", "Debates"),
    num=("Read time", "number", 2, 25),
    unit="min",
    num2=("Comments", 0, 60),
    who=("Author", ("J. Rivera", "M. Osei", "K. Larsen", "P. Nair", "T. Brandt")),
    date="Published",
    code="Story id",
    verb="Save article",
    list_name="Saved",
    opt=("Folder", ("Read later", "Work", "Share")),
    qty=("Priority", 1, 5),
    when="",
    feature="",
    held_out=False,
)


class NewsTask(CatalogTask):
    __doc__ = catalog_doc(NEWS, "Compose news-site tasks over generated articles: read, filter by section, sort, save.")
    family = NEWS


SPECS = family_specs(NewsTask, "News")
