"""A zero-shot VLM agent for any OpenAI-compatible chat-completions endpoint.

The agent shows the model the env's ``instruction``, the current image(s) (every view a
wrapper supplies) and a window of earlier turns, and reads the reply with the env's own
``parse_action``. It speaks HTTP with the standard library only, so the ``vlm`` extra needs
nothing installed.

- Endpoint: ``base_url`` (or ``OPENAI_BASE_URL``) and ``model`` (or ``GYMV_MODEL``). The key
  is read from the environment variable named by ``api_key_env`` (default
  ``OPENAI_API_KEY``) at each request; it is never stored on the agent, and never appears in
  reprs, stats, the cache or error messages. A loopback endpoint may run without a key.
- Robustness: retries with exponential backoff (``Retry-After`` honoured) on 408/429/5xx,
  timeouts and dropped connections; at most ``max_concurrency`` requests in flight per
  endpoint across every agent of the process; a clear `VLMError` when the endpoint is down,
  refuses the key, does not know the model or keeps answering nothing. A model that refuses
  ``max_tokens`` (OpenAI's reasoning and GPT-5 models want ``max_completion_tokens``), any
  ``temperature`` but its default, or a ``seed``, is asked again at once without them (`ChatClient._learn`).
- Reproducibility: a disk cache keyed by a hash of the request body (model, messages,
  parameters) and how often that body was sent in the episode, so a re-run gives the same
  replies and makes no HTTP calls.
- Accounting: `VLMAgent.stats` reports tokens, cost (``prices.json``, extendable), requests,
  cache hits and parse failures for the episode since the last ``reset``.

Prompt templates live in ``agents/prompts`` (see its README); pass ``prompts_dir`` to
override any of them.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import http.client
import io
import json
import math
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from string import Template
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gymv.agents.base import AgentUnavailable, request_change_text, tell_note
from gymv_envs.core.parsing import strip_reasoning

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
PRICES_FILE = Path(__file__).resolve().parent / "prices.json"
TEMPLATES = ("system", "turn", "history", "feedback", "invalid", "reparse")
PARSE_POLICIES = ("retry", "raw", "first")
HISTORY_MODES = ("images", "text")
IMAGE_FORMATS = ("png", "jpeg")
RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
STAT_KEYS = ("requests", "cache_hits", "retries", "prompt_tokens", "completion_tokens", "total_tokens",
             "cost_usd", "actions", "parse_failures", "reparses", "empty_replies", "latency_s")


def _real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


class VLMError(AgentUnavailable):
    """The endpoint or the model cannot be used; the message names what to fix."""


# ----------------------------------------------------------------------------- prices
def load_prices(extra: dict[str, Any] | None = None) -> dict[str, tuple[float, float]]:
    """USD per million (input, output) tokens per model: ``prices.json``, then the file named
    by ``GYMV_PRICES``, then ``extra`` (later entries win)."""
    table: dict[str, Any] = json.loads(PRICES_FILE.read_text())
    user_file = os.environ.get("GYMV_PRICES")
    if user_file:
        table.update(json.loads(Path(user_file).read_text()))
    table.update(extra or {})
    out = {}
    for model, pair in table.items():
        if model.startswith("_"):
            continue
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(isinstance(v, (int, float)) for v in pair)):
            raise ValueError(f"price of {model!r} must be [input, output] USD per million tokens; got {pair!r}")
        out[model] = (float(pair[0]), float(pair[1]))
    return out


def price_of(model: str, prices: dict[str, tuple[float, float]]) -> tuple[float, float] | None:
    """The model's price from `load_prices`' table: its own entry, else that of the model a dated snapshot
    name belongs to (``gpt-5-mini-2025-08-07`` is priced as ``gpt-5-mini``); None when unpriced."""
    if model in prices:
        return prices[model]
    base = re.sub(r"-\d{4}-\d{2}-\d{2}$", "", model)
    return prices.get(base) if base != model else None


# ----------------------------------------------------------------------------- images
def image_views(observation: Any) -> list[tuple[str | None, np.ndarray]]:
    """The images in an observation: one array, or each image-like entry of a Dict (in order)."""
    def is_image(x: Any) -> bool:
        return isinstance(x, np.ndarray) and x.dtype == np.uint8 and (x.ndim == 2 or (x.ndim == 3 and x.shape[2] in (1, 3, 4)))

    if isinstance(observation, dict):
        return [(str(k), v) for k, v in observation.items() if is_image(v)]
    return [(None, observation)] if is_image(observation) else []


def encode_image(frame: np.ndarray, fmt: str = "png", max_side: int | None = None, quality: int = 90) -> str:
    """A ``data:`` URL of the frame, downscaled so its longer side is at most ``max_side``."""
    from PIL import Image

    img = Image.fromarray(frame.squeeze(-1) if frame.ndim == 3 and frame.shape[2] == 1 else frame)
    if max_side and max(img.size) > max_side:
        scale = max_side / max(img.size)
        img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    if fmt == "jpeg":
        img.convert("RGB").save(buf, format="JPEG", quality=quality)
    else:
        img.save(buf, format="PNG")
    return f"data:image/{fmt};base64," + base64.b64encode(buf.getvalue()).decode()


# ----------------------------------------------------------------------------- HTTP client
class ChatClient:
    """POSTs chat-completions requests to one endpoint with retries, a disk cache and a
    process-wide bound on concurrent requests per endpoint."""

    _semaphores: dict[str, threading.BoundedSemaphore] = {}
    # (endpoint, model) -> {request field: what is sent instead}, learned from the endpoint's HTTP 400 (see `_learn`)
    _changes: dict[tuple[str, str], dict[str, str]] = {}
    _lock = threading.Lock()

    def __init__(self, base_url: str, api_key_env: str = "OPENAI_API_KEY", timeout: float = 60.0,
                 max_retries: int = 4, backoff: float = 1.0, max_concurrency: int = 4,
                 cache_dir: str | Path | None = None) -> None:
        base = base_url.rstrip("/")
        # the endpoint's own URL, as a curl example shows it, is taken for its base
        self.url = base if base.endswith("/chat/completions") else base + "/chat/completions"
        self.api_key_env = api_key_env
        self.timeout, self.max_retries, self.backoff = float(timeout), int(max_retries), float(backoff)
        self.cache_dir = Path(cache_dir) if cache_dir else None
        with ChatClient._lock:
            self.semaphore = ChatClient._semaphores.setdefault(self.url, threading.BoundedSemaphore(max_concurrency))

    @property
    def shown_url(self) -> str:
        """The URL without any user:password part, for messages."""
        parts = urllib.parse.urlsplit(self.url)
        return urllib.parse.urlunsplit(parts._replace(netloc=parts.hostname + (f":{parts.port}" if parts.port else "")))

    def _key(self) -> str:
        return os.environ.get(self.api_key_env, "") if self.api_key_env else ""

    def redact(self, text: str) -> str:
        key = self._key()
        return text.replace(key, "***") if len(key) >= 4 else text

    # cache
    def _cache_path(self, body: dict[str, Any], occurrence: int) -> Path | None:
        if self.cache_dir is None:
            return None
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode() + f"#{occurrence}".encode()).hexdigest()
        return self.cache_dir / digest[:2] / f"{digest}.json"

    def complete(self, body: dict[str, Any], occurrence: int = 0) -> tuple[str, dict[str, int], dict[str, Any]]:
        """``(content, usage, meta)``; meta has ``cached``, ``retries``, ``latency_s``."""
        path = self._cache_path(body, occurrence)
        if path is not None and path.exists():
            try:
                hit = json.loads(path.read_text())
                return hit["content"], hit.get("usage", {}), {"cached": True, "retries": 0, "latency_s": 0.0}
            except (OSError, ValueError, KeyError):
                pass  # a damaged entry is refetched and rewritten
        t0 = time.perf_counter()
        data, retries = self._post(body)
        content = _content(data)
        if content is None:
            raise VLMError(f"the endpoint {self.shown_url} answered without choices[0].message.content "
                           f"({self.redact(json.dumps(data)[:200])}); is it an OpenAI-compatible chat-completions server?")
        usage = {k: int(v) for k, v in (data.get("usage") or {}).items() if k.endswith("_tokens") and isinstance(v, (int, float))}
        if path is not None and content.strip():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
            tmp.write_text(json.dumps({"content": content, "usage": usage, "model": body.get("model")}))
            os.replace(tmp, path)
        return content, usage, {"cached": False, "retries": retries, "latency_s": time.perf_counter() - t0}

    def request_changes(self, model: Any) -> dict[str, str]:
        """The request fields this endpoint's ``model`` refused, with what is sent instead (see `_learn`)."""
        return dict(ChatClient._changes.get((self.url, str(model)), {}))

    def _as_sent(self, body: dict[str, Any]) -> dict[str, Any]:
        changes = self.request_changes(body.get("model"))
        if not changes:
            return body
        sent = dict(body)
        if "max_tokens" in changes and "max_tokens" in sent:
            limit = sent.pop("max_tokens")
            sent.setdefault("max_completion_tokens", limit)   # one given in extra_body is kept
        for name in ("temperature", "seed"):
            if name in changes:
                sent.pop(name, None)
        return sent

    def _learn(self, body: dict[str, Any], sent: dict[str, Any], detail: str) -> bool:
        """Read an HTTP 400 that names a request field the model refuses where the standard change is known,
        record the change for this endpoint and model (told once on stderr), and say whether the request is
        to be sent again changed: ``max_tokens`` becomes ``max_completion_tokens`` (OpenAI's reasoning and
        GPT-5 models refuse the old name), and ``temperature`` is left out where the model takes only its
        default, and so is a ``seed`` the model does not take. Any other 400 ends the run as before, naming what
        the endpoint said."""
        try:
            error = json.loads(detail).get("error") or {}
            param, message = str(error.get("param") or ""), str(error.get("message") or "")
        except (ValueError, AttributeError):
            param, message = "", detail
        if not param:
            named = [name for name in ("max_tokens", "temperature", "seed") if f"'{name}'" in message]
            param = named[0] if len(named) == 1 else ""
        if param == "max_tokens" and "max_completion_tokens" in message:
            change = "sent as max_completion_tokens"
        elif param == "temperature" and "unsupported" in message.lower():
            change = f"left out (the model takes only its default; asked for {body.get('temperature')!r})"
        elif param == "seed" and "unsupported" in message.lower():
            change = "left out (the model takes none; replies may vary between runs, the cache still replays them)"
        else:
            return False
        if param not in sent:
            return False
        with ChatClient._lock:
            changes = ChatClient._changes.setdefault((self.url, str(body.get("model"))), {})
            told = param in changes
            changes.setdefault(param, change)
        if not told:
            tell_note(request_change_text(body.get("model"), param, change, self.shown_url))
        return self._as_sent(body) != sent

    def _post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = self._key()
        if key:
            headers["Authorization"] = "Bearer " + key
        last = ""
        attempt = changed = 0
        while True:
            wait = self.backoff * 2 ** attempt
            sent = self._as_sent(body)
            try:
                request = urllib.request.Request(self.url, data=json.dumps(sent).encode(), headers=headers, method="POST")
                with self.semaphore, urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read() or b"{}"), attempt
            except urllib.error.HTTPError as exc:
                detail = self.redact(exc.read(500).decode("utf-8", "replace")) if exc.fp else ""
                if exc.code == 400 and changed < 4 and self._learn(body, sent, detail):
                    changed += 1   # sent again at once, changed; not a retry
                    continue
                if exc.code not in RETRY_STATUS or "insufficient_quota" in detail:   # no retry can mend a spent quota
                    raise VLMError(self._http_advice(exc.code, detail, body)) from None
                last = f"HTTP {exc.code} {detail[:200]}".strip()
                retry_after = exc.headers.get("Retry-After", "") if exc.headers else ""
                if retry_after.replace(".", "", 1).isdigit():
                    wait = min(float(retry_after), 60.0)
            except (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException) as exc:
                last = self.redact(str(getattr(exc, "reason", exc)) or type(exc).__name__)
            except ValueError:
                last = "a reply that is not JSON"
            if attempt >= self.max_retries:
                break
            time.sleep(wait)
            attempt += 1
        raise VLMError(f"no usable reply from {self.shown_url} after {self.max_retries + 1} attempts (last: {last}); "
                       "check that the server is running and that base_url (--base-url or OPENAI_BASE_URL) points at it")

    def _http_advice(self, code: int, detail: str, body: dict[str, Any]) -> str:
        where, model = f"the endpoint {self.shown_url} answered HTTP {code}", body.get("model")
        if code in (401, 403):
            return (f"{where}: the key was refused; set the environment variable {self.api_key_env} to a valid key "
                    "(or pass api_key_env=... / --api-key-env to name another variable)")
        if code == 404:
            return f"{where}: check base_url (it usually ends in /v1) and the model name {model!r}. {detail[:300]}"
        if "limit-mm-per-prompt" in detail or "image(s) may be provided" in detail:   # vLLM's bound on images
            n = sum(part.get("type") == "image_url" for m in body.get("messages", ()) if isinstance(m.get("content"), list)
                    for part in m["content"] if isinstance(part, dict))
            return (f"{where}: the server takes fewer images a request than the {n} sent (the frame and the earlier "
                    f"turns' images); start vLLM with --limit-mm-per-prompt '{{\"image\": {n}}}', or send fewer: "
                    "history_mode='text' keeps the earlier turns without their images, history=0 drops them "
                    f"(--agent-kwargs '{{\"history_mode\": \"text\"}}'). {detail[:300]}")
        if "insufficient_quota" in detail:
            return (f"{where}: the account of the key in {self.api_key_env} has no quota left (insufficient_quota); "
                    f"check its plan and billing, or use another key. {detail[:300]}")
        return f"{where}: {detail[:300]} (check the model name {model!r}, max_tokens, and that the model accepts images)"


