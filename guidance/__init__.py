"""cf-guidance: enforce a repository's CLAUDE.md on every tool use of an AI coding agent.

Nothing happens at import time: the hook hot path imports `guidance.*` submodules directly,
and this module stays empty of imports so that costs nothing. The public API is resolved
lazily on first attribute access.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_PUBLIC = {
    "ALLOW": "guidance.decision",
    "ASK": "guidance.decision",
    "DENY": "guidance.decision",
    "Decision": "guidance.decision",
    "Event": "guidance.event",
    "Finding": "guidance.decision",
    "GuidanceError": "guidance.errors",
    "WARN": "guidance.decision",
    "analyze": "guidance.shell",
    "normalise": "guidance.event",
}

__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'guidance' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
