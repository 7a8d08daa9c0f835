"""Offline agentic VQA: questions frozen from live envs, the exported layouts, evaluation and agreement."""

from __future__ import annotations

import base64
import copy
import io
import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

from gymv.benchmarks.vqa import agreement, evaluate, export, questions
from gymv_envs.core.parsing import LETTERS
from tests.chat_server import ChatServer

PER_DOMAIN = 8


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("vqa") / "set"
    assert export.main(["--per-domain", str(PER_DOMAIN), "--seed", "3", "--out", str(out), "--workers", "1",
                        "--history", "1"]) == 0
    return out


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_export_is_reproducible_byte_for_byte(exported, tmp_path):
    again = tmp_path / "again"
    assert export.main(["--per-domain", str(PER_DOMAIN), "--seed", "3", "--out", str(again), "--workers", "2",
                        "--history", "1"]) == 0
    assert _files(exported) == _files(again)
    other = tmp_path / "other"
    assert export.main(["--per-domain", str(PER_DOMAIN), "--seed", "4", "--out", str(other), "--workers", "1"]) == 0
    assert json.loads((other / "manifest.json").read_text())["content_sha256"] != \
        json.loads((exported / "manifest.json").read_text())["content_sha256"]


def test_records_are_complete_balanced_and_leak_free(exported):
    recs, root = evaluate.load_set(exported)
    manifest = json.loads((exported / "manifest.json").read_text())
    assert manifest["questions"] == len(recs) and manifest["gymv_version"]
    assert set(manifest["by_agentvqa_domain"]) >= {"games", "spatial_planning"}
    assert {"mcq", "next_action", "next_state"} <= set(manifest["by_question_type"])
    counts = [sum(r["answer"] == L for r in recs) for L in "ABCD"]
    assert max(counts) - min(counts) <= 1, counts
    for r in recs:
        assert (root / r["image"]).exists() and all((root / h["image"]).exists() for h in r["history"])
        if r["options"] is not None:
            assert len(set(r["options"])) == len(r["options"]) == 4
            correct = r["options"][LETTERS.index(r["answer"])]
            assert not questions._leaks(r["prompt"], r["options"], LETTERS.index(r["answer"])), (r["qid"], correct)
        else:
            frames = [(root / p).read_bytes() for p in r["option_images"]]
            assert len(frames) == 4 and len({np.asarray(Image.open(io.BytesIO(f))).tobytes() for f in frames}) == 4


def test_next_action_wrong_options_are_proven_worse():
    """Re-check a generated question from scratch: the planner needs strictly more steps after each wrong action."""
    rng = np.random.default_rng(0)
    for seed in range(20):
        made = [q for q in questions.questions_for("GymV/SlidingPuzzle-v1", 1, seed, rng) if q.qtype == "next_action"]
        if made:
            break
    q = made[0]
    env = gym.make("GymV/SlidingPuzzle-v1", difficulty=1, obs_size=(48, 48)).unwrapped
    env.reset(seed=q.seed)
    # replay to the frozen state by matching the frame drawn at the question's size
    big = gym.make("GymV/SlidingPuzzle-v1", difficulty=1).unwrapped
    obs, _ = big.reset(seed=q.seed)
    while not np.array_equal(obs, q.image):
        a = int(big.oracle_action())
        obs = big.step(a)[0]
        env.step(a)
    cost = {}
    for name in q.options:
        clone = copy.deepcopy(env)
        _, _, done, _, info = clone.step(env.action_names.index(name))
        cost[name] = 1 + (0 if done else questions._planner_steps(clone, 200, [10_000]))
    right = q.options[q.answer]
    assert all(cost[o] > cost[right] for o in q.options if o != right)


