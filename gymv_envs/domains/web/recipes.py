"""Recipe family: a recipe site as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

RECIPES = Family(
    key="recipes",
    brands=("CookBook", "PanPal", "Saveur"),
    about="a recipe site",
    noun="recipe",
    plural="recipes",
    cats=("Soups", "Salads", "Pasta", "Desserts", "Breakfast"),
    pics=("dish", "dish", "dish", "dish", "dish"),
    first=("Smoky", "Lemon", "Garlic", "Spiced", "Creamy", "Herb", "Roasted", "Sweet", "Rustic", "Golden"),
    second=("Lentil", "Tomato", "Noodles", "Tart", "Pancakes", "Risotto", "Chowder", "Bowl", "Crumble", "Frittata"),
    num=("Calories", "number", 150, 950),
    unit="kcal",
    num2=("Servings", 1, 8),
    who=("Chef", ("Rosa", "Kenji", "Amara", "Luc", "Ines")),
    date="Added",
    code="Recipe code",
    verb="Save recipe",
    list_name="Recipe box",
    opt=("Meal", ("Dinner", "Lunch", "Breakfast", "Party")),
    qty=("Servings", 1, 8),
    when="Cook on",
    feature="",
    held_out=False,
)


class RecipeTask(CatalogTask):
    __doc__ = catalog_doc(RECIPES, "Compose recipe-site tasks: dish pictures, calories, servings, a recipe box.")
    family = RECIPES


SPECS = family_specs(RecipeTask, "Recipe")
