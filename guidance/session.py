"""Session history for rules that need a session's past (sequence rules, trust).

`extras_for(event, state_dir)` returns the extras the engine passes to gates.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from guidance.event import Event


def extras_for(event: Event, state_dir: str) -> dict[str, Any]:
    return {}
