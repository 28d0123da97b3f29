"""CLAUDE.md as a flat list of blocks with line numbers (markdown-it-py, never regex over raw text).

Each block knows the heading path it sits under and its place in the document's structure
(the list it belongs to, its parent item, the blockquote depth, a table row's cells and the
table's header), so the extractor can read a rule where its authors wrote it: bullets,
paragraphs, numbered items, table rows, quotes and HTML comments. Inline code is kept apart
from prose: `masked` text has every code span replaced by a placeholder, so "never" inside a
code span is never read as prose. `Inline.breaks` remembers where each source line starts in
the masked text, so a sentence in the middle of a paragraph still names its own line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

#: Placeholder delimiters for code spans in masked text (Unicode private use area: never typed).
CODE_OPEN = "\ue000"
CODE_CLOSE = "\ue001"


@dataclass(frozen=True)
class Inline:
    """The text of one paragraph: prose with code spans masked, and the spans themselves."""

    masked: str
    codes: tuple[str, ...]
    #: offsets in `masked` where a new source line starts (soft and hard breaks)
    breaks: tuple[int, ...] = ()

    def line_of(self, offset: int, first_line: int) -> int:
        """The source line of `masked[offset]`, the inline starting on `first_line`."""
        return first_line + sum(1 for b in self.breaks if b <= offset)

    def render(self, masked: str | None = None) -> str:
        """Restore code spans as backticked text in `masked` (default: this inline's own)."""
        text = self.masked if masked is None else masked
        out: list[str] = []
        i = 0
        while True:
            start = text.find(CODE_OPEN, i)
            if start == -1:
                out.append(text[i:])
                return "".join(out)
            end = text.find(CODE_CLOSE, start)
            if end == -1:  # a malformed placeholder cannot come from parse(); keep text as is
                out.append(text[i:])
                return "".join(out)
            out.append(text[i:start])
            index = text[start + 1 : end]
            code = self.codes[int(index)] if index.isdigit() and int(index) < len(self.codes) else ""
            out.append(f"`{code}`")
            i = end + 1


@dataclass(frozen=True)
class Block:
    """One markdown block. `line` is 1-based; `section` is the heading path above it."""

    kind: str  # "heading" | "bullet" | "paragraph" | "row" (a table row) | "code" | "html" (blocks and comments)
    line: int
    end_line: int
    section: tuple[str, ...]
    inline: Inline = field(default_factory=lambda: Inline("", ()))
    #: Heading level (1-6) for headings; list nesting depth (0 = top) for bullets.
    level: int = 0
    #: Fence info string for code blocks ("guidance", "bash", "" ...).
    info: str = ""
    #: Raw content of a code block.
    code: str = ""
    #: True when a fence is not closed before the end of the file.
    unclosed: bool = False
    ordered: bool = False
    #: blockquote depth (0 = not quoted)
    quote: int = 0
    #: index (in the block list) of the list item this block belongs to or is nested under; -1 = none
    parent: int = -1
    #: bullets: index of the first item of their list (items of one list share it); -1 otherwise
    list_id: int = -1
    #: rows: the cells, and the texts of the table's header row
    cells: tuple[Inline, ...] = ()
    header: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return self.inline.render()


_PARSER: MarkdownIt | None = None


def _parser() -> MarkdownIt:
    global _PARSER
    if _PARSER is None:
        # Links, images, autolinks and inline HTML carry nothing a rule needs (their text stays
        # as written), and link-label scanning is the parser's slowest path on bracket-heavy input.
        _PARSER = MarkdownIt("commonmark").enable("table").disable(["link", "image", "autolink", "html_inline"])
    return _PARSER


def _inline(token: Token) -> Inline:
    parts: list[str] = []
    codes: list[str] = []
    for child in token.children or []:
        kind = child.type
        if kind == "text":
            parts.append(child.content.replace(CODE_OPEN, "").replace(CODE_CLOSE, "").replace("\n", " "))
        elif kind == "code_inline":
            parts.append(f"{CODE_OPEN}{len(codes)}{CODE_CLOSE}")
            codes.append(child.content)
        elif kind in ("softbreak", "hardbreak"):
            parts.append("\n")
    return collapse("".join(parts), tuple(codes))


def collapse(raw: str, codes: tuple[str, ...] = ()) -> Inline:
    """Whitespace runs become one space; a run holding a newline starts a new source line."""
    if "\n" not in raw:
        return Inline(" ".join(raw.split()), codes)  # one source line: nothing to remember
    out: list[str] = []
    breaks: list[int] = []
    length = 0
    pending = ""
    for ch in raw:
        if ch.isspace():
            if not pending:
                pending = " "
            if ch == "\n":
                pending = "\n"
            continue
        if pending:
            if length:
                out.append(" ")
                length += 1
            if pending == "\n" and length:
                breaks.append(length)
            pending = ""
        out.append(ch)
        length += 1
    return Inline("".join(out), codes, tuple(breaks))


def join_cells(cells: list[Inline]) -> Inline:
    """One inline for a table row: the cells' text joined by " | ", code spans renumbered."""
    parts: list[str] = []
    codes: list[str] = []
    for cell in cells:
        text = cell.masked
        for index in range(len(cell.codes) - 1, -1, -1):
            text = text.replace(f"{CODE_OPEN}{index}{CODE_CLOSE}", f"{CODE_OPEN}{index + len(codes)}{CODE_CLOSE}")
        parts.append(text)
        codes.extend(cell.codes)
    return Inline(" | ".join(parts), tuple(codes))


#: marks that open a line the way a list marker does ("❌ `git push --force`" on lines of their own)
_LINE_MARKS = ("\u274c", "\U0001f6ab", "\u26d4", "\u2705", "\u2714", "\u2716")


def marked_line(inline: Inline) -> bool:
    """The line opens with a check or cross mark (after emphasis)."""
    return inline.masked.lstrip("*_ ").startswith(_LINE_MARKS)


def mark_lines(inline: Inline) -> list[tuple[int, Inline]]:
    """A paragraph whose lines after the first each open with a check or cross mark, written
    without list markers ("**Never run:**" then "❌ `a`" and "❌ `b`" on lines of their own): each
    line with its offset in lines from the paragraph's first, code spans renumbered; [] when the
    paragraph is prose."""
    cuts = (0, *inline.breaks, len(inline.masked))
    lines = [inline.masked[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)]
    marked = [marked_line(Inline(line, ())) for line in lines]
    if len(lines) < 2 or not all(marked[1:]) or sum(marked) < 2:
        return []
    out: list[tuple[int, Inline]] = []
    for offset, line in enumerate(lines):
        codes: list[str] = []
        text = line
        for index, code in enumerate(inline.codes):
            placeholder = f"{CODE_OPEN}{index}{CODE_CLOSE}"
            if placeholder in text:
                text = text.replace(placeholder, f"{CODE_OPEN}{len(codes)}{CODE_CLOSE}")
                codes.append(code)
        out.append((offset, Inline(text, tuple(codes))))
    return out


def comment_text(html: str) -> str:
    """The text of the HTML comments in an HTML block ("" when it holds none)."""
    out: list[str] = []
    i = 0
    while True:
        start = html.find("<!--", i)
        if start == -1:
            return " ".join(out)
        end = html.find("-->", start + 4)
        out.append(html[start + 4 : end if end != -1 else len(html)].strip())
        if end == -1:
            return " ".join(out)
        i = end + 3


def parse(text: str) -> list[Block]:
    """Parse markdown into blocks in document order. Never raises on any str input."""
    tokens = _parser().parse(text)
    total_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    blocks: list[Block] = []
    headings: list[tuple[int, str]] = []  # (level, title) stack
    ordered_stack: list[bool] = []
    #: per open list: the index of its first item block (-1 until the first item's text is seen)
    list_first: list[int] = []
    #: per open list item: [the item's own block index (-1 until its first paragraph), is the next paragraph its first]
    items: list[list[Any]] = []
    in_heading = 0
    quote = 0
    lines: list[str] = []
    #: the table being read: its header texts and the cells of the row being read
    header: list[str] = []
    row: list[Inline] = []
    row_line = 0
    in_head = False
    in_cell = False

    def section() -> tuple[str, ...]:
        return tuple(title for _, title in headings)

    def parent() -> int:
        for item in reversed(items):
            if item[0] != -1:
                return int(item[0])
        return -1

    for tok in tokens:
        kind = tok.type
        if kind == "heading_open":
            in_heading = int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1
        elif kind == "heading_close":
            in_heading = 0
        elif kind == "blockquote_open":
            quote += 1
        elif kind == "blockquote_close":
            quote -= 1
        elif kind in ("bullet_list_open", "ordered_list_open"):
            ordered_stack.append(kind == "ordered_list_open")
            list_first.append(-1)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            ordered_stack.pop()
            list_first.pop()
        elif kind == "list_item_open":
            items.append([-1, True])
        elif kind == "list_item_close":
            items.pop()
        elif kind in ("th_open", "td_open"):
            in_cell = True
        elif kind in ("th_close", "td_close"):
            in_cell = False
        elif kind == "thead_open":
            in_head = True
            header = []
        elif kind == "thead_close":
            in_head = False
        elif kind == "tr_open":
            row = []
            row_line = (tok.map or [0, 1])[0] + 1
        elif kind == "tr_close":
            if in_head:
                header = [cell.render() for cell in row]
            elif row:
                blocks.append(Block("row", row_line, row_line, section(), join_cells(row), quote=quote, parent=parent(),
                                    cells=tuple(row), header=tuple(header)))
        elif kind == "inline":
            start, end = (tok.map or [0, 1])[0], (tok.map or [0, 1])[1]
            inline = _inline(tok)
            if in_heading:
                title = inline.render()
                while headings and headings[-1][0] >= in_heading:
                    headings.pop()
                headings.append((in_heading, title))
                blocks.append(Block("heading", start + 1, end, section(), inline, level=in_heading, quote=quote))
            elif in_cell:
                row.append(inline)
            elif items and items[-1][1]:
                items[-1][1] = False
                up = parent()
                if list_first[-1] == -1:
                    list_first[-1] = len(blocks)
                items[-1][0] = len(blocks)
                blocks.append(
                    Block(
                        "bullet",
                        start + 1,
                        end,
                        section(),
                        inline,
                        level=len(list_first) - 1,
                        ordered=ordered_stack[-1] if ordered_stack else False,
                        quote=quote,
                        parent=up,
                        list_id=list_first[-1],
                    )
                )
            elif lines_ := mark_lines(inline):
                # one item per marked line, the unmarked first line their introduction
                first = -1
                for offset, part in lines_:
                    line = start + 1 + offset
                    if offset == 0 and not marked_line(part):
                        blocks.append(Block("paragraph", line, line, section(), part, quote=quote, parent=parent()))
                        continue
                    first = len(blocks) if first == -1 else first
                    blocks.append(Block("bullet", line, line, section(), part, quote=quote, parent=parent(), list_id=first))
            else:
                blocks.append(Block("paragraph", start + 1, end, section(), inline, quote=quote, parent=parent()))
        elif kind == "html_block":
            start, end = (tok.map or [0, 1])[0], (tok.map or [0, 1])[1]
            blocks.append(Block("html", start + 1, end, section(), collapse(comment_text(tok.content)), code=tok.content,
                                quote=quote, parent=parent()))
        elif kind in ("fence", "code_block"):
            start, end = (tok.map or [0, 1])[0], (tok.map or [0, 1])[1]
            unclosed = False
            if kind == "fence":
                if not lines:
                    lines = text.split("\n")
                last = lines[end - 1].strip() if 0 < end <= len(lines) else ""
                closes = (
                    end - start >= 2
                    and last.startswith(tok.markup[0] * len(tok.markup))
                    and not last.strip(tok.markup[0])
                )
                unclosed = end >= total_lines and not closes
            blocks.append(
                Block(
                    "code",
                    start + 1,
                    end,
                    section(),
                    level=len(list_first),
                    info=tok.info.strip().split(" ")[0].lower() if tok.info else "",
                    code=tok.content,
                    unclosed=unclosed,
                    quote=quote,
                    parent=parent(),
                )
            )
    return blocks
