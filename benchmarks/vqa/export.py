"""``gymv-bench export-vqa``: freeze multiple-choice questions from live envs into a versioned set.

    gymv-bench export-vqa --per-domain 200 --seed 0 --out vqa-set      # 1,000 questions, five domains

Writes, in ``--out``:

- ``images/``: PNG files (the question's image, option images, history frames);
- ``questions.jsonl``: one record per question: ``qid``, ``env_id``, ``seed``, ``difficulty``,
  ``step``, ``domain`` (GymV's), ``agentvqa_domain`` (web, egocentric_video, robotics, games,
  spatial_planning), ``question_type``, ``prompt``, ``options`` (texts, or ``null``),
  ``option_images`` (PNG paths, or ``null``), ``answer`` (a letter), ``image``, ``history``
  (``[{"image", "action"}]``, oldest first), ``images`` (every frame the question itself shows, in
  order: a clip's frames oldest first, ending with ``image``; else just ``image``);
- ``manifest.json``: the GymV version, the arguments, counts per domain and type, and a content
  hash (SHA-256 over every other file's path and bytes);
- ``hf/data/test-00000-of-00001.parquet``: the same records for Hugging Face ``datasets``
  (``load_dataset("parquet", data_files=...)`` or ``load_dataset("<out>/hf")``), images as
  ``Image`` columns (``{"bytes", "path"}`` structs, with the ``huggingface`` features metadata);
  needs the ``vqa`` extra (pyarrow);
- ``vlmevalkit.tsv``: VLMEvalKit's MCQ layout (``index, image, question, A..D, answer, category,
  l2-category``; ``image`` is a base64 PNG, or a JSON list of them, in order, when the question shows a
  clip or its options are images).

The same arguments give the same files byte for byte (no timestamps; PNGs, JSON and parquet are
written deterministically), and the correct letters are balanced across the set.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

import gymv_envs
from gymv.benchmarks.store import add_overwrite_arg
from gymv.benchmarks.vqa.qset import MANIFEST, QUESTIONS, content_sha256
from gymv.benchmarks.vqa.questions import (
    AGENTVQA_DOMAINS,
    CLIP,
    Question,
    agentvqa_domain,
    balance_letters,
    generate_domain,
    plan,
)
from gymv_envs.core.env import MAX_OBS_SIDE
from gymv_envs.core.parsing import LETTERS

FORMAT = 1
PARQUET = "hf/data/test-00000-of-00001.parquet"
TSV = "vlmevalkit.tsv"


def png_bytes(frame: np.ndarray) -> bytes:
    """A frame as PNG bytes, written the same way every time."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(frame)).save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def _generate(job: tuple[str, list[str], int, int, int, tuple[int, int] | None, int]) -> list[Question]:
    name, ids, per_domain, seed, history, obs_size, clip = job
    return generate_domain(name, ids, per_domain, seed, history, obs_size, clip=clip)


def build(per_domain: int, seed: int, domains: tuple[str, ...] | None = None, history: int = 0,
          obs_size: tuple[int, int] | None = None, workers: int = 1, clip: int = CLIP) -> list[Question]:
    """Every question of the set, letters balanced, in a fixed order (domain, then generation order)."""
    jobs = [(name, ids, per_domain, seed, history, obs_size, clip)
            for name, ids in plan(per_domain, seed, domains).items()]
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_generate, jobs))
    else:
        parts = [_generate(j) for j in jobs]
    return balance_letters([q for part in parts for q in part], seed)


