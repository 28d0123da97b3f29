"""`cf-guidance verify`: prove the wired hooks protect the repository.

verify finds every settings file that wires cf-guidance for the project (project, local and
user scope, see wiring) and checks each. The smoke test pipes events through the exact command
string written there (run with `bash -c`, as the agent runs it, from the project directory): a
catastrophic command must be denied, a safe one allowed with no output, a command that a
CLAUDE.md rule denies (when the policy has one) denied by that rule, and a post event accepted
silently. Then the same pre-tool command runs with the installation out of reach (a portable
command with an empty PATH and HOME, an absolute one with its interpreter renamed): it must
answer as the wiring chose (a denial, or a visible warning), never a silent allow. The policy
must compile: a CLAUDE.md that cannot be read leaves only the built-in checks. For Codex it
also reads the user's Codex config to say whether the project and the hooks are trusted,
because Codex skips untrusted hooks without a word.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile

from cf_guidance._statefile import state_problem
from cf_guidance.errors import InstallError
from cf_guidance.state import SMOKE_SESSION, StateLayout

from . import settings as settings_file
from .report import WARNING, VerifyReport
from .wiring import (
    CLAUDE,
    CODEX,
    DENY,
    LOCAL,
    PORTABLE_FIX,
    PROJECT,
    SCOPES,
    TOOL,
    TOOL_LOCAL_DIR,
    TOOL_SEARCH_PATH,
    WIRING,
    codex_home,
    our_command_name,
    parse,
    settings_path,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .wiring import Parsed

DANGEROUS = "rm -rf /"
SAFE = "echo cf-guidance-verify"
SMOKE_TIMEOUT_S = 60
_GLOB_CHARS = "*?["
#: How many of the policy's command bans verify tries for one that the ban itself decides.
_POLICY_EXAMPLES = 20


def verify(target: str, agent: str | None = None, scope: str | None = None) -> VerifyReport:
    """Check the repository at `target`: every scope and agent wired there (or just `scope`/`agent`)."""
    from .install import _target, agents_for

    root = _target(target)
    agents = agents_for(agent) if agent else (CLAUDE, CODEX)
    scopes = (scope,) if scope else SCOPES
    report = VerifyReport(target=root, agents=[])
    layout = StateLayout.for_project(root)
    _check_state(report, layout)
    _check_policy(report, root)
    found = []
    for where in scopes:
        for name in agents:
            if where == LOCAL and name == CODEX:
                continue
            path = settings_path(where, name, root)
            try:
                current, text = settings_file.load(path)
            except InstallError as exc:  # malformed file
                report.add(f"{_label(name, where)}: {path}", False, str(exc))
                continue
            if text is not None and settings_file.installed_names(current):
                found.append((where, name, path, current))
            elif agent and scope:  # asked for exactly this one
                report.add(f"{_label(name, where)}: hooks wired in {path}", False,
                           f"not wired; run `cf-guidance init --agent {name} --scope {where}`")
    if not found and not (agent and scope):
        report.add("hooks wired", False, "no settings file wires cf-guidance for this project (checked the "
                   f"{'/'.join(scopes)} scope); run `cf-guidance init`")
    wired_in: dict[str, list[str]] = {}
    for where, name, _, _ in found:
        wired_in.setdefault(name, []).append(where)
    for name, places in wired_in.items():
        if len(places) > 1:
            report.add(f"{name}: wired once", False, f"wired in the {' and '.join(places)} scope: every event runs each; "
                       f"remove one with `cf-guidance uninstall --scope {places[-1]}`", WARNING)
    report.agents = sorted(wired_in)
    for where, name, path, current in found:
        _check_agent(report, root, name, where, path, current)
    return report


def _label(agent: str, scope: str) -> str:
    return agent if scope == PROJECT else f"{agent} ({scope})"


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


def _check_policy(report: VerifyReport, root: str) -> None:
    """The policy compiles: otherwise the hooks apply only the built-in checks, and say so on every call."""
    from cf_guidance.policy.compiler import compile_project

    bundle = compile_project(root)
    errors = [d for d in bundle.get("diagnostics") or () if d.get("level") == "error"]
    if errors:
        first = errors[0]
        report.add("policy compiles", False, f"{first.get('source')}: {first.get('message')} (until it is fixed only "
                   "the built-in checks apply; `cf-guidance compile` lists every error)")
        return
    present = [source["name"] for source in bundle.get("sources") or () if source.get("exists")]
    rules = len(bundle.get("shards") or ())
    report.add("policy compiles", True, f"{', '.join(present)}: {rules} rule(s)" if present else
               "no CLAUDE.md: only the built-in checks apply")


def _check_agent(report: VerifyReport, root: str, agent: str, scope: str, path: str, current: dict[str, Any]) -> None:
    label = _label(agent, scope)
    installed = settings_file.installed_names(current)
    missing = [w.name for w in WIRING[agent] if (w.event, w.matcher, w.name) not in installed]
    if not report.add(f"{label}: hooks wired in {path}", not missing,
                      f"missing: {', '.join(missing)}; run `cf-guidance init --agent {agent} --scope {scope}`" if missing
                      else f"{len(installed)} hook(s)"):
        return
    commands = {name: command for (_, _, name), command in installed.items()}
    parsed = parse(commands["pre-bash"])
    assert parsed is not None  # installed_names only lists our commands
    if not report.add(f"{label}: a missing installation is never a silent allow", parsed.form != "unguarded",
                      f"{path} was written by an older init: its commands exit 127 when the venv is gone, which the "
                      f"client reads as allow; run `cf-guidance init --scope {scope}` again" if parsed.form == "unguarded" else ""):
        return
    if not _check_installation(report, label, parsed, root, agent):
        return
    _smoke(report, root, agent, label, commands)
    _check_missing_answer(report, root, agent, label, commands["pre-bash"], parsed)
    if agent == CODEX:
        _codex_trust(report, root, current, path)


def find_tool(environ: dict[str, str] | None = None, root: str | None = None) -> str:
    """Where a portable command run from `root` finds `cf-guidance-hook` (PATH, ~/.local/bin, the
    project's link), or ""."""
    script = f"{TOOL_SEARCH_PATH}; command -v {TOOL}"
    done = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True, env=environ, cwd=root, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def _check_installation(report: VerifyReport, label: str, parsed: Parsed, root: str, agent: str) -> bool:
    if parsed.form == "portable":
        tool = find_tool(root=root)
        if not report.add(f"{label}: {TOOL} found", bool(tool), tool or f"not on PATH or in ~/.local/bin: {PORTABLE_FIX} "
                          "(or wire absolute paths for this machine only: `cf-guidance init --scope local`)"):
            return False
        return report.add(f"{label}: {TOOL} can start", *_startable(tool))
    absent = [part for part in (parsed.python, parsed.launcher) if not os.path.exists(part)]
    return report.add(f"{label}: interpreter and launcher exist", not absent,
                      f"missing: {', '.join(absent)}; run `cf-guidance init` again from the installed venv" if absent
                      else parsed.python)


def _startable(script: str) -> tuple[bool, str]:
    """Whether the kernel can run `script`'s #! line: an interpreter path with a space cannot be one
    (pip writes it as is), and a missing interpreter is an installation removed under its script."""
    try:
        with open(script, "rb") as handle:
            first = handle.readline(512).decode("utf-8", "replace").rstrip("\n")
    except OSError as exc:
        return False, f"cannot read {script}: {exc.strerror}"
    interpreter = first[2:].strip() if first.startswith("#!") else ""
    if " " in interpreter and not os.path.exists(interpreter.split(" ")[0]):
        return False, (f"its #! line names {interpreter!r}: a path with a space cannot start a script; install it where the "
                       "path has none (pipx install ...) or use `cf-guidance init --scope local`")
    if interpreter and not os.path.exists(interpreter.split(" ")[0]):
        return False, f"its interpreter {interpreter} is gone; reinstall cf-guidance (pipx install --force ...)"
    return True, interpreter


def _check_missing_answer(report: VerifyReport, root: str, agent: str, label: str, command: str, parsed: Parsed) -> None:
    """Run the wired pre-bash command with the installation out of reach: the answer must be the
    one the wiring chose, with a line saying what to do, never a silent allow."""
    with tempfile.TemporaryDirectory(prefix="cf-guidance-verify-") as empty:
        env: dict[str, str] = {}
        if parsed.form == "portable":  # nothing on PATH, in ~/.local/bin or linked from the project
            env = {"PATH": empty, "HOME": empty}
            command = command.replace(TOOL_LOCAL_DIR, empty)
        else:  # the interpreter renamed to a path that does not exist
            command = command.replace(shlex.quote(parsed.python), shlex.quote(os.path.join(empty, "gone", "python")))
        result = run_hook(command, _bash_event(root, agent, SAFE), root, agent, env=env)
    verdict, reason = verdict_of(result)
    if parsed.if_missing == DENY:
        ok = verdict == "deny" and "install" in reason
        want = "a denial saying how to install it"
    else:
        ok = verdict == "warn" and "install" in reason
        want = "a visible warning saying how to install it"
    report.add(f"{label}: without the installation, pre-tool hooks answer {parsed.if_missing}", ok,
               (reason[:200] if ok else f"got {verdict} ({reason[:200] or 'no output'}); want {want}: "
                f"run `cf-guidance init --scope {_scope_of(label)}` again"))


def _scope_of(label: str) -> str:
    return label[label.index("(") + 1:-1] if label.endswith(")") else PROJECT


def _event(root: str, agent: str, hook_event: str, **fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"session_id": SMOKE_SESSION, "transcript_path": "", "cwd": root}
    if agent == CODEX:
        event.update({"turn_id": "verify", "model": "verify", "permission_mode": "default"})
    event["hook_event_name"] = hook_event
    event.update(fields)
    return event


def run_hook(command: str, event: dict[str, Any], root: str, agent: str,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a wired command as the agent does: through a shell, event JSON on stdin, from the project
    (`env`: variables to change)."""
    overrides = env or {}
    env = dict(os.environ)
    env.update(overrides)
    env.pop("GUIDANCE_STATE_DIR", None)
    if agent == CLAUDE:
        env["CLAUDE_PROJECT_DIR"] = root
    else:  # Codex sets no project variable; the hook finds the project from its cwd
        env.pop("CLAUDE_PROJECT_DIR", None)
        env.pop("GUIDANCE_PROJECT_DIR", None)
    shell = "/bin/sh" if agent == CLAUDE else "/bin/bash"  # what each client runs its hook commands with
    return subprocess.run(
        [shell, "-c", command], input=json.dumps(event) + "\n", capture_output=True, text=True,
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


def _smoke(report: VerifyReport, root: str, agent: str, label: str, commands: dict[str, str]) -> None:
    pre = commands["pre-bash"]
    verdict, reason = verdict_of(run_hook(pre, _bash_event(root, agent, DANGEROUS), root, agent))
    report.add(f"{label}: hook denies `{DANGEROUS}`", verdict == "deny", reason[:200])
    verdict, reason = verdict_of(run_hook(pre, _bash_event(root, agent, SAFE), root, agent))
    report.add(f"{label}: hook allows `{SAFE}` silently", verdict == "allow", reason[:200] or "exit 0, no output")
    example = _policy_example(root)
    if example is not None:
        rule_id, command, decider = example
        verdict, reason = verdict_of(run_hook(pre, _bash_event(root, agent, command), root, agent))
        ok = verdict == "deny" and reason.startswith(f"[{decider}]")
        if decider == rule_id:
            name = f"{label}: hook enforces CLAUDE.md rule {rule_id} on `{command}`"
        else:  # the policy's bans all overlap a built-in gate, which decides first
            name = f"{label}: hook denies `{command}` (CLAUDE.md rule {rule_id} bans it; built-in {decider} decides first)"
        report.add(name, ok, reason[:200] if ok else f"got {verdict}: {reason[:200] or 'no output'}")
    post = commands["post-bash"]
    event = _event(root, agent, "PostToolUse", tool_name="Bash", tool_input={"command": SAFE},
                   tool_response={"stdout": "cf-guidance-verify\n", "stderr": "", "interrupted": False}, tool_use_id=_tool_use_id())
    result = run_hook(post, event, root, agent)
    ok = result.returncode == 0 and not result.stdout.strip()
    report.add(f"{label}: post-event hook returns silently", ok,
               "exit 0, no output" if ok else f"exit {result.returncode}: {(result.stdout + result.stderr).strip()[:200]}")


def _policy_example(root: str) -> tuple[str, str, str] | None:
    """(rule id, a command it bans, the rule that decides that command in-process) for the
    policy's command bans. A ban that its own rule decides is preferred: one that a built-in
    gate also covers (`git push --force`: DST012 decides first) proves less about the policy."""
    try:
        from cf_guidance.engine import evaluate
        from cf_guidance.event import normalise
        from cf_guidance.policy.cache import load_bundle

        bundle = load_bundle(root)
    except Exception:  # no policy, or one that does not compile: _check_policy says so
        return None
    first: tuple[str, str, str] | None = None
    tried = 0
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
        rule_id = str(check.get("rule") or check.get("id"))
        command = " ".join(shlex.quote(_concrete(word)) for word in words)
        event = normalise({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
                           "cwd": root}, project_dir=root)
        decision = evaluate(bundle, event)
        if decision.verdict != "deny":
            continue
        if decision.rule == rule_id:
            return rule_id, command, rule_id
        first = first or (rule_id, command, decision.rule)
        tried += 1
        if tried >= _POLICY_EXAMPLES:
            break
    return first


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


def _codex_trust(report: VerifyReport, root: str, hooks_json: dict[str, Any], hooks_file: str) -> None:
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
