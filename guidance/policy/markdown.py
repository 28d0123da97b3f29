"""CLAUDE.md as a flat list of blocks with line numbers (markdown-it-py, never regex over raw text).

Each block knows the heading path it sits under, so later stages can decide what is a rule
(bullets), what is context (headings, paragraphs) and what is a machine rule block
(```guidance fences). Inline code is kept apart from prose: a bullet's `masked` text has every
code span replaced by a placeholder, so "never" inside a code span is never read as prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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

    kind: str  # "heading" | "bullet" | "paragraph" | "code" | "html" (blocks and comments)
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

    @property
    def text(self) -> str:
        return self.inline.render()


_PARSER: MarkdownIt | None = None


def _parser() -> MarkdownIt:
    global _PARSER
    if _PARSER is None:
        # Links, images, autolinks and inline HTML carry nothing a rule needs (their text stays
        # as written), and link-label scanning is the parser's slowest path on bracket-heavy input.
        _PARSER = MarkdownIt("commonmark").disable(["link", "image", "autolink", "html_inline"])
    return _PARSER


def _inline(token: Token) -> Inline:
    parts: list[str] = []
    codes: list[str] = []
    for child in token.children or []:
        kind = child.type
        if kind == "text":
            parts.append(child.content.replace(CODE_OPEN, "").replace(CODE_CLOSE, ""))
        elif kind == "code_inline":
            parts.append(f"{CODE_OPEN}{len(codes)}{CODE_CLOSE}")
            codes.append(child.content)
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
    masked = " ".join("".join(parts).split())
    return Inline(masked, tuple(codes))


def parse(text: str) -> list[Block]:
    """Parse markdown into blocks in document order. Never raises on any str input."""
    tokens = _parser().parse(text)
    total_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    blocks: list[Block] = []
    headings: list[tuple[int, str]] = []  # (level, title) stack
    list_depth = 0
    ordered_stack: list[bool] = []
    # Only the first paragraph of a list item is the bullet's text; later ones are context.
    item_first_para: list[bool] = []
    in_heading = 0
    lines: list[str] = []

    def section() -> tuple[str, ...]:
        return tuple(title for _, title in headings)

    for i, tok in enumerate(tokens):
        kind = tok.type
        if kind == "heading_open":
            in_heading = int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1
        elif kind == "heading_close":
            in_heading = 0
        elif kind in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
            ordered_stack.append(kind == "ordered_list_open")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
            ordered_stack.pop()
        elif kind == "list_item_open":
            item_first_para.append(True)
        elif kind == "list_item_close":
            item_first_para.pop()
        elif kind == "inline":
            start, end = (tok.map or [0, 1])[0], (tok.map or [0, 1])[1]
            inline = _inline(tok)
            if in_heading:
                title = inline.render()
                while headings and headings[-1][0] >= in_heading:
                    headings.pop()
                headings.append((in_heading, title))
                blocks.append(Block("heading", start + 1, end, section(), inline, level=in_heading))
            elif item_first_para and item_first_para[-1]:
                item_first_para[-1] = False
                blocks.append(
                    Block(
                        "bullet",
                        start + 1,
                        end,
                        section(),
                        inline,
                        level=list_depth - 1,
                        ordered=ordered_stack[-1] if ordered_stack else False,
                    )
                )
            else:
                blocks.append(Block("paragraph", start + 1, end, section(), inline))
        elif kind == "html_block":
            start, end = (tok.map or [0, 1])[0], (tok.map or [0, 1])[1]
            blocks.append(Block("html", start + 1, end, section(), code=tok.content))
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
                    level=list_depth,
                    info=tok.info.strip().split(" ")[0].lower() if tok.info else "",
                    code=tok.content,
                    unclosed=unclosed,
                )
            )
    return blocks
