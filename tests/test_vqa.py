"""Offline agentic VQA: questions frozen from live envs, the exported layouts, evaluation and agreement."""

from __future__ import annotations

import base64
import copy
import io
import json
import re
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


# ----------------------------------------------------------------------------- clips and agentic types
def _world3d_questions(env_id: str, seeds: range, clip: int = 4) -> list[dict]:
    pytest.importorskip("mujoco")
    out = []
    env = gym.make(env_id, obs_size=(64, 64)).unwrapped
    try:
        for seed in seeds:
            env.reset(seed=seed)
            out += env.vqa_questions(np.random.default_rng(seed), clip=clip)
    finally:
        env.close()
    return out


def _side(dx: float, dy: float, yaw: float) -> str:
    """Independent of `core.vqa.bearing_word`: the agent's own frame (forward, left) by a rotation."""
    fwd, left = dx * np.cos(yaw) + dy * np.sin(yaw), -dx * np.sin(yaw) + dy * np.cos(yaw)
    if abs(fwd) >= abs(left):
        return "ahead" if fwd > 0 else "behind"
    return "to the left" if left > 0 else "to the right"


@pytest.fixture(scope="module")
def world3d_questions() -> list[dict]:
    return (_world3d_questions("GymV/World3DGoToLandmark-v1", range(4))
            + _world3d_questions("GymV/World3DFourRooms-v1", range(4, 8)))


def test_world3d_clip_and_agentic_answers_follow_from_the_state(world3d_questions):
    """Each new type has exactly one correct option, recomputed here from the state the env recorded."""
    types = {q["type"] for q in world3d_questions}
    assert {"clip_turn", "clip_passed", "steps_left", "stuck"} <= types, types
    assert types & {"clip_start", "where_object"}
    for q in world3d_questions:
        if q["type"] == "next_view":
            continue
        opts, proof = q["options"], q["proof"]
        assert len(set(opts)) == len(opts) and 0 <= q["answer"] < len(opts)
        assert len(q["frames"]) == (1 if q["type"] == "steps_left" else 4)
        right = opts[q["answer"]]
        if q["type"] == "clip_turn":
            net = (np.degrees(proof["yaws"][-1] - proof["yaws"][0]) + 180) % 360 - 180  # first to last frame
            expect = ("not at all" if abs(net) < 20 else "about face (half a turn)" if abs(net) > 150
                      else "to the left" if net > 0 else "to the right")
            assert right == expect, (net, right)
        elif q["type"] in ("clip_start", "where_object"):
            x, y, yaw = proof["pose"]
            tx, ty = proof["start"] if q["type"] == "clip_start" else proof["thing"]
            assert right == _side(tx - x, ty - y, yaw)
            assert np.hypot(tx - x, ty - y) >= 1.5
        elif q["type"] == "clip_passed":
            shares = proof["share"]
            assert shares[right] >= 0.004 and all(shares[o] == 0.0 for o in opts if o != right), shares
        elif q["type"] == "steps_left":
            assert int(right) == proof["replayed"] and sorted(abs(int(o) - int(right)) for o in opts)[1] <= 2
        elif q["type"] == "stuck":
            moved = np.hypot(*np.subtract(proof["after"], proof["before"]))
            assert right == ("yes" if moved < 0.5 else "no") and proof["stuck"] == (right == "yes")
            assert "move_forward 6 times" in q["prompt"]  # the same actions for yes and no: only the frames tell
        assert not questions._leaks(q["prompt"], opts, q["answer"]), q


def test_world3d_turns_left_are_counter_clockwise():
    """The convention the bearings rest on: rotate_left raises the yaw, so +90 degrees is on the left."""
    pytest.importorskip("mujoco")
    env = gym.make("GymV/World3DOneRoom-v2", obs_size=(48, 48)).unwrapped
    env.reset(seed=0)
    yaw = env.yaw
    env.step(env.action_names.index("rotate_left"))
    assert 25 <= np.degrees(env.yaw - yaw) % 360 <= 35
    env.close()
    assert _side(0.0, 2.0, 0.0) == "to the left" and questions_side(0.0, 2.0, 0.0) == "to the left"


def questions_side(dx, dy, yaw):
    from gymv_envs.core.vqa import bearing_word

    return bearing_word(dx, dy, yaw, 1.0)


