"""Session history entries and the sequence gate's verdicts, shared by the ordering test tables."""

from __future__ import annotations

from typing import Any

from cf_guidance.event import Event
from cf_guidance.gates import sequence
from cf_guidance.gates._base import GateContext
from cf_guidance.policy.compiler import compile_sources


def edit(path: str) -> dict[str, Any]:
    """A history entry: a file tool changed /p/PATH."""
    return {"edited": [f"/p/{path}"], "ok": True, "seq": None, "ts": ""}


def ran(command: str, ok: bool = True) -> dict[str, Any]:
    """A history entry: COMMAND ran (and succeeded unless `ok` is False)."""
    return {"command": command, "ok": ok, "seq": None, "ts": ""}


def verdicts(policy: str, command: str, history: list[dict[str, Any]], *, title: str = "Rules") -> list[str]:
    """The sequence gate's verdicts on `command` after `history`, with `policy` under "# TITLE"."""
    bundle = {"root": "/p", "checks": compile_sources(f"# {title}\n\n{policy}")["checks"]}
    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    return sorted({f.verdict for f in sequence.check(GateContext(event, bundle, extras={"history": history}))})
