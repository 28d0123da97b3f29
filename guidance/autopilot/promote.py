"""Find the local rules worth promoting and build the candidate CLAUDE.md that promotes them.

A local rule (from CLAUDE.local.md) is promotable when its stable id is absent from the
shared CLAUDE.md, or present with a different content hash. Ids are the compiler's: explicit
`[R001]` ids or ids derived from the normalised text, so reordering either file promotes
nothing. Promoted rules are copied verbatim (the bullet, or the ```guidance line) into one
auto-promotion block between markers; a later cycle replaces that block, keeping the rules it
already held. A changed rule's old version elsewhere in CLAUDE.md is removed, so the id stays
unique. A local rule that would change or contradict the constitution is reported, never
promoted: the constitution is edited by people.
"""

from __future__ import annotations

import textwrap
from typing import Any, Literal

from markdown_it import MarkdownIt
from pydantic import BaseModel

START_MARKER = "<!-- guidance-autopilot:start -->"
END_MARKER = "<!-- guidance-autopilot:end -->"
SECTION_HEADING = "## Guidance Auto-Promotions"
#: Heading for promoted constitution rules; "Safety" keeps them in the constitution.
CONSTITUTION_HEADING = "### Safety (promoted)"
#: The anchor's cap on promotions per cycle.
MAX_PROMOTIONS = 12

class Promotion(BaseModel):
    """One local rule to copy into CLAUDE.md."""

    id: str
    status: Literal["new", "changed"]
    text: str
    source: str
    priority: int = 0
    constitution: bool = False
    kind: Literal["bullet", "guidance"]
    lines: list[str]
    checks: list[dict[str, Any]] = []


class Conflict(BaseModel):
    """A local rule that is not promoted, and why."""

    id: str
    source: str
    reason: str


class Plan(BaseModel):
    promotions: list[Promotion]
    conflicts: list[Conflict]


def split_source(source: str) -> tuple[str, int]:
    """`"CLAUDE.local.md:12"` -> `("CLAUDE.local.md", 12)`; no line gives 0."""
    name, _, line = source.rpartition(":")
    if not name or not line.isdigit():
        return source, 0
    return name, int(line)


class _Outline:
    """Where each rule of a Markdown file sits: list items and ```guidance lines, by line."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.items: dict[int, tuple[int, int]] = {}
        self.guidance_lines: set[int] = set()
        tokens = MarkdownIt("commonmark").parse(text)
        open_items: list[tuple[int, int]] = []
        for token in tokens:
            if token.type == "list_item_open" and token.map:
                start, end = token.map
                # A parent item's own text stops where its first nested item begins.
                if open_items and open_items[-1][0] in self.items:
                    parent = open_items[-1][0]
                    p_start, p_end = self.items[parent]
                    self.items[parent] = (p_start, min(p_end, start))
                self.items[start] = (start, end)
                open_items.append((start, end))
            elif token.type == "list_item_close" and open_items:
                open_items.pop()
            elif token.type == "fence" and token.map and token.info.strip().split()[:1] == ["guidance"]:
                first, last = token.map
                closing = self.lines[last - 1].strip() if last - 1 > first else ""
                closed = bool(closing) and set(closing) == {token.markup[0]}
                self.guidance_lines.update(range(first + 1, last - 1 if closed else last))

    def _item(self, index: int) -> tuple[int, int] | None:
        """The innermost list item holding 0-based line `index` (its text starts there or above)."""
        if index in self.items:
            return self.items[index]
        holding = [span for span in self.items.values() if span[0] <= index < span[1]]
        return max(holding, default=None)

    def rule_lines(self, line_no: int) -> tuple[str, list[str]] | None:
        """The verbatim lines of the rule starting at 1-based `line_no`, and its kind."""
        index = line_no - 1
        if index in self.guidance_lines:
            return "guidance", [self.lines[index].strip()]
        span = self._item(index)
        if span is None:
            return None
        chunk = self.lines[span[0] : span[1]]
        while chunk and not chunk[-1].strip():
            chunk.pop()
        return "bullet", textwrap.dedent("\n".join(chunk)).splitlines()

    def span(self, line_no: int) -> tuple[int, int] | None:
        index = line_no - 1
        if index in self.guidance_lines:
            return index, index + 1
        return self._item(index)


def block_span(text: str) -> tuple[int, int] | None:
    """0-based line range of the auto-promotion block, markers included, or None."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == START_MARKER), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == END_MARKER), None)
    return None if end is None else (start, end + 1)


