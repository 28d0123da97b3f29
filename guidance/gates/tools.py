"""Tool allow and deny lists (`deny tool X`, `allow tool A B C` in CLAUDE.md).

Entries match the tool name exactly or as a glob (`mcp__*`, `mcp__github__*`), or a whole
tool class in brackets (`[web]` = WebFetch and WebSearch, `[mcp]` = every MCP tool,
`[bash]`, `[edit]`, `[read]`, `[task]`). Web and MCP tools are allowed unless listed; an
empty allow list means no allow list. At the paranoid level an MCP tool that no allow entry
names is asked about.
"""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates._base import PARANOID, Rule
from cf_guidance.gates.patterns import tool_matches
from cf_guidance.gates.policy_rules import index_of
from cf_guidance.gates.reasons import doc, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext

GATE = "tools"

RULES = (
    Rule("TLS001", "tool-denied", DENY, "A tool the project denies",
         doc("Denies a tool named by `settings.tools_deny` (`deny tool WebFetch`, `deny tool mcp__*`, `deny tool [web]`).",
             "The project decided the agent must not use it.", "WebFetch https://example.com  # with `deny tool WebFetch`",
             "# use an allowed tool")),
    Rule("TLS002", "tool-not-allowed", DENY, "A tool missing from the project's allow list",
         doc("When `settings.tools_allow` is not empty, denies every tool it does not name.",
             "An allow list is the project's statement of everything the agent may use.",
             "Bash ls  # with `allow tool Read Grep Glob`", "Read src/app.py")),
    Rule("TLS003", "unknown-mcp-tool", ASK, "An MCP tool nobody allowed (paranoid level)",
         doc("At the paranoid level asks before any `mcp__*` tool that no `allow tool` entry names.",
             "MCP servers run third-party code with the user's credentials.",
             "mcp__someserver__delete_everything", "# allow tool mcp__github__* in CLAUDE.md")),
)


def listed(entries: list[str], tool: str, tool_class: str) -> bool:
    return any(isinstance(entry, str) and tool_matches(entry, tool, tool_class) for entry in entries)


def check(ctx: GateContext) -> list[Finding]:
    event = ctx.event
    tool = event.tool
    if not tool:
        return []
    settings = ctx.bundle.get("settings") or {}
    deny = settings.get("tools_deny") or []
    allow = settings.get("tools_allow") or []
    # `deny tool X` also compiles to a tool check the policy gate reports; avoid saying it twice.
    covered = {c.get("pattern") for c in index_of(ctx.bundle).tools} if deny else set()
    if deny and listed([d for d in deny if d not in covered], tool, event.tool_class):
        return [finding(GATE, "TLS001", DENY, f"the project denies the tool {tool}", segment=tool)]
    if allow and not listed(allow, tool, event.tool_class):
        return [finding(GATE, "TLS002", DENY, f"{tool} is not in the project's tool allow list", segment=tool)]
    if ctx.level == PARANOID and event.tool_class == "mcp" and not listed(allow, tool, "mcp"):
        return [finding(GATE, "TLS003", ASK, f"{tool} is an MCP tool no rule allows", segment=tool)]
    return []
