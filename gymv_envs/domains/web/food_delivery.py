"""FoodDelivery family: a food delivery app as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

FOOD = Family(
    key="food",
    brands=("Dashly", "FeastNow", "GrubGo"),
    about="a food delivery app",
    noun="dish",
    plural="dishes",
    cats=("Pizza", "Sushi", "Burgers", "Curry", "Vegan"),
    pics=("dish", "dish", "dish", "dish", "dish"),
    first=("Margherita", "Dragon", "Smash", "Butter", "Green", "Spicy", "Double", "Sunrise", "Garden", "Royal"),
    second=("Special", "Roll", "Stack", "Bowl", "Box", "Combo", "Deluxe", "Plate", "Feast", "Wrap"),
    num=("Price", "money", 6, 45),
    unit="",
    num2=("Spice level", 0, 3),
    who=("Restaurant", ("Luigi's", "Koi", "Patty Lab", "Taj", "Sprout")),
    date="On menu since",
    code="Item code",
    verb="Add to order",
    list_name="Order",
    opt=("Size", ("Regular", "Large", "Family")),
    qty=("Quantity", 1, 6),
    when="Deliver on",
    feature="",
    held_out=False,
)


class FoodDeliveryTask(CatalogTask):
    __doc__ = catalog_doc(FOOD, "Compose food-delivery tasks: dish pictures, prices, spice levels, an order with sizes.")
    family = FOOD


SPECS = family_specs(FoodDeliveryTask, "FoodDelivery")
