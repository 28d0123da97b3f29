"""Helpers for gate tests: build events, run one gate or the whole engine, under a fixed HOME."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cf_guidance.decision import Decision, Finding
from cf_guidance.engine import evaluate
from cf_guidance.event import Event, normalise
from cf_guidance.gates._base import STANDARD, GateContext

HOME = "/home/dev"
ROOT = "/home/dev/project"


def bundle(**settings: Any) -> dict[str, Any]:
    checks = settings.pop("checks", [])
    return {"root": ROOT, "settings": {"level": STANDARD, **settings}, "checks": checks}


def bash(command: str, cwd: str = ROOT) -> Event:
    return normalise({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": cwd}, project_dir=ROOT)


def tool(name: str, cwd: str = ROOT, **tool_input: Any) -> Event:
    return normalise({"tool_name": name, "tool_input": tool_input, "cwd": cwd}, project_dir=ROOT)


@contextmanager
def home() -> Iterator[None]:
    old = os.environ.get("HOME")
    os.environ["HOME"] = HOME
    try:
        yield
    finally:
        if old is not None:
            os.environ["HOME"] = old


def run_gate(gate: Any, event: Event, *, level: str = STANDARD, **settings: Any) -> list[Finding]:
    with home():
        return list(gate.check(GateContext(event, bundle(**settings), level=level)))


def codes(gate: Any, event: Event, **kwargs: Any) -> list[str]:
    return [f"{f.rule}:{f.verdict}" for f in run_gate(gate, event, **kwargs)]


def decide(event: Event, *, level: str | None = None, **settings: Any) -> Decision:
    with home():
        return evaluate(bundle(**settings), event, level=level)


def assert_stopped(event: Event, verdict: str, code: str) -> None:
    """The whole guard asks about or denies `event` (as `verdict`), and `code` is among the rules that did."""
    decision = decide(event)
    shown = [f"{f.rule}:{f.verdict}" for f in decision.findings]
    assert decision.verdict == verdict and f"{code}:{verdict}" in shown, (event.command or event.paths, shown)


def assert_passes(event: Event) -> None:
    """The whole guard lets `event` through (allow, or a warning)."""
    decision = decide(event)
    assert decision.verdict in ("allow", "warn"), (event.command or event.paths, [f"{f.rule}:{f.verdict}" for f in decision.findings])
