"""Mail family: a web mail inbox as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

MAIL = Family(
    key="mail",
    brands=("PostBox", "Inboxly", "QuickMail"),
    about="a web mail inbox",
    noun="message",
    plural="messages",
    cats=("Inbox", "Work", "Receipts", "Travel", "Newsletters"),
    pics=("doc", "doc", "ticket", "ticket", "doc"),
    first=("Quarterly", "Flight", "Invoice", "Welcome", "Meeting", "Password", "Order", "Weekly", "Holiday", "Project"),
    second=("Update", "Notice", "Receipt", "Reminder", "Summary", "Request", "Offer", "Digest", "Plan", "Report"),
    num=("Size", "number", 4, 900),
    unit="KB",
    num2=("Attachments", 0, 6),
    who=("From", ("Ada Park", "Ben Ortiz", "Chloe Wu", "Dev Rao", "Eva Lind")),
    date="Received",
    code="Message id",
    verb="Star",
    list_name="Starred",
    opt=("Label", ("Important", "Later", "Done")),
    qty=("Priority", 1, 5),
    when="Snooze until",
    feature="",
    held_out=False,
)


class MailTask(CatalogTask):
    __doc__ = catalog_doc(MAIL, "Compose mail tasks over a generated inbox: read, filter, count, star with labels.")
    family = MAIL


SPECS = family_specs(MailTask, "Mail")
