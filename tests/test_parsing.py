"""Focused tests of the shared reply parsing."""

import numpy as np
import pytest

from gymv_envs.core import parsing

NAMES = ("up", "down", "left", "right", "move_forward", "turn_left")


@pytest.mark.parametrize("reply, expected", [
    ("up", 0),
    ("  DOWN.  ", 1),
    ("Action: left", 2),
    ("<answer>right</answer>", 3),
    ('{"action": "down"}', 1),
    ("I will go left first... no wait. Final answer: right", 3),
    ("<think>up up up</think>I choose down", 1),
    ("reasoning without opening tag</think> left", 2),
    ("move forward", 4),
    ("Turn-Left", 5),
    ("```json\n{\"action\": \"up\"}\n```", 0),
    ("Action: 3", 3),
    ("banana", None),
    ("", None),
    ("<think>never closed, says up", None),
])
def test_parse_choice(reply, expected):
    assert parsing.parse_choice(reply, NAMES) == expected


OPTIONS = ["R R D", "R D R", "D R R", "R R R"]


@pytest.mark.parametrize("reply, expected", [
    ("B", 1), ("(c)", 2), ("Answer: c", 2), ("The answer is (D).", 3), ("**A**", 0),
    ("Option B", 1), ("R D R", 1), ("<answer>D</answer>", 3), ('{"answer": "C"}', 2),
    ("A good question. I think (B) is right", 1), ("A", 0), ("Z", None), ("", None),
    ("<think>A? no</think>Answer: B", 1),
])
def test_parse_letter(reply, expected):
    assert parsing.parse_letter(reply, OPTIONS) == expected


@pytest.mark.parametrize("reply, expected", [
    ("B) R D R", 1), ("(C) D R R", 2), ("D. R R R", 3), ("B) because it turns right first", 1),
    ("A. Smith would say otherwise", None),  # "A." and no option text after it: prose, not a choice
])
def test_parse_letter_reads_a_reply_that_starts_with_its_letter(reply, expected):
    assert parsing.parse_letter(reply, OPTIONS) == expected


def test_parse_letter_reads_a_grid_option_whose_last_cell_is_a_full_stop():
    grids = ["#.#.. / .....", "..#.# / #....", ".#... / ..#..", "..... / #.#.."]
    assert parsing.parse_letter("..#.# / #....", grids) == 1


def test_parse_letter_prefers_a_copied_option_text_over_its_first_letter():
    grids = ["B.A / BAA", "A.B / AAB", "A.A / ABB", "B.B / AAB"]
    assert parsing.parse_letter("Answer: A.B / AAB", grids) == 1
    assert parsing.parse_letter("Answer: A. because it tiles", grids) == 0
    letters_as_options = ["C", "A, B", "B", "A"]  # e.g. which landmarks are reachable
    for reply, expected in (("Answer: B", 1), ("Answer: (C)", 2), ("Answer: A, B", 1), ("<answer>D</answer>", 3)):
        assert parsing.parse_letter(reply, letters_as_options) == expected, reply


@pytest.mark.parametrize("reply, first", [
    ("The answer is 444.", "444"),
    ("Let me count.\n\n### Final Answer\n\n3 2 4 1\n\nThat is the order.", "3 2 4 1"),
    ("**Final Answer:**\nB F C", "B F C"),
    ("Answer:\nleft\n\nExplanation: the wall is on the right.", "left"),
    ("The answer is probably B.\nAnswer: C", "C"),  # the line asked for wins over the phrase
])
def test_candidates_read_answers_said_in_prose_or_under_a_heading(reply, first):
    assert parsing.candidates(reply)[0] == first


def test_candidates_keep_an_answer_over_several_lines_after_a_marker():
    found = parsing.candidates("**Final Answer:**\n0000\n0220\n\nThe rest is empty.")
    assert "0000 0220" in found


def test_parse_letter_prefers_the_marked_letter_to_a_later_phrase():
    assert parsing.parse_letter("Answer: C\nI think the answer is a good guess.", OPTIONS) == 2


def test_read_grid_takes_a_sentence_full_stop_for_punctuation_not_a_cell():
    from gymv_envs.core.grid_answers import read_grid
    assert read_grid("The answer is 0110 / 1001.", 2, 4, "mask") == ((0, 1, 1, 0), (1, 0, 0, 1))
    assert read_grid("0110 / 10..", 2, 4, "mask") == ((0, 1, 1, 0), (1, 0, 0, 0))  # there the dots are cells
    assert read_grid("It is 1 2 / 3 4.", 2, 2, "int") == ((1, 2), (3, 4))


def test_parse_numbers_named_and_positional():
    low, high = [5, 0], [85, 1]
    assert np.allclose(parsing.parse_numbers("angle=30, power=0.5", ["angle", "power"], low, high), [30, 0.5])
    assert np.allclose(parsing.parse_numbers('{"power": 0.25, "angle": 45}', ["angle", "power"], low, high), [45, 0.25])
    assert np.allclose(parsing.parse_numbers("Action: 60 0.9", ["angle", "power"], low, high), [60, 0.9])
    assert np.allclose(parsing.parse_numbers("angle=300, power=-2", ["angle", "power"], low, high), [85, 0])
    assert parsing.parse_numbers("angle=nan power=1", ["angle", "power"], low, high) is None
    assert parsing.parse_numbers("just one 4", ["angle", "power"], low, high) is None


def test_strip_reasoning():
    assert parsing.strip_reasoning("<think>x</think>y<reasoning>z</reasoning>w") == "yw"
    assert parsing.strip_reasoning("a<THINK>b") == "a"


@pytest.mark.parametrize("text", ["", "x" * 2_000_000, "<answer>" * 100_000, "{" * 100_000, "\\boxed{" * 50_000,
                                  "\udcff\x00", "Answer:" * 100_000])
def test_never_raises_and_is_fast(text):
    import time
    t0 = time.perf_counter()
    parsing.candidates(text)
    parsing.parse_choice(text, NAMES)
    parsing.parse_letter(text, OPTIONS)
    parsing.parse_numbers(text, ["a", "b"], [0, 0], [1, 1])
    assert time.perf_counter() - t0 < 5.0
