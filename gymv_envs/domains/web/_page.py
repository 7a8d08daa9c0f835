"""What the env reads from a live page with one script each: settling, element ids, the outline.

``SETTLE_JS`` runs after every action: it waits for fonts and for every picture to be decoded, lets
the page load what scrolling asked for (``window.__gymvMore``, an infinite listing's next page, see
`_layout.PAGE_SCRIPT`) and waits for that too, gives every interactive element an
element id (``data-gymv-bid``, numbered in document order and kept for the page's life, so an
id keeps naming the same element), takes the navigation the page script caught (if any) and
returns the URL, the page text and a view signature (the document, DOM changes, scroll, focus and
its value, hover, URL), in one round trip. A step whose signature is unchanged keeps the last
screenshot. The document is in it because a navigation to the same URL (a removal that redirects
back to the list) can leave all the rest unchanged, and then the step kept the frame of the page
before it (WebHotelCurate-v0 difficulty 1, seed 1 at 768x1024: steps 10 and 11 in 3 of 4 plays; the fourth had
a different hover at the step before, so it took a new screenshot).

``AXTREE_JS`` is the accessibility-tree observation (``observation="axtree"`` or ``"both"``):
one line per visible heading, text block, image, link, button and form field, in document
order, indented by depth, interactive ones prefixed with their element id::

    [3] link "Cart (2)"
    heading "Blue Parka"
      text "Price: $65.22"
      [14] combobox "Size" value="M" options: S, M, L
"""

from __future__ import annotations

INTERACTIVE = ("a[href], button, input:not([type=hidden]), select, textarea, [role=tab], [role=button], "
               "[role=option], [data-drag], summary")

SETTLE_JS = """async () => { await document.fonts.ready;
  const pictures = () => Promise.all([...document.images].map(i => i.complete ? (i.naturalWidth ? i.decode().catch(() => 0) : 0)
    : new Promise(r => { i.addEventListener('load', () => i.decode().catch(() => 0).then(r)); i.addEventListener('error', r); })));
  await pictures();
  if (window.__gymvMore && await window.__gymvMore()) await pictures();
  let k = window.__gymvBid || 0;
  for (const e of document.querySelectorAll('%s')) if (!e.hasAttribute('data-gymv-bid')) e.setAttribute('data-gymv-bid', String(++k));
  window.__gymvBid = k;
  const n = window.__gymvNav; window.__gymvNav = null;
  const a = document.activeElement, hv = [...document.querySelectorAll(':hover')].pop();
  const view = [performance.timeOrigin, window.__gymvMut || 0, scrollX, scrollY, a ? a.getAttribute('data-gymv-bid') || a.tagName : '',
    a && 'value' in a ? String(a.value) + ':' + (a.selectionStart ?? '') + ':' + !!a.checked : '',
    hv ? hv.getAttribute('data-gymv-bid') || hv.tagName : '', location.href].join('|');
  return [n, location.pathname + location.search, document.body ? document.body.innerText : '', view]; }""".replace("%s", INTERACTIVE)

# Installed in every page before its scripts: counts DOM changes, so a step that changed nothing
# on the page (a click on blank space) needs no new screenshot.
MUTATIONS_JS = """(() => { window.__gymvMut = 0; new MutationObserver(() => { window.__gymvMut++; })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); })();"""

# The centre of the element with an id, scrolled into view first when it is outside the viewport.
BID_JS = """(bid) => { const e = document.querySelector(`[data-gymv-bid="${bid}"]`); if (!e) return null;
  let r = e.getBoundingClientRect();
  if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) { e.scrollIntoView({block: 'center'}); r = e.getBoundingClientRect(); }
  if (r.width < 1 || r.height < 1) return null;
  return [r.left + r.width / 2, r.top + r.height / 2, e.tagName.toLowerCase()]; }"""

