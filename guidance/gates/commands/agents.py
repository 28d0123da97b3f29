"""Agents started from the shell: does the new session still run the project's hooks? (issue 11)

An agent that may not edit the hook wiring could start another agent that never loads it:
`claude --bare` skips hooks, `--setting-sources user` skips the project's settings,
`--settings FILE` can set `disableAllHooks`, `codex --disable hooks` turns Codex's hooks
off. Each option is kept as data with what it does, checked against `--help` of the pinned
clients (Claude Code 2.1, Codex CLI 0.169) and tested with examples that must and must not
count (tests/gates/commands/test_agents.py).
"""

from __future__ import annotations

from cf_guidance.gates.commands import Args

#: Program names of the clients, as run directly or through npx / bunx / pnpm dlx.
CLAUDE = frozenset(("claude", "claude-code"))
CODEX = frozenset(("codex",))

#: Claude Code options that start a session without the project's hooks or permission checks.
CLAUDE_UNGUARDED = {
    "--bare": "skips every hook in settings",
    "--safe-mode": "disables hooks and CLAUDE.md",
    "--restricted": "ignores the user, project and local settings files",
    "--dangerously-skip-permissions": "bypasses all permission checks",
    "--allow-dangerously-skip-permissions": "lets the session bypass all permission checks",
    "--settings": "loads settings from elsewhere, which can set disableAllHooks",
    "--worktree": "runs in a new git worktree, where the uncommitted hook wiring is missing",
    "-w": "runs in a new git worktree, where the uncommitted hook wiring is missing",
}
#: Claude Code options that take a value.
CLAUDE_VALUES = frozenset((
    "--settings", "--setting-sources", "--permission-mode", "--add-dir", "--agent", "--agents", "--append-system-prompt", "--model",
    "--system-prompt", "--mcp-config", "--output-format", "--input-format", "--allowedTools", "--allowed-tools", "--disallowedTools",
    "--disallowed-tools", "--tools", "--session-id", "-r", "--resume", "--fallback-model", "--max-budget-usd", "--json-schema",
    "--effort", "--plugin-dir", "--plugin-url", "--debug-file", "-n", "--name", "--betas", "--file", "--permission-prompts",
    "--autocompact", "--system-prompt-snapshot", "--remote-control-session-name-prefix", "--environment",
))
#: Setting sources that must stay loaded: the hook wiring lives in project and local settings.
REQUIRED_SOURCES = ("project", "local")
#: Environment variables that switch a Claude Code session into a mode without hooks.
CLAUDE_ENV = {"CLAUDE_CODE_SIMPLE": "is --bare", "CLAUDE_CODE_SAFE_MODE": "is --safe-mode"}

#: Codex CLI options that start a session without its hooks or approvals.
CODEX_UNGUARDED = {
    "--dangerously-bypass-approvals-and-sandbox": "skips every approval and the sandbox",
    "--yolo": "skips every approval and the sandbox",
    "--dangerously-bypass-hook-trust": "runs hooks nobody trusted, which hooks.json may now be",
    "--ignore-user-config": "drops the user config that records the project and hook trust, so Codex skips the hooks",
    "--profile": "layers a config profile over the user's, which can turn hooks off",
    "-p": "layers a config profile over the user's, which can turn hooks off",
    "--worktree": "runs in a new git worktree, where the uncommitted hook wiring is missing",
}
CODEX_VALUES = frozenset(("-c", "--config", "--enable", "--disable", "-i", "--image", "-m", "--model", "--local-provider", "-p",
                          "--profile", "-s", "--sandbox", "-C", "--cd", "--add-dir", "-a", "--ask-for-approval", "--remote",
                          "--remote-auth-token-env", "-o", "--output-last-message", "--output-schema", "--color"))
#: Codex config keys (`-c KEY=VALUE`) that decide whether its hooks run.
CODEX_HOOK_KEYS = ("hooks", "features.hooks", "projects")
def unguarded(program: str, args: list[str], assignments: list[tuple[str, str]]) -> str:
    """Why `program ARGS` starts an agent session that does not run the project's hooks, or ""."""
    if program in CLAUDE:
        return _claude(args, assignments)
    if program in CODEX:
        return _codex(args)
    return ""


def _claude(args: list[str], assignments: list[tuple[str, str]]) -> str:
    for name, value in assignments:
        if name in CLAUDE_ENV and value not in ("", "0"):
            return f"{name}={value} {CLAUDE_ENV[name]}: the session runs without hooks"
    parsed = Args(args, CLAUDE_VALUES)
    for option, why in CLAUDE_UNGUARDED.items():
        if option in parsed.long or (option.startswith("-") and not option.startswith("--") and parsed.has(option)):
            return f"claude {option} {why}"
    for mode in parsed.value("--permission-mode"):
        if mode == "bypassPermissions":
            return "claude --permission-mode bypassPermissions bypasses all permission checks"
    for sources in parsed.value("--setting-sources"):
        chosen = {s.strip() for s in sources.split(",")}
        missing = [s for s in REQUIRED_SOURCES if s not in chosen]
        if missing:
            return f"claude --setting-sources {sources} leaves out the {' and '.join(missing)} settings, which wire the hooks"
    return ""


def _codex(args: list[str]) -> str:
    parsed = Args(args, CODEX_VALUES)
    for option, why in CODEX_UNGUARDED.items():
        if option in parsed.long or (not option.startswith("--") and parsed.has(option)):
            return f"codex {option} {why}"
    for feature in parsed.value("--disable"):
        if feature.strip() == "hooks":
            return "codex --disable hooks turns its hooks off"
    for setting in parsed.value("-c", "--config"):
        key = setting.split("=", 1)[0].strip().strip("'\"")
        if key.startswith(CODEX_HOOK_KEYS):
            return f"codex -c {key}=... changes whether its hooks run"
    return ""


#: Subcommands and options of either client that start no agent session (they manage its
#: configuration, accounts, plugins or background sessions, or print something).
NOT_SESSIONS = frozenset((
    "mcp", "plugin", "plugins", "auth", "doctor", "install", "setup-token", "update", "config", "agents", "logs", "rm", "purge",
    "gateway", "import", "auto-mode", "attach", "login", "logout", "completion", "features", "help", "debug", "apply", "archive",
    "delete", "unarchive", "migrate-rollouts", "migrate-nfs-db", "app-server", "remote-control", "exec-server", "sandbox", "queue",
    "cloud",
))
_PRINTS = frozenset(("--version", "-v", "-V", "--help", "-h"))


def starts_session(program: str, args: list[str]) -> bool:
    """True when `program ARGS` starts an agent session (not `claude mcp list`, `codex login`, `--version`)."""
    if any(arg in _PRINTS for arg in args):
        return False
    positionals = Args(args, CLAUDE_VALUES if program in CLAUDE else CODEX_VALUES).positionals
    return not (positionals and positionals[0] in NOT_SESSIONS)


def session_dir(program: str, args: list[str]) -> str:
    """The directory a codex session is told to work in (`-C DIR`), "" when not given."""
    if program not in CODEX:
        return ""
    values = Args(args, CODEX_VALUES).value("-C", "--cd")
    return values[-1] if values else ""