def records(questions: list[Question]) -> tuple[list[dict[str, Any]], dict[str, bytes]]:
    """The JSON records and the image files (path -> PNG bytes) of a set."""
    files: dict[str, bytes] = {}
    out = []
    for q in questions:
        qid = q.qid
        image = f"images/{qid}.png"
        files[image] = png_bytes(q.image)
        shown = []
        for i, frame in enumerate(q.frames[:-1]):
            path = f"images/{qid}-f{i}.png"
            files[path] = png_bytes(frame)
            shown.append(path)
        shown.append(image)
        option_images = None
        if q.option_images is not None:
            option_images = []
            for letter, frame in zip(LETTERS, q.option_images):
                path = f"images/{qid}-{letter}.png"
                files[path] = png_bytes(frame)
                option_images.append(path)
        history = []
        for i, (frame, action) in enumerate(q.history):
            path = f"images/{qid}-h{i}.png"
            files[path] = png_bytes(frame)
            history.append({"image": path, "action": action})
        out.append({"qid": qid, "env_id": q.env_id, "seed": q.seed, "difficulty": q.difficulty, "step": q.step,
                    "domain": q.domain, "agentvqa_domain": agentvqa_domain(q.domain), "question_type": q.qtype,
                    "prompt": q.prompt, "options": q.options, "option_images": option_images,
                    "answer": LETTERS[q.answer], "image": image, "images": shown, "history": history})
    return out, files


def _parquet(recs: list[dict[str, Any]], files: dict[str, bytes]) -> bytes:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise RuntimeError("the Hugging Face layout needs pyarrow: pip install 'gymv[vqa]' (or --no-parquet)") from None
    image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    schema = pa.schema([("qid", pa.string()), ("env_id", pa.string()), ("seed", pa.int64()),
                        ("difficulty", pa.int64()), ("step", pa.int64()), ("domain", pa.string()),
                        ("agentvqa_domain", pa.string()), ("question_type", pa.string()), ("prompt", pa.string()),
                        ("options", pa.list_(pa.string())), ("option_images", pa.list_(image)), ("answer", pa.string()),
                        ("image", image), ("images", pa.list_(image)), ("history_images", pa.list_(image)), ("history_actions", pa.list_(pa.string()))])
    value = lambda dtype: {"dtype": dtype, "_type": "Value"}  # noqa: E731
    features = {"qid": value("string"), "env_id": value("string"), "seed": value("int64"),
                "difficulty": value("int64"), "step": value("int64"), "domain": value("string"),
                "agentvqa_domain": value("string"), "question_type": value("string"), "prompt": value("string"),
                "options": {"feature": value("string"), "_type": "Sequence"},
                "option_images": {"feature": {"_type": "Image"}, "_type": "Sequence"}, "answer": value("string"),
                "image": {"_type": "Image"}, "images": {"feature": {"_type": "Image"}, "_type": "Sequence"},
                "history_images": {"feature": {"_type": "Image"}, "_type": "Sequence"},
                "history_actions": {"feature": value("string"), "_type": "Sequence"}}
    schema = schema.with_metadata({"huggingface": json.dumps({"info": {"features": features}}, sort_keys=True)})
    img = lambda path: {"bytes": files[path], "path": path}  # noqa: E731
    rows = [{"qid": r["qid"], "env_id": r["env_id"], "seed": r["seed"], "difficulty": r["difficulty"], "step": r["step"],
             "domain": r["domain"], "agentvqa_domain": r["agentvqa_domain"], "question_type": r["question_type"],
             "prompt": r["prompt"], "options": r["options"] or [],
             "option_images": [img(p) for p in r["option_images"] or []], "answer": r["answer"], "image": img(r["image"]),
             "images": [img(p) for p in r["images"]], "history_images": [img(h["image"]) for h in r["history"]],
             "history_actions": [h["action"] for h in r["history"]]} for r in recs]
    table = pa.Table.from_pylist(rows, schema=schema)
    buf = pa.BufferOutputStream()
    pq.write_table(table, buf, compression="zstd", use_dictionary=True, write_statistics=False)
    return buf.getvalue().to_pybytes()