def find_promotable(
    shared_bundle: dict[str, Any],
    merged_bundle: dict[str, Any],
    local_text: str,
    *,
    max_promotions: int = MAX_PROMOTIONS,
) -> Plan:
    """Compare the shared-only bundle with the shared+local bundle and pick the local rules."""
    shared = {s["id"]: s for s in shared_bundle.get("shards", [])}
    constitution_checks = {
        _check_key(c): c
        for c in shared_bundle.get("checks", [])
        if shared.get(str(c.get("rule")), {}).get("constitution") and c.get("verdict") == "deny"
    }
    merged_checks = {c["id"]: c for c in merged_bundle.get("checks", [])}
    diagnostics: dict[str, list[str]] = {}
    for diag in merged_bundle.get("diagnostics", []):
        if diag.get("level") in ("error", "warning"):
            diagnostics.setdefault(str(diag.get("source", "")), []).append(str(diag.get("message", "")))
    outline = _Outline(local_text)
    promotions: list[Promotion] = []
    conflicts: list[Conflict] = []
    for shard in merged_bundle.get("shards", []):
        if shard.get("origin") != "local":
            continue
        sid, source = str(shard["id"]), str(shard.get("source", ""))
        old = shared.get(sid)
        if old is not None and old.get("hash") == shard.get("hash"):
            continue
        checks = [merged_checks[c] for c in shard.get("checks", []) if c in merged_checks]

        def refuse(reason: str) -> None:
            conflicts.append(Conflict(id=sid, source=source, reason=reason))

        if old is not None and old.get("constitution"):
            refuse(f"changes constitution rule {sid} ({old.get('source', '')}); edit CLAUDE.md by hand")
            continue
        contradicted = [c for c in checks if c.get("verdict") != "deny" and _check_key(c) in constitution_checks]
        if contradicted:
            rule = constitution_checks[_check_key(contradicted[0])]
            refuse(f"weakens constitution rule {rule.get('rule')} to {contradicted[0].get('verdict')}; edit CLAUDE.md by hand")
            continue
        if source in diagnostics:
            refuse("compiler: " + "; ".join(diagnostics[source]))
            continue
        found = outline.rule_lines(split_source(source)[1])
        if found is None:
            refuse("cannot locate the rule's text in CLAUDE.local.md")
            continue
        kind, lines = found
        promotions.append(
            Promotion(
                id=sid,
                status="new" if old is None else "changed",
                text=str(shard.get("text", "")),
                source=source,
                priority=int(shard.get("priority", 0) or 0),
                constitution=bool(shard.get("constitution")),
                kind="guidance" if kind == "guidance" else "bullet",
                lines=lines,
                checks=checks,
            )
        )
    promotions.sort(key=lambda p: (-p.priority, p.source))
    for dropped in promotions[max_promotions:]:
        conflicts.append(Conflict(id=dropped.id, source=dropped.source, reason=f"over the cap of {max_promotions} promotions per cycle"))
    return Plan(promotions=promotions[:max_promotions], conflicts=conflicts)


def _check_key(check: dict[str, Any]) -> tuple[str, ...]:
    """What a check matches, regardless of verdict: its kind and pattern words."""
    pattern = check.get("pattern")
    words = pattern if isinstance(pattern, (list, tuple)) else [pattern]
    return (str(check.get("kind")), *map(str, words))


def _render_block(promotions: list[Promotion], *, generated: str, source: str) -> list[str]:
    out = [START_MARKER, f"<!-- source: {source} generated: {generated} -->", ""]
    groups = [
        [p for p in promotions if not p.constitution],
        [p for p in promotions if p.constitution],
    ]
    for index, group in enumerate(groups):
        if not group:
            continue
        if index == 1:
            out += [CONSTITUTION_HEADING, ""]
        bullets = [p for p in group if p.kind == "bullet"]
        machine = [p for p in group if p.kind == "guidance"]
        for p in bullets:
            out += p.lines
        if bullets:
            out.append("")
        if machine:
            out += ["```guidance", *(p.lines[0] for p in machine), "```", ""]
    out.append(END_MARKER)
    return out


def block_promotions(shared_text: str, shared_bundle: dict[str, Any]) -> list[Promotion]:
    """The rules an earlier cycle already put into the block, as promotions to keep."""
    span = block_span(shared_text)
    if span is None:
        return []
    outline = _Outline(shared_text)
    kept: list[Promotion] = []
    for shard in shared_bundle.get("shards", []):
        name, line = split_source(str(shard.get("source", "")))
        if not span[0] < line <= span[1]:
            continue
        found = outline.rule_lines(line)
        if found is None:
            continue
        kind, lines = found
        kept.append(
            Promotion(
                id=str(shard["id"]),
                status="new",
                text=str(shard.get("text", "")),
                source=str(shard.get("source", "")),
                priority=int(shard.get("priority", 0) or 0),
                constitution=bool(shard.get("constitution")),
                kind="guidance" if kind == "guidance" else "bullet",
                lines=lines,
            )
        )
    return kept


def build_candidate(
    shared_text: str,
    shared_bundle: dict[str, Any],
    plan: Plan,
    *,
    generated: str,
    source: str = "CLAUDE.local.md",
) -> str:
    """CLAUDE.md with the plan's rules in the auto-promotion block (replacing an earlier one)."""
    new_ids = {p.id for p in plan.promotions}
    kept = [p for p in block_promotions(shared_text, shared_bundle) if p.id not in new_ids]
    lines = shared_text.splitlines()
    outline = _Outline(shared_text)
    span = block_span(shared_text)
    # Remove the old versions of changed rules that live outside the block.
    drop: set[int] = set()
    for shard in shared_bundle.get("shards", []):
        if str(shard.get("id")) not in new_ids:
            continue
        line = split_source(str(shard.get("source", "")))[1]
        if span is not None and span[0] < line <= span[1]:
            continue
        rule_span = outline.span(line)
        if rule_span is not None:
            drop.update(range(*rule_span))
    block = _render_block(kept + plan.promotions, generated=generated, source=source)
    newline = "\r\n" if "\r\n" in shared_text else "\n"
    if span is not None:
        body = [line for i, line in enumerate(lines[: span[0]]) if i not in drop]
        tail = [line for i, line in enumerate(lines[span[1] :], start=span[1]) if i not in drop]
        out = body + block + tail
    else:
        body = [line for i, line in enumerate(lines) if i not in drop]
        while body and not body[-1].strip():
            body.pop()
        out = body + ["", SECTION_HEADING, ""] + block
    return newline.join(out) + newline
