"""Shop family: an online shop as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

SHOP = Family(
    key="shop",
    brands=("ShopLane", "Cartwell", "Nordmart"),
    about="an online shop",
    noun="product",
    plural="products",
    cats=("Jackets", "Shoes", "Bags", "Lamps", "Mugs"),
    pics=("jacket", "shoe", "bag", "lamp", "mug"),
    first=("Alpine", "Harbor", "Metro", "Summit", "Coastal", "Urban", "Prairie", "Nordic", "Canyon", "Willow"),
    second=("Classic", "Pro", "Lite", "Max", "Edition", "Select", "One", "Plus", "Air", "Core"),
    num=("Price", "money", 5, 300),
    unit="",
    num2=("Rating", 1, 5),
    who=("Brand", ("Acme", "Northwind", "Globex", "Initech", "Umbra")),
    date="Arrived",
    code="SKU",
    verb="Add to cart",
    list_name="Cart",
    opt=("Size", ("M", "S", "L", "XL")),
    qty=("Quantity", 1, 6),
    when="",
    feature="",
    held_out=False,
)


class ShopTask(CatalogTask):
    __doc__ = catalog_doc(
        SHOP, "Compose shop tasks (find, filter, sort, compare, cart) on a generated web shop with product pictures."
    )
    family = SHOP


SPECS = family_specs(ShopTask, "Shop")