def _tsv(recs: list[dict[str, Any]], files: dict[str, bytes]) -> bytes:
    b64 = lambda path: base64.b64encode(files[path]).decode()  # noqa: E731
    clean = lambda text: str(text).replace("\t", " ").replace("\r", " ").replace("\n", "\\n")  # noqa: E731
    lines = ["\t".join(["index", "image", "question", "A", "B", "C", "D", "answer", "category", "l2-category"])]
    for i, r in enumerate(recs):
        shown = r["images"]
        if r["option_images"]:
            image = json.dumps([*map(b64, shown), *[b64(p) for p in r["option_images"]]])
            options = [f"image {j + 1 + len(shown)}" for j in range(len(r["option_images"]))]
        else:
            image = json.dumps([*map(b64, shown)]) if len(shown) > 1 else b64(r["image"])
            options = list(r["options"])
        options += [""] * (4 - len(options))
        lines.append("\t".join([str(i), image, clean(r["prompt"]), *map(clean, options[:4]), r["answer"],
                                r["agentvqa_domain"] or "", r["question_type"]]))
    return ("\n".join(lines) + "\n").encode()


def write(out: Path, questions: list[Question], args: dict[str, Any], parquet: bool = True) -> dict[str, Any]:
    """Write the set into ``out`` (see the module docstring); returns the manifest."""
    recs, files = records(questions)
    files[QUESTIONS] = "".join(json.dumps(r, sort_keys=True) + "\n" for r in recs).encode()
    if parquet:
        files[PARQUET] = _parquet(recs, files)
    files[TSV] = _tsv(recs, files)
    count = lambda key: {k: sum(r[key] == k for r in recs) for k in sorted({r[key] for r in recs})}  # noqa: E731
    manifest = {"format": FORMAT, "gymv_version": gymv_envs.__version__, "created_by": "gymv-bench export-vqa",
                "args": args, "questions": len(recs), "by_agentvqa_domain": count("agentvqa_domain"),
                "by_question_type": count("question_type"), "by_answer": count("answer"),
                "content_sha256": content_sha256(files)}
    if (out / MANIFEST).exists():  # a set written before: replaced whole (no stale image left), once the new one is built
        import shutil

        for name in ("images", "hf"):
            shutil.rmtree(out / name, ignore_errors=True)
        for name in (QUESTIONS, TSV, MANIFEST):
            (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    files[MANIFEST] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    for path in sorted(files, key=lambda p: p == MANIFEST):   # the manifest last: a set cut short has none
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[path])
    return manifest


