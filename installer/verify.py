"""`cf-guidance verify`: prove the wired hooks protect the repository.

The smoke test pipes events through the exact command string written into the settings
file (run with `bash -c`, as the agent runs it, from the project directory): a
catastrophic command must be denied, a safe one allowed with no output, a command that a
CLAUDE.md rule denies (when the policy has one) denied, and a post event accepted
silently. For Codex it also reads the user's Codex config to say whether the project and
the hooks are trusted, because Codex skips untrusted hooks without a word.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess

from cf_guidance._statefile import state_problem
from cf_guidance.errors import InstallError
from cf_guidance.state import SMOKE_SESSION, StateLayout

from . import settings as settings_file
from .report import WARNING, VerifyReport
from .wiring import CLAUDE, CODEX, SETTINGS_FILES, WIRING, our_command_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DANGEROUS = "rm -rf /"
SAFE = "echo cf-guidance-verify"
SMOKE_TIMEOUT_S = 60
_GLOB_CHARS = "*?["


def verify(target: str, agent: str | None = None) -> VerifyReport:
    """Check the repository at `target`; `agent` None checks the agents init wired there."""
    from .install import _target, agents_for, installed_agents

    root = _target(target)
    agents = agents_for(agent) if agent else installed_agents(root)
    report = VerifyReport(target=root, agents=list(agents))
    layout = StateLayout.for_project(root)
    _check_state(report, layout)
    for name in agents:
        _check_agent(report, root, name)
    return report


def _check_state(report: VerifyReport, layout: StateLayout) -> None:
    report.add("state directory", os.path.isdir(layout.root), layout.root)
    problem = state_problem(layout.root)
    report.add("state directory is private", not problem, problem or "owned by this user, no one else may write it")
    try:
        info = os.stat(layout.ledger_key)
    except OSError:
        report.add("ledger key", False, f"{layout.ledger_key} is missing; run `cf-guidance init`")
        return
    mode = info.st_mode & 0o777
    ok = mode == 0o600 and info.st_size == 32
    report.add("ledger key", ok, f"mode {mode:04o}, {info.st_size} bytes" + ("" if ok else "; want mode 0600 and 32 bytes"))


def _check_agent(report: VerifyReport, root: str, agent: str) -> None:
    rel = SETTINGS_FILES[agent]
    path = os.path.join(root, rel)
    try:
        current, text = settings_file.load(path)
    except InstallError as exc:  # malformed file
        report.add(f"{agent}: {rel}", False, str(exc))
        return
    if text is None:
        report.add(f"{agent}: {rel}", False, f"{rel} is missing; run `cf-guidance init --agent {agent}`")
        return
    installed = settings_file.installed_names(current)
    missing = [w.name for w in WIRING[agent] if (w.event, w.matcher, w.name) not in installed]
    if not report.add(f"{agent}: hooks wired in {rel}", not missing,
                      f"missing: {', '.join(missing)}; run `cf-guidance init --agent {agent}`" if missing
                      else f"{len(installed)} hook(s)"):
        return
    commands = {name: command for (_, _, name), command in installed.items()}
    argv = shlex.split(commands["pre-bash"])
    absent = [part for part in (argv[0], argv[-2]) if not os.path.exists(part)]
    if not report.add(f"{agent}: interpreter and launcher exist", not absent,
                      f"missing: {', '.join(absent)}; run `cf-guidance init` again from the installed venv" if absent else argv[0]):
        return
    _smoke(report, root, agent, commands)
    if agent == CODEX:
        _codex_trust(report, root, current)


def _event(root: str, agent: str, hook_event: str, **fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"session_id": SMOKE_SESSION, "transcript_path": "", "cwd": root}
    if agent == CODEX:
        event.update({"turn_id": "verify", "model": "verify", "permission_mode": "default"})
    event["hook_event_name"] = hook_event
    event.update(fields)
    return event


def run_hook(command: str, event: dict[str, Any], root: str, agent: str) -> subprocess.CompletedProcess[str]:
    """Run a wired command as the agent does: through a shell, event JSON on stdin, from the project."""
    env = dict(os.environ)
    env.pop("GUIDANCE_STATE_DIR", None)
    if agent == CLAUDE:
        env["CLAUDE_PROJECT_DIR"] = root
    else:  # Codex sets no project variable; the hook finds the project from its cwd
        env.pop("CLAUDE_PROJECT_DIR", None)
        env.pop("GUIDANCE_PROJECT_DIR", None)
    return subprocess.run(
        ["bash", "-c", command], input=json.dumps(event) + "\n", capture_output=True, text=True,
        cwd=root, env=env, timeout=SMOKE_TIMEOUT_S, check=False,
    )


def verdict_of(result: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    """("deny"|"ask"|"warn"|"allow"|"error", reason) from a PreToolUse hook's exit code and output."""
    if result.returncode == 2 and result.stderr.strip():
        return "deny", result.stderr.strip()
    if result.returncode != 0:
        return "error", f"exit {result.returncode}: {result.stderr.strip()[:300]}"
    if not result.stdout.strip():
        return "allow", ""
    try:
        answer = json.loads(result.stdout)
    except ValueError:
        return "error", f"output is not JSON: {result.stdout[:200]!r}"
    specific = answer.get("hookSpecificOutput") or {}
    decision = specific.get("permissionDecision")
    if decision in ("deny", "ask"):
        return decision, str(specific.get("permissionDecisionReason", ""))
    if decision is not None:
        return "error", f"unexpected permissionDecision {decision!r}"
    return "warn", str(answer.get("systemMessage", ""))


def _tool_use_id() -> str:
    """Each smoke event its own id: the spool keys jobs by (kind, session, tool_use_id) and the
    worker keeps one record per key, so reused ids would record only the first event."""
    return "verify-" + os.urandom(6).hex()


