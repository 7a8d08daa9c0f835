"""Site templates: the page shell, seeded themes and the `Site` base every template extends.

A site is plain Python: ``generate`` draws its content from the generator, ``page_<name>``
methods return HTML for ``/<name>`` and ``do_<name>`` methods change the server-side state and
return the URL to redirect to. Everything is served by the env's loopback server; the page
shell embeds the bundled DejaVu fonts, turns off animations, transitions and the caret (so
screenshots are deterministic) and carries a small script that hands link and form
navigations to the env (so every navigation completes before the screenshot).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np

from gymv_envs.core import rng as R

NAV_SCRIPT = """
window.__gymvNav = null;
document.addEventListener('click', e => {
  const a = e.target.closest ? e.target.closest('a[href]') : null;
  if (a) { e.preventDefault(); window.__gymvNav = a.getAttribute('href'); }
}, true);
document.addEventListener('submit', e => {
  e.preventDefault();
  const f = e.target, q = new URLSearchParams(new FormData(f)).toString();
  window.__gymvNav = f.getAttribute('action') + (q ? '?' + q : '');
}, true);
document.addEventListener('keydown', e => {
  const t = e.target, edit = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA');
  if (!edit && ['ArrowUp','ArrowDown','ArrowLeft','ArrowRight','Home','End',' ','PageUp','PageDown'].includes(e.key)) e.preventDefault();
}, true);
"""

ACCENTS = ("#1f6feb", "#d1495b", "#2a9d8f", "#8e44ad", "#e76f51", "#264653", "#6a994e", "#b5179e")
BACKGROUNDS = ("#ffffff", "#f6f8fa", "#fdf6e3", "#f1f5f9", "#fffaf0")
HELD_OUT_ACCENTS = ("#0b7285", "#c92a2a")


@dataclass(frozen=True)
class Theme:
    accent: str
    background: str
    font_size: int
    nav_side: bool
    radius: int
    width: int


def draw_theme(rng: np.random.Generator, held_out: bool = False) -> Theme:
    accents = HELD_OUT_ACCENTS if held_out else ACCENTS
    return Theme(R.choice(rng, accents), R.choice(rng, BACKGROUNDS), int(rng.integers(14, 18)),
                 bool(rng.integers(2)), int(rng.integers(0, 10)), int(rng.integers(760, 960)))


def css(t: Theme) -> str:
    return f"""
@font-face {{ font-family: GymV; src: local('DejaVu Sans'), url(/static/sans.ttf); font-display: block; }}
@font-face {{ font-family: GymV; font-weight: bold; src: local('DejaVu Sans Bold'), url(/static/sans-bold.ttf); font-display: block; }}
*, *::before, *::after {{ animation: none !important; transition: none !important; caret-color: transparent !important; }}
html {{ scroll-behavior: auto; }}
body {{ margin: 0; font: {t.font_size}px/1.45 GymV, sans-serif; background: {t.background}; color: #1b1f24; }}
#wrap {{ min-height: 100vh; display: flex; flex-direction: {'row' if t.nav_side else 'column'}; }}
#nav {{ background: {t.accent}; padding: 10px 14px; display: flex; gap: 14px; flex-direction: {'column' if t.nav_side else 'row'};
        min-width: {150 if t.nav_side else 0}px; align-items: {'stretch' if t.nav_side else 'center'}; }}