def _content(data: Any) -> str | None:
    try:
        content = data["choices"][0]["message"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    if content is None:
        return ""
    if isinstance(content, list):  # some servers answer with content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content)


# ----------------------------------------------------------------------------- the agent
class VLMAgent:
    """Zero-shot VLM agent (see the module docstring). All arguments are keyword arguments.

    ``history``: how many earlier turns to resend; ``history_mode``: ``"images"`` (earlier
    turns with their images) or ``"text"`` (the model's replies and the env's feedback only).
    ``on_parse_failure``: ``"retry"`` asks the model once more with the action grammar, then
    falls back to ``"raw"``; ``"raw"`` sends the reply text to ``env.step`` (the env flags it
    invalid, changes nothing, and single-turn open answers are read by the env's verifier);
    ``"first"`` sends the first action of the space. Each unparsed reply counts in
    ``stats()["parse_failures"]``. ``feedback=False`` is pixel-only play: the model gets the
    instruction, the action grammar and the images, never the env's feedback text (what it did,
    "blocked by ...", "invalid"); pair it with `gymv.wrappers.PixelsOnly` on the env.
    """

    def __init__(self, env: gym.Env, *, model: str | None = None, base_url: str | None = None,
                 api_key_env: str = "OPENAI_API_KEY", temperature: float | None = 0.0, max_tokens: int | None = 1024,
                 timeout: float = 60.0, max_retries: int = 4, backoff: float = 1.0, max_concurrency: int = 4,
                 history: int = 2, history_mode: str = "images", image_format: str = "png",
                 max_image_side: int | None = None, jpeg_quality: int = 90, cache: bool = True,
                 cache_dir: str | Path | None = None, prompts_dir: str | Path | None = None,
                 on_parse_failure: str = "retry", prices: dict[str, Any] | None = None,
                 max_empty_replies: int = 3, seed: int | None = None, system_role: bool = True,
                 extra_body: dict[str, Any] | None = None, feedback: bool = True) -> None:
        self.env = env
        self.model = model or os.environ.get("GYMV_MODEL")
        if not self.model:
            raise ValueError("the VLM agent needs a model name: pass model=... (--model) or set GYMV_MODEL")
        base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        if not base_url:
            raise ValueError("the VLM agent needs an endpoint: pass base_url=... (--base-url) or set OPENAI_BASE_URL, "
                             "e.g. http://127.0.0.1:8000/v1 for a local vLLM server")
        parts = urllib.parse.urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http(s) URL such as http://127.0.0.1:8000/v1; got scheme {parts.scheme!r}")
        if api_key_env and not os.environ.get(api_key_env) and parts.hostname not in LOOPBACK_HOSTS:
            raise ValueError(f"no API key: set the environment variable {api_key_env} (or pass api_key_env=... / "
                             "--api-key-env to name another one); only loopback endpoints may run without a key")
        for name, value, valid in (("history_mode", history_mode, HISTORY_MODES), ("image_format", image_format, IMAGE_FORMATS),
                                   ("on_parse_failure", on_parse_failure, PARSE_POLICIES)):
            if value not in valid:
                raise ValueError(f"invalid {name}={value!r}; valid values: {', '.join(valid)}")
        for name, value, low in (("history", history, 0), ("max_retries", max_retries, 0), ("max_concurrency", max_concurrency, 1),
                                 ("max_empty_replies", max_empty_replies, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"invalid {name}={value!r}; expected an integer >= {low}")
        if max_image_side is not None and (not isinstance(max_image_side, int) or max_image_side < 8):
            raise ValueError(f"invalid max_image_side={max_image_side!r}; expected None or an integer >= 8")
        for name, value, valid, ok in (
                ("temperature", temperature, "None (the model's default) or a number >= 0",
                 temperature is None or (_real(temperature) and temperature >= 0)),
                ("max_tokens", max_tokens, "None or an integer >= 1", max_tokens is None or _whole(max_tokens, 1)),
                ("timeout", timeout, "seconds per request, a number > 0", _real(timeout) and timeout > 0),
                ("backoff", backoff, "seconds, a number >= 0", _real(backoff) and backoff >= 0),
                ("jpeg_quality", jpeg_quality, "an integer from 1 to 95", _whole(jpeg_quality, 1) and jpeg_quality <= 95),
                ("seed", seed, "None or an integer", seed is None or _whole(seed, -2**63)),
                ("system_role", system_role, "True, False", isinstance(system_role, bool)),
                ("cache", cache, "True, False", isinstance(cache, bool)),
                ("extra_body", extra_body, "None or a dict of request fields", extra_body is None or isinstance(extra_body, dict))):
            if not ok:
                raise ValueError(f"invalid {name}={value!r}; valid values: {valid}")
        if cache_dir is not None and Path(cache_dir).exists() and not Path(cache_dir).is_dir():
            raise ValueError(f"invalid cache_dir={str(cache_dir)!r}: it is a file; valid values: a folder (made if missing)")
        self.temperature, self.max_tokens, self.seed = temperature, max_tokens, seed
        self.history, self.history_mode = history, history_mode
        self.image_format, self.max_image_side, self.jpeg_quality = image_format, max_image_side, jpeg_quality
        self.on_parse_failure, self.max_empty_replies = on_parse_failure, max_empty_replies
        self.system_role, self.extra_body = system_role, dict(extra_body or {})
        if not isinstance(feedback, bool):
            raise ValueError(f"invalid feedback={feedback!r}; valid values: True, False")
        self.feedback = feedback
        if cache and cache_dir is None:
            cache_dir = os.environ.get("GYMV_VLM_CACHE") or Path.home() / ".cache" / "gymv" / "vlm"
        self.client = ChatClient(base_url, api_key_env, timeout, max_retries, backoff, max_concurrency,
                                 cache_dir if cache else None)
        self.templates = self._load_templates(prompts_dir)
        self.price = price_of(self.model, load_prices(prices))
        self._totals = self._zero_stats()
        self._replied, self._empty_run = False, 0
        self.reset("", {})

    def __repr__(self) -> str:
        return (f"VLMAgent(model={self.model!r}, base_url={self.client.shown_url!r}, "
                f"api_key_env={self.client.api_key_env!r}, history={self.history}, history_mode={self.history_mode!r})")

    @staticmethod
    def _load_templates(prompts_dir: str | Path | None) -> dict[str, Template]:
        if prompts_dir and not Path(prompts_dir).is_dir():
            raise ValueError(f"prompts_dir {str(prompts_dir)!r} is not a folder; copy files from {PROMPTS_DIR} into one")
        out = {}
        for name in TEMPLATES:
            path = Path(prompts_dir) / f"{name}.txt" if prompts_dir else None
            if path is None or not path.exists():
                path = PROMPTS_DIR / f"{name}.txt"
            out[name] = Template(path.read_text())
        return out

    # ------------------------------------------------------------------ accounting
    def _zero_stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = dict.fromkeys(STAT_KEYS, 0)
        stats.update(cost_usd=0.0, latency_s=0.0, model=self.model, cost_known=self.price is not None)
        return stats

    def stats(self) -> dict[str, Any]:
        """Counts for the episode since the last ``reset`` (see `STAT_KEYS`), plus ``parse_rate``."""
        out = dict(self._ep)
        out["parse_rate"] = 1.0 - out["parse_failures"] / out["actions"] if out["actions"] else 1.0
        changes = self.client.request_changes(self.model)
        if changes:   # fields the endpoint refused, and what was sent instead (see ChatClient._learn)
            out["request_changes"] = changes
        return out

    def total_stats(self) -> dict[str, Any]:
        """The same counts over every episode this agent has played."""
        out = dict(self._totals)
        out["parse_rate"] = 1.0 - out["parse_failures"] / out["actions"] if out["actions"] else 1.0
        return out

    def _count(self, **delta: float) -> None:
        for stats in (self._ep, self._totals):
            for k, v in delta.items():
                stats[k] += v

    # ------------------------------------------------------------------ protocol
    def reset(self, instruction: str, info: dict[str, Any]) -> None:
        self._instruction = instruction or info.get("instruction", "")
        self._turns: list[dict[str, Any]] = []
        self._step = 0
        self._seen: dict[str, int] = {}
        self._ep = self._zero_stats()
        self.last_reply = ""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        self._step += 1
        self._count(actions=1)
        feedback = self._feedback_text(info) if self._step > 1 else ""
        action_prompt = str(getattr(self.env.unwrapped, "action_prompt", ""))
        parts: list[dict[str, Any]] = []
        views = image_views(observation)
        for name, frame in views:
            if name is not None and len(views) > 1:
                parts.append({"type": "text", "text": f"View: {name}"})
            url = encode_image(frame, self.image_format, self.max_image_side, self.jpeg_quality)
            parts.append({"type": "image_url", "image_url": {"url": url}})
        text = self.templates["turn"].safe_substitute(step=self._step, feedback=feedback, action_prompt=action_prompt).strip()
        turn = {"step": self._step, "feedback": feedback, "parts": [*parts, {"type": "text", "text": text}]}
        messages = self._messages(turn)
        reply = self._ask(messages)
        action = self._parse(reply)
        if action is None and self.on_parse_failure == "retry":
            self._count(reparses=1)
            again = self.templates["reparse"].safe_substitute(action_prompt=action_prompt).strip()
            second = self._ask([*messages, {"role": "assistant", "content": strip_reasoning(reply).strip()},
                                {"role": "user", "content": again}])
            action = self._parse(second)
            if action is not None:
                reply = second
        if action is None:
            self._count(parse_failures=1)
            action = self._fallback(reply)
        turn["reply"] = strip_reasoning(reply).strip()
        self.last_reply = reply  # the whole reply, reasoning included (read by the deadlock-awareness label)
        self._turns.append(turn)
        return action

    def _feedback_text(self, info: dict[str, Any]) -> str:
        if not self.feedback:
            return ""
        feedback = str(info.get("feedback") or "").strip()
        if info.get("invalid_action"):
            return self.templates["invalid"].safe_substitute(feedback=feedback or "it changed nothing").rstrip()
        return self.templates["feedback"].safe_substitute(feedback=feedback).rstrip() if feedback else ""

    def _messages(self, turn: dict[str, Any]) -> list[dict[str, Any]]:
        system = self.templates["system"].safe_substitute(instruction=self._instruction).strip()
        messages: list[dict[str, Any]] = []
        for past in self._turns[-self.history:] if self.history else []:
            if self.history_mode == "images":
                content: Any = past["parts"]
            else:
                content = self.templates["history"].safe_substitute(step=past["step"], feedback=past["feedback"]).strip()
            messages += [{"role": "user", "content": content}, {"role": "assistant", "content": past["reply"]}]
        messages.append({"role": "user", "content": turn["parts"]})
        if self.system_role:
            return [{"role": "system", "content": system}, *messages]
        first = messages[0]
        head = [{"type": "text", "text": system}]
        first["content"] = head + (first["content"] if isinstance(first["content"], list) else [{"type": "text", "text": first["content"]}])
        return messages

    def ask(self, messages: list[dict[str, Any]]) -> str:
        """One chat-completions request with this agent's model, parameters, retries, cache and accounting;
        the reply text. `act` asks through it, and so does the offline VQA evaluation (``env`` may then be
        ``None``)."""
        return self._ask(messages)

    def _ask(self, messages: list[dict[str, Any]]) -> str:
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.seed is not None:
            body["seed"] = self.seed
        body.update(self.extra_body)
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
        occurrence = self._seen.get(digest, 0)
        self._seen[digest] = occurrence + 1
        content, usage, meta = self.client.complete(body, occurrence)
        if meta["cached"]:
            self._count(cache_hits=1)
        else:
            pt, ct = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
            cost = (pt * self.price[0] + ct * self.price[1]) / 1e6 if self.price else 0.0
            self._count(requests=1, retries=meta["retries"], latency_s=meta["latency_s"], prompt_tokens=pt,
                        completion_tokens=ct, total_tokens=usage.get("total_tokens", pt + ct), cost_usd=cost)
        if content.strip():
            self._replied, self._empty_run = True, 0
        else:
            self._count(empty_replies=1)
            self._empty_run += 1
            if not self._replied and self._empty_run >= self.max_empty_replies:
                raise VLMError(f"model {self.model!r} at {self.client.shown_url} returned {self._empty_run} empty replies "
                               "and nothing else; check the model name, max_tokens (reasoning models may spend it all "
                               "thinking) and that the model accepts images")
        return content

    def _parse(self, reply: str) -> Any:
        body = strip_reasoning(reply)
        return self.env.unwrapped.parse_action(body) if body.strip() else None

    def _fallback(self, reply: str) -> Any:
        space = self.env.action_space
        if self.on_parse_failure == "first" and not isinstance(space, spaces.Text):
            if isinstance(space, spaces.Discrete):
                return int(space.start)
            if isinstance(space, spaces.Box):
                return ((space.low + space.high) / 2).astype(space.dtype)
        return strip_reasoning(reply).strip()


# ----------------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The VLM agent's options, for any command line that builds one."""
    g = parser.add_argument_group("VLM agent")
    g.add_argument("--model", help="model name (default: $GYMV_MODEL)")
    g.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL)")
    g.add_argument("--api-key-env", default="OPENAI_API_KEY", help="environment variable that holds the key")
    g.add_argument("--temperature", type=_or_default(float), default=0.0,
                   help="sampling temperature (default 0), or 'default' to leave it to the model")
    g.add_argument("--max-tokens", type=_or_default(int), default=1024,
                   help="reply length limit (default 1024), or 'default' to leave it to the model")
    g.add_argument("--timeout", type=float, default=60.0, help="seconds per request")
    g.add_argument("--max-retries", type=int, default=4)
    g.add_argument("--max-concurrency", type=int, default=4, help="requests in flight per endpoint")
    g.add_argument("--history", type=int, default=2, help="earlier turns resent to the model")
    g.add_argument("--history-mode", choices=HISTORY_MODES, default="images")
    g.add_argument("--image-format", choices=IMAGE_FORMATS, default="png")
    g.add_argument("--max-image-side", type=int, default=None, help="downscale images to this longer side")
    g.add_argument("--cache-dir", default=None, help="response cache (default: $GYMV_VLM_CACHE or ~/.cache/gymv/vlm)")
    g.add_argument("--no-cache", action="store_true")
    g.add_argument("--prompts-dir", default=None, help="folder with prompt templates overriding agents/prompts")
    g.add_argument("--on-parse-failure", choices=PARSE_POLICIES, default="retry")
    g.add_argument("--no-feedback", dest="feedback", action="store_false",
                   help="pixel-only play: never send the env's feedback text")


def _or_default(kind: type) -> Any:
    """An argparse type: a value of ``kind``, or ``default`` for None (the field left out of requests)."""
    def parse(text: str) -> Any:
        if text.strip().lower() == "default":
            return None
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid value {text!r}; valid values: {'a number' if kind is float else 'an integer'} "
                                             "or 'default'") from None
    return parse