def test_hugging_face_and_vlmevalkit_layouts(exported):
    import pyarrow.parquet as pq

    recs, _ = evaluate.load_set(exported)
    table = pq.read_table(exported / export.PARQUET)
    assert table.num_rows == len(recs)
    features = json.loads(table.schema.metadata[b"huggingface"])["info"]["features"]
    assert features["image"] == {"_type": "Image"} and features["option_images"]["feature"] == {"_type": "Image"}
    row = table.slice(0, 1).to_pylist()[0]
    assert row["image"]["bytes"] == (exported / recs[0]["image"]).read_bytes() and row["answer"] == recs[0]["answer"]
    lines = (exported / export.TSV).read_text().splitlines()
    head = lines[0].split("\t")
    assert head[:3] == ["index", "image", "question"] and len(lines) == len(recs) + 1
    first = dict(zip(head, lines[1].split("\t")))
    image = first["image"]
    raw = json.loads(image)[0] if image.startswith("[") else image
    assert Image.open(io.BytesIO(base64.b64decode(raw))).size[0] > 0 and first["answer"] in "ABCD"


def test_scripted_agents_give_the_baselines_they_must(exported):
    recs, root = evaluate.load_set(exported)
    oracle, _ = evaluate.evaluate(recs, root, evaluate.make_answerer("oracle", {}), permutations=3)
    assert oracle["overall"]["accuracy"] == 100.0 and oracle["permutations"]["std"] == 0.0
    share = {L: 100.0 * sum(r["answer"] == L for r in recs) / len(recs) for L in "ABCD"}
    for letter in "ABCD":
        got, _ = evaluate.evaluate(recs, root, evaluate.make_answerer(f"letter:{letter}", {}), permutations=0)
        assert got["overall"]["accuracy"] == pytest.approx(share[letter], abs=1e-3)
        assert got["constant_letter"][letter] == pytest.approx(share[letter], abs=1e-3)
    assert oracle["random_baseline"] == 25.0


class HalfReadable:
    """A module:Class agent: the right letter on even questions, prose with no letter on odd ones."""

    def __init__(self) -> None:
        self.n = 0

    def answer(self, question, images):
        self.n += 1
        assert images and images[-1][1].ndim == 3  # custom agents get the images
        return f"Answer: {question['answer']}" if self.n % 2 else "I cannot tell from these pictures."


def test_unreadable_replies_are_counted_apart(exported):
    recs, root = evaluate.load_set(exported)
    got, rows = evaluate.evaluate(recs, root, evaluate.make_answerer("tests.test_vqa:HalfReadable", {}), permutations=0)
    assert got["overall"]["accuracy"] == 100.0  # every readable answer was right
    assert got["overall"]["parse_rate"] == pytest.approx(100.0 * sum(r["parsed"] for r in rows) / len(rows))
    assert 40.0 <= got["overall"]["parse_rate"] <= 60.0 and got["overall"]["accuracy_all"] < 60.0


def test_vlm_answers_through_the_chat_server(exported, tmp_path):
    recs, root = evaluate.load_set(exported)
    with ChatServer(lambda request: "Let me look.\nAnswer: (B)") as server:
        code = evaluate.main(["--set", str(exported), "--agent", "vlm", "--model", "m", "--base-url", server.base_url,
                              "--no-cache", "--permutations", "1", "--limit", "6", "--out", str(tmp_path / "ev")])
        assert code == 0
        sent = server.requests[0]["messages"][0]["content"]
    text = [p["text"] for p in sent if p["type"] == "text"][-1]
    assert "Answer with the letter of the correct option only" in text and "Options:" in text
    assert sum(p["type"] == "image_url" for p in sent) == 1 + len(recs[0]["history"]) + len(recs[0]["option_images"] or [])
    summary = json.loads((tmp_path / "ev" / "summary.json").read_text())
    assert summary["overall"]["parse_rate"] == 100.0 and summary["usage"]["requests"] == 12
    assert summary["overall"]["accuracy"] == pytest.approx(100.0 * sum(r["answer"] == "B" for r in recs[:6]) / 6, abs=1e-3)


def test_agreement_ranks_the_ladder(exported, tmp_path):
    recs, root = evaluate.load_set(exported)
    result = agreement.run(recs, root, (0.0, 1.0), None, workers=1)
    assert result["agents"]["oracle:0"]["offline"]["all"] == 100.0
    assert result["agents"]["oracle:0"]["online"]["all"] > result["agents"]["oracle:1"]["online"]["all"]
    assert result["rho"]["all"] == 1.0
    assert agreement.spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(0.948683, abs=1e-6)
