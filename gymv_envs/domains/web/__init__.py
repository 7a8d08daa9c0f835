"""Visual web tasks: generated websites served on loopback, driven through Chromium, rubric-scored.

Sites: the hand-built templates (shop, bank, calendar, directory, forum, mail, travel, wiki) and
twenty catalogue families (`_catalog`, `_families` in the family modules) laid out by `_layout`,
with tasks composed from the rubric grammar (`_facts`, `_tasks`). Shared: the answer reader
(`_answers`), the action grammar (`_grammar`), the oracle (`_oracle`), the judge and its audit
(`_judge`), the vector env over shared browsers (`WebVectorEnv`, `_vector`), the VQA hook (`_vqa`)
and the gallery (`gallery`).

Held-out split: ids of the families directory, forum, helpdesk and library (``heldout:family``)
and the ``Web<Family>HeldOutLayout`` ids, which lay training families out in the magazine and
split styles no training id uses (``heldout:layout``), are tagged ``split:test``; every other id
``split:train``.
"""


def __getattr__(name: str):
    if name == "WebVectorEnv":
        from gymv_envs.domains.web._vector import WebVectorEnv

        return WebVectorEnv
    if name == "gallery":
        from gymv_envs.domains.web._gallery import gallery

        return gallery
    raise AttributeError(name)
