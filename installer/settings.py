"""Merge our hook entries into a settings file without disturbing anything of the user's.

Both `.claude/settings.json` and `.codex/hooks.json` have the shape
``{"hooks": {"<Event>": [{"matcher"?: str, "hooks": [handler, ...]}, ...]}, ...}``.
`merge` updates our handlers in place (so a second run is byte-identical), appends the
missing ones as new groups, and drops our stale ones; `unmerge` drops ours and only the
groups and events that held nothing else. Our handlers are recognised by their command
(`wiring.our_command_name`), never by position.
"""

from __future__ import annotations

import copy
import json
import os

from cf_guidance import _atomic
from cf_guidance.errors import InstallError

from .wiring import Wire, our_command_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    #: A hook command name -> the handler object to write for it.
    HandlerFor = Callable[[str], dict[str, Any]]


def render(settings: dict[str, Any]) -> str:
    """The text a settings file is written as (stable, so re-rendering changes nothing)."""
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def load(path: str) -> tuple[dict[str, Any], str | None]:
    """The settings object and the file's text (None when the file does not exist).

    A file that is not a JSON object of the expected shape is refused and left untouched.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}; fix it by hand, nothing was changed") from None
    if not text.strip():
        return {}, text
    try:
        settings = json.loads(text)
    except ValueError as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it by hand, nothing was changed") from None
    problem = _shape_problem(settings)
    if problem:
        raise InstallError(f"{path}: {problem}; fix it by hand, nothing was changed")
    return settings, text


def _shape_problem(settings: object) -> str:
    if not isinstance(settings, dict):
        return "the top level must be a JSON object"
    hooks = settings.get("hooks")
    if hooks is None:
        return ""
    if not isinstance(hooks, dict):
        return '"hooks" must be an object of event names'
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            return f'"hooks.{event}" must be a list of matcher groups'
        for index, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                return f'"hooks.{event}[{index}]" must be an object with a "hooks" list'
    return ""


def merge(settings: dict[str, Any], wires: tuple[Wire, ...], handler_for: HandlerFor) -> dict[str, Any]:
    """`settings` with exactly our `wires` installed (handlers from `handler_for`); everything else kept."""
    out = copy.deepcopy(settings)
    hooks = out.setdefault("hooks", {})
    wanted = {(wire.event, wire.matcher, wire.name): wire for wire in wires}
    placed: set[tuple[str, str | None, str]] = set()
    for event, groups in list(hooks.items()):
        kept_groups = []
        for group in groups:
            matcher = group.get("matcher")
            handlers = []
            for handler in group["hooks"]:
                name = our_command_name(handler)
                if name is None:
                    handlers.append(handler)
                    continue
                key = (event, matcher, name)
                if key in wanted and key not in placed:
                    placed.add(key)
                    handlers.append(_updated(handler, handler_for(name)))
                # else: ours but no longer wanted (or a duplicate): dropped
            if handlers or not group["hooks"]:
                group["hooks"] = handlers
                kept_groups.append(group)
        hooks[event] = kept_groups
    for wire in wires:
        key = (wire.event, wire.matcher, wire.name)
        if key in placed:
            continue
        added: dict[str, Any] = {}
        if wire.matcher is not None:
            added["matcher"] = wire.matcher
        added["hooks"] = [handler_for(wire.name)]
        hooks.setdefault(wire.event, []).append(added)
    original = settings.get("hooks") or {}
    for event in [event for event, groups in hooks.items() if not groups and original.get(event)]:
        del hooks[event]  # only our stale entries were there
    return out


def _updated(handler: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    """Our handler with today's command and timeout; other keys (a user's statusMessage) kept."""
    updated = dict(handler)
    updated.update(ours)
    return updated


def unmerge(settings: dict[str, Any]) -> dict[str, Any]:
    """`settings` without our handlers, and without groups and events only we filled."""
    out = copy.deepcopy(settings)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        kept_groups = []
        for group in hooks[event]:
            handlers = [handler for handler in group["hooks"] if our_command_name(handler) is None]
            if handlers or not group["hooks"]:
                group["hooks"] = handlers
                kept_groups.append(group)
        if kept_groups or not hooks[event]:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if not hooks and settings.get("hooks"):
        del out["hooks"]
    return out


def installed_names(settings: dict[str, Any]) -> dict[tuple[str, str | None, str], str]:
    """(event, matcher, name) -> command string of every handler of ours in `settings`."""
    found: dict[tuple[str, str | None, str], str] = {}
    for event, groups in (settings.get("hooks") or {}).items():
        for group in groups:
            for handler in group.get("hooks", []):
                name = our_command_name(handler)
                if name is not None:
                    found[(event, group.get("matcher"), name)] = handler["command"]
    return found


def write_atomic(path: str, text: str, mode: int = 0o644) -> None:
    """Replace `path` with `text` in one step (a crash leaves the old or the new file).

    An existing file keeps its mode; a new one gets `mode` exactly (not masked by the umask).
    """
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        pass
    _atomic.write_atomic(path, text.encode("utf-8"), mode=mode, ignore_umask=True, parent_mode=0o777)
