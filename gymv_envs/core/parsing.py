"""Answer and action extraction from free-form model replies.

Every function here takes any string and never raises: unparseable input gives ``None``.
The order of evidence is the same everywhere: reasoning blocks are dropped, then an
explicit answer (``<answer>..</answer>``, a JSON object, ``\\boxed{..}``, a line such as
``Answer: B`` or ``Action: up`` or a heading ``### Final answer`` over it, then a phrase such as
``the answer is B``) wins over the bare reply, and among several mentions the last valid one wins.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence

import numpy as np

# Replies longer than this are judged on their tail: answers come last, and it keeps every
# pattern below linear in practice on megabyte-long garbage.
MAX_SCAN = 20_000
_REASONING_TAGS = ("think", "thinking", "reasoning", "reflection", "scratchpad")
_MARKER = re.compile(  # "Answer: B", "**Final answer:** B", or a line that is only a heading "### Final Answer"
    r"(?:final\s+answer|answer|action|move|choice|option|output)\s*(?:is)?\s*[:=](.*)"
    r"|^[#>*_ \t]*(?:final\s+)?answer[*_ \t]*$()",
    re.IGNORECASE | re.MULTILINE,
)
_ANSWER_IS = re.compile(r"(?<![a-z])(?:final\s+)?answer\s+is\s+(.+)", re.IGNORECASE)  # "The answer is B."
_JSON_KEYS = ("action", "answer", "move", "choice", "final_answer")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def strip_reasoning(text: str) -> str:
    """Remove ``<think>...</think>``-style blocks (an unclosed one runs to the end).

    A closing tag without an opening one (models that start thinking implicitly) drops
    everything before it.
    """
    if not isinstance(text, str):
        return ""
    out = text
    for tag in _REASONING_TAGS:
        open_t, close_t = f"<{tag}>", f"</{tag}>"
        low = out.lower()
        if close_t in low and open_t not in low[: low.rfind(close_t)]:
            out = out[low.rfind(close_t) + len(close_t):]
            low = out.lower()
        pieces, pos = [], 0
        while True:
            start = low.find(open_t, pos)
            if start < 0:
                pieces.append(out[pos:])
                break
            pieces.append(out[pos:start])
            end = low.find(close_t, start)
            if end < 0:
                break
            pos = end + len(close_t)
        out = "".join(pieces)
    return out


def _clean(s: str) -> str:
    s = s.strip().strip("`*_\"' \t\r\n")
    s = re.sub(r"\s+", " ", s)
    return s.rstrip(".!;,").strip()


def _tag_contents(text: str, tag: str) -> list[str]:
    low = text.lower()
    open_t, close_t = f"<{tag}>", f"</{tag}>"
    out, pos = [], 0
    while True:
        start = low.find(open_t, pos)
        if start < 0:
            return out
        end = low.find(close_t, start + len(open_t))
        if end < 0:
            return out
        out.append(text[start + len(open_t):end])
        pos = end + len(close_t)


def _json_values(text: str) -> list[str]:
    out = []
    for match in re.finditer(r"\{[^{}]{0,2000}\}", text):
        try:
            obj = json.loads(match.group(0))
        except (ValueError, RecursionError):
            continue
        if isinstance(obj, dict):
            for key in _JSON_KEYS:
                if key in obj and isinstance(obj[key], (str, int, float, list)):
                    value = obj[key]
                    out.append(json.dumps(value) if isinstance(value, list) else str(value))
                    break
    return out


def _marked(body: str, pattern: re.Pattern) -> list[list[str]]:
    """What follows each match of ``pattern`` in ``body``, in order: the rest of its line (or where that
    holds nothing but markup, as after ``**Final answer:**`` or a heading, the next line with text),
    then the paragraph it starts (an answer over several lines, such as a grid), up to a blank line
    or the next match."""
    marks = list(pattern.finditer(body))
    out = []
    for i, m in enumerate(marks):
        stop = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        line = m.group(1) or ""
        start = m.start(1) if _clean(line) else m.end()
        paragraph = re.split(r"\n[ \t]*\n", body[start:stop].lstrip(), maxsplit=1)[0]
        first = next((x for x in paragraph.splitlines() if _clean(x)), "")
        out.append([first, paragraph])
    return out


def candidates(text: str) -> list[str]:
    """Answer candidates from a reply, most explicit first (each list: last mention first)."""
    if not isinstance(text, str):
        return []
    try:
        body = strip_reasoning(text)[-MAX_SCAN:]
        body = body.replace("```json", "```").replace("```", "\n")
        found: list[str] = []
        found += reversed(_tag_contents(body, "answer"))
        found += reversed(_json_values(body))
        found += reversed(re.findall(r"\\boxed\{([^{}]{0,2000})\}", body))
        for pattern in (_MARKER, _ANSWER_IS):
            for values in reversed(_marked(body, pattern)):
                found += values
        found.append(body)
        seen, out = set(), []
        for c in found:
            c = _clean(c)
            if c and c not in seen:
                seen.add(c)
                out.append(c)
        return out
    except Exception:  # noqa: BLE001 - parsing never raises
        return []


def extract_answer(text: str) -> str | None:
    """The most explicit answer string in a reply, or ``None`` for an empty reply."""
    found = candidates(text)
    return found[0] if found else None


def _norm(s: str) -> str:
    return re.sub(r"[\s_\-]+", " ", s.lower()).strip()


def parse_choice(text: str, names: Sequence[str]) -> int | None:
    """Index of the action name a reply chooses, or ``None``.

    Exact match of a candidate first (case, spacing, ``_``/``-`` ignored), then the last
    whole-word mention inside the most explicit candidate that has one, then a bare integer
    index in an explicit answer.
    """
    try:
        table = {_norm(n): i for i, n in enumerate(names)}
        found = candidates(text)
        for c in found:
            if _norm(c) in table:
                return table[_norm(c)]
        alternation = "|".join(sorted((re.escape(k) for k in table), key=len, reverse=True))
        pattern = re.compile(rf"(?<![a-z0-9])({alternation})(?![a-z0-9])")
        for c in found:
            hits = list(pattern.finditer(_norm(c)))
            if hits:
                return table[hits[-1].group(1)]
        for c in found[:-1]:
            if re.fullmatch(r"\d+", c) and int(c) < len(names):
                return int(c)
        return None
    except Exception:  # noqa: BLE001
        return None


LETTERS = "ABCDEFGHIJ"


def parse_letter(text: str, options: Sequence[str]) -> int | None:
    """Index of the lettered option a reply picks, or ``None``.

    Accepts ``B``, ``(B)``, ``B)``, ``B.``, ``Option B``, ``Answer: b``, ``**B**``, the option's
    own text, or a reply that starts with ``B)`` or with ``B.`` and that option's text; a bare
    capital letter inside prose counts only when it is the whole explicit answer.
    """
    try:
        letters = LETTERS[: len(options)]
        found = candidates(text)
        if not found:
            return None
        opt_text: dict[str, int] = {}
        for i, o in enumerate(options):  # as written, and as a reply's full stop is cut (grids end in ".")
            opt_text.setdefault(_norm(o), i)
            opt_text.setdefault(_norm(_clean(o)), i)
        lead = re.compile(rf"^(?:option\s+|choice\s+)?\(?([{letters}{letters.lower()}])\)?(?:[.):\s]|$)")
        bare = re.compile(rf"(?:option\s+|choice\s+)?\(?([{letters}{letters.lower()}])\)?[.):]?", re.IGNORECASE)
        for c in found[:-1]:  # explicit answers: a bare letter, else an option's own text, else a leading letter
            m = bare.fullmatch(c.strip())
            if m:
                return letters.index(m.group(1).upper())
            if _norm(c) in opt_text:  # before the leading letter: a copied option "A.B / AAB" is not A
                return opt_text[_norm(c)]
            m = lead.match(c)
            if m:
                return letters.index(m.group(1).upper())
        body = found[-1]
        m = re.fullmatch(rf"\(?([{letters}])\)?[.)]?|\(([{letters.lower()}])\)", body)
        if m:
            return letters.index((m.group(1) or m.group(2)).upper())
        if _norm(body) in opt_text:
            return opt_text[_norm(body)]
        m = re.match(rf"\(?([{letters}])(\)|\.)\s+(.+)", body)  # "B) 3" or "B. 3": a letter, then its option
        if m and (m.group(2) == ")" or _norm(m.group(3)).startswith(_norm(_clean(options[letters.index(m.group(1))])))):
            return letters.index(m.group(1))
        mentions = list(
            re.finditer(
                rf"(?:\(([{letters}])\)|\*\*([{letters}])\*\*|(?:option|choice|answer(?: is)?)\s*:?\s*\(?([{letters}])\b)",
                body,
                re.IGNORECASE,
            )
        )
        if mentions:
            g = mentions[-1]
            letter = next(x for x in g.groups() if x)
            if letter.upper() in letters:
                return letters.index(letter.upper())
        return None
    except Exception:  # noqa: BLE001
        return None


def parse_numbers(
    text: str, fields: Sequence[str], low: Sequence[float], high: Sequence[float]
) -> np.ndarray | None:
    """A float32 vector for a parametric action, clipped to [low, high], or ``None``.

    Named values (``angle=30, power: 0.5``, or a JSON object with those keys) win; else the
    last ``len(fields)`` numbers of the most explicit candidate that has enough of them.
    """
    try:
        n = len(fields)
        found = candidates(text)
        values = None
        body = strip_reasoning(text)[-MAX_SCAN:] if isinstance(text, str) else ""
        named = []
        for name in fields:
            hits = re.findall(rf"(?<![A-Za-z0-9_]){re.escape(name)}\"?\s*[:=]\s*({_NUMBER.pattern})", body, re.IGNORECASE)
            named.append(hits[-1] if hits else None)
        if all(v is not None for v in named):
            values = [float(v) for v in named]
        else:
            for c in found:
                nums = _NUMBER.findall(c)
                if len(nums) >= n:
                    values = [float(v) for v in nums[-n:]]
                    break
        if values is None or not all(math.isfinite(v) for v in values):
            return None
        return np.clip(np.asarray(values, dtype=np.float32), np.asarray(low, np.float32), np.asarray(high, np.float32))
    except Exception:  # noqa: BLE001
        return None
