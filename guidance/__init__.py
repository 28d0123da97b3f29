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
    "ALLOW": "cf_guidance.decision",
    "ASK": "cf_guidance.decision",
    "DENY": "cf_guidance.decision",
    "Decision": "cf_guidance.decision",
    "Event": "cf_guidance.event",
    "Finding": "cf_guidance.decision",
    "GuidanceError": "cf_guidance.errors",
    "WARN": "cf_guidance.decision",
    "analyze": "cf_guidance.shell",
    "normalise": "cf_guidance.event",
}

__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'guidance' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
