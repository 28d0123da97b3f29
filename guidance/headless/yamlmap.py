"""Load YAML and keep where each value came from, so validation errors can name file:line.

PyYAML's `compose` gives nodes with start marks; walking the node tree alongside the
constructed data yields a map from a path (tuple of keys and list indexes) to a 1-based line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from cf_guidance.errors import SuiteError

Loc = tuple[str | int, ...]


class LocatedYaml:
    """Parsed data plus the line of every mapping key and sequence item."""

    def __init__(self, path: Path, data: Any, lines: dict[Loc, int]) -> None:
        self.path = path
        self.data = data
        self.lines = lines

    def line_for(self, loc: Loc) -> int:
        """The line of the deepest known node on `loc`; parts not in the file are skipped."""
        best = self.lines.get((), 1)
        current: Loc = ()
        for part in loc:
            candidate = current + (part,)
            if candidate in self.lines:
                current = candidate
                best = self.lines[candidate]
        return best

    def where(self, loc: Loc) -> str:
        return f"{self.path}:{self.line_for(loc)}"


def load(path: Path) -> LocatedYaml:
    """Read and parse `path`; a missing file or invalid YAML is a one-line SuiteError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SuiteError(f"{path}: suite file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(f"{path}: cannot read suite file ({exc})") from None
    return loads(text, path)


def loads(text: str, path: Path) -> LocatedYaml:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise SuiteError(f"{path}:{line}: invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise SuiteError(f"{path}: invalid YAML: {str(exc).splitlines()[0]}") from None
    if node is None:
        return LocatedYaml(path, None, {(): 1})
    lines: dict[Loc, int] = {}
    _walk(node, (), lines, path)
    data = _construct(node)
    return LocatedYaml(path, data, lines)


def _construct(node: yaml.Node) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _walk(node: yaml.Node, loc: Loc, lines: dict[Loc, int], path: Path) -> None:
    """Record the line of every key and item; a key given twice in one mapping is an error
    (YAML would keep the last value and drop the first without a word)."""
    lines.setdefault(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        first: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.value)
            line = key_node.start_mark.line + 1
            if key in first and key != "<<":
                raise SuiteError(f"{path}:{line}: duplicate key {key!r} (first at line {first[key]}); "
                                 "keep one, YAML would silently drop the first")
            first[key] = line
            child = loc + (key,)
            lines[child] = line
            _walk(value_node, child, lines, path)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            child = loc + (index,)
            lines[child] = item.start_mark.line + 1
            _walk(item, child, lines, path)
