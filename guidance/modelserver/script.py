"""The script a model server replays: which tool calls and texts the "model" answers with.

A script file is YAML or JSON::

    model: claude-sonnet-4-5          # optional: the model name the answers claim
    turns:
      - tool_uses:
          - {name: Bash, input: {command: "rm -rf victim"}}
      - text: done

Turn N answers a request whose conversation already holds N assistant turns, so a client
retry gets the same answer. Past the last turn the server repeats the last text (or "done"),
which ends the client's loop instead of replaying tool calls forever.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guidance.errors import ConfigError

#: Text of the turn served past the end of a script that has no text turn at all.
FALLBACK_TEXT = "done"


class ToolUse(BaseModel):
    """One tool call the model makes."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    input: dict[str, Any] = Field(default_factory=dict)


class Turn(BaseModel):
    """One assistant message: optional text, then tool calls (which keep the loop going)."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = None
    tool_uses: list[ToolUse] = Field(default_factory=list)

    @model_validator(mode="after")
    def _not_empty(self) -> Turn:
        if not self.text and not self.tool_uses:
            raise ValueError("a turn needs `text` or at least one entry in `tool_uses`")
        return self


class Script(BaseModel):
    """The whole scripted conversation, as seen from the model's side."""

    model_config = ConfigDict(extra="forbid")

    turns: list[Turn] = Field(min_length=1)
    model: str | None = None

    def turn_for(self, index: int) -> Turn:
        """The turn answering a conversation that already holds `index` assistant turns."""
        if 0 <= index < len(self.turns):
            return self.turns[index]
        texts = [turn.text for turn in self.turns if turn.text and not turn.tool_uses]
        return Turn(text=texts[-1] if texts else FALLBACK_TEXT)


def load_script(path: str | Path) -> Script:
    """Read and validate a script file; errors name the file and, when known, the line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the model script ({exc})") from None
    data = _parse(path, text)
    try:
        return Script.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(part) for part in loc) or "top level"
        line = _line_of(text, loc)
        prefix = f"{path}:{line}" if line else str(path)
        raise ConfigError(
            f"{prefix}: {where}: {first['msg']} (see docs/model-server.md for the script format)"
        ) from None


def _parse(path: Path, text: str) -> Any:
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise ConfigError(f"{path}{line}: invalid YAML: {problem}") from None


def _line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """1-based line of the node at `loc` (or of its deepest existing parent), if findable."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    if node is None:
        return None
    for part in loc:
        child = _child(node, part)
        if child is None:
            break
        node = child
    return int(node.start_mark.line) + 1


def _child(node: yaml.Node, part: Any) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == str(part):
                return value  # type: ignore[no-any-return]
    elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        if 0 <= part < len(node.value):
            return node.value[part]  # type: ignore[no-any-return]
    return None