def _bash_event(root: str, agent: str, command: str) -> dict[str, Any]:
    return _event(root, agent, "PreToolUse", tool_name="Bash", tool_input={"command": command}, tool_use_id=_tool_use_id())


def _smoke(report: VerifyReport, root: str, agent: str, commands: dict[str, str]) -> None:
    pre = commands["pre-bash"]
    verdict, reason = verdict_of(run_hook(pre, _bash_event(root, agent, DANGEROUS), root, agent))
    report.add(f"{agent}: hook denies `{DANGEROUS}`", verdict == "deny", reason[:200])
    verdict, reason = verdict_of(run_hook(pre, _bash_event(root, agent, SAFE), root, agent))
    report.add(f"{agent}: hook allows `{SAFE}` silently", verdict == "allow", reason[:200] or "exit 0, no output")
    rule = _policy_example(root)
    if rule is not None:
        rule_id, command = rule
        verdict, reason = verdict_of(run_hook(pre, _bash_event(root, agent, command), root, agent))
        report.add(f"{agent}: hook enforces CLAUDE.md rule {rule_id} on `{command}`", verdict == "deny", reason[:200])
    post = commands["post-bash"]
    event = _event(root, agent, "PostToolUse", tool_name="Bash", tool_input={"command": SAFE},
                   tool_response={"stdout": "cf-guidance-verify\n", "stderr": "", "interrupted": False}, tool_use_id=_tool_use_id())
    result = run_hook(post, event, root, agent)
    ok = result.returncode == 0 and not result.stdout.strip()
    report.add(f"{agent}: post-event hook returns silently", ok,
               "exit 0, no output" if ok else f"exit {result.returncode}: {(result.stdout + result.stderr).strip()[:200]}")


def _policy_example(root: str) -> tuple[str, str] | None:
    """(rule id, a command it denies) for the first command-deny rule of the project's policy."""
    try:
        from cf_guidance.policy.cache import load_bundle

        bundle = load_bundle(root)
    except Exception:  # no policy, or one that does not compile: the smoke test above covers the hook
        return None
    for check in bundle.get("checks") or ():
        pattern = check.get("pattern")
        if check.get("kind") != "command" or check.get("verdict") != "deny" or not isinstance(pattern, list):
            continue
        if check.get("scope"):
            continue  # a subdirectory's rule: the smoke command runs at the root, outside its scope
        words = [w for w in pattern if isinstance(w, str)]
        if words and words[-1] == "*":
            words = words[:-1]
        if not words or any(c in words[0] for c in _GLOB_CHARS):
            continue
        example = [_concrete(word) for word in words]
        return str(check.get("rule") or check.get("id")), " ".join(shlex.quote(word) for word in example)
    return None


def _concrete(word: str) -> str:
    """A word the glob `word` matches: `*.log` -> `x.log`."""
    out = []
    i = 0
    while i < len(word):
        char = word[i]
        if char in "*?":
            out.append("x")
        elif char == "[":
            end = word.find("]", i + 2)
            if end == -1:
                out.append(char)
            else:
                members = word[i + 1 : end].lstrip("!^")
                out.append(members[:1] or "x")
                i = end
        else:
            out.append(char)
        i += 1
    return "".join(out)


_CODEX_EVENT_KEYS = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "UserPromptSubmit": "user_prompt_submit",
    "SessionStart": "session_start",
    "Stop": "stop",
    "PreCompact": "pre_compact",
}


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


def _codex_trust(report: VerifyReport, root: str, hooks_json: dict[str, Any]) -> None:
    """Codex runs a project's hooks only in a trusted project and once each hook is trusted."""
    import tomllib

    config_path = os.path.join(codex_home(), "config.toml")
    try:
        with open(config_path, "rb") as handle:
            config = tomllib.load(handle)
    except FileNotFoundError:
        config = {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        report.add("codex: trust", False, f"cannot read {config_path}: {exc}", WARNING)
        return
    projects = config.get("projects") or {}
    trusted_project = any(
        isinstance(entry, dict) and entry.get("trust_level") == "trusted" and (root == path or root.startswith(path.rstrip("/") + "/"))
        for path, entry in projects.items()
    )
    report.add(
        "codex: project trusted", trusted_project,
        f"{config_path} trusts {root}" if trusted_project else
        f'add [projects."{root}"] trust_level = "trusted" to {config_path} (or run `codex exec --trust` once); '
        "codex ignores .codex/hooks.json of an untrusted project",
        WARNING,
    )
    state = ((config.get("hooks") or {}).get("state") or {})
    hooks_file = os.path.join(root, SETTINGS_FILES[CODEX])
    keys = []
    for event, groups in (hooks_json.get("hooks") or {}).items():
        for g, group in enumerate(groups):
            for h, handler in enumerate(group.get("hooks", [])):
                if our_command_name(handler) and event in _CODEX_EVENT_KEYS:
                    keys.append(f"{hooks_file}:{_CODEX_EVENT_KEYS[event]}:{g}:{h}")
    untrusted = [key for key in keys if not (isinstance(state.get(key), dict) and state[key].get("trusted_hash"))]
    report.add(
        "codex: hooks trusted", not untrusted,
        f"{len(keys)} hook(s) have a trusted_hash in {config_path} (codex itself checks it still matches the command)"
        if not untrusted else
        f"{len(untrusted)} of {len(keys)} hook(s) are not trusted, and codex skips them silently: start codex in {root} "
        "and approve them under /hooks, or run `codex exec --dangerously-bypass-hook-trust`; "
        "the hash changes whenever init rewrites a command",
        WARNING,
    )
