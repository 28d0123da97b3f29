from __future__ import annotations

from cf_guidance.gates import diff_size
from cf_guidance.gates.diff_size import count_lines
from tests.gates.support import codes, tool


def test_count_lines() -> None:
    assert [count_lines(t) for t in ("", "a", "a\n", "a\nb", "a\nb\n")] == [0, 1, 1, 2, 2]


def test_default_limit_is_the_anchors_300() -> None:
    assert codes(diff_size, tool("Write", file_path="a.py", content="x\n" * 300)) == []
    assert codes(diff_size, tool("Write", file_path="a.py", content="x\n" * 301)) == ["DIF001:warn"]


def test_edit_counts_added_and_removed() -> None:
    event = tool("Edit", file_path="a.py", old_string="x\n" * 200, new_string="y\n" * 150)
    assert codes(diff_size, event) == ["DIF001:warn"]
    assert codes(diff_size, event, max_diff_lines=400) == []


def test_bad_limit_falls_back_to_default() -> None:
    event = tool("Write", file_path="a.py", content="x\n" * 301)
    assert codes(diff_size, event, max_diff_lines="many") == ["DIF001:warn"]
    assert codes(diff_size, tool("Read", file_path="a.py")) == []
