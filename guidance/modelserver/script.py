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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from cf_guidance.errors import ConfigError, SuiteError
from cf_guidance.headless import yamlmap
from cf_guidance.headless.yamlmap import LocatedYaml

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
    located = _parse(path, text)
    try:
        return Script.model_validate(located.data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(part) for part in loc) or "top level"
        raise ConfigError(
            f"{located.path}:{located.line_for(loc)}: {where}: {first['msg']} "
            "(see docs/model-server.md for the script format)"
        ) from None


def _parse(path: Path, text: str) -> LocatedYaml:
    """The data with the line of every node; JSON is read as JSON but located as YAML."""
    if path.suffix.lower() != ".json":
        try:
            return yamlmap.loads(text, path)
        except SuiteError as exc:
            raise ConfigError(str(exc)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    try:
        lines = yamlmap.loads(text, path).lines
    except SuiteError:  # valid JSON that YAML cannot read (tabs): no line numbers
        lines = {(): 1}
    return LocatedYaml(path, data, lines)
