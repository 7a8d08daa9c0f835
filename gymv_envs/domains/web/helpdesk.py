"""Helpdesk family: a helpdesk ticketing system as a catalogue site, tasks composed from the rubric grammar (`_facts`). Held out: its ids are tagged ``split:test``."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

HELPDESK = Family(
    key="helpdesk",
    brands=("DeskFlow", "TicketPro", "ServiceHub"),
    about="a helpdesk ticketing system",
    noun="ticket",
    plural="tickets",
    cats=("Billing", "Login", "Hardware", "Network", "Other"),
    pics=("ticket", "doc", "phone", "map", "doc"),
    first=("Printer", "VPN", "Invoice", "Laptop", "Email", "Password", "Monitor", "Wi-Fi", "Refund", "Badge"),
    second=("Broken", "Slow", "Missing", "Locked", "Error", "Request", "Question", "Outage", "Delay", "Reset"),
    num=("Age", "number", 1, 72),
    unit="h",
    num2=("Priority level", 1, 5),
    who=("Requester", ("A. Shaw", "B. Lopez", "C. Kim", "D. Novak", "E. Sato")),
    date="Opened",
    code="Ticket id",
    verb="Assign to me",
    list_name="My queue",
    opt=("Status", ("In progress", "Waiting", "Escalated")),
    qty=("Effort", 1, 5),
    when="Due",
    feature="",
    held_out=True,
)


class HelpdeskTask(CatalogTask):
    __doc__ = catalog_doc(HELPDESK, "Compose helpdesk tasks over generated tickets (held-out family).")
    family = HELPDESK


SPECS = family_specs(HelpdeskTask, "Helpdesk")