# Choose an option (by its label or value, case-insensitively) of the <select> at a point.
SELECT_JS = """([x, y, want]) => { let e = document.elementFromPoint(x, y);
  while (e && e.tagName !== 'SELECT') e = e.parentElement;
  if (!e) { const l = document.elementFromPoint(x, y); e = l && l.tagName === 'LABEL' && l.control && l.control.tagName === 'SELECT' ? l.control : null; }
  if (!e) return 'no dropdown there';
  const w = want.trim().toLowerCase();
  const o = [...e.options].find(o => o.text.trim().toLowerCase() === w || o.value.toLowerCase() === w);
  if (!o) return 'no option ' + JSON.stringify(want) + '; options: ' + [...e.options].map(o => o.text.trim()).join(', ');
  e.focus(); e.value = o.value; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));
  return ''; }"""

AXTREE_JS = """() => { const out = []; const seen = new Set();
  const vis = e => { const r = e.getBoundingClientRect(); if (r.width < 1 || r.height < 1) return false;
    const s = getComputedStyle(e); return s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0'; };
  const q = t => JSON.stringify((t || '').replace(/\\s+/g, ' ').trim().slice(0, 100));
  const role = e => { const t = e.tagName.toLowerCase(), r = e.getAttribute('role'); if (r) return r;
    if (t === 'a') return 'link'; if (t === 'button' || t === 'summary') return 'button'; if (t === 'select') return 'combobox';
    if (t === 'textarea') return 'textbox'; if (t === 'img' || t === 'svg') return 'img';
    if (t === 'input') { const k = e.type; return k === 'checkbox' ? 'checkbox' : k === 'radio' ? 'radio' : k === 'range' ? 'slider' : k === 'submit' ? 'button' : 'textbox'; }
    if (/^h[1-6]$/.test(t)) return 'heading'; return 'text'; };
  const label = e => { const a = e.getAttribute('aria-label') || e.getAttribute('alt') || e.getAttribute('title'); if (a) return a;
    if (e.labels && e.labels.length) return e.labels[0].innerText; if (e.placeholder) return e.placeholder;
    return e.innerText || e.value || ''; };
  const walk = (e, depth) => { for (const c of e.children) {
      if (!vis(c) && c.tagName !== 'OPTION') { if (c.children.length && getComputedStyle(c).display !== 'none') walk(c, depth); continue; }
      const t = c.tagName.toLowerCase(); if (['script', 'style', 'option'].includes(t)) continue;
      const bid = c.getAttribute('data-gymv-bid');
      const leaf = !c.querySelector('*:not(b):not(i):not(em):not(strong):not(span):not(br):not(small)');
      if (bid) { let line = `[${bid}] ${role(c)} ${q(label(c))}`;
        if ('value' in c && t !== 'button' && t !== 'a') line += ` value=${q(String(c.value))}`;
        if (c.checked) line += ' checked';
        if (t === 'select') line += ' options: ' + [...c.options].map(o => o.text.trim()).join(', ');
        out.push('  '.repeat(depth) + line); continue; }
      if (/^h[1-6]$/.test(t) || t === 'img' || (t === 'svg' && c.getAttribute('aria-label'))) { out.push('  '.repeat(depth) + `${role(c)} ${q(label(c))}`); continue; }
      if (leaf) { const tx = c.innerText; if (tx && tx.trim()) out.push('  '.repeat(depth) + `text ${q(tx)}`); continue; }
      let own = ''; for (const n of c.childNodes) if (n.nodeType === 3) own += n.textContent;
      if (own.trim()) out.push('  '.repeat(depth) + `text ${q(own)}`);
      walk(c, depth + (['main', 'nav', 'section', 'form', 'table', 'ul', 'ol', 'header', 'footer', 'aside', 'dialog'].includes(t) ? 1 : 0));
  } };
  if (document.body) walk(document.body, 0);
  return out.join('\\n').slice(0, 20000); }"""

# Where each element with an id is, in CSS pixels of the viewport (for checks on the DOM).
RECTS_JS = """() => [...document.querySelectorAll('[data-gymv-bid]')].map(e => { const r = e.getBoundingClientRect();
  return [e.getAttribute('data-gymv-bid'), r.left, r.top, r.width, r.height]; })"""
