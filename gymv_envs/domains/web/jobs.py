"""Jobs family: a job board as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

JOBS = Family(
    key="jobs",
    brands=("HireBoard", "WorkWell", "JobNest"),
    about="a job board",
    noun="job",
    plural="jobs",
    cats=("Engineering", "Design", "Sales", "Support", "Finance"),
    pics=("logo", "logo", "logo", "logo", "logo"),
    first=("Senior", "Junior", "Lead", "Staff", "Remote", "Principal", "Associate", "Contract", "Part-time", "Global"),
    second=(
        "Developer",
        "Designer",
        "Analyst",
        "Manager",
        "Engineer",
        "Specialist",
        "Consultant",
        "Writer",
        "Planner",
        "Advisor",
    ),
    num=("Salary", "money", 30000, 180000),
    unit="",
    num2=("Experience (years)", 0, 10),
    who=("Company", ("Acme", "Globex", "Initech", "Hooli", "Vandelay")),
    date="Posted",
    code="Job id",
    verb="Apply",
    list_name="Applications",
    opt=("Start", ("Immediately", "In a month", "In three months")),
    qty=("Days a week", 1, 5),
    when="Interview date",
    feature="",
    held_out=False,
)


class JobsTask(CatalogTask):
    __doc__ = catalog_doc(JOBS, "Compose job-board tasks: filter by team, compare salaries, apply with options.")
    family = JOBS


SPECS = family_specs(JobsTask, "Jobs")
