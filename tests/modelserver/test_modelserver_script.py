"""Script files: validation, file:line errors, and which turn answers which conversation."""

from __future__ import annotations

from pathlib import Path

import pytest

from cf_guidance.errors import ConfigError
from cf_guidance.modelserver.script import FALLBACK_TEXT, Script, Turn, load_script

GOOD_YAML = """\
model: claude-sonnet-4-5
turns:
  - tool_uses:
      - name: Bash
        input: {command: "rm -rf victim"}
  - text: done
"""


def test_load_yaml(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD_YAML)
    script = load_script(path)
    assert script.model == "claude-sonnet-4-5"
    assert script.turns[0].tool_uses[0].input == {"command": "rm -rf victim"}
    assert script.turns[1].text == "done"


def test_load_json(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"turns": [{"tool_uses": [{"name": "Read", "input": {"file_path": "x"}}]}]}')
    assert load_script(path).turns[0].tool_uses[0].name == "Read"


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("missing.yaml", None, "cannot read the model script"),
        ("syntax.yaml", "turns:\n  - text: [unclosed\n", "syntax.yaml:3: invalid YAML"),
        ("syntax.json", '{"turns": [\n  {"text": }]}', "syntax.json:2: invalid JSON"),
        ("empty.yaml", "", "top level"),
        ("noturns.yaml", "turns: []\n", "noturns.yaml:1: turns:"),
        ("badturn.yaml", "turns:\n  - text: ok\n  - {}\n", "badturn.yaml:3: turns.1: Value error"),
        (
            "noname.yaml",
            "turns:\n  - tool_uses:\n      - input: {}\n",
            "noname.yaml:3: turns.0.tool_uses.0.name: Field required",
        ),
        (
            "extra.yaml",
            "turns:\n  - text: ok\n    colour: red\n",
            "extra.yaml:3: turns.0.colour: Extra inputs are not permitted",
        ),
        (
            "badjson.json",
            '{"turns": [\n  {"tool_uses": [{"input": {}}]}\n]}',
            "badjson.json:2: turns.0.tool_uses.0.name: Field required",
        ),
        (
            "badinput.yaml",
            "turns:\n  - tool_uses:\n      - name: Bash\n        input: ls\n",
            "badinput.yaml:4: turns.0.tool_uses.0.input",
        ),
    ],
)
def test_errors_name_file_and_line(
    tmp_path: Path, name: str, text: str | None, expected: str
) -> None:
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_script(path)
    message = str(caught.value)
    assert expected in message
    assert "\n" not in message


def _script(*turns: dict[str, object]) -> Script:
    return Script.model_validate({"turns": list(turns)})


BASH = {"tool_uses": [{"name": "Bash", "input": {"command": "ls"}}]}


@pytest.mark.parametrize(
    ("turns", "index", "expected"),
    [
        ([BASH, {"text": "finished"}], 0, BASH),
        ([BASH, {"text": "finished"}], 1, {"text": "finished"}),
        ([BASH, {"text": "finished"}], 2, {"text": "finished"}),
        ([BASH, {"text": "finished"}], 99, {"text": "finished"}),
        ([{"text": "first"}, BASH], 5, {"text": "first"}),
        ([BASH], 1, {"text": FALLBACK_TEXT}),
        ([BASH], -1, {"text": FALLBACK_TEXT}),
    ],
)
def test_turn_for(turns: list[dict[str, object]], index: int, expected: dict[str, object]) -> None:
    assert _script(*turns).turn_for(index) == Turn.model_validate(expected)