def test_steps_left_replays_and_the_clip_steps_match_the_planner():
    """World3D: the answer is the planner's plan length and a blind replay of the oracle succeeds in exactly n."""
    pytest.importorskip("mujoco")
    import pickle

    from gymv_envs.domains.world3d import _vqa

    env = gym.make("GymV/World3DOneRoom-v2", obs_size=(48, 48)).unwrapped
    env.reset(seed=1)
    q = _vqa.steps_left(env, np.random.default_rng(0))
    assert q is not None
    n = int(q["options"][q["answer"]])
    clone = pickle.loads(pickle.dumps(env))
    for t in range(1, n + 1):
        _, _, done, _, info = clone.step(int(clone.oracle_action()))
        assert done == (t == n)
    assert info["success"]
    env.close()
    clone.close()


def test_grid_nav_steps_left_is_the_bfs_distance():
    rng = np.random.default_rng(0)
    for seed in range(6):
        env = gym.make("GymV/GridNav-v1", difficulty=seed % 3, obs_size=(48, 48)).unwrapped
        env.reset(seed=seed)
        for _ in range(seed % 3):
            env.step(int(env.oracle_action()))
        made = questions.steps_left(env, rng)
        # an independent breadth-first search over the free cells
        R, C = env.blocked.shape
        dist, frontier = {env.agent: 0}, [env.agent]
        while frontier:
            nxt = []
            for r, c in frontier:
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    cell = (r + dr, c + dc)
                    if 0 <= cell[0] < R and 0 <= cell[1] < C and cell not in dist and not env.blocked[cell]:
                        dist[cell] = dist[(r, c)] + 1
                        nxt.append(cell)
            frontier = nxt
        assert made is not None and int(made[1][made[2]]) == dist[env.goal]
        assert len(set(made[1])) == 4 and all(0 < abs(int(o) - dist[env.goal]) <= 3 for i, o in enumerate(made[1]) if i != made[2])
        env.close()


def test_robot_wrist_clip_motion_follows_the_tool_point():
    pytest.importorskip("mujoco")
    env = gym.make("GymV/RobotLiftHold-v0", obs_size=(48, 48)).unwrapped
    made = []
    for seed in range(6):
        env.reset(seed=seed)
        made += [q for q in env.vqa_questions(np.random.default_rng(seed), clip=3) if q["type"] == "clip_motion"]
    env.close()
    assert made
    names = {0: ("right", "left"), 1: ("forward (away from the front camera)", "back (towards the front camera)"),
             2: ("up", "down")}
    for q in made:
        d = np.array(q["proof"]["delta"])
        axis = int(np.argmax(np.abs(d)))
        assert np.abs(d[axis]) >= 2 * np.delete(np.abs(d), axis).max()
        assert q["options"][q["answer"]] == names[axis][0 if d[axis] > 0 else 1]
        assert len(q["frames"]) == 3 and len(set(q["options"])) == 4
        assert not all(np.array_equal(q["frames"][0], f) for f in q["frames"][1:])


@pytest.fixture(scope="module")
def clip_set(tmp_path_factory) -> Path:
    pytest.importorskip("mujoco")
    out = tmp_path_factory.mktemp("vqaclip") / "set"
    # worker processes, as an export over many ids runs (a frame no longer depends on which worlds drew before
    # it in the process: test_world3d_render.test_a_frame_is_the_same_whichever_world_drew_before_it)
    assert export.main(["--per-domain", "6", "--seed", "1", "--out", str(out), "--workers", "2", "--obs-size", "48", "48",
                        "--domains", "egocentric_video", "robotics", "spatial_planning", "--clip-frames", "3"]) == 0
    return out


class FrameRecorder:
    """A module:Class agent that keeps every (label, frame) it was shown."""

    seen: dict = {}

    def answer(self, question, images):
        FrameRecorder.seen[question["qid"]] = images
        return question["answer"]


