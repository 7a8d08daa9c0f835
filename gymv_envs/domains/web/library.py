"""Library family: a public library catalogue as a catalogue site, tasks composed from the rubric grammar (`_facts`). Held out: its ids are tagged ``split:test``."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

LIBRARY = Family(
    key="library",
    brands=("CityLibrary", "ShelfWise", "BookVault"),
    about="a public library catalogue",
    noun="book",
    plural="books",
    cats=("Fiction", "History", "Science", "Travel", "Children"),
    pics=("book", "book", "book", "book", "book"),
    first=("Silent", "Hidden", "Lost", "Northern", "Last", "Glass", "Iron", "Paper", "Winter", "Golden"),
    second=("River", "Garden", "Atlas", "Kingdom", "Letters", "Orchard", "Harbor", "Voyage", "Clock", "Lantern"),
    num=("Pages", "number", 80, 900),
    unit="",
    num2=("Copies", 1, 6),
    who=("Author", ("E. Marsh", "F. Okoro", "G. Lind", "H. Tanaka", "I. Duval")),
    date="Published",
    code="Call number",
    verb="Place a hold",
    list_name="Holds",
    opt=("Branch", ("Central", "Eastside", "Harbor")),
    qty=("Weeks", 1, 4),
    when="Pick up on",
    feature="",
    held_out=True,
)


class LibraryTask(CatalogTask):
    __doc__ = catalog_doc(LIBRARY, "Compose library-catalogue tasks over generated books (held-out family).")
    family = LIBRARY


SPECS = family_specs(LibraryTask, "Library")
