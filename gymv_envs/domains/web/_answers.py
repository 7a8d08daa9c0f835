"""The one answer reader of every web task: a free-form reply read the way a person reads it.

`matches(reply, expected, kind)` says whether a reply gives the expected value. ``kind`` is one of
`KINDS` (inferred from ``expected`` when left out: a float is ``money``, an int ``count``, a
``datetime.date`` a ``date``, a string ``name``):

- ``money`` / ``number``: the value may sit inside a sentence, carry a currency sign, word or code
  (``$65.22``, ``65.22 dollars``, ``USD 65.22``, ``65.22 EUR``), units (``3.5 km``, ``12 kg``),
  thousands separators (``1,234.50``, ``1 234.50``); equal to the cent. Numbers that are part of a
  date, a time or a word (``v2``) do not count; a reply naming two different values is wrong.
- ``count``: a whole number, as digits or a word up to twenty (``three``).
- ``date``: ISO ``2026-05-04``, ``04/05/2026`` (read month first as the site's US locale does,
  and day first when the first number is above 12), ``May 4, 2026``, ``4 May 2026``, ``May 4th``
  (the expected year is assumed when none is given), with or without a weekday.
- ``name``: the expected name appears in the reply with case, punctuation, accents and spacing
  ignored, as whole words; a reply that also names another of the site's candidate names
  (``others=``) is wrong.
- ``infeasible``: the reply says the task cannot be done (``infeasible``, ``cannot be done``,
  ``not possible``, ``does not exist``, ``no such``, ``not available``, ``N/A``).

A reply of several parts (``answer("12.50; Blue Parka")``) is split on ``;`` or newlines by
`split_parts`: a composite question scores each part with its own kind.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

KINDS = ("money", "number", "count", "date", "name", "infeasible")
INFEASIBLE = "infeasible"  # what the oracle answers when a task cannot be done
MONTHS = {m: i + 1 for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july",
                                           "august", "september", "october", "november", "december"))}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
WORDS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                     "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                                     "eighteen", "nineteen", "twenty"))}
WORDS.update({"none": 0, "no": 0, "a single": 1, "single": 1})
_NO_WAY = re.compile(r"\b(infeasible|impossible|cannot be (done|completed|found)|can ?not be (done|completed|found)|"
                     r"can't be (done|completed|found)|not possible|does not exist|doesn't exist|do not exist|"
                     r"no such|not available|unavailable|not found|n/a|there is no|there are no|isn't any|is not any)\b",
                     re.IGNORECASE)
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATES = (
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "ymd"),
    (re.compile(r"\b(\d{4})/(\d{1,2})/(\d{1,2})\b"), "ymd"),
    (re.compile(r"\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b"), "xy"),
    (re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?\b", re.IGNORECASE), "mdy"),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\.?(?:,?\s+(\d{{4}}))?\b", re.IGNORECASE), "dmy"),
)
# a number: optional sign, digits with , or thin/plain-space thousands groups, optional decimals
_NUM = re.compile(r"(?<![\w.])[-\u2212]?(?:\d{1,3}(?:(?:,|\u202f|\u00a0| )\d{3})+|\d+)(?:\.\d+)?(?![\d])|(?<![\w.])\.\d+(?![\d])")
_TIME = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?\b", re.IGNORECASE)


def fold(text: Any) -> str:
    """Lower case, accents and punctuation dropped, single spaces: the form names are compared in."""
    s = unicodedata.normalize("NFKD", str(text))
    s = "".join(c for c in s if not unicodedata.combining(c)).lower().replace("&", " and ")
    s = re.sub(r"['\u2019`]", "", s)
    return re.sub(r"[^a-z0-9]+", " ", s).strip()


def infer_kind(expected: Any) -> str:
    if isinstance(expected, bool):
        return "name"
    if isinstance(expected, int):
        return "count"
    if isinstance(expected, float):
        return "money"
    if isinstance(expected, dt.date):
        return "date"
    if isinstance(expected, str) and read_dates(expected):
        return "date"
    return "name"


def read_dates(text: str, year: int | None = None) -> list[dt.date]:
    """Every date the text states (in order of the patterns, duplicates kept once)."""
    out: list[dt.date] = []
    for pattern, order in _DATES:
        for m in pattern.finditer(text):
            try:
                if order == "ymd":
                    d = dt.date(int(m[1]), int(m[2]), int(m[3]))
                elif order == "xy":
                    a, b, y = int(m[1]), int(m[2]), int(m[3])
                    y = y + 2000 if y < 100 else y
                    d = dt.date(y, b, a) if a > 12 else dt.date(y, a, b)
                elif order == "mdy":
                    d = dt.date(int(m[3]) if m[3] else (year or 2026), MONTHS[m[1].lower()], int(m[2]))
                else:
                    d = dt.date(int(m[3]) if m[3] else (year or 2026), MONTHS[m[2].lower()], int(m[1]))
            except ValueError:
                continue
            if d not in out:
                out.append(d)
    return out


def _strip_dates(text: str) -> str:
    for pattern, _ in _DATES:
        text = pattern.sub(" ", text)
    return _TIME.sub(" ", text)


def read_numbers(text: str) -> list[float]:
    """The numbers a text states, dates and times left out, thousands separators read."""
    out = []
    for m in _NUM.finditer(_strip_dates(text)):
        s = m.group(0).replace("\u2212", "-")
        s = re.sub(r"[,\u202f\u00a0 ]", "", s)
        try:
            out.append(float(s))
        except ValueError:
            continue
    return out


def _count(text: str) -> list[int]:
    nums = [int(v) for v in read_numbers(text) if float(v).is_integer()]
    if nums:
        return nums
    low = f" {fold(text)} "
    return [v for w, v in WORDS.items() if f" {w} " in low]


def says_infeasible(text: str) -> bool:
    return bool(_NO_WAY.search(text or ""))


def split_parts(text: str, n: int) -> list[str] | None:
    """A reply of ``n`` parts split on ``;`` (or new lines, or `` and `` / ``,`` when that gives exactly n)."""
    text = str(text).strip()
    if n == 1:
        return [text]
    for sep in (r";", r"\n", r"\s*\|\s*"):
        parts = [p.strip() for p in re.split(sep, text) if p.strip()]
        if len(parts) == n:
            return parts
    return None


def matches(reply: str | None, expected: Any, kind: str | None = None, others: Iterable[str] = ()) -> bool:
    """Whether ``reply`` gives ``expected`` (see the module docstring); never raises."""
    if reply is None:
        return False
    try:
        return _matches(str(reply)[:2000], expected, kind or infer_kind(expected), tuple(others))
    except Exception:  # noqa: BLE001 - an unreadable reply is a wrong one
        return False


def _matches(reply: str, expected: Any, kind: str, others: tuple[str, ...]) -> bool:
    if kind == "infeasible":
        return says_infeasible(reply)
    if kind != "infeasible" and _NO_WAY.search(reply) and fold(expected) not in fold(reply):
        return False  # "there is no such product" is not a value
    if kind in ("money", "number"):
        want = float(expected)
        vals = read_numbers(reply)
        return bool(vals) and all(abs(v - want) < 0.005 for v in vals)
    if kind == "count":
        vals = _count(reply)
        return bool(vals) and all(v == int(expected) for v in vals)
    if kind == "date":
        want = expected if isinstance(expected, dt.date) else read_dates(str(expected))[0]
        got = read_dates(reply, want.year)
        return bool(got) and all(d == want for d in got)
    want, said = fold(expected), f" {fold(reply)} "
    if not want or f" {want} " not in said:
        return False
    rest = said.replace(f" {want} ", " ")
    return not any(f" {fold(o)} " in rest for o in others if fold(o) and fold(o) != want and fold(o) not in want)
