"""``gymv-bench eval-vqa``: answer an exported question set offline, with AgentVQA's format checks.

    gymv-bench eval-vqa --set vqa-set --agent random
    gymv-bench eval-vqa --set vqa-set --agent vlm --model my-model --base-url http://127.0.0.1:8000/v1

Every question is asked with a letter-only prompt (the image(s): history frames, then every frame of a
clip in order or the current image, then option images; the question, the lettered options,
"answer with the letter only"); the reply is read as AgentVQA reads it: the exact letter first, then
patterns such as ``Answer: B``, ``(B)``, ``Option B``; a reply with no readable letter is counted
apart ("unevaluated"), not as wrong. The report gives accuracy over evaluated questions (and over
all), overall, per AgentVQA domain and per question type, each with a 95% bootstrap interval; the
parse rate; every constant-letter baseline (always A, always B, ...: the share of answers with that
letter) and the random baseline (100/k); and accuracy under ``--permutations`` seeded option
permutations with their standard deviation (the answer moves with its option).

Agents (``--agent``): ``random`` (a seeded random letter), ``letter:X`` (always X), ``oracle``
(the right letter), ``oracle:EPS`` (the right letter, or with probability EPS a random one),
``vlm`` (`gymv.agents.vlm.VLMAgent`'s client: retries, cache, cost; its options below), and
``module:Class`` (``Class(**agent_kwargs)`` with ``answer(question, images) -> reply text``, where
``question`` is the record and ``images`` a list of ``(label, frame)``). Outputs in ``--out``:
``answers.jsonl``, ``summary.json``, ``results.md``.

``--max-cost USD`` (a paid model): once the agent's replies have cost that much (its priced ``cost_usd``;
cached replies cost nothing), no more questions are asked, those in flight finish, nothing is scored or
written, and the exit status is 3. The replies are in the VLM agent's cache, so the same command with a
higher cap pays only for the questions not yet asked. A model without a price cannot keep a cap: the
command says so before asking anything (exit 2).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import importlib
import json
import statistics
import sys
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from gymv.benchmarks.run import AT_MAX_COST
from gymv.benchmarks.scoring import bootstrap_ci
from gymv.benchmarks.store import add_overwrite_arg, check_out_arg, write_reports
from gymv.benchmarks.vqa import qset
from gymv_envs.core.parsing import LETTERS, parse_letter

REPORTS = ("answers.jsonl", "summary.json", "results.md")
PROMPT = "Answer with the letter of the correct option only (one of {letters})."


# ----------------------------------------------------------------------------- the set
def load_set(folder: str | Path) -> tuple[list[dict[str, Any]], Path]:
    """``(records, root)`` of a set, every record checked (`gymv.benchmarks.vqa.qset.load_set`)."""
    records, root, _ = qset.load_set(folder)
    return records, root


def load_image(root: Path, rel: str) -> np.ndarray:
    from PIL import Image

    with Image.open(root / rel) as img:
        return np.asarray(img.convert("RGB"))


def permute(record: dict[str, Any], order: list[int]) -> dict[str, Any]:
    """The record with its options in ``order`` (``order[i]``: the old option shown at place i)."""
    out = dict(record)
    if record.get("options") is not None:
        out["options"] = [record["options"][i] for i in order]
    if record.get("option_images") is not None:
        out["option_images"] = [record["option_images"][i] for i in order]
    out["answer"] = LETTERS[order.index(LETTERS.index(record["answer"]))]
    return out


def n_options(record: dict[str, Any]) -> int:
    return len(record["options"] if record.get("options") is not None else record["option_images"])


def question_text(record: dict[str, Any]) -> str:
    k = n_options(record)
    letters = LETTERS[:k]
    if record.get("options") is not None:
        opts = "\n".join(f"{letters[i]}. {o}" for i, o in enumerate(record["options"]))
    else:
        opts = "\n".join(f"{letters[i]}. the image labelled 'Option {letters[i]}'" for i in range(k))
    history = ""
    if record.get("history"):
        history = ("Earlier frames (oldest first) and the actions taken after each: "
                   + ", ".join(h["action"] for h in record["history"]) + ".\n")
    return f"{history}{record['prompt']}\n\nOptions:\n{opts}\n\n{PROMPT.format(letters=', '.join(letters))}"


def images_of(record: dict[str, Any], root: Path) -> list[tuple[str, np.ndarray]]:
    out = [(f"Earlier frame {i + 1}", load_image(root, h["image"])) for i, h in enumerate(record.get("history") or [])]
    shown = record.get("images") or [record["image"]]
    if len(shown) == 1:
        out.append(("Current image", load_image(root, shown[0])))
    else:  # a clip: every frame, oldest first
        out += [(f"Clip frame {i + 1} of {len(shown)}", load_image(root, rel)) for i, rel in enumerate(shown)]
    for letter, rel in zip(LETTERS, record.get("option_images") or []):
        out.append((f"Option {letter}", load_image(root, rel)))
    return out


# ----------------------------------------------------------------------------- answerers
class RandomLetter:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def answer(self, question: dict[str, Any], images: list) -> str:
        rng = np.random.default_rng([self.seed, zlib.crc32(question["qid"].encode())])
        return LETTERS[int(rng.integers(n_options(question)))]


class ConstantLetter:
    def __init__(self, letter: str = "A") -> None:
        if not (isinstance(letter, str) and len(letter) == 1 and letter.upper() in LETTERS):
            raise ValueError(f"invalid letter {letter!r}; valid: one of {', '.join(LETTERS)}")
        self.letter = letter.upper()

    def answer(self, question: dict[str, Any], images: list) -> str:
        return self.letter


class OracleLetter:
    """The right letter, or with probability ``eps`` a uniformly random one (seeded per question)."""

    def __init__(self, eps: float = 0.0, seed: int = 0) -> None:
        if not 0.0 <= float(eps) <= 1.0:
            raise ValueError(f"invalid eps={eps!r}; valid values: 0 to 1")
        self.eps, self.seed = float(eps), seed

    def answer(self, question: dict[str, Any], images: list) -> str:
        rng = np.random.default_rng([self.seed, zlib.crc32(question["qid"].encode())])
        if rng.random() < self.eps:
            return LETTERS[int(rng.integers(n_options(question)))]
        return question["answer"]


class VLMAnswerer:
    """Asks an OpenAI-compatible endpoint through `gymv.agents.vlm.VLMAgent` (retries, cache, cost)."""

    def __init__(self, **kwargs: Any) -> None:
        from gymv.agents.vlm import VLMAgent

        self.agent = VLMAgent(None, **kwargs)

    def answer(self, question: dict[str, Any], images: list) -> str:
        from gymv.agents.vlm import encode_image

        agent = self.agent
        parts: list[dict[str, Any]] = []
        for label, frame in images:
            parts.append({"type": "text", "text": label})
            url = encode_image(frame, agent.image_format, agent.max_image_side, agent.jpeg_quality)
            parts.append({"type": "image_url", "image_url": {"url": url}})
        parts.append({"type": "text", "text": question_text(question)})
        return agent.ask([{"role": "user", "content": parts}])

    def stats(self) -> dict[str, Any]:
        return self.agent.total_stats()


def make_answerer(name: str, kwargs: dict[str, Any], seed: int = 0) -> Any:
    if name == "random":
        return RandomLetter(seed)
    if name.startswith("letter:"):
        return ConstantLetter(name.split(":", 1)[1])
    if name == "oracle" or name.startswith("oracle:"):
        try:
            eps = float(name.split(":", 1)[1]) if ":" in name else 0.0
        except ValueError:
            raise ValueError(f"invalid agent {name!r}; oracle:EPS takes a number from 0 to 1") from None
        return OracleLetter(eps, seed)
    if name == "vlm":
        return VLMAnswerer(**kwargs)
    module, sep, cls = name.partition(":")
    if sep and module and cls:
        try:
            return getattr(importlib.import_module(module), cls)(**kwargs)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load agent {name!r}: {exc}") from None
    raise ValueError(f"unknown agent {name!r}; valid: random, letter:X, oracle, oracle:EPS, vlm, or module:Class")


# ----------------------------------------------------------------------------- scoring
class AtMaxCost(Exception):
    """Raised by `evaluate` when ``max_cost`` stopped the questions: ``spent`` USD, ``asked`` of ``total`` asks."""

    def __init__(self, spent: float, asked: int, total: int) -> None:
        super().__init__(f"${spent:.4f} spent; {asked} of {total} questions asked")
        self.spent, self.asked, self.total = spent, asked, total


def answerer_spent(answerer: Any) -> float | None:
    """What ``answerer``'s replies have cost so far (its ``stats()["cost_usd"]``), or None where it cannot say:
    no ``stats``, no ``cost_usd``, or an unpriced model (``cost_known`` false). The scripted agents cost nothing."""
    if _scripted(answerer):
        return 0.0
    stats = answerer.stats() if callable(getattr(answerer, "stats", None)) else {}
    if not isinstance(stats.get("cost_usd"), (int, float)) or stats.get("cost_known") is False:
        return None
    return float(stats["cost_usd"])


def ask_all(answerer: Any, records: list[dict[str, Any]], root: Path, workers: int = 1,
            max_cost: float | None = None) -> list[dict[str, Any] | None]:
    """Each record's reply, the letter read from it (``None``: unreadable) and whether it is right; None in
    place of each record not asked because the replies had cost ``max_cost`` USD when its turn came."""
    def one(rec: dict[str, Any]) -> dict[str, Any] | None:
        if max_cost is not None and (answerer_spent(answerer) or 0.0) >= max_cost:
            return None
        imgs = [] if _scripted(answerer) else images_of(rec, root)
        reply = str(answerer.answer(rec, imgs) or "")
        k = n_options(rec)
        names = rec["options"] if rec.get("options") is not None else [f"option {L}" for L in LETTERS[:k]]
        index = parse_letter(reply, names)
        letter = None if index is None else LETTERS[index]
        return {"qid": rec["qid"], "reply": reply[:2000], "letter": letter, "answer": rec["answer"],
                "parsed": letter is not None, "correct": letter == rec["answer"],
                "agentvqa_domain": rec["agentvqa_domain"], "question_type": rec["question_type"]}

    if workers > 1:
        with cf.ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(one, records))   # on Ctrl-C, map cancels the questions still queued
    return [one(r) for r in records]


def _scripted(answerer: Any) -> bool:
    return isinstance(answerer, (RandomLetter, ConstantLetter, OracleLetter))


def group_metrics(rows: list[dict[str, Any]]) -> dict[str, Any]:
    parsed = [r for r in rows if r["parsed"]]
    acc = [100.0 * r["correct"] for r in parsed]
    lo, hi = bootstrap_ci([acc]) if acc else (None, None)
    return {"questions": len(rows), "evaluated": len(parsed),
            "accuracy": round(float(np.mean(acc)), 3) if acc else None, "accuracy_ci95": [lo, hi],
            "accuracy_all": round(100.0 * sum(r["correct"] for r in rows) / len(rows), 3),
            "parse_rate": round(100.0 * len(parsed) / len(rows), 3)}


def summarize(records: list[dict[str, Any]], rows: list[dict[str, Any]],
              permutations: list[list[dict[str, Any]]]) -> dict[str, Any]:
    out: dict[str, Any] = {"overall": group_metrics(rows)}
    for key in ("agentvqa_domain", "question_type"):
        groups: dict[str, list] = defaultdict(list)
        for r in rows:
            groups[str(r[key])].append(r)
        out[f"by_{key}"] = {name: group_metrics(g) for name, g in sorted(groups.items())}
    k_max = max(n_options(r) for r in records)
    out["constant_letter"] = {L: round(100.0 * sum(r["answer"] == L for r in records) / len(records), 3)
                              for L in LETTERS[:k_max]}
    out["random_baseline"] = round(float(np.mean([100.0 / n_options(r) for r in records])), 3)
    if permutations:
        accs = [group_metrics(p)["accuracy"] for p in permutations]
        vals = [a for a in accs if a is not None]
        out["permutations"] = {"accuracy": accs, "mean": round(statistics.fmean(vals), 3) if vals else None,
                               "std": round(statistics.stdev(vals), 3) if len(vals) > 1 else 0.0}
    return out


def evaluate(records: list[dict[str, Any]], root: Path, answerer: Any, permutations: int = 5, seed: int = 0,
             workers: int = 1, max_cost: float | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Ask every record and its ``permutations`` and score them. ``max_cost``: USD the answerer's replies may
    cost; `AtMaxCost` once they have (ValueError up front where the answerer cannot say what it spent)."""
    if max_cost is not None and answerer_spent(answerer) is None:
        raise ValueError("--max-cost cannot be kept: the agent cannot say what its replies cost (a VLM model with no "
                         "price: add it to a JSON file named by GYMV_PRICES, {\"MODEL\": [input, output]} USD per million "
                         "tokens; an agent of your own: a stats() with cost_usd)")
    total = len(records) * (1 + permutations)
    asked = 0

    def ask(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        nonlocal asked
        got = ask_all(answerer, recs, root, workers, max_cost)
        asked += sum(g is not None for g in got)
        if len(got) and any(g is None for g in got):
            raise AtMaxCost(answerer_spent(answerer) or 0.0, asked, total)
        return got

    rows = ask(records)
    perm_rows = []
    for p in range(1, permutations + 1):
        shuffled = []
        for rec in records:
            rng = np.random.default_rng([seed, p, zlib.crc32(rec["qid"].encode())])
            shuffled.append(permute(rec, [int(i) for i in rng.permutation(n_options(rec))]))
        got = ask(shuffled)
        for g in got:
            g["permutation"] = p
        perm_rows.append(got)
    summary = summarize(records, rows, perm_rows)
    if callable(getattr(answerer, "stats", None)):
        summary["usage"] = answerer.stats()
    return summary, rows + [g for p in perm_rows for g in p]


def _fmt(v: Any) -> str:
    return "-" if v is None else f"{v:.1f}"


def markdown(summary: dict[str, Any], agent: str) -> str:
    lines = [f"# Offline VQA: agent={agent}", "", "| group | name | questions | accuracy | 95% CI | accuracy (all) | parse % |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]

    def row(level: str, name: str, g: dict[str, Any]) -> str:
        lo, hi = g["accuracy_ci95"]
        return (f"| {level} | {name} | {g['questions']} | {_fmt(g['accuracy'])} | [{_fmt(lo)}, {_fmt(hi)}] | "
                f"{_fmt(g['accuracy_all'])} | {_fmt(g['parse_rate'])} |")

    lines.append(row("overall", "all", summary["overall"]))
    for key in ("agentvqa_domain", "question_type"):
        lines += [row(key, n, g) for n, g in summary[f"by_{key}"].items()]
    lines += ["", "Constant-letter baselines: " + ", ".join(f"{L} {v:.1f}%" for L, v in summary["constant_letter"].items())
              + f"; random letter {summary['random_baseline']:.1f}%."]
    if "permutations" in summary:
        p = summary["permutations"]
        lines.append(f"Option permutations ({len(p['accuracy'])}): accuracy {', '.join(map(_fmt, p['accuracy']))}; "
                     f"mean {_fmt(p['mean'])}, std {p['std']:.2f}.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from gymv.agents import vlm

    p = argparse.ArgumentParser(prog="gymv-bench eval-vqa", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", required=True, dest="set_dir", help="a folder written by gymv-bench export-vqa")
    p.add_argument("--agent", default="random", help="random, letter:X, oracle, oracle:EPS, vlm or module:Class")
    p.add_argument("--agent-kwargs", default="{}", help="JSON kwargs for a module:Class agent")
    p.add_argument("--permutations", type=int, default=5, help="seeded option permutations to ask again (default 5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--limit", type=int, default=None, help="only the first N questions")
    p.add_argument("--workers", type=int, default=4, help="questions asked at once (threads; default 4)")
    p.add_argument("--out", default=None, help="write answers.jsonl, summary.json and results.md here")
    p.add_argument("--max-cost", type=float, default=None, metavar="USD",
                   help="ask no more questions once the agent's replies have cost this much (exit 3, nothing written; "
                        "cached replies cost nothing, so a higher cap goes on where this one stopped)")
    add_overwrite_arg(p)
    vlm.add_arguments(p)
    args = p.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        p.error(f"invalid --limit {args.limit}; valid values: an integer >= 1 (the first N questions)")
    if args.workers < 1:
        p.error(f"invalid --workers {args.workers}; valid values: an integer >= 1")
    if args.max_cost is not None and not args.max_cost > 0:
        p.error(f"invalid --max-cost {args.max_cost:g}; valid values: a number of USD > 0")
    check_out_arg(p, args.out, reports=REPORTS, overwrite=args.overwrite)   # before any work: nothing found is lost
    try:
        records, root, about = qset.load_set(args.set_dir)
        if not about["matches_manifest"]:
            print(f"note: {root}'s files do not match its manifest.json's content hash "
                  f"({'none there' if about['manifest_sha256'] is None else about['manifest_sha256'][:16]}; the files: "
                  f"{about['content_sha256'][:16]}): the set was changed after export, so its scores are not those of "
                  "the published set", file=sys.stderr)
        if args.limit:
            records = records[: args.limit]
        kwargs = json.loads(args.agent_kwargs)
        if args.agent == "vlm":
            kwargs = {k: v for k, v in vlm.agent_kwargs(args).items()
                      if k not in ("history", "history_mode", "on_parse_failure", "feedback")}
        answerer = make_answerer(args.agent, kwargs, args.seed)
        if args.permutations < 0:
            raise ValueError("--permutations must be >= 0")
        summary, rows = evaluate(records, root, answerer, args.permutations, args.seed, args.workers, args.max_cost)
        summary["set"] = about
    except AtMaxCost as stop:
        print(f"stopped: the agent's replies have cost ${stop.spent:.4f}, at or over --max-cost ${args.max_cost:g}, after "
              f"{stop.asked} of {stop.total} questions (permutations counted); nothing was scored or written. The replies "
              "are in the VLM agent's cache (unless --no-cache), so the same command with a higher --max-cost pays only "
              "for the rest", file=sys.stderr)
        return AT_MAX_COST
    except (ValueError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except vlm.VLMError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted before every question was answered: nothing was written"
              + (" to --out" if args.out else "") + "; the VLM agent's replies so far are in its cache (unless --no-cache), "
              "so the same command again asks only the others", file=sys.stderr)
        return 130
    text = markdown(summary, args.agent)
    print(text)
    if args.out:
        write_reports(args.out, dict(zip(REPORTS, ("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows),
                                                    json.dumps(summary, indent=2, sort_keys=True) + "\n", text))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
