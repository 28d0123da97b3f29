from __future__ import annotations

from pathlib import Path

import pytest

from cf_guidance.errors import SuiteError
from cf_guidance.headless.yamlmap import load, loads

DOC = """\
name: demo
tasks:
  - id: a
    assertions:
      - type: x
        tool: Bash
  - id: b
"""


@pytest.mark.parametrize(
    ("loc", "line"),
    [
        ((), 1),
        (("name",), 1),
        (("tasks",), 2),
        (("tasks", 0), 3),
        (("tasks", 0, "assertions", 0, "tool"), 6),
        (("tasks", 1, "id"), 7),
        # parts the file does not have fall back to the deepest known node
        (("tasks", 0, "assertions", 0, "tool-called", "tool"), 6),
        (("tasks", 1, "prompt"), 7),
    ],
)
def test_line_for(loc: tuple[str | int, ...], line: int) -> None:
    assert loads(DOC, Path("s.yaml")).line_for(loc) == line


def test_invalid_yaml_names_the_line() -> None:
    with pytest.raises(SuiteError, match=r"^s\.yaml:3: invalid YAML: "):
        loads("a: 1\nb: [1,\nc: {", Path("s.yaml"))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="suite file not found"):
        load(tmp_path / "nope.yaml")


def test_empty_document_is_none() -> None:
    assert loads("", Path("s.yaml")).data is None
