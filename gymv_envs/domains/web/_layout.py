"""The seeded layout generator of the catalogue sites: structure, theme, page shell, widgets.

A `Layout` is drawn per level from a *style* and the generator. Styles differ in structure, not
only in colour:

========== ============== =================== ============== ============ ==========================
style      navigation     categories          listing        paging       extras
========== ============== =================== ============== ============ ==========================
topbar     top bar        hover menu          card grid      page links   hero banner, footer
sidebar    left sidebar   sidebar links       list rows      page links   breadcrumbs
dashboard  top bar, dark  dropdown (select)   table          page links   breadcrumbs, compact
magazine   centred, serif hover menu          two big columns infinite    hero, footer (held out)
split      right sidebar  tag chips           tiles          infinite     breadcrumbs (held out)
========== ============== =================== ============== ============ ==========================

`TRAIN_STYLES` are what training ids use; `TEST_STYLES` are reserved for ids tagged
``split:test``. The theme (font family among the system's DejaVu Sans, Serif, Sans Mono and Sans
Condensed; accent; background; corner radius; font size) and whether a cookie banner greets the
visitor are drawn too. Icons are inline SVG.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import numpy as np

from gymv_envs.core import rng as R

TRAIN_STYLES = ("topbar", "sidebar", "dashboard")
TEST_STYLES = ("magazine", "split")
STYLES = TRAIN_STYLES + TEST_STYLES
FONTS = ("'DejaVu Sans', sans-serif", "'DejaVu Serif', serif", "'DejaVu Sans Mono', monospace",
         "'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif")
ACCENTS = ("#1f6feb", "#d1495b", "#2a9d8f", "#8e44ad", "#e76f51", "#264653", "#6a994e", "#b5179e", "#0b7285", "#c92a2a")
BACKGROUNDS = ("#ffffff", "#f6f8fa", "#fdf6e3", "#f1f5f9", "#fffaf0")
ICONS = {
    "cart": "<path d='M3 4h2l2 10h10l2-7H7' fill='none' stroke='currentColor' stroke-width='2'/><circle cx='9' cy='19' r='1.6'/><circle cx='16' cy='19' r='1.6'/>",
    "heart": "<path d='M12 20s-7-4.5-7-10a4 4 0 0 1 7-2.5A4 4 0 0 1 19 10c0 5.5-7 10-7 10z'/>",
    "search": "<circle cx='10' cy='10' r='6' fill='none' stroke='currentColor' stroke-width='2'/><path d='M15 15l5 5' stroke='currentColor' stroke-width='2'/>",
    "home": "<path d='M3 11l9-7 9 7v9h-6v-6H9v6H3z'/>",
    "star": "<path d='M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z'/>",
    "user": "<circle cx='12' cy='8' r='4'/><path d='M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7z'/>",
    "grip": "<circle cx='9' cy='6' r='1.5'/><circle cx='15' cy='6' r='1.5'/><circle cx='9' cy='12' r='1.5'/><circle cx='15' cy='12' r='1.5'/><circle cx='9' cy='18' r='1.5'/><circle cx='15' cy='18' r='1.5'/>",
}


def icon(name: str, size: int = 16) -> str:
    return (f"<svg class='ico' width='{size}' height='{size}' viewBox='0 0 24 24' fill='currentColor' "
            f"aria-hidden='true'>{ICONS[name]}</svg>")


@dataclass(frozen=True)
class Layout:
    style: str
    font: str
    accent: str
    background: str
    radius: int
    font_size: int
    cookie: bool
    per_page: int

    @property
    def nav(self) -> str:
        return {"topbar": "top", "dashboard": "top", "magazine": "centre", "sidebar": "left", "split": "right"}[self.style]

    @property
    def categories(self) -> str:
        return {"topbar": "hover", "magazine": "hover", "sidebar": "sidebar", "dashboard": "select", "split": "tags"}[self.style]

    @property
    def listing(self) -> str:
        return {"topbar": "grid", "sidebar": "list", "dashboard": "table", "magazine": "columns", "split": "tiles"}[self.style]

    @property
    def infinite(self) -> bool:
        return self.style in ("magazine", "split")


def draw_layout(rng: np.random.Generator, styles: tuple[str, ...]) -> Layout:
    style = R.choice(rng, styles)
    return Layout(style, R.choice(rng, FONTS), R.choice(rng, ACCENTS), R.choice(rng, BACKGROUNDS), int(rng.integers(0, 12)),
                  int(rng.integers(14, 17)), bool(rng.integers(2)), 6)


def css(t: Layout) -> str:
    side = t.nav in ("left", "right")
    dark = t.style == "dashboard"
    return f"""
