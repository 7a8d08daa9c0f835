"""Social family: a social feed as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

SOCIAL = Family(
    key="social",
    brands=("Chirp", "FriendLoop", "Pixly"),
    about="a social feed",
    noun="post",
    plural="posts",
    cats=("Friends", "Photos", "Events", "Groups", "Pages"),
    pics=("avatar", "video", "ticket", "avatar", "logo"),
    first=("Sunset", "Weekend", "Brunch", "Concert", "Hiking", "Puppy", "Beach", "Coffee", "Garden", "Road"),
    second=("Photos", "Plans", "Vibes", "Update", "Memories", "Moments", "News", "Trip", "Day", "Story"),
    num=("Likes", "number", 0, 3000),
    unit="",
    num2=("Shares", 0, 50),
    who=("Posted by", ("lena", "omar", "iris", "tariq", "maya", "yusuf")),
    date="Posted",
    code="Post id",
    verb="Bookmark",
    list_name="Bookmarks",
    opt=("Collection", ("Favourites", "Ideas", "Friends")),
    qty=("Priority", 1, 5),
    when="",
    feature="",
    held_out=False,
)


class SocialTask(CatalogTask):
    __doc__ = catalog_doc(SOCIAL, "Compose social-feed tasks: avatars, likes, bookmarks.")
    family = SOCIAL


SPECS = family_specs(SocialTask, "Social")
