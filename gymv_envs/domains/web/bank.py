"""Bank site: accounts with balances, paged transactions, transfers, and a multi-page application form.

Tasks: read a balance, find the last payment to a merchant, make a transfer, fill the
multi-page card application.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import rng as R
from gymv_envs.core.spec import TaskSpec
from gymv_envs.domains.web._base import Goal, Step, WebEnv, answer_matches, web_doc
from gymv_envs.domains.web._site import Site, esc, money

ACCOUNTS = ("Checking", "Savings", "Travel fund", "Household")
MERCHANTS = ("GreenGrocer", "CityPower", "MetroRail", "BookNook", "PetPal", "CafeLuna", "FitClub", "WaterWorks")
PAYEES = ("J. Rivera", "M. Osei", "K. Larsen", "P. Nair")
PER_PAGE = 8
APP_PAGES = (("personal", (("first", "First name"), ("last", "Last name"))),
             ("address", (("street", "Street"), ("city", "City"))),
             ("work", (("employer", "Employer"), ("income", "Yearly income"))))


class BankSite(Site):
    title = "CivicBank"
    nav = (("/", "Accounts"), ("/transactions", "Transactions"), ("/transfer", "Transfer"), ("/apply", "Apply for a card"))

    def generate(self, rng: np.random.Generator) -> None:
        self.accounts = {a: round(float(rng.integers(1000, 900000)) / 100, 2) for a in ACCOUNTS[: 2 + self.difficulty]}
        n = (6, 14, 24)[self.difficulty]
        self.tx = [{"day": 30 - i, "merchant": R.choice(rng, MERCHANTS), "amount": round(float(rng.integers(300, 30000)) / 100, 2)} for i in range(n)]
        self.transfers: list[dict] = []
        self.application: dict[str, str] = {}
        self.submitted: dict[str, str] | None = None

    def page_home(self, q: dict) -> str:
        rows = "".join(f"<tr><td>{a}</td><td>{money(b)}</td></tr>" for a, b in self.accounts.items())
        return self.shell("Accounts", f"<h1>Your accounts</h1><table><tr><th>Account</th><th>Balance</th></tr>{rows}</table>")

    def page_transactions(self, q: dict) -> str:
        page = int(q.get("page", "1") or 1)
        pages = -(-len(self.tx) // PER_PAGE)
        rows = "".join(f"<tr><td>2026-04-{t['day']:02d}</td><td>{t['merchant']}</td><td>{money(t['amount'])}</td></tr>"
                       for t in self.tx[(page - 1) * PER_PAGE: page * PER_PAGE])
        pager = " ".join(f"<a href='/transactions?page={k}'>Page {k}</a>" for k in range(1, pages + 1) if k != page)
        return self.shell("Transactions", f"<h1>Transactions (newest first)</h1><table><tr><th>Date</th><th>Merchant</th><th>Amount</th></tr>{rows}</table><p>{pager}</p>")

    def page_transfer(self, q: dict) -> str:
        radios = "".join(f"<label style='min-width:0'><input type='radio' name='src' value='{a}' id='src-{i}'> {a}</label> " for i, a in enumerate(self.accounts))
        return self.shell("Transfer", f"<h1>Transfer money</h1><form id='transfer' action='/do/transfer'><p>From: {radios}</p>"
                          "<p><label>To (payee)</label><input type='text' name='to'></p><p><label>Amount</label><input type='text' name='amount'></p>"
                          "<button type='submit'>Send transfer</button></form>")

    def do_transfer(self, q: dict) -> str:
        try:
            amount = round(float(q.get("amount", "").replace("$", "").replace(",", "")), 2)
        except ValueError:
            amount = 0.0
        src = q.get("src", "")
        if src in self.accounts and amount > 0:
            self.accounts[src] = round(self.accounts[src] - amount, 2)
            self.transfers.append({"src": src, "to": q.get("to", "").strip(), "amount": amount})
        return "/"

    def page_apply(self, q: dict) -> str:
        step = int(q.get("step", "0") or 0)
        if step >= len(APP_PAGES):
            rows = "".join(f"<tr><th>{k}</th><td>{esc(v)}</td></tr>" for k, v in self.application.items())
            return self.shell("Review", f"<h1>Review your application</h1><table>{rows}</table><p><a id='submit-app' class='btn' href='/do/submit'>Submit application</a></p>")
        name, fields = APP_PAGES[step]
        inputs = "".join(f"<p><label>{label}</label><input type='text' name='{f}'></p>" for f, label in fields)
        return self.shell("Apply", f"<h1>Card application: step {step + 1} of {len(APP_PAGES)} ({name})</h1>"
                          f"<form id='app' action='/do/app'><input type='hidden' name='step' value='{step}'>{inputs}<button type='submit'>Next</button></form>")

    def do_app(self, q: dict) -> str:
        step = int(q.get("step", "0") or 0)
        for key, value in q.items():
            if key != "step":
                self.application[key] = value.strip()
        return f"/apply?step={step + 1}"

    def do_submit(self, q: dict) -> str:
        self.submitted = dict(self.application)
        return "/"


class _BankTask(WebEnv):
    site_cls = BankSite


class BankBalance(_BankTask):
    __doc__ = web_doc("Read an account's balance on a generated online-banking site.", "The accounts page lists balances.",
                      "2/3/4 accounts")

    def _setup(self, rng: np.random.Generator) -> None:
        self._acct = R.choice(rng, list(self._site.accounts))

    def _task_text(self) -> str:
        return f"You are on the CivicBank online banking site. What is the balance of the '{self._acct}' account? Answer with the amount."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("balance", answer_matches(self._final_answer, self._site_initial.accounts[self._acct]))]

    def _plan(self) -> list[Goal]:
        return [Goal((Step("link", "/"),), Step("answer", value=money(self._site_initial.accounts[self._acct])))]

    def _answer(self) -> str:
        return f"balance: {money(self._site_initial.accounts[self._acct])}"


class BankLastPayment(_BankTask):
    __doc__ = web_doc("Find the most recent payment to a merchant in a generated bank's paged transaction list.",
                      "Transactions are newest first, 8 per page.", "6/14/24 transactions")

    def _setup(self, rng: np.random.Generator) -> None:
        tx = self._site.tx
        lo = 0 if self.difficulty == 0 else min(len(tx) - 1, PER_PAGE * self.difficulty)
        t = tx[int(rng.integers(lo, len(tx)))]
        self._m = t["merchant"]
        self._t = next(x for x in tx if x["merchant"] == self._m)
        if self.difficulty and tx.index(self._t) < PER_PAGE:
            for x in tx[:PER_PAGE]:
                if x["merchant"] == self._m:
                    x["merchant"] = R.choice(rng, [m for m in MERCHANTS if m != self._m])
            self._t = next(x for x in tx if x["merchant"] == self._m)

    def _task_text(self) -> str:
        return f"You are on the CivicBank online banking site. How much was the most recent payment to {self._m}? Answer with the amount."

    def _criteria(self) -> list[tuple[str, bool]]:
        return [("amount", answer_matches(self._final_answer, self._t["amount"]))]

    def _plan(self) -> list[Goal]:
        page = self._site.tx.index(self._t) // PER_PAGE + 1
        route = (Step("link", "/transactions"),) + ((Step("link", f"/transactions?page={page}"),) if page > 1 else ())
        return [Goal(route, Step("answer", value=money(self._t["amount"])))]

    def _answer(self) -> str:
        return f"amount: {money(self._t['amount'])}"


class BankTransfer(_BankTask):
    __doc__ = web_doc("Transfer an amount from a given account to a payee on a generated online-banking site.",
                      "A radio button picks the source account; the rubric checks the recorded transfer.", "2/3/4 accounts")

    def _setup(self, rng: np.random.Generator) -> None:
        self._src = R.choice(rng, list(self._site.accounts))
        self._to, self._amount = R.choice(rng, PAYEES), float(rng.integers(10, 500))

    def _task_text(self) -> str:
        return f"You are on the CivicBank online banking site. Transfer {money(self._amount)} from the '{self._src}' account to {self._to}, then reply done."

    def _criteria(self) -> list[tuple[str, bool]]:
        t = self._site.transfers
        return [("one transfer", len(t) == 1), ("source", len(t) == 1 and t[0]["src"] == self._src),
                ("payee", len(t) == 1 and t[0]["to"] == self._to), ("amount", len(t) == 1 and abs(t[0]["amount"] - self._amount) < 0.005)]

    def _plan(self) -> list[Goal]:
        i = list(self._site.accounts).index(self._src)
        form = Step("form", "#transfer", ((f"#src-{i}", True), ("#transfer input[name=to]", self._to), ("#transfer input[name=amount]", f"{self._amount:.2f}")))
        return [Goal((Step("link", "/transfer"),), form, done=lambda: bool(self._site.transfers)), Goal((), Step("done"))]

    def _answer(self) -> str:
        return f"transfer: {self._src} -> {self._to}, {self._amount:.2f}"


class BankCardApplication(_BankTask):
    __doc__ = web_doc("Fill a multi-page card application with given personal details and submit it.",
                      "Three form pages then a review page; every field is a rubric criterion.",
                      "0: names only (others blank); 1: names and address; 2: every field")

    def _setup(self, rng: np.random.Generator) -> None:
        values = {"first": R.choice(rng, ("Nora", "Ivan", "Zoe", "Ravi", "Lucia")), "last": R.choice(rng, ("Quinn", "Meyer", "Sousa", "Ito")),
                  "street": f"{int(rng.integers(1, 99))} {R.choice(rng, ('Elm', 'Mill', 'Bay'))} Road", "city": R.choice(rng, ("Leeds", "Graz", "Turin", "Malmo")),
                  "employer": R.choice(rng, ("Acme Ltd", "Blue Labs", "Northwind")), "income": str(int(rng.integers(20, 150)) * 1000)}
        keep = (2, 4, 6)[self.difficulty]
        self._want = dict(list(values.items())[:keep])

    def _task_text(self) -> str:
        details = "; ".join(f"{label.lower()}: {self._want[f]}" for _, fields in APP_PAGES for f, label in fields if f in self._want)
        return (f"You are on the CivicBank online banking site. Apply for a card with these details ({details}); leave other fields empty. "
                "Go through every step of the application, submit it on the review page, then reply done.")

    def _caption(self) -> list:
        # the details first: the whole instruction does not fit a small frame's strip legibly
        return ["Card application: " + ", ".join(self._want.values())]

    def _criteria(self) -> list[tuple[str, bool]]:
        s = self._site.submitted
        return [("submitted", s is not None)] + [(f, s is not None and s.get(f, "") == self._want.get(f, "")) for _, fs in APP_PAGES for f, _ in fs]

    def _plan(self) -> list[Goal]:
        goals = []
        url = "/apply"
        for step, (_, fields) in enumerate(APP_PAGES):
            route = (Step("link", "/apply"),) if step == 0 else (Step("link", "/apply"), Step("link", url))
            want = tuple((f"#app input[name={f}]", self._want[f]) for f, _ in fields if f in self._want)
            goals.append(Goal(route[-1:], Step("form", "#app", want, url=f"/apply?step={step + 1}"),
                              done=lambda step=step: self._site.submitted is not None or self._url_step() > step))
            url = f"/apply?step={step + 1}"
        goals.append(Goal((Step("link", url),), Step("click", "#submit-app"), done=lambda: self._site.submitted is not None))
        return [*goals, Goal((), Step("done"))]

    def _url_step(self) -> int:
        return int(self._url.split("step=")[1]) if "/apply?step=" in self._url else 0

    def _answer(self) -> str:
        return "application: " + ", ".join(f"{k}={v}" for k, v in self._want.items())


_TAGS = ("web", "site:bank", "split:train")
SPECS = (
    TaskSpec("WebBankBalance", BankBalance, version=1, max_episode_steps=15, tags=_TAGS),
    TaskSpec("WebBankLastPayment", BankLastPayment, version=1, max_episode_steps=20, tags=_TAGS),
    TaskSpec("WebBankTransfer", BankTransfer, version=1, max_episode_steps=30, tags=_TAGS),
    TaskSpec("WebBankCardApplication", BankCardApplication, version=1, max_episode_steps=50, tags=_TAGS),
)
