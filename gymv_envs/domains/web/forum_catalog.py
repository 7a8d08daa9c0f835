"""Forum family: a discussion forum as a catalogue site, tasks composed from the rubric grammar (`_facts`). Held out: its ids are tagged ``split:test``."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

FORUM = Family(
    key="forum",
    brands=("TalkSpace", "ThreadHub", "Agora"),
    about="a discussion forum",
    noun="thread",
    plural="threads",
    cats=("Help", "Ideas", "News", "Offtopic", "Showcase"),
    pics=("doc", "doc", "doc", "avatar", "logo"),
    first=("Printer", "Garden", "Laptop", "Bike", "Camera", "Recipe", "Router", "Guitar", "Solar", "Aquarium"),
    second=("Question", "Tips", "Problem", "Upgrade", "Setup", "Review", "Build", "Guide", "Issue", "Story"),
    num=("Views", "number", 10, 9000),
    unit="",
    num2=("Replies", 0, 40),
    who=("Author", ("mira_k", "devon", "tomo", "quill", "ash_r", "noor")),
    date="Posted",
    code="Thread id",
    verb="Follow thread",
    list_name="Following",
    opt=("Notify", ("Every reply", "Daily digest", "Weekly")),
    qty=("Priority", 1, 3),
    when="",
    feature="",
    held_out=True,
)


class ForumTask(CatalogTask):
    __doc__ = catalog_doc(FORUM, "Compose forum tasks over generated threads (held-out family).")
    family = FORUM


SPECS = family_specs(ForumTask, "Forum")
