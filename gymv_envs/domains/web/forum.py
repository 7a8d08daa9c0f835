"""Forum site (held-out template, tagged ``split:test``): threads, replies, votes, a reply form.

Tasks: who started a thread, how many replies it has, post a reply, upvote a reply.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc

USERS = ("pixelfox", "quietoak", "rivermint", "stormbyte", "tinkerbee", "urbanowl", "velvetsky", "wanderjay", "zenpebble", "lumenkit")
SUBJECTS = ("Best budget tent?", "Sourdough keeps collapsing", "Router drops every hour", "First marathon tips",
            "Which e-reader to buy", "Balcony tomato disease", "Learning Rust after Python", "Noisy fridge fix",
            "Cheap monitor arms", "Houseplants for dark rooms", "Bike chain skipping", "Board games for two",
            "Kayak storage ideas", "Fixing a squeaky door", "Starting a podcast")
REPLIES = ("Same problem here.", "Try the other setting.", "Worked for me, thanks!", "I would return it.",
           "Check the manual first.", "Depends on your budget.", "Great question.", "Here is what I did.")


class ForumSite(Site):
    title = "TalkBoard"
    nav = (("/", "Threads"), ("/search", "Search"))
    held_out = True

    def generate(self, rng: np.random.Generator) -> None:
        n = (4, 8, 14)[self.difficulty]
        self.threads = [{"id": i + 1, "title": t, "author": R.choice(rng, USERS),
                         "posts": [{"user": u, "text": R.choice(rng, REPLIES), "votes": int(rng.integers(0, 20))}
                                   for u in R.sample(rng, USERS, int(rng.integers(1, 7)))]} for i, t in enumerate(R.sample(rng, SUBJECTS, n))]

    def page_home(self, q: dict) -> str:
        rows = "".join(f"<tr><td><a href='/thread?id={t['id']}'>{esc(t['title'])}</a></td><td>{t['author']}</td></tr>" for t in self.threads)
        return self.shell("Threads", f"<h1>Latest threads</h1><table><tr><th>Thread</th><th>Started by</th></tr>{rows}</table>")

    def page_search(self, q: dict) -> str:
        words = q.get("q", "").lower().split()
        hits = "".join(f"<li><a href='/thread?id={t['id']}'>{esc(t['title'])}</a></li>" for t in self.threads if words and all(w in t["title"].lower() for w in words))
        return self.shell("Search", f"<h1>Search threads</h1><form id='search' action='/search' class='row'><input type='text' name='q' value='{esc(q.get('q', ''))}'>"
                          f"<button type='submit'>Go</button></form><ul>{hits}</ul>")

    def page_thread(self, q: dict) -> str:
        t = self.threads[int(q.get("id", "1")) - 1]
        posts = "".join(f"<div class='card'><b>{p['user']}</b>: {esc(p['text'])} <span class='muted'>{p['votes']} votes</span> "
                        f"<a id='up-{t['id']}-{i}' href='/do/vote?t={t['id']}&p={i}'>&#9650; upvote</a></div>" for i, p in enumerate(t["posts"]))
        return self.shell(t["title"], f"<h1>{esc(t['title'])}</h1><p class='muted'>Started by {t['author']} · {len(t['posts'])} replies</p>{posts}"
                          f"<form id='reply' action='/do/reply'><input type='hidden' name='t' value='{t['id']}'><p><textarea name='text' rows='2'></textarea></p>"
                          "<button type='submit'>Post reply</button></form>")

    def do_vote(self, q: dict) -> str:
        t = self.threads[int(q.get("t", "1")) - 1]
        t["posts"][int(q.get("p", "0"))]["votes"] += 1
        return f"/thread?id={t['id']}"

    def do_reply(self, q: dict) -> str:
        t = self.threads[int(q.get("t", "1")) - 1]
        t["posts"].append({"user": "you", "text": q.get("text", "").strip(), "votes": 0})
        return f"/thread?id={t['id']}"


class _ForumTask(WebEnv):
    site_cls = ForumSite

    def _setup(self, rng: np.random.Generator) -> None:
        self._t = R.choice(rng, self._site.threads)

    def _route(self) -> tuple[Step, ...]:
        if self.difficulty < 2:
            return (Step("link", f"/thread?id={self._t['id']}"),)
        title = self._t["title"].split()[0]
        return (Step("link", "/search"), Step("form", "#search", (("#search input[name=q]", title),), url=f"/search?q={title}"),
                Step("link", f"/thread?id={self._t['id']}"))


class ForumThreadAuthor(_ForumTask):
    __doc__ = web_doc("Name the user who started a given thread on a generated forum (held-out template).",
                      "The thread list and each thread page show the author.", "4/8/14 threads")

    def _task_text(self) -> str:
        return f"You are on the TalkBoard forum. Which user started the thread '{self._t['title']}'? Answer with the user name."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("author", answer_matches(self._final_answer, self._t["author"]))]

    def _plan(self) -> list[Goal]:
        return [Goal(self._route(), Step("answer", value=self._t["author"]))]

    def _answer(self) -> str:
        return f"author: {self._t['author']}"


class ForumReplyCount(_ForumTask):
    __doc__ = web_doc("Count the replies of a given thread on a generated forum (held-out template).",
                      "Open the thread and count.", "4/8/14 threads")

    def _task_text(self) -> str:
        return f"You are on the TalkBoard forum. How many replies does the thread '{self._t['title']}' have? Answer with a number."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("count", answer_matches(self._final_answer, len(self._site_initial.threads[self._t['id'] - 1]["posts"])))]

    def _plan(self) -> list[Goal]:
        return [Goal(self._route(), Step("answer", value=str(len(self._site_initial.threads[self._t['id'] - 1]["posts"]))))]

    def _answer(self) -> str:
        return f"replies: {len(self._site_initial.threads[self._t['id'] - 1]['posts'])}"


class ForumPostReply(_ForumTask):
    __doc__ = web_doc("Post a given reply in a given thread on a generated forum (held-out template).",
                      "The rubric checks your reply's thread and text.", "4/8/14 threads")

    def _setup(self, rng: np.random.Generator) -> None:
        super()._setup(rng)
        self._text = f"{R.choice(rng, ('Thanks', 'Agreed', 'Good tip'))}, {R.choice(rng, ('it helped', 'will try it', 'see you soon'))}"

    def _task_text(self) -> str:
        return f"You are on the TalkBoard forum. In the thread '{self._t['title']}', post the reply '{self._text}', then reply done."

    def _caption(self) -> list:
        return [f"Reply '{self._text}' in '{self._t['title']}'"]

    def _mine(self) -> list[tuple[int, dict]]:
        return [(t["id"], p) for t in self._site.threads for p in t["posts"] if p["user"] == "you"]

    def _criteria(self) -> list[tuple[str, bool]]:
        m = self._mine()
        return [("one reply", len(m) == 1), ("right thread", len(m) == 1 and m[0][0] == self._t["id"]), ("text", len(m) == 1 and m[0][1]["text"] == self._text)]

    def _plan(self) -> list[Goal]:
        return [Goal(self._route(), Step("form", "#reply", (("#reply textarea[name=text]", self._text),)), done=lambda: bool(self._mine())), Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"reply in thread {self._t['id']}"


class ForumUpvote(_ForumTask):
    __doc__ = web_doc("Upvote the reply by a given user in a given thread on a generated forum (held-out template).",
                      "Exactly one upvote on exactly that reply.", "4/8/14 threads")

    def _setup(self, rng: np.random.Generator) -> None:
        super()._setup(rng)
        self._i = int(rng.integers(len(self._t["posts"])))

    def _task_text(self) -> str:
        return f"You are on the TalkBoard forum. In the thread '{self._t['title']}', upvote the reply by {self._t['posts'][self._i]['user']} once, then reply done."

    def _caption(self) -> list:
        return [f"Upvote {self._t['posts'][self._i]['user']} once in '{self._t['title']}'"]

    def _votes(self) -> list[int]:
        return [p["votes"] for t in self._site.threads for p in t["posts"]]

    def _criteria(self) -> list[tuple[str, bool]]:
        before = [p["votes"] for t in self._site_initial.threads for p in t["posts"]]
        after = self._votes()
        k = sum(len(t["posts"]) for t in self._site.threads[: self._t["id"] - 1]) + self._i
        return [("upvoted", len(after) == len(before) and after[k] == before[k] + 1),
                ("nothing else", len(after) == len(before) and all(a == b for j, (a, b) in enumerate(zip(after, before)) if j != k))]

    def _plan(self) -> list[Goal]:
        done = lambda: self._t["posts"][self._i]["votes"] > self._site_initial.threads[self._t["id"] - 1]["posts"][self._i]["votes"]
        return [Goal(self._route(), Step("click", f"#up-{self._t['id']}-{self._i}"), done=done), Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"upvote post {self._i} of thread {self._t['id']}"


_TAGS = ("web", "site:forum", "split:test")
SPECS = (
    TaskSpec("WebForumThreadAuthor", ForumThreadAuthor, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebForumReplyCount", ForumReplyCount, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebForumPostReply", ForumPostReply, version=1, max_episode_steps=30, tags=_TAGS),
    TaskSpec("WebForumUpvote", ForumUpvote, version=1, max_episode_steps=25, tags=_TAGS),
)
