"""Course family: an online course platform as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

COURSE = Family(
    key="course",
    brands=("LearnHub", "SkillPath", "OpenClass"),
    about="an online course platform",
    noun="course",
    plural="courses",
    cats=("Programming", "Data", "Design", "Languages", "Business"),
    pics=("course", "course", "course", "course", "course"),
    first=("Intro to", "Advanced", "Practical", "Modern", "Applied", "Hands-on", "Essential", "Creative", "Rapid", "Complete"),
    second=("Python", "Statistics", "Typography", "Spanish", "Marketing", "SQL", "Sketching", "Japanese", "Finance", "Rust"),
    num=("Price", "money", 0, 250),
    unit="",
    num2=("Lessons", 4, 40),
    who=("Instructor", ("Dr. Amin", "Prof. Bell", "Ms. Cruz", "Mr. Dahl")),
    date="Starts",
    code="Course code",
    verb="Enroll",
    list_name="My courses",
    opt=("Track", ("Audit", "Certificate", "Degree credit")),
    qty=("Hours a week", 1, 10),
    when="Start on",
    feature="",
    held_out=False,
)


class CourseTask(CatalogTask):
    __doc__ = catalog_doc(COURSE, "Compose online-course tasks: filter by subject, compare prices, enroll with a track.")
    family = COURSE


SPECS = family_specs(CourseTask, "Course")