def test_clip_frames_are_in_order_in_every_layout_and_all_reach_the_answerer(clip_set, tmp_path):
    import pyarrow.parquet as pq

    recs, root = evaluate.load_set(clip_set)
    clips = [r for r in recs if len(r["images"]) > 1]
    assert {r["question_type"] for r in clips} >= {"clip_motion", "clip_turn"}
    assert all(len(r["images"]) == 3 and r["images"][-1] == r["image"] for r in clips)
    assert {r["question_type"] for r in recs} >= {"steps_left"}
    # the answerer gets every clip frame, oldest first, as the JSONL lists them
    FrameRecorder.seen = {}
    got, _ = evaluate.evaluate(clips, root, evaluate.make_answerer("tests.test_vqa:FrameRecorder", {}), permutations=0)
    assert got["overall"]["accuracy"] == 100.0
    for r in clips:
        shown = [(label, frame) for label, frame in FrameRecorder.seen[r["qid"]] if label.startswith("Clip frame")]
        assert [label for label, _ in shown] == [f"Clip frame {i + 1} of 3" for i in range(3)]
        for (_, frame), rel in zip(shown, r["images"]):
            assert np.array_equal(frame, evaluate.load_image(root, rel))
    # parquet and TSV carry the same frames in the same order
    rows = {row["qid"]: row for row in pq.read_table(clip_set / export.PARQUET).to_pylist()}
    lines = (clip_set / export.TSV).read_text().splitlines()
    head = lines[0].split("\t")
    tsv = {recs[int(d["index"])]["qid"]: d for d in (dict(zip(head, line.split("\t"))) for line in lines[1:])}
    for r in clips:
        files = [(root / rel).read_bytes() for rel in r["images"]]
        assert [im["bytes"] for im in rows[r["qid"]]["images"]] == files
        assert [base64.b64decode(b) for b in json.loads(tsv[r["qid"]]["image"])][:3] == files
    # the VLM path sends them all too, labelled in order
    r = clips[0]
    one = tmp_path / "one"
    one.mkdir()
    (one / "questions.jsonl").write_text(json.dumps(r) + "\n")
    (one / "images").symlink_to(root / "images")
    with ChatServer(lambda request: "Answer: A") as server:
        assert evaluate.main(["--set", str(one), "--agent", "vlm", "--model", "m", "--base-url", server.base_url,
                              "--no-cache", "--permutations", "0", "--workers", "1"]) == 0
        sent = server.requests[0]["messages"][0]["content"]
    labels = [p["text"] for p in sent if p["type"] == "text" and p["text"].startswith("Clip frame")]
    assert labels == [f"Clip frame {i + 1} of 3" for i in range(3)]
    assert sum(p["type"] == "image_url" for p in sent) == 3 + len(r["history"]) + len(r["option_images"] or [])


def test_small_clip_export_is_reproducible_and_balanced(clip_set, tmp_path):
    again = tmp_path / "again"
    assert export.main(["--per-domain", "6", "--seed", "1", "--out", str(again), "--workers", "3", "--obs-size", "48", "48",
                        "--domains", "egocentric_video", "robotics", "spatial_planning", "--clip-frames", "3"]) == 0
    assert _files(clip_set) == _files(again)
    recs, _ = evaluate.load_set(clip_set)
    counts = [sum(r["answer"] == L for r in recs) for L in "ABCD"]
    assert max(counts) - min(counts) <= 1, counts
    stuck = [r["options"][LETTERS.index(r["answer"])] for r in recs if r["question_type"] == "stuck"]
    assert abs(stuck.count("yes") - stuck.count("no")) <= 1


def test_letters_balance_over_yes_no_and_four_option_questions():
    frame = np.zeros((2, 2, 3), np.uint8)
    qs = [questions.Question("GymV/X-v0", "world3d", 0, i, 0, "stuck" if i % 3 == 0 else "clip_turn", "?", frame, 0,
                             options=["yes", "no"] if i % 3 == 0 else ["a", "b", "c", "d"]) for i in range(40)]
    out = questions.balance_letters(qs, 0)
    counts = [sum(q.answer == j for q in out) for j in range(4)]
    assert max(counts) - min(counts) <= 1, counts
    assert all(q.options[q.answer] == p.options[p.answer] for q, p in zip(out, qs))  # the answer moves with its option