#nav a {{ color: #fff; text-decoration: none; font-weight: bold; padding: 4px 6px; }}
#nav .brand {{ color: #fff; font-weight: bold; font-size: 1.25em; margin-right: 10px; }}
main {{ padding: 14px 22px; max-width: {t.width}px; flex: 1; }}
h1 {{ font-size: 1.5em; margin: 6px 0 12px; }} h2 {{ font-size: 1.15em; margin: 10px 0 6px; }}
.card {{ border: 1px solid #c9d1d9; border-radius: {t.radius}px; padding: 8px 12px; margin: 8px 0; background: #fff; }}
.row {{ display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }}
a {{ color: {t.accent}; }}
button, .btn {{ font: inherit; background: {t.accent}; color: #fff; border: 0; border-radius: {t.radius}px; padding: 6px 14px; cursor: pointer; text-decoration: none; display: inline-block; }}
input[type=text], textarea {{ font: inherit; padding: 5px 8px; border: 1px solid #8b949e; border-radius: {t.radius}px; width: 240px; }}
input:focus, textarea:focus {{ outline: 2px solid {t.accent}; }}
label {{ display: inline-block; min-width: 120px; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #c9d1d9; padding: 4px 10px; text-align: left; }}
.muted {{ color: #57606a; }} .tag {{ background: #eaeef2; border-radius: 8px; padding: 1px 8px; }}
"""


class Site:
    """Base of a site template: seeded content, server-side state, pages and actions."""

    title = "Site"
    nav: tuple[tuple[str, str], ...] = (("/", "Home"),)
    held_out = False

    def __init__(self, rng: np.random.Generator, difficulty: int) -> None:
        self.difficulty = difficulty
        self.theme = draw_theme(rng, self.held_out)
        self.brand = self.title
        self.generate(rng)

    def generate(self, rng: np.random.Generator) -> None:
        raise NotImplementedError

    # ----------------------------------------------------------------- serving
    def handle(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes]:
        name = path.strip("/") or "home"
        if name.startswith("do/"):
            action = getattr(self, "do_" + name[3:].replace("/", "_"), None)
            if action is None:
                return 404, "text/html", self.shell("Not found", "<h1>Not found</h1>").encode()
            return 303, "text/plain", action(query).encode()
        page = getattr(self, "page_" + name.replace("/", "_"), None)
        if page is None:
            return 404, "text/html", self.shell("Not found", "<h1>Page not found</h1><p><a id='home' href='/'>Back home</a></p>").encode()
        return 200, "text/html; charset=utf-8", page(query).encode()

    def shell(self, title: str, body: str) -> str:
        links = "".join(f"<a href='{h}'{' id=home' if h == '/' else ''}>{escape(label)}</a>" for h, label in self.nav)
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>"
                f"<style>{css(self.theme)}</style><script>{NAV_SCRIPT}</script></head><body>"
                f"<div id='wrap'><nav id='nav'><span class='brand'>{escape(self.brand)}</span>{links}</nav>"
                f"<main>{body}</main></div>"
                # an analytics beacon: the page asks for it, the env blocks it and counts it
                f"<img src='http://analytics.example.com/pixel.gif' alt='' style='display:none'>"
                f"</body></html>")


def esc(value: Any) -> str:
    return escape(str(value), quote=True)


def money(x: float) -> str:
    return f"${x:,.2f}"


def search_form(action: str, field: str = "q", value: str = "", label: str = "Search", fid: str = "search") -> str:
    return (f"<form id='{fid}' action='{action}' class='row'><input type='text' name='{field}' value='{esc(value)}' "
            f"placeholder='{esc(label)}...'><button type='submit'>{esc(label)}</button></form>")


def text_form(fid: str, action: str, fields: list[tuple[str, str, str]], submit: str, hidden: dict | None = None) -> str:
    """A form of labelled text inputs: ``fields`` are (name, label, kind) with kind text|textarea."""
    rows = []
    for name, label, kind in fields:
        box = (f"<textarea name='{name}' rows='3'></textarea>" if kind == "textarea"
               else f"<input type='text' name='{name}'>")
        rows.append(f"<p><label>{esc(label)}</label>{box}</p>")
    hid = "".join(f"<input type='hidden' name='{k}' value='{esc(v)}'>" for k, v in (hidden or {}).items())
    return f"<form id='{fid}' action='{action}'>{hid}{''.join(rows)}<button type='submit'>{esc(submit)}</button></form>"
