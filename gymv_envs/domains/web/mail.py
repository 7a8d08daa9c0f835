"""Email client site: inbox with pages and search, message view, reply, compose, archive.

Tasks: find a sender, reply to the email that asks for something, archive a sender's mail,
compose a new email.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc, search_form

PEOPLE = ("Alice Moreau", "Bruno Silva", "Carmen Diaz", "Daniel Kim", "Elena Popescu", "Farid Haddad", "Grace Okafor",
          "Hugo Laurent", "Ines Novak", "Jonas Berg", "Kira Sato", "Liam Walsh")
TOPICS = ("quarterly report", "team lunch", "server upgrade", "design review", "travel plans", "budget draft",
          "hiring update", "client visit", "office move", "training day", "product launch", "security audit")
ASKS = ("invoice number", "meeting room", "project code", "delivery date", "phone number", "badge number")
PER_PAGE = 8


class MailSite(Site):
    title = "QuickMail"
    nav = (("/", "Inbox"), ("/compose", "Compose"), ("/archive", "Archive"), ("/sent", "Sent"))

    def generate(self, rng: np.random.Generator) -> None:
        n = (6, 12, 20)[self.difficulty]
        topics = R.sample(rng, TOPICS, len(TOPICS))
        self.emails = []
        for i in range(n):
            who = R.choice(rng, PEOPLE)
            ask = R.choice(rng, ASKS) if rng.random() < 0.5 else None
            topic = topics[i % len(topics)] + (f" ({i // len(topics) + 1})" if i >= len(topics) else "")
            body = f"Hi, a quick note about the {topic}."
            if ask:
                body += f" Could you send me the {ask}? Thanks."
            self.emails.append({"id": i + 1, "from": who, "addr": who.split()[0].lower() + "@example.org",
                                "subject": topic.capitalize(), "body": body, "ask": ask, "folder": "inbox",
                                "day": int(28 - i)})
        self.sent: list[dict] = []

    def get(self, eid: int) -> dict:
        return self.emails[eid - 1]

    def _list(self, title: str, items: list[dict], base: str, page: int) -> str:
        pages = max(1, -(-len(items) // PER_PAGE))
        rows = "".join(f"<div class='card row'><b style='min-width:150px'>{esc(e['from'])}</b>"
                       f"<a href='/mail?id={e['id']}'>{esc(e['subject'])}</a><span class='muted'>Mar {e['day']}</span></div>"
                       for e in items[(page - 1) * PER_PAGE: page * PER_PAGE])
        pager = " ".join(f"<a href='{base}?page={k}'>Page {k}</a>" for k in range(1, pages + 1) if k != page)
        return self.shell(title, f"<h1>{title}</h1>{search_form('/search')}{rows or '<p>No messages.</p>'}<p>{pager}</p>")

    def page_home(self, q: dict) -> str:
        return self._list("Inbox", [e for e in self.emails if e["folder"] == "inbox"], "/", int(q.get("page", "1") or 1))

    def page_archive(self, q: dict) -> str:
        return self._list("Archive", [e for e in self.emails if e["folder"] == "archive"], "/archive", int(q.get("page", "1") or 1))

    def page_search(self, q: dict) -> str:
        words = q.get("q", "").lower().split()
        hits = [e for e in self.emails if words and all(w in (e["subject"] + " " + e["from"]).lower() for w in words)]
        return self._list("Search results", hits, "/search", 1)

    def page_mail(self, q: dict) -> str:
        e = self.get(int(q.get("id", "1")))
        return self.shell(e["subject"], f"<h1>{esc(e['subject'])}</h1><p><b>From:</b> {esc(e['from'])} &lt;{e['addr']}&gt;</p>"
                          f"<div class='card'>{esc(e['body'])}</div><p class='row'><a id='reply' class='btn' href='/reply?id={e['id']}'>Reply</a>"
                          f"<a id='archive' class='btn' href='/do/archive?id={e['id']}'>Archive</a></p>")

    def page_reply(self, q: dict) -> str:
        e = self.get(int(q.get("id", "1")))
        return self.shell("Reply", f"<h1>Re: {esc(e['subject'])}</h1><p>To: {esc(e['from'])}</p><form id='reply' action='/do/send'>"
                          f"<input type='hidden' name='re' value='{e['id']}'><input type='hidden' name='to' value='{e['addr']}'>"
                          f"<input type='hidden' name='subject' value='Re: {esc(e['subject'])}'>"
                          "<p><textarea name='body' rows='4'></textarea></p><button type='submit'>Send</button></form>")

    def page_compose(self, q: dict) -> str:
        return self.shell("Compose", "<h1>New message</h1><form id='compose' action='/do/send'><input type='hidden' name='re' value='0'>"
                          "<p><label>To</label><input type='text' name='to'></p><p><label>Subject</label><input type='text' name='subject'></p>"
                          "<p><label>Message</label><textarea name='body' rows='4'></textarea></p><button type='submit'>Send</button></form>")

    def do_send(self, q: dict) -> str:
        self.sent.append({"re": int(q.get("re", "0") or 0), "to": q.get("to", "").strip(), "subject": q.get("subject", "").strip(),
                          "body": q.get("body", "").strip()})
        return "/sent"

    def do_archive(self, q: dict) -> str:
        self.get(int(q.get("id", "1")))["folder"] = "archive"
        return "/"

    def page_sent(self, q: dict) -> str:
        rows = "".join(f"<div class='card'>To {esc(m['to'])}: <b>{esc(m['subject'])}</b> {esc(m['body'])}</div>" for m in self.sent)
        return self.shell("Sent", f"<h1>Sent</h1>{rows or '<p>Nothing sent yet.</p>'}")


def _open_route(e: dict) -> tuple[Step, ...]:
    return (Step("form", "#search", (("#search input[name=q]", e["subject"]),), url=f"/search?q={e['subject']}"), Step("link", f"/mail?id={e['id']}"))


class _MailTask(WebEnv):
    site_cls = MailSite

    def _pool(self) -> list[dict]:
        inbox = self._site.emails
        return inbox[:PER_PAGE] if self.difficulty == 0 else inbox[PER_PAGE // 2:]


class MailFindSender(_MailTask):
    __doc__ = web_doc("Find who sent an email with a given subject in a generated webmail inbox.",
                      "The agent finds the message (paging or searching) and answers the sender's name.",
                      "0: 6 emails on one page; 1-2: 12/20 emails over pages")

    def _setup(self, rng: np.random.Generator) -> None:
        self._target = R.choice(rng, self._pool())

    def _task_text(self) -> str:
        return f"You are in the QuickMail webmail. Who sent the email with the subject '{self._target['subject']}'? Answer with the sender's full name."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("sender", answer_matches(self._final_answer, self._target["from"]))]

    def _plan(self) -> list[Goal]:
        return [Goal(_open_route(self._target), Step("answer", value=self._target["from"]))]

    def _answer(self) -> str:
        return f"sender: {self._target['from']}"


class MailReplyToRequest(_MailTask):
    __doc__ = web_doc("Reply to the email that asks for a given thing, giving the value in the instruction.",
                      "The rubric checks that a reply to that very email was sent and that it contains the value.",
                      "0: 6 emails; 1-2: 12/20 emails, more of them asking for things")

    def _setup(self, rng: np.random.Generator) -> None:
        pool = self._pool()
        self._target = R.choice(rng, pool)
        if self._target["ask"] is None:
            self._target["ask"] = R.choice(rng, ASKS)
            self._target["body"] += f" Could you send me the {self._target['ask']}? Thanks."
        others = [e for e in self._site.emails if e is not self._target and e["ask"] == self._target["ask"] and e["from"] == self._target["from"]]
        for e in others:
            e["ask"], e["body"] = None, e["body"].split(" Could")[0]
        self._value = f"{R.choice(rng, ('A', 'K', 'R', 'T'))}-{int(rng.integers(1000, 9999))}"

    def _task_text(self) -> str:
        return (f"You are in the QuickMail webmail. {self._target['from']} sent an email asking for the {self._target['ask']}. "
                f"Reply to that email saying that the {self._target['ask']} is {self._value}, then reply done.")

    def _reply(self) -> dict | None:
        return next((m for m in self._site.sent if m["re"] == self._target["id"]), None)

    def _criteria(self) -> list[tuple[str, bool]]:
        m = self._reply()
        return [("replied to the right email", m is not None), ("reply gives the value", m is not None and self._value in m["body"])]

    def _plan(self) -> list[Goal]:
        form = Step("form", "#reply", (("#reply textarea[name=body]", f"The {self._target['ask']} is {self._value}."),))
        return [Goal((*_open_route(self._target), Step("link", f"/reply?id={self._target['id']}")), form, done=lambda: self._reply() is not None),
                Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"reply to email {self._target['id']} ({self._target['subject']})"


class MailArchiveSender(_MailTask):
    __doc__ = web_doc("Archive every email from one sender in a generated webmail inbox, and nothing else.",
                      "The sender has 1, 2 or 3 emails (by difficulty) among the others.",
                      "number of emails to archive and inbox size")

    def _setup(self, rng: np.random.Generator) -> None:
        emails = self._site.emails
        self._who = R.choice(rng, PEOPLE)
        for e in emails:
            if e["from"] == self._who:
                e["from"] = R.choice(rng, [p for p in PEOPLE if p != self._who])
                e["addr"] = e["from"].split()[0].lower() + "@example.org"
        for e in R.sample(rng, emails, self.difficulty + 1):
            e["from"], e["addr"] = self._who, self._who.split()[0].lower() + "@example.org"
        self._targets = [e["id"] for e in emails if e["from"] == self._who]

    def _task_text(self) -> str:
        return f"You are in the QuickMail webmail. Archive every email from {self._who} (and no other email), then reply done."

    def _criteria(self) -> list[tuple[str, bool]]:
        em = self._site.emails
        return [(f"email {i} archived", em[i - 1]["folder"] == "archive") for i in self._targets] + \
               [("no other archived", all(e["folder"] == "inbox" for e in em if e["id"] not in self._targets))]

    def _plan(self) -> list[Goal]:
        route = lambda i: (Step("form", "#search", (("#search input[name=q]", self._who),), url=f"/search?q={self._who}"), Step("link", f"/mail?id={i}"))
        return [Goal(route(i), Step("click", "#archive"), done=lambda i=i: self._site.emails[i - 1]["folder"] == "archive")
                for i in self._targets] + [Goal((), Step("done"))]

    def _answer(self) -> str:
        return "archive emails " + ", ".join(map(str, self._targets))


class MailCompose(_MailTask):
    __doc__ = web_doc("Send a new email with a given recipient, subject and (at higher difficulty) message.",
                      "The rubric checks a sent email's recipient, subject and message text.",
                      "0: recipient and subject; 1: plus a message; 2: plus a longer message")

    def _setup(self, rng: np.random.Generator) -> None:
        who = R.choice(rng, PEOPLE)
        self._to = who.split()[0].lower() + "@example.org"
        self._subject = f"{R.choice(rng, TOPICS).capitalize()} follow-up"
        words = ("please", "confirm", "the", "new", "schedule", "by", "Friday", "and", "share", "notes")
        self._body = " ".join(R.sample(rng, words, 3 + 3 * self.difficulty)) if self.difficulty else ""

    def _task_text(self) -> str:
        extra = f" and the message '{self._body}'" if self._body else ""
        return f"You are in the QuickMail webmail. Send a new email to {self._to} with the subject '{self._subject}'{extra}, then reply done."

    def _caption(self) -> list:
        return [f"Email {self._to}: '{self._subject}'" + (f" '{self._body}'" if self._body else "")]

    def _mail(self) -> dict | None:
        return next((m for m in self._site.sent if m["to"] == self._to and m["re"] == 0), None)

    def _criteria(self) -> list[tuple[str, bool]]:
        m = self._mail()
        out = [("sent to the recipient", m is not None), ("subject", m is not None and m["subject"] == self._subject)]
        return out + ([("message", m is not None and m["body"] == self._body)] if self._body else [])

    def _plan(self) -> list[Goal]:
        fields = [("#compose input[name=to]", self._to), ("#compose input[name=subject]", self._subject)]
        if self._body:
            fields.append(("#compose textarea[name=body]", self._body))
        return [Goal((Step("link", "/compose"),), Step("form", "#compose", tuple(fields)), done=lambda: self._mail() is not None),
                Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"email to {self._to}: {self._subject}"


_TAGS = ("web", "site:mail", "split:train")
SPECS = (
    TaskSpec("WebMailFindSender", MailFindSender, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebMailReplyToRequest", MailReplyToRequest, version=1, max_episode_steps=30, tags=_TAGS),
    TaskSpec("WebMailArchiveSender", MailArchiveSender, version=1, max_episode_steps=40, tags=_TAGS),
    TaskSpec("WebMailCompose", MailCompose, version=1, max_episode_steps=30, tags=_TAGS),
)