def test_bad_command_lines_are_refused_before_any_work(exported, tmp_path, capsys):
    """Each names what is valid, at once: a negative --limit used to drop the last questions, an --out that is a
    file lost the answers after every question was asked, a bad --obs-size failed in the workers."""
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    set_dir = str(exported)
    cases = [
        (evaluate.main, ["--set", set_dir, "--limit", "-3"], "invalid --limit -3"),
        (evaluate.main, ["--set", set_dir, "--workers", "0"], "invalid --workers 0"),
        (evaluate.main, ["--set", set_dir, "--out", str(a_file)], "cannot write to --out"),
        (export.main, ["--per-domain", "1", "--obs-size", "10", "10", "--out", str(tmp_path / "x")], "invalid --obs-size 10 10"),
        (export.main, ["--per-domain", "1", "--workers", "0", "--out", str(tmp_path / "x")], "invalid --workers 0"),
        (export.main, ["--per-domain", "1", "--out", str(a_file)], "is a file"),
        (agreement.main, ["--set", set_dir, "--workers", "0", "--out", str(tmp_path / "ag")], "--workers 0"),
        (agreement.main, ["--set", set_dir, "--out", str(a_file)], "cannot write to --out"),
    ]
    for main, argv, message in cases:
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2 and message in capsys.readouterr().err, argv
    assert agreement.main(["--set", set_dir, "--eps", "0.1,x", "--out", str(tmp_path / "ag")]) == 2
    assert "invalid --eps '0.1,x'; valid values: comma-separated numbers from 0 to 1" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_a_damaged_or_edited_set_is_named_before_any_question(exported, tmp_path, capsys):
    """A missing image, a line that is not JSON, a record without its answer or with a letter outside its options:
    each named with its line before any question is asked (they were tracebacks mid-run, "substring not found", or
    a raw JSON message). A set edited after export is scored, with a note, and the summary records both hashes."""
    import shutil

    def damaged(name, edit):
        folder = tmp_path / name
        shutil.copytree(exported, folder)
        lines = (folder / "questions.jsonl").read_text().splitlines(keepends=True)
        edit(folder, lines)
        (folder / "questions.jsonl").write_text("".join(lines))
        return folder

    def rec_edit(change):
        def edit(folder, lines):
            rec = json.loads(lines[1])
            change(rec)
            lines[1] = json.dumps(rec) + "\n"
        return edit

    cases = {
        "no image": (lambda f, lines: (f / json.loads(lines[1])["image"]).unlink(), r"line 2 \(question .*\): image .* is missing"),
        "not json": (lambda f, lines: lines.insert(2, "{oops\n"), "line 3 is not JSON"),
        "no answer": (rec_edit(lambda r: r.pop("answer")), "line 2 .*missing field\\(s\\) answer"),
        "bad letter": (rec_edit(lambda r: r.update(answer="Z")), "answer 'Z' is not one of its options' letters A, B"),
        "outside": (rec_edit(lambda r: r.update(image="../../etc/passwd")), "is not a path inside the set"),
    }
    with ChatServer(lambda request: "Answer: A") as server:
        for name, (edit, message) in cases.items():
            folder = damaged(name.replace(" ", "_"), edit)
            assert evaluate.main(["--set", str(folder), "--agent", "vlm", "--model", "m", "--base-url", server.base_url,
                                  "--no-cache"]) == 2, name
            err = capsys.readouterr().err
            assert re.search(message, err) and "export it again" in err, (name, err)
        assert server.requests == []
    edited = damaged("edited", rec_edit(lambda r: r.update(prompt=r["prompt"] + " (edited)")))
    assert evaluate.main(["--set", str(edited), "--agent", "random", "--out", str(tmp_path / "res")]) == 0
    assert "do not match its manifest.json's content hash" in capsys.readouterr().err
    about = json.loads((tmp_path / "res" / "summary.json").read_text())["set"]
    assert not about["matches_manifest"] and about["manifest_sha256"] == json.loads((exported / "manifest.json").read_text())["content_sha256"]
    assert evaluate.main(["--set", str(exported), "--agent", "random", "--out", str(tmp_path / "res2")]) == 0
    assert "manifest" not in capsys.readouterr().err
    assert json.loads((tmp_path / "res2" / "summary.json").read_text())["set"]["matches_manifest"]


class CtrlC:
    """A module:Class agent whose third question is interrupted, as Ctrl-C interrupts a slow model's evaluation."""

    asked = 0

    def answer(self, question, images):
        CtrlC.asked += 1
        if CtrlC.asked == 3:
            raise KeyboardInterrupt
        return question["answer"]


def test_ctrl_c_stops_asking_and_says_how_to_go_on(exported, tmp_path, capsys):
    """Ctrl-C during eval-vqa ended in a traceback. Now the command says that the cache keeps the replies so far
    (so the same command asks only the others) and exits 130; the questions still queued are not asked."""
    CtrlC.asked = 0
    total = sum(1 for _ in (exported / "questions.jsonl").open())
    assert evaluate.main(["--set", str(exported), "--agent", "tests.test_vqa:CtrlC", "--workers", "2",
                          "--permutations", "0", "--out", str(tmp_path / "res")]) == 130
    assert "interrupted before every question was answered" in capsys.readouterr().err
    assert CtrlC.asked <= 6 < total and not (tmp_path / "res" / "summary.json").exists()


