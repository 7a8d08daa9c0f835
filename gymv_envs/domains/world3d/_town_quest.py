"""A town quest's stages: the things they involve (characters, items, locked doors), the stage records
(talk to, give to) and how they play out as you interact (`QuestStages`, a mixin placed before `TownEnv`)."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import Outcome
from gymv_envs.domains.world3d._world import Ent, cell_centre


class QuestStages:
    """Stages of a quest in ``self.stages``, done in order (see the module docstring)."""

    def _npc(self, pos, colour: str, yaw: float) -> int:
        self.things.append(Ent("npc", pos=pos, colour=colour, yaw=yaw))
        return len(self.things) - 1

    def _item(self, name: str, colour: str, shape: str = "cube", kind: str = "item", visible: bool = False) -> int:
        self.things.append(Ent(kind, pos=(1.5, -1.5), colour=colour, shape=shape, hidden=not visible,
                               state={"name": name if kind == "item" else f"{colour} key"}))
        return len(self.things) - 1

    def _door(self, house) -> int:
        (x0, y0), (x1, y1) = cell_centre(house.door[0]), cell_centre(house.door[1])
        axis = 0 if abs(y0 - y1) < 0.1 else 1
        self.things.append(Ent("door", pos=((x0 + x1) / 2, (y0 + y1) / 2), colour=house.name, axis=axis,
                               state={"half": 1.0, "locked": True}))
        return len(self.things) - 1

    def _talk(self, who: int, say: str, give: int | None = None) -> None:
        name = self.things[who].name
        self.stages.append({"do": "talk", "who": who, "say": say, "receive": give,
                            "goal": f"Find the {name} and talk to it" + (" (it gives you something)" if give is not None else "")})

    def _give(self, who: int, item: int, say: str, receive: int | None = None) -> None:
        self.stages.append({"do": "give", "who": who, "take": item, "say": say, "receive": receive,
                            "goal": f"Give the {self.things[item].name} to the {self.things[who].name}"})

    # -- rules
    def _done(self) -> Outcome:
        st = self.stages[self.stage]
        self.stage += 1
        if st.get("receive") is not None and st["do"] != "give" or (st["do"] == "give" and st.get("receive") is not None):
            self.carrying = st["receive"]
        if st["say"]:
            self.say(f"{self.things[st['who']].name.capitalize()}: {st['say']}")
        if self.stage == len(self.stages):
            return self.win("the quest is done")
        return Outcome(feedback=f"stage {self.stage} of {len(self.stages)} done" + (f": {st['say']}" if st["say"] else ""))

    def _interact(self, i: int | None) -> Outcome | None:
        if i is None or self.stage >= len(self.stages):
            return None
        st, e = self.stages[self.stage], self.things[i]
        if i != st["who"]:
            if e.kind == "npc":
                self.say(f'{e.name.capitalize()}: "Hello there!"')
                return Outcome(feedback=f"the {e.name} says hello")
            return None
        if st["do"] in ("give", "unlock"):
            if self.carrying != st["take"]:
                return None
            self.carrying = None
            if st["do"] == "unlock":
                e.lit = True
        elif st["do"] == "take":
            e.hidden, self.carrying = True, i
        return self._done()

    def _enter(self) -> Outcome | None:
        if self.stage < len(self.stages) and self.stages[self.stage]["do"] == "read":
            i = self.stages[self.stage]["who"]
            e = self.things[i]
            bearing = np.arctan2(e.pos[1] - self.y, e.pos[0] - self.x) - self.yaw
            if self.surface_distance(i) <= 2.0 and abs(np.angle(np.exp(1j * bearing))) <= np.radians(30):
                return self._done()
        return None

    def _progress(self) -> float:
        return self.stage / len(self.stages)