def agent_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """`VLMAgent` keyword arguments from options added by `add_arguments`."""
    return dict(model=args.model, base_url=args.base_url, api_key_env=args.api_key_env, temperature=args.temperature,
                max_tokens=args.max_tokens, timeout=args.timeout, max_retries=args.max_retries,
                max_concurrency=args.max_concurrency, history=args.history, history_mode=args.history_mode,
                image_format=args.image_format, max_image_side=args.max_image_side, cache=not args.no_cache,
                cache_dir=args.cache_dir, prompts_dir=args.prompts_dir, on_parse_failure=args.on_parse_failure,
                feedback=args.feedback)


def main(argv: list[str] | None = None) -> int:
    """``python -m gymv.agents.vlm --env GymV/GridNav-v1 --model M --episodes 3``: play and print one JSON line per episode."""
    import gymv_envs
    from gymv.benchmarks.rollout import rollout

    parser = argparse.ArgumentParser(prog="python -m gymv.agents.vlm", description=main.__doc__)
    parser.add_argument("--env", required=True)
    parser.add_argument("--episodes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--env-kwargs", type=json.loads, default={}, help='JSON, e.g. \'{"difficulty": 1}\'')
    add_arguments(parser)
    args = parser.parse_args(argv)
    if args.env not in gymv_envs.ids():
        parser.error(f"unknown id {args.env!r}; see gymv_envs.ids()")
    if args.episodes < 1 or args.seed < 0:
        parser.error(f"invalid --episodes {args.episodes} / --seed {args.seed}; valid values: --episodes >= 1, --seed >= 0")
    try:
        env = gym.make(args.env, **args.env_kwargs)
        if not args.feedback:
            from gymv.wrappers import PixelsOnly

            env = PixelsOnly(env)
        agent = VLMAgent(env, **agent_kwargs(args))
    except (ValueError, gym.error.Error) as exc:
        parser.error(str(exc))
    done = 0
    try:
        for k in range(args.episodes):
            record = rollout(env, agent, args.seed + k)
            print(json.dumps(record), flush=True)
            done += 1
    except VLMError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"interrupted after {done} of {args.episodes} episodes" + (" (their records are above)" if done else "")
              + ("; the model's replies so far are in the cache, so the same command again replays them without asking"
                 if agent.client.cache_dir is not None else ""), file=sys.stderr)
        return 130
    finally:
        env.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