*, *::before, *::after {{ animation: none !important; transition: none !important; caret-color: transparent !important; box-sizing: border-box; }}
html {{ scroll-behavior: auto; }}
body {{ margin: 0; font: {t.font_size}px/1.45 {t.font}; background: {t.background}; color: #1b1f24; }}
#wrap {{ min-height: 100vh; display: flex; flex-direction: {'row-reverse' if t.nav == 'right' else 'row' if side else 'column'}; }}
#nav {{ background: {'#1c2128' if dark else t.accent}; padding: 10px 16px; display: flex; gap: 12px; flex-direction: {'column' if side else 'row'};
        min-width: {170 if side else 0}px; align-items: {'stretch' if side else 'center'}; {'justify-content: center;' if t.nav == 'centre' else ''} }}
#nav a, #nav .trigger {{ color: #fff; text-decoration: none; font-weight: bold; padding: 4px 6px; display: inline-flex; gap: 5px; align-items: center; cursor: pointer; }}
#nav .brand {{ color: #fff; font-weight: bold; font-size: 1.3em; margin-right: 12px; display: inline-flex; gap: 6px; align-items: center; }}
#nav .brand img {{ width: 32px; height: 24px; border-radius: 4px; }}
[data-hover-menu] {{ position: relative; }}
[data-hover-menu] .menu {{ display: none; position: absolute; top: 100%; left: 0; background: #fff; border: 1px solid #c9d1d9; z-index: 20; min-width: 170px; padding: 4px 0; }}
[data-hover-menu]:hover .menu {{ display: block; }}
[data-hover-menu] .menu a {{ color: #1b1f24; display: block; padding: 5px 12px; font-weight: normal; }}
main {{ padding: 14px 22px; flex: 1; max-width: {1000 if t.nav == 'centre' else 980}px; {'margin: 0 auto;' if t.nav == 'centre' else ''} }}
h1 {{ font-size: 1.45em; margin: 6px 0 10px; }} h2 {{ font-size: 1.12em; margin: 8px 0 6px; }}
.hero {{ background: linear-gradient(90deg, {t.accent}, #f0b429); color: #fff; padding: 18px 22px; border-radius: {t.radius}px; margin-bottom: 12px; font-size: 1.2em; font-weight: bold; }}
.crumbs {{ color: #57606a; margin: 2px 0 8px; font-size: 0.9em; }} .crumbs a {{ color: #57606a; }}
.card {{ border: 1px solid #c9d1d9; border-radius: {t.radius}px; padding: 8px 10px; background: #fff; }}
.grid {{ display: grid; grid-template-columns: repeat(3, 1fr); gap: 10px; }}
.columns {{ display: grid; grid-template-columns: repeat(2, 1fr); gap: 16px; }}
.tiles {{ display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px; }}
.grid img, .columns img, .tiles img {{ width: 100%; height: auto; display: block; border-radius: {max(0, t.radius - 4)}px; }}
.list .card {{ display: flex; gap: 12px; align-items: center; margin: 6px 0; }} .list img {{ width: 96px; height: 72px; }}
table {{ border-collapse: collapse; background: #fff; }} td, th {{ border: 1px solid #c9d1d9; padding: 4px 9px; text-align: left; }}
table img {{ width: 48px; height: 36px; display: block; }}
.row {{ display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin: 6px 0; }}
a {{ color: {t.accent}; }}
button, .btn {{ font: inherit; background: {t.accent}; color: #fff; border: 0; border-radius: {t.radius}px; padding: 6px 14px; cursor: pointer; text-decoration: none; display: inline-flex; gap: 6px; align-items: center; }}
.btn.ghost {{ background: #eaeef2; color: #1b1f24; }}
input[type=text], textarea, select {{ font: inherit; padding: 5px 8px; border: 1px solid #8b949e; border-radius: {t.radius}px; width: 240px; background: #fff; }}
input:focus, textarea:focus, select:focus {{ outline: 2px solid {t.accent}; }}
label {{ display: inline-block; min-width: 120px; }}
.muted {{ color: #57606a; }} .tag {{ background: #eaeef2; border-radius: 8px; padding: 2px 9px; color: #1b1f24; text-decoration: none; }}
.ac {{ position: relative; display: inline-block; }} .ac .sugg {{ position: absolute; top: 100%; left: 0; right: 0; background: #fff; border: 1px solid #c9d1d9; z-index: 15; }}
.ac .sugg a {{ display: block; padding: 4px 8px; color: #1b1f24; text-decoration: none; }}
.tabs {{ display: flex; gap: 4px; border-bottom: 2px solid {t.accent}; margin-top: 10px; }}
.tabs [role=tab] {{ padding: 5px 14px; background: #eaeef2; border-radius: {t.radius}px {t.radius}px 0 0; cursor: pointer; }}
.tabs [role=tab][aria-selected=true] {{ background: {t.accent}; color: #fff; }}
.panel {{ padding: 8px 2px; }} .panel[hidden] {{ display: none; }}
.dp {{ position: relative; display: inline-block; }} .dp .cal {{ position: absolute; bottom: 100%; left: 0; background: #fff; border: 1px solid #8b949e; padding: 4px; z-index: 12; display: grid; grid-template-columns: repeat(7, 26px); gap: 2px; }}
.dp .cal[hidden] {{ display: none; }} .dp .cal button {{ padding: 2px; font-size: 0.8em; justify-content: center; }}
#cookie {{ position: fixed; left: 0; right: 0; bottom: 0; background: #24292f; color: #fff; padding: 16px 24px; z-index: 30; display: flex; gap: 16px; align-items: center; }}
#modal-back {{ position: fixed; inset: 0; background: rgba(0,0,0,0.45); z-index: 40; display: flex; align-items: center; justify-content: center; }}
#modal-back[hidden] {{ display: none; }} #modal {{ background: #fff; padding: 20px 26px; border-radius: {t.radius}px; min-width: 320px; }}
.saved-row {{ display: flex; gap: 10px; align-items: center; border: 1px solid #c9d1d9; background: #fff; padding: 6px 10px; margin: 4px 0; border-radius: {t.radius}px; }}
[data-drag] {{ cursor: grab; color: #57606a; display: inline-flex; padding: 4px; }}
footer {{ margin-top: 24px; padding: 12px 0; color: #57606a; border-top: 1px solid #c9d1d9; font-size: 0.85em; }}
.ico {{ vertical-align: middle; }}
"""


# Link and form navigations go to the env (see `_site.NAV_SCRIPT`); forms marked data-confirm ask
# first in a dialog; selects marked data-go navigate on change; the search field suggests names;
# the date field opens a month of day buttons; tabs switch panels; drag handles reorder rows;
# a listing marked data-more loads the next page when the page has scrolled and its end is in view.
# That last check is `window.__gymvMore`, which the env's settling calls after every action and
# waits for (`_page.SETTLE_JS`), not a scroll listener: a scroll event fires on a later frame, so
# its load raced the settling, and under load the page text of a step sometimes held the next
# page's items and sometimes not (16 of 66 repeats of six held-out-layout levels differed with
# two cores busy; 0 of 66 with the check in the settling).
PAGE_SCRIPT = """
window.__gymvNav = null;
const go = u => { window.__gymvNav = u; };
document.addEventListener('click', e => {
  const a = e.target.closest ? e.target.closest('a[href]') : null;
  if (a) { e.preventDefault(); go(a.getAttribute('href')); return; }
  const t = e.target.closest ? e.target.closest('[role=tab]') : null;
  if (t) { for (const o of t.parentElement.querySelectorAll('[role=tab]')) { o.setAttribute('aria-selected', String(o === t));
      document.getElementById(o.getAttribute('aria-controls')).hidden = o !== t; } return; }
  const d = e.target.closest ? e.target.closest('[data-day]') : null;
  if (d) { e.preventDefault(); const inp = d.closest('.dp').querySelector('input'); inp.value = d.getAttribute('data-day'); d.closest('.cal').hidden = true; return; }
  const c = e.target.closest ? e.target.closest('#modal-ok') : null;
  if (c && window.__pending) { const f = window.__pending; window.__pending = null; document.getElementById('modal-back').hidden = true; send(f); return; }
  const x = e.target.closest ? e.target.closest('#modal-cancel') : null;
  if (x) { window.__pending = null; document.getElementById('modal-back').hidden = true; }
}, true);
const send = f => { const q = new URLSearchParams(new FormData(f)).toString(); go(f.getAttribute('action') + (q ? '?' + q : '')); };
document.addEventListener('submit', e => { e.preventDefault(); const f = e.target;
  if (f.hasAttribute('data-confirm')) { window.__pending = f; document.getElementById('modal-text').textContent = f.getAttribute('data-confirm');
    document.getElementById('modal-back').hidden = false; return; }
  send(f); }, true);
document.addEventListener('change', e => { const s = e.target;
  if (s.matches && s.matches('select[data-go]')) { const u = new URL(location.href); if (s.value) u.searchParams.set(s.name, s.value); else u.searchParams.delete(s.name);
    u.searchParams.delete('page'); go(u.pathname + u.search); } }, true);
document.addEventListener('input', e => { const s = e.target;
  if (s.matches && s.matches('input[type=range]')) { const o = document.getElementById(s.id + '-out'); if (o) o.textContent = s.value; }
  if (s.matches && s.matches('input[data-suggest]')) { const box = s.parentElement.querySelector('.sugg'); const w = s.value.trim().toLowerCase();
    const names = JSON.parse(s.getAttribute('data-suggest')); box.innerHTML = '';
    if (w.length >= 2) for (const [n, h] of names.filter(([n]) => n.toLowerCase().includes(w)).slice(0, 5)) { const a = document.createElement('a'); a.href = h; a.textContent = n; box.appendChild(a); }
    box.hidden = !box.children.length; } }, true);
document.addEventListener('focusin', e => { const s = e.target; if (s.matches && s.matches('.dp input')) s.parentElement.querySelector('.cal').hidden = false; }, true);
document.addEventListener('keydown', e => {
  const t = e.target, edit = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
  if (!edit && ['ArrowUp','ArrowDown','ArrowLeft','ArrowRight','Home','End',' ','PageUp','PageDown'].includes(e.key)) e.preventDefault();
}, true);
let drag = null;
document.addEventListener('mousedown', e => { const h = e.target.closest ? e.target.closest('[data-drag]') : null; if (h) { drag = h.getAttribute('data-drag'); e.preventDefault(); } }, true);
document.addEventListener('mouseup', e => { if (!drag) return; const src = drag; drag = null;
  const rows = [...document.querySelectorAll('[data-row]')]; const ids = rows.map(r => r.getAttribute('data-row'));
  let to = rows.findIndex(r => { const b = r.getBoundingClientRect(); return e.clientY < b.top + b.height / 2; }); if (to < 0) to = rows.length;
  const from = ids.indexOf(src); if (from < 0) return; ids.splice(from, 1); if (to > from) to -= 1; ids.splice(to, 0, src);
  go('/do/reorder?order=' + ids.join(',')); }, true);
let seenScroll = '0,0';
window.__gymvMore = () => { const at = scrollX + ',' + scrollY; if (at === seenScroll) return null; seenScroll = at;
  const m = document.querySelector('[data-more]'); if (!m || m.getBoundingClientRect().top >= innerHeight + 40) return null;
  return fetch(m.getAttribute('data-more')).then(r => r.text()).then(h => {
    const box = document.getElementById('items'); const t = document.createElement('template'); t.innerHTML = h;
    const next = t.content.querySelector('[data-more]'); m.remove(); for (const n of [...t.content.children]) if (!n.hasAttribute('data-more')) box.appendChild(n);
    if (next) box.after(next); return true; }, () => false); };
"""


def shell(layout: Layout, brand: str, logo: str, title: str, body: str, nav_links: list[tuple[str, str, str]],
          categories: list[tuple[str, str]], crumbs: list[tuple[str, str]], cookie: bool) -> str:
    """The whole page: navigation as the style places it, breadcrumbs, body, footer, cookie banner, dialog."""
    links = "".join(f"<a href='{h}'{' id=home' if h == '/' else ''}>{icon(i)}{escape(label)}</a>" for h, label, i in nav_links)
    cats = ""
    if layout.categories == "hover":
        cats = ("<div data-hover-menu><span class='trigger' data-hover-trigger>Categories &#9662;</span><div class='menu'>"
                + "".join(f"<a href='{h}'>{escape(n)}</a>" for n, h in categories) + "</div></div>")
    elif layout.categories == "sidebar":
        cats = "<div class='muted' style='color:#fff;margin-top:10px'>Browse</div>" + "".join(
            f"<a href='{h}'>{escape(n)}</a>" for n, h in categories)
    nav = (f"<nav id='nav'><span class='brand'><img src='{logo}' alt='{escape(brand)} logo'>{escape(brand)}</span>"
           f"{links}{cats}</nav>")
    trail = ""
    if layout.style in ("sidebar", "dashboard", "split") and crumbs:
        trail = "<div class='crumbs'>" + " &rsaquo; ".join(
            f"<a href='{h}'>{escape(n)}</a>" if h else escape(n) for n, h in crumbs) + "</div>"
    footer = ""
    if layout.style in ("topbar", "magazine"):
        footer = (f"<footer>&copy; 2026 {escape(brand)} &middot; <a href='/about'>About</a> &middot; "
                  "<a href='/help'>Help</a> &middot; Prices and availability may change.</footer>")
    banner = ("<div id='cookie' role='dialog' aria-label='Cookies'><span>We use cookies to run this site and to "
              "remember your choices.</span><a class='btn' data-gymv-next='cookie' href='/do/cookies'>Accept all</a>"
              "<a class='btn ghost' href='/do/cookies'>Only necessary</a></div>") if cookie else ""
    modal = ("<div id='modal-back' hidden><div id='modal' role='dialog' aria-label='Confirm'><p id='modal-text'></p>"
             "<div class='row'><button type='button' id='modal-ok' data-gymv-next='confirm'>Confirm</button>"
             "<button type='button' class='btn ghost' id='modal-cancel'>Cancel</button></div></div></div>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{css(layout)}</style><script>{PAGE_SCRIPT}</script></head><body>"
            f"<div id='wrap'>{nav}<main>{trail}{body}{footer}</main></div>{banner}{modal}"
            f"<img src='http://analytics.example.com/pixel.gif' alt='' style='display:none'></body></html>")
