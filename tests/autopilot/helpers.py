"""Test helpers: hand-made bundles in the compiler's format (for tests that must not depend on
how the compiler phrases things), and the shared test constants."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any


from tests.conftest import CORPUS  # noqa: F401  (re-exported for the autopilot tests)


def shard(
    sid: str,
    text: str,
    source: str,
    *,
    origin: str = "shared",
    checks: list[str] | None = None,
    constitution: bool = False,
    priority: int = 0,
) -> dict[str, Any]:
    return {
        "id": sid,
        "text": text,
        "source": source,
        "origin": origin,
        "section": "",
        "risk": "medium",
        "priority": priority,
        "constitution": constitution,
        "enforcement": "enforced" if checks else "advisory",
        "checks": list(checks or []),
        "hash": hashlib.sha256(text.encode()).hexdigest()[:16],
    }


def check(rule: str, n: int, pattern: list[str], verdict: str = "deny", kind: str = "command") -> dict[str, Any]:
    return {"id": f"{rule}#{n}", "rule": rule, "kind": kind, "verdict": verdict, "pattern": pattern, "message": ""}


def bundle(
    shards: list[dict[str, Any]],
    checks: list[dict[str, Any]] | None = None,
    diagnostics: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "format": 1,
        "shards": shards,
        "checks": list(checks or []),
        "diagnostics": list(diagnostics or []),
        "constitution": {"hash": "", "rules": [s["id"] for s in shards if s["constitution"]], "text": ""},
    }
