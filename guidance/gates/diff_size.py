"""Diff size: large single edits are hard to review."""

from __future__ import annotations

from cf_guidance.decision import WARN
from cf_guidance.gates._base import Rule
from cf_guidance.gates.reasons import doc, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext

GATE = "diff-size"
DEFAULT_MAX_DIFF_LINES = 300

RULES = (
    Rule("DIF001", "diff-too-large", WARN, "One edit changes more lines than settings.max_diff_lines",
         doc("Warns when a Write, Edit, MultiEdit, NotebookEdit or apply_patch changes more than `max_diff_lines` lines "
             "(default 300, `max-diff-lines N` in a guidance block). Changed lines = lines written + lines removed "
             "(Edit: `new_string` + `old_string`; Write: the whole content).",
             "Large edits hide mistakes from review and are hard to revert in part.",
             "Write src/big.py  # 1,200 new lines", "# several smaller edits, one concern each")),
)


def count_lines(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def check(ctx: GateContext) -> list[Finding]:
    event = ctx.event
    if event.tool_class != "edit":
        return []
    settings = ctx.bundle.get("settings") or {}
    limit = settings.get("max_diff_lines")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0:
        limit = DEFAULT_MAX_DIFF_LINES
    changed = count_lines(event.content) + count_lines(event.removed)
    if changed > limit:
        target = event.paths[0][0] if event.paths else event.tool
        return [finding(GATE, "DIF001", WARN, f"{event.tool} changes {changed} lines of {target} (limit {limit})", segment=f"{event.tool} {target}")]
    return []
