"""A frozen question set on disk: its files' content hash, and loading it with every record checked.

`content_sha256` is the hash ``export-vqa`` writes into ``manifest.json`` (SHA-256 over each file's
relative path and the SHA-256 of its bytes, in path order, the manifest itself left out). `load_set`
reads ``questions.jsonl`` and checks, before any question is asked, that every line is JSON, has the
fields the evaluation reads, names an answer among its options' letters, and points at image files
that exist inside the set; the first problem is named with its line. It also hashes the set's files
and compares the hash with the manifest's, so a set edited after export is reported, not silently
scored as the published one.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from gymv_envs.core.parsing import LETTERS

QUESTIONS = "questions.jsonl"
MANIFEST = "manifest.json"
FIELDS = ("qid", "answer", "agentvqa_domain", "question_type", "image")


def content_sha256(files: dict[str, bytes]) -> str:
    """The set's content hash over ``{relative path: bytes}`` (the manifest left out by the caller)."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    return digest.hexdigest()


def _problem(rec: Any, root: Path) -> str | None:
    """What makes one record unusable, or None."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    missing = [f for f in FIELDS if f not in rec]
    if missing:
        return f"missing field(s) {', '.join(missing)}"
    options = rec.get("options") if rec.get("options") is not None else rec.get("option_images")
    if not isinstance(options, list) or not 2 <= len(options) <= len(LETTERS):
        return f"needs 2 to {len(LETTERS)} options or option_images"
    if rec["answer"] not in LETTERS[: len(options)]:
        return f"answer {rec['answer']!r} is not one of its options' letters {', '.join(LETTERS[: len(options)])}"
    paths = [rec["image"], *(rec.get("images") or []), *(h.get("image") for h in rec.get("history") or []),
             *(rec.get("option_images") or [])]
    for rel in paths:
        # lexically inside (a symlinked images folder is the set author's choice; "../../x" or "/x" is not)
        if not isinstance(rel, str) or os.path.isabs(rel) or os.path.normpath(rel).split(os.sep)[0] == "..":
            return f"image path {rel!r} is not a path inside the set"
        if not (root / rel).is_file():
            return f"image {rel} is missing"
    return None


def load_set(folder: str | Path) -> tuple[list[dict[str, Any]], Path, dict[str, Any]]:
    """``(records, root, about)``: the checked records, the set's folder, and ``about`` = ``{"path",
    "content_sha256", "manifest_sha256", "matches_manifest"}`` (see the module docstring)."""
    root = Path(folder)
    path = root / QUESTIONS
    if not path.is_file():
        raise ValueError(f"no question set at {root} (expected {path}); write one with gymv-bench export-vqa")
    records = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} line {n} is not JSON ({exc.msg}); the set is damaged: export it again") from None
        problem = _problem(rec, root)
        if problem:
            qid = rec.get("qid", "?") if isinstance(rec, dict) else "?"
            raise ValueError(f"{path} line {n} (question {qid}): {problem}; the set is damaged: export it again")
        records.append(rec)
    if not records:
        raise ValueError(f"{path} holds no questions")
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
             if p.is_file() and p.relative_to(root).as_posix() != MANIFEST}
    try:
        published = json.loads((root / MANIFEST).read_text()).get("content_sha256")
    except (OSError, ValueError, AttributeError):
        published = None
    here = content_sha256(files)
    return records, root, {"path": str(root), "content_sha256": here, "manifest_sha256": published,
                           "matches_manifest": here == published}
