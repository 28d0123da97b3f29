"""Markdown blocks: kinds, line numbers, section paths, nesting, code spans kept apart."""

from __future__ import annotations

from cf_guidance.policy.markdown import CODE_OPEN, parse

DOC = """\
# Service

Intro paragraph with `code`.

## Safety
- Never run `git push --force`
  - nested *rule* with `x`
    continued
1. ordered item

```guidance
deny command rm
```

### Deep
- **Label**: text after label

```
unlabelled
"""


def test_block_kinds_and_lines() -> None:
    blocks = parse(DOC)
    assert [(b.kind, b.line) for b in blocks] == [
        ("heading", 1),
        ("paragraph", 3),
        ("heading", 5),
        ("bullet", 6),
        ("bullet", 7),
        ("bullet", 9),
        ("code", 11),
        ("heading", 15),
        ("bullet", 16),
        ("code", 18),
    ]


def test_sections_follow_heading_levels() -> None:
    blocks = parse(DOC)
    by_line = {b.line: b for b in blocks}
    assert by_line[3].section == ("Service",)
    assert by_line[6].section == ("Service", "Safety")
    assert by_line[16].section == ("Service", "Safety", "Deep")


def test_nesting_and_ordered() -> None:
    by_line = {b.line: b for b in parse(DOC)}
    assert by_line[6].level == 0
    assert by_line[7].level == 1
    assert by_line[7].text == "nested rule with `x` continued"
    assert by_line[9].ordered


def test_code_spans_are_masked() -> None:
    bullet = next(b for b in parse(DOC) if b.line == 6)
    assert bullet.inline.codes == ("git push --force",)
    assert "git push" not in bullet.inline.masked
    assert CODE_OPEN in bullet.inline.masked
    assert bullet.text == "Never run `git push --force`"


def test_fences_carry_info_and_unclosed_flag() -> None:
    codes = [b for b in parse(DOC) if b.kind == "code"]
    assert codes[0].info == "guidance"
    assert codes[0].code == "deny command rm\n"
    assert not codes[0].unclosed
    assert codes[1].info == ""
    assert codes[1].unclosed


def test_emphasis_markers_are_dropped() -> None:
    bullet = next(b for b in parse(DOC) if b.line == 16)
    assert bullet.text == "Label: text after label"


def test_only_first_paragraph_of_an_item_is_the_bullet() -> None:
    blocks = parse("- first para\n\n  second para\n")
    assert [(b.kind, b.text) for b in blocks] == [("bullet", "first para"), ("paragraph", "second para")]


def test_private_use_characters_in_input_cannot_forge_code_spans() -> None:
    blocks = parse("- Never run \ue0000\ue001 please\n")
    assert blocks[0].inline.codes == ()
    assert CODE_OPEN not in blocks[0].inline.masked


def test_html_blocks_are_kept_apart() -> None:
    blocks = parse("<!-- a\n- Never run `x`\n-->\n- real\n")
    assert [(b.kind, b.line, b.end_line) for b in blocks] == [("html", 1, 3), ("bullet", 4, 4)]


def test_empty_and_odd_input() -> None:
    assert parse("") == []
    assert [b.kind for b in parse("```\n")] == ["code"]
    assert parse("\n\n\n") == []


MARKED = [
    # lines that open with a check or cross mark, without list markers: one item each, the
    # unmarked first line their introduction, code spans renumbered per line
    ("**Never run:**\n\u274c `a b`\n\u274c `c`\n\u2705 `d`\n",
     [("paragraph", 1, "Never run:"), ("bullet", 2, "\u274c `a b`"), ("bullet", 3, "\u274c `c`"), ("bullet", 4, "\u2705 `d`")]),
    ("\u274c `a`\n\u2705 `b`\n", [("bullet", 1, "\u274c `a`"), ("bullet", 2, "\u2705 `b`")]),
    # prose that holds a mark, or one marked line among prose: one paragraph
    ("Run `a`\nthen \u274c `b` is wrong\n", [("paragraph", 1, "Run `a` then \u274c `b` is wrong")]),
    ("Intro line\n\u274c `a`\nmore prose\n", [("paragraph", 1, "Intro line \u274c `a` more prose")]),
]


def test_marked_lines_are_items() -> None:
    for text, expected in MARKED:
        blocks = parse(text)
        assert [(b.kind, b.line, b.text) for b in blocks] == expected, text
        items = [b for b in blocks if b.kind == "bullet"]
        assert all(b.list_id == items[0].list_id for b in items)
