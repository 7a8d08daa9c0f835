"""Bank family: an online bank's payments page as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

BANK = Family(
    key="bank",
    brands=("CivicBank", "Ledgerly", "HarborTrust"),
    about="an online bank's payments page",
    noun="payment",
    plural="payments",
    cats=("Groceries", "Utilities", "Travel", "Dining", "Shopping"),
    pics=("doc", "doc", "ticket", "dish", "bag"),
    first=(
        "GreenGrocer",
        "CityPower",
        "MetroRail",
        "BookNook",
        "PetPal",
        "CafeLuna",
        "FitClub",
        "WaterWorks",
        "SkyAir",
        "TownDeli",
    ),
    second=("April", "Invoice", "Order", "Refund", "Bill", "Pass", "Fee", "Deposit", "Ticket", "Renewal"),
    num=("Amount", "money", 3, 900),
    unit="",
    num2=("Installments", 1, 12),
    who=("Card", ("Visa 4021", "Visa 7733", "Master 1190", "Master 5002")),
    date="Booked on",
    code="Reference",
    verb="Flag for review",
    list_name="Flagged",
    opt=("Reason", ("Unknown charge", "Duplicate", "Wrong amount", "Not received")),
    qty=("Priority", 1, 5),
    when="",
    feature="",
    held_out=False,
)


class BankTask(CatalogTask):
    __doc__ = catalog_doc(BANK, "Compose banking tasks over a generated payments list: read, filter, count, flag payments.")
    family = BANK


SPECS = family_specs(BankTask, "Bank")
