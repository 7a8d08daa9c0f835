"""Admin family: an admin dashboard of user accounts as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

ADMIN = Family(
    key="admin",
    brands=("OpsPanel", "AdminKit", "ControlRoom"),
    about="an admin dashboard of user accounts",
    noun="account",
    plural="accounts",
    cats=("Admins", "Editors", "Viewers", "Guests", "Suspended"),
    pics=("avatar", "avatar", "avatar", "avatar", "avatar"),
    first=("alex", "blair", "casey", "drew", "emery", "finley", "gray", "harper", "indigo", "jules"),
    second=("Ortega", "Baker", "Quinn", "Hale", "Finch", "Ito", "Park", "Ueda", "Mills", "Sato"),
    num=("Storage used", "number", 1, 500),
    unit="GB",
    num2=("Logins this week", 0, 30),
    who=("Team", ("Core", "Growth", "Infra", "Support")),
    date="Created",
    code="User id",
    verb="Add to review",
    list_name="Review queue",
    opt=("Action", ("Reset password", "Lock", "Change role")),
    qty=("Urgency", 1, 5),
    when="Review by",
    feature="",
    held_out=False,
)


class AdminTask(CatalogTask):
    __doc__ = catalog_doc(ADMIN, "Compose admin-dashboard tasks over user accounts: tables, filters, a review queue.")
    family = ADMIN


SPECS = family_specs(AdminTask, "Admin")