def test_an_interrupted_re_export_keeps_the_old_set(exported, tmp_path, monkeypatch):
    """Exporting into a folder that holds a set deleted the old set first, then built the new one: Ctrl-C or a
    failure while building left neither. The old set now goes only once the new one is ready to write."""
    import shutil

    folder = tmp_path / "set"
    shutil.copytree(exported, folder)
    before = _files(folder)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(export, "build", interrupted)
    with pytest.raises(KeyboardInterrupt):
        export.main(["--per-domain", "1", "--out", str(folder), "--overwrite"])
    assert _files(folder) == before


def test_evaluating_or_exporting_again_into_a_used_folder_needs_overwrite(exported, tmp_path, capsys):
    """eval-vqa replaced answers.jsonl from an earlier agent, and export-vqa an earlier set, in the same --out
    without a word; each now changes nothing without --overwrite, and with it writes what a new folder gets."""
    import shutil

    res = tmp_path / "res"
    assert evaluate.main(["--set", str(exported), "--agent", "letter:A", "--out", str(res)]) == 0
    earlier = _files(res)
    with pytest.raises(SystemExit):
        evaluate.main(["--set", str(exported), "--agent", "random", "--out", str(res)])
    assert "already holds answers.jsonl, summary.json, results.md" in capsys.readouterr().err
    assert _files(res) == earlier
    assert evaluate.main(["--set", str(exported), "--agent", "random", "--out", str(res), "--overwrite"]) == 0
    assert evaluate.main(["--set", str(exported), "--agent", "random", "--out", str(tmp_path / "new")]) == 0
    assert _files(res) == _files(tmp_path / "new") != earlier

    folder = tmp_path / "set"
    shutil.copytree(exported, folder)
    args = ["--per-domain", str(PER_DOMAIN), "--seed", "3", "--out", str(folder), "--workers", "1", "--history", "1"]
    with pytest.raises(SystemExit):
        export.main(args)
    assert "already holds an exported set (manifest.json)" in capsys.readouterr().err
    (folder / "images" / "stale.png").write_bytes(b"left by hand")
    assert export.main([*args, "--overwrite"]) == 0
    assert _files(folder) == _files(exported)   # replaced whole: nothing stale left


def test_max_cost_stops_paid_questions_and_a_higher_cap_pays_only_for_the_rest(exported, tmp_path, capsys, monkeypatch):
    """``eval-vqa --max-cost USD``: once the VLM's replies have cost that much no more questions are asked, nothing
    is written and the exit status is 3; the cache keeps the replies, so a higher cap asks the endpoint only for the
    questions not yet asked and then scores the whole set. An unpriced model is refused before any request."""
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"priced-model": [10000, 0]}))   # 100 prompt tokens a request: $1 each
    monkeypatch.setenv("GYMV_PRICES", str(prices))
    res, cache = tmp_path / "res", tmp_path / "cache"

    def command(cap, model="priced-model"):
        return ["--set", str(exported), "--agent", "vlm", "--model", model, "--base-url", server.base_url,
                "--cache-dir", str(cache), "--permutations", "1", "--limit", "4", "--workers", "1",
                "--max-cost", cap, "--out", str(res)]

    with ChatServer(lambda request: "Answer: A") as server:
        assert evaluate.main(command("2.5")) == evaluate.AT_MAX_COST and len(server.requests) == 3
        err = capsys.readouterr().err
        assert "at or over --max-cost $2.5, after 3 of 8 questions" in err
        assert not any((res / name).exists() for name in evaluate.REPORTS)
        assert evaluate.main(command("100")) == 0 and len(server.requests) == 8   # the first 3 from the cache
        summary = json.loads((res / "summary.json").read_text())
        assert summary["overall"]["questions"] == 4 and summary["usage"]["cache_hits"] == 3
        assert evaluate.main([*command("5", model="unpriced-model"), "--overwrite"]) == 2
        assert len(server.requests) == 8
    assert "--max-cost cannot be kept" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        evaluate.main(["--set", str(exported), "--max-cost", "0"])
    assert "invalid --max-cost 0; valid values: a number of USD > 0" in capsys.readouterr().err
    assert evaluate.main(["--set", str(exported), "--agent", "oracle", "--max-cost", "1", "--limit", "3"]) == 0
