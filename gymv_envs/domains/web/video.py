"""Video family: a video catalogue as a catalogue site, tasks composed from the rubric grammar (`_facts`)."""

from __future__ import annotations

from gymv_envs.domains.web._catalog import Family
from gymv_envs.domains.web._tasks import CatalogTask, catalog_doc, family_specs

VIDEO = Family(
    key="video",
    brands=("StreamBox", "ClipHub", "ReelTime"),
    about="a video catalogue",
    noun="video",
    plural="videos",
    cats=("Nature", "Cooking", "Music", "Travel", "Tech"),
    pics=("video", "video", "video", "video", "video"),
    first=("Ocean", "Midnight", "Desert", "Street", "Kitchen", "Mountain", "Studio", "River", "Garden", "City"),
    second=("Diaries", "Live", "Tour", "Session", "Basics", "Stories", "Secrets", "Lights", "Hacks", "Journey"),
    num=("Length", "number", 2, 120),
    unit="min",
    num2=("Likes (thousands)", 1, 99),
    who=("Channel", ("TerraTV", "ChefLab", "SoundRoom", "Wander", "ByteCast")),
    date="Uploaded",
    code="Video id",
    verb="Add to playlist",
    list_name="Playlist",
    opt=("Quality", ("Auto", "1080p", "720p", "480p")),
    qty=("Plays", 1, 5),
    when="",
    feature="",
    held_out=False,
)


class VideoTask(CatalogTask):
    __doc__ = catalog_doc(VIDEO, "Compose video-catalogue tasks: thumbnails, lengths, channels, playlists.")
    family = VIDEO


SPECS = family_specs(VideoTask, "Video")