def draw_sample(recs: list[dict[str, Any]], root: Path, path: Path, per_row: int = 3, n: int = 9,
                tile: int = 300) -> None:
    """A picture of ``n`` questions (one per domain and type first): image, question, lettered options,
    the answer marked; for the README."""
    from PIL import Image

    from gymv_envs.core.canvas import INK, PALETTE, draw_text, new_frame

    firsts: dict[str, list[dict[str, Any]]] = {}
    for r in recs:  # variety first: the first question of each (domain, type), domains in turn
        types = firsts.setdefault(r["agentvqa_domain"], [])
        if r["question_type"] not in {t["question_type"] for t in types}:
            types.append(r)
    picked = []
    while any(firsts.values()) and len(picked) < n:
        for types in firsts.values():
            if types and len(picked) < n:
                picked.append(types.pop(0))
    picked += [r for r in recs if r not in picked][: n - len(picked)]
    text_h, rows = 150, (len(picked) + per_row - 1) // per_row
    sheet = new_frame(rows * (tile + text_h), per_row * tile, (255, 255, 255))
    for i, r in enumerate(picked):
        y, x = (i // per_row) * (tile + text_h), (i % per_row) * tile
        with Image.open(root / r["image"]) as img:
            sheet[y: y + tile - 10, x + 5: x + tile - 5] = np.asarray(img.convert("RGB").resize((tile - 10, tile - 10)))
        question = r["prompt"].split("\n\n")[-1]
        head = f"{r['agentvqa_domain']} / {r['question_type']} ({r['env_id'].split('/')[-1]})"
        head = head if len(head) <= 44 else head[:43] + "...)"
        draw_text(sheet, head, (x + 6, y + tile), 11, PALETTE["blue"], anchor="lt", bold=True)
        draw_text(sheet, question[:52] + ("..." if len(question) > 52 else ""), (x + 6, y + tile + 16), 11, INK, anchor="lt")
        labels = r["options"] or [f"image {L}" for L in LETTERS[: len(r["option_images"])]]
        for j, opt in enumerate(labels):
            right = LETTERS[j] == r["answer"]
            line = f"{LETTERS[j]}) {str(opt)[:34]}" + ("   <- answer" if right else "")
            draw_text(sheet, line, (x + 6, y + tile + 36 + 17 * j), 11, PALETTE["green"] if right else INK, anchor="lt")
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(sheet).save(path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gymv-bench export-vqa", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--per-domain", type=int, default=200, help="questions per AgentVQA domain (default 200)")
    p.add_argument("--seed", type=int, default=0, help="the set's seed (levels and option orders)")
    p.add_argument("--out", required=True, help="output folder: new or empty, or a set exported before (with --overwrite)")
    p.add_argument("--domains", nargs="+", choices=tuple(AGENTVQA_DOMAINS), default=None,
                   help="only these AgentVQA domains (default: every domain with an available id)")
    p.add_argument("--history", type=int, default=0, help="earlier frames and actions kept per question (default 0)")
    p.add_argument("--obs-size", type=int, nargs=2, metavar=("H", "W"), default=None,
                   help="frame size (default: each id's own)")
    p.add_argument("--clip-frames", type=int, default=CLIP,
                   help=f"frames per first-person clip question (world3d, robotics' wrist camera; default {CLIP})")
    p.add_argument("--workers", type=int, default=None, help="processes (default: CPU cores)")
    p.add_argument("--no-parquet", action="store_true", help="skip the Hugging Face parquet (needs pyarrow)")
    p.add_argument("--sample-png", default=None, help="also draw a few questions into this PNG")
    add_overwrite_arg(p, "the set exported into --out before")
    args = p.parse_args(argv)
    if args.per_domain < 1 or args.history < 0 or args.clip_frames < 2:
        p.error("--per-domain must be >= 1, --history >= 0 and --clip-frames >= 2")
    if args.obs_size and not all(32 <= v <= MAX_OBS_SIDE for v in args.obs_size):
        p.error(f"invalid --obs-size {args.obs_size[0]} {args.obs_size[1]}; valid values: H W from 32 to {MAX_OBS_SIDE}")
    if args.workers is not None and args.workers < 1:
        p.error(f"invalid --workers {args.workers}; valid values: an integer >= 1 (default: CPU cores)")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        p.error(f"--out {out} is a file; choose an empty or new folder")
    if out.exists() and any(out.iterdir()) and not (out / MANIFEST).exists():
        p.error(f"--out {out} exists and is not an exported set; choose an empty or new folder")
    if (out / MANIFEST).exists() and not args.overwrite:
        p.error(f"--out {out} already holds an exported set ({MANIFEST}); choose another --out, or pass --overwrite "
                "to replace it (nothing was changed)")
    settings = {"per_domain": args.per_domain, "seed": args.seed, "domains": args.domains, "history": args.history,
                "obs_size": args.obs_size, "clip_frames": args.clip_frames}
    try:
        questions = build(args.per_domain, args.seed, tuple(args.domains) if args.domains else None, args.history,
                          tuple(args.obs_size) if args.obs_size else None, args.workers or os.cpu_count() or 1,
                          args.clip_frames)
    except ValueError as exc:   # an env refused --obs-size: its message names the valid sizes
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not questions:
        print("error: no question could be generated (no available id in the chosen domains?)", file=sys.stderr)
        return 2
    try:
        manifest = write(out, questions, settings, parquet=not args.no_parquet)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.sample_png:
        draw_sample(records(questions)[0], out, Path(args.sample_png))
    short = {d: n for d, n in manifest["by_agentvqa_domain"].items()}
    print(f"wrote {manifest['questions']} questions to {out} ({short}; types {manifest['by_question_type']}; "
          f"answers {manifest['by_answer']}); content sha256 {manifest['content_sha256'][:16]}")
    missing = [d for d in (args.domains or AGENTVQA_DOMAINS) if d not in short]
    if missing:
        print(f"note: no questions for {', '.join(missing)} (no available id there; see the extras)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
