"""Policy: compile CLAUDE.md into a bundle, cache it, retrieve rules for a prompt.

Nothing is imported here: the hook's hot path loads `guidance.policy.cache` and
`guidance.policy.retriever` and must not pay for the compiler (markdown-it-py, pydantic).
The names below resolve lazily on first access:

- `compile_project(dir, strict=False) -> dict`, `compile_sources(shared, local, ...) -> dict`
  (slow path: third-party imports)
- `load_bundle(dir, state_dir=None, *, part="full"|"decide") -> dict` (hot path: standard library only)
- `retrieve(bundle, text, tool_class=None, k=5) -> [(shard, score)]` (hot path)
- `render_bundle_text(bundle) -> str`

The bundle's keys are documented in docs/policy-grammar.md.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_PUBLIC = {
    "compile_project": "cf_guidance.policy.compiler",
    "compile_sources": "cf_guidance.policy.compiler",
    "load_bundle": "cf_guidance.policy.cache",
    "render_bundle_text": "cf_guidance.policy.report",
    "retrieve": "cf_guidance.policy.retriever",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'cf_guidance.policy' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
