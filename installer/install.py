"""`cf-guidance init` and `cf-guidance uninstall`: wire the hooks into a repository and take them out.

init changes, in a target repository:
- `.claude/settings.json` (and `.codex/hooks.json` for codex): our hook entries merged in;
- the state directory (`.claude-flow/guidance/`, see cf_guidance.state) and `keys/ledger.key`
  (32 random bytes, mode 0600; an existing key is never replaced);
- `CLAUDE.local.md`: a stub, when there is none;
- `.gitignore`: `CLAUDE.local.md` and `.claude-flow/`, when not yet ignored.
A changed file is backed up first (`<state>/backups/`), a malformed settings file is refused
before anything is written, and a second run writes nothing. What init created or appended
is recorded in `<state>/install.json`; uninstall reads it to take out exactly that, keeping
the user's own hooks and the state directory (the ledger and its key are audit data).
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import os
import shutil
import time

from cf_guidance.errors import InstallError
from cf_guidance.hooks.commands import COMMANDS, PRE
from cf_guidance.state import STATE_RELATIVE, STATE_TOP, StateLayout

from . import settings as settings_file
from .report import FileChange, InstallReport
from .wiring import (AGENTS, CLAUDE, CODEX, DENY, IF_MISSING, LOCAL, PROJECT, SETTINGS_FILES, TOOL, WIRING, handler_for,
                     installed_tool, launcher_path, parse, settings_path)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOCAL_POLICY = "CLAUDE.local.md"
LOCAL_STUB = """# CLAUDE.local.md

Rules for this checkout only: this file is git-ignored. cf-guidance enforces them together
with CLAUDE.md (a local rule with the same id overrides the shared one), and the autopilot
may propose promoting the ones that prove themselves into CLAUDE.md.

<!-- Write rules as bullets, for example:
- Avoid `npm install` without `--save-exact`.
-->
"""
GITIGNORE = ".gitignore"
GITIGNORE_HEADER = "# cf-guidance: local rules, and state (ledger, key) that must not be committed"
#: Lines init makes sure .gitignore has, and the spellings that already count.
IGNORED = {
    LOCAL_POLICY: (LOCAL_POLICY, "/" + LOCAL_POLICY),
    STATE_TOP + "/": (STATE_TOP, STATE_TOP + "/", "/" + STATE_TOP, "/" + STATE_TOP + "/"),
}
KEY_BYTES = 32
MANIFEST_VERSION = 1


def agents_for(agent: str) -> tuple[str, ...]:
    if agent == "both":
        return AGENTS
    if agent in AGENTS:
        return (agent,)
    raise InstallError(f"unknown agent {agent!r}; use claude, codex or both")


def installed_agents(root: str) -> tuple[str, ...]:
    """The agents whose settings file exists in `root` (Claude Code when none does)."""
    found = tuple(agent for agent in AGENTS if os.path.exists(os.path.join(root, SETTINGS_FILES[agent])))
    return found or (CLAUDE,)


def _target(target: str) -> str:
    path = os.path.abspath(os.path.expanduser(target))
    if not os.path.isdir(path):
        raise InstallError(f"target {path} is not a directory; pass --target with the repository's root")
    return path


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}; fix it by hand, nothing was changed") from None


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Plan:
    """Text files to write, decided in full before anything is written."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.files: list[tuple[str, str | None, str]] = []  # (path, old text, new text)

    def add(self, path: str, old: str | None, new: str) -> None:
        self.files.append((path, old, new))

    def diff(self) -> str:
        out: list[str] = []
        for path, old, new in self.files:
            if old == new:
                continue
            rel = os.path.relpath(path, self.target)
            out.extend(
                difflib.unified_diff(
                    (old or "").splitlines(keepends=True),
                    new.splitlines(keepends=True),
                    fromfile="/dev/null" if old is None else f"a/{rel}",
                    tofile=f"b/{rel}",
                )
            )
        return "".join(out)


def _load_manifest(layout: StateLayout) -> dict[str, Any]:
    text = _read(layout.install_manifest)
    if text is None:
        return {"version": MANIFEST_VERSION, "agents": [], "created": [], "gitignore_lines": [], "local_stub_sha256": ""}
    try:
        manifest = json.loads(text)
    except ValueError:
        raise InstallError(f"{layout.install_manifest} is not valid JSON; delete it and run init again") from None
    if not isinstance(manifest, dict):
        raise InstallError(f"{layout.install_manifest} is not an object; delete it and run init again")
    return manifest


def _gitignore_plan(target: str) -> tuple[str | None, str, list[str]]:
    path = os.path.join(target, GITIGNORE)
    old = _read(path)
    present = {line.strip() for line in (old or "").splitlines()}
    missing = [line for line, spellings in IGNORED.items() if not present.intersection(spellings)]
    if not missing:
        return old, old or "", []
    added = ([GITIGNORE_HEADER] if GITIGNORE_HEADER not in present else []) + missing
    prefix = old or ""
    if prefix and not prefix.endswith("\n"):
        prefix += "\n"
    if prefix and not prefix.endswith("\n\n"):
        prefix += "\n"
    return old, prefix + "\n".join(added) + "\n", added


def _shown(path: str, root: str) -> str:
    """`path` as reports show it: relative inside the project, absolute elsewhere (user scope)."""
    rel = os.path.relpath(path, root)
    return path if rel.startswith(os.pardir) else rel


def wired_mode(path: str) -> str:
    """The answer to a missing installation that the wiring in `path` already chose ("" if none)."""
    try:
        current, _ = settings_file.load(path)
    except InstallError:
        return ""
    for groups in (current.get("hooks") or {}).values():
        for group in groups:
            for handler in group.get("hooks", []):
                parsed = parse(handler.get("command")) if isinstance(handler, dict) else None
                if parsed is not None and parsed.form != "unguarded" and COMMANDS[parsed.name].kind == PRE:
                    return parsed.if_missing
    return ""


def install(target: str, agent: str = CLAUDE, verify: bool = True, dry_run: bool = False, *,
            scope: str = PROJECT, if_missing: str | None = None) -> InstallReport:
    """Wire cf-guidance into the repository at `target` (see module doc); verify unless told not to.

    `scope` picks the settings file (wiring module doc); `if_missing` what a pre-tool hook answers
    when the installation is missing or broken: "deny" or "warn" (default: what the wiring there
    already says, else "deny"). Nothing is left half-written: a failure undoes what this run wrote.
    """
    root = _target(target)
    agents = agents_for(agent)
    if if_missing is not None and if_missing not in IF_MISSING:
        raise InstallError(f"unknown --if-missing {if_missing!r}; use deny or warn")
    layout = StateLayout.for_project(root)
    manifest = _load_manifest(layout)
    plan = _Plan(root)
    modes = []
    for name in agents:
        path = settings_path(scope, name, root)
        current, text = settings_file.load(path)
        mode = if_missing or wired_mode(path) or DENY
        modes.append(mode)
        merged = settings_file.merge(current, WIRING[name], functools.partial(handler_for, scope=scope, if_missing=mode))
        plan.add(path, text, text if (merged == current and text is not None) else settings_file.render(merged))
    local = os.path.join(root, LOCAL_POLICY)
    local_old = _read(local)
    plan.add(local, local_old, LOCAL_STUB if local_old is None else local_old)
    gitignore_old, gitignore_new, gitignore_added = _gitignore_plan(root)
    plan.add(os.path.join(root, GITIGNORE), gitignore_old, gitignore_new)

    report = InstallReport(target=root, agents=list(agents), state_dir=layout.root, dry_run=dry_run, scope=scope,
                           if_missing=modes[0])
    if dry_run:
        report.diff = plan.diff()
        if not os.path.isdir(layout.root):
            report.notes.append(f"would create {layout.root} and {layout.ledger_key} (mode 0600)")
        return report

    undo = _Undo()
    try:
        undo.make_dirs(layout)
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "%06d" % (time.time_ns() // 1000 % 1_000_000)
        created = set(manifest.get("created") or [])
        originals = dict(manifest.get("originals") or {})
        for path, old, new in plan.files:
            shown = _shown(path, root)
            if old == new:
                report.changes.append(FileChange(path=shown, action="unchanged"))
                continue
            backup = None
            if old is not None:
                flat = shown.strip(os.sep).lstrip(".").replace(os.sep, "__")
                backup = os.path.join(layout.backups, flat + f".{stamp}.bak")
                undo.write(backup, None, old, 0o600)
                originals.setdefault(shown, os.path.relpath(backup, layout.root))
            else:
                created.add(shown)
            undo.write(path, old, new)
            report.changes.append(FileChange(path=shown, action="created" if old is None else "updated",
                                             backup=os.path.relpath(backup, root) if backup else None))
        report.changes.append(undo.key(layout, root))

        new_manifest = dict(manifest)
        new_manifest["version"] = MANIFEST_VERSION
        new_manifest["agents"] = sorted(set(manifest.get("agents") or []) | set(agents))
        new_manifest["scopes"] = sorted(set(manifest.get("scopes") or [PROJECT]) | {scope})
        new_manifest["created"] = sorted(created)
        new_manifest["originals"] = originals
        new_manifest["gitignore_lines"] = list(manifest.get("gitignore_lines") or []) + gitignore_added
        if local_old is None:
            new_manifest["local_stub_sha256"] = _sha256(LOCAL_STUB)
        manifest_text = json.dumps(new_manifest, indent=2, sort_keys=True) + "\n"
        old_manifest = _read(layout.install_manifest)
        if old_manifest != manifest_text:
            undo.write(layout.install_manifest, old_manifest, manifest_text, 0o600)
    except OSError as exc:
        undo.roll_back()
        where = exc.filename or layout.root
        raise InstallError(f"cannot write {where}: {exc.strerror or exc}; nothing was changed "
                           "(make it writable and run init again)") from None
    except BaseException:
        undo.roll_back()
        raise
    if scope == PROJECT:
        _link_tool(root, report)
    _compile_bytecode()
    if CODEX in agents and not verify:
        report.notes.append(
            "codex runs project hooks only in a trusted project and once each hook is trusted: "
            "run `cf-guidance verify --agent codex` to see their state and how to trust them"
        )
    if verify:
        from .verify import verify as run_verify

        report.verify = run_verify(root, agent=agent, scope=scope)
    return report


def _link_tool(root: str, report: InstallReport) -> None:
    """The link the portable command tries last (wiring.TOOL_LOCAL_DIR) to this installation's
    tool: the project works on this machine even when the tool is not on PATH."""
    tool = installed_tool()
    if tool is None:
        return
    link = os.path.join(root, STATE_RELATIVE, "bin", TOOL)
    try:
        os.makedirs(os.path.dirname(link), mode=0o700, exist_ok=True)
        if os.path.islink(link) or os.path.exists(link):
            if os.path.realpath(link) == os.path.realpath(tool):
                return
            os.unlink(link)
        os.symlink(tool, link)
    except OSError as exc:
        report.notes.append(f"cannot link {link} to {tool}: {exc.strerror or exc}; the hooks need {TOOL} on PATH")


class _Undo:
    """What one init run created or replaced, so a failure half-way can put everything back."""

    def __init__(self) -> None:
        self.files: list[tuple[str, str | None, int]] = []  # (path, old text or None, old mode)
        self.dirs: list[str] = []  # created by this run, deepest last
        self.trees: list[str] = []  # created by this run with everything in them

    def make_dirs(self, layout: StateLayout) -> None:
        """The state directory (StateLayout.ensure); when this run creates it, the whole new tree
        (the top-most directory that did not exist) is removed on roll back."""
        top = ""
        here = layout.root
        while not os.path.isdir(here):
            top = here
            parent = os.path.dirname(here)
            if parent == here:
                break
            here = parent
        layout.ensure()
        if top:
            self.trees.append(top)

    def _create_dirs(self, path: str, mode: int) -> None:
        """Create `path` and its missing parents, remembering each for `roll_back`."""
        missing = []
        here = path
        while not os.path.isdir(here):
            missing.append(here)
            parent = os.path.dirname(here)
            if parent == here:
                break
            here = parent
        for directory in reversed(missing):
            os.mkdir(directory, mode)
            self.dirs.append(directory)

    def write(self, path: str, old: str | None, new: str, mode: int = 0o644) -> None:
        try:
            old_mode = os.stat(path).st_mode & 0o777
        except FileNotFoundError:
            old_mode = -1
        self._create_dirs(os.path.dirname(path), 0o777)
        self.files.append((path, old if old_mode >= 0 else None, old_mode))
        settings_file.write_atomic(path, new, mode)

    def key(self, layout: StateLayout, root: str) -> FileChange:
        change = _ensure_key(layout, root)
        if change.action == "created":
            self.files.append((layout.ledger_key, None, -1))
        return change

    def roll_back(self) -> None:
        for path, old, mode in reversed(self.files):
            try:
                if old is None:
                    os.unlink(path)
                else:
                    settings_file.write_atomic(path, old, mode)
            except OSError:
                pass  # it was never written
        for directory in reversed(self.dirs):
            try:
                os.rmdir(directory)
            except OSError:
                pass
        for tree in self.trees:
            shutil.rmtree(tree, ignore_errors=True)


def _compile_bytecode() -> None:
    """Write the .pyc files of the hook's modules now: an editable install (or one run with
    PYTHONDONTWRITEBYTECODE) would otherwise compile them from source on every hook call."""
    import compileall

    import cf_guidance

    for directory in {os.path.dirname(cf_guidance.__file__), os.path.dirname(launcher_path())}:
        compileall.compile_dir(directory, quiet=2, workers=1)


def _ensure_key(layout: StateLayout, root: str) -> FileChange:
    """The ledger's HMAC key: 32 random bytes, mode 0600, never overwritten."""
    rel = os.path.relpath(layout.ledger_key, root)
    try:
        fd = os.open(layout.ledger_key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return FileChange(path=rel, action="unchanged")
    try:
        os.write(fd, os.urandom(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    return FileChange(path=rel, action="created", detail="mode 0600")


def uninstall(target: str, scopes: tuple[str, ...] = (PROJECT, LOCAL)) -> InstallReport:
    """Take out what init added in `scopes` (by default the project's own files, not the user's
    settings); the user's hooks, the state directory and its key stay."""
    root = _target(target)
    layout = StateLayout.for_project(root)
    initialised = os.path.isdir(layout.root)
    manifest = _load_manifest(layout)
    created = set(manifest.get("created") or [])
    report = InstallReport(target=root, agents=list(manifest.get("agents") or []), state_dir=layout.root)
    for scope in scopes:
        for name in AGENTS:
            if scope == LOCAL and name == CODEX:
                continue
            path = settings_path(scope, name, root)
            shown = _shown(path, root)
            current, text = settings_file.load(path)
            if text is None:
                continue
            remaining = settings_file.unmerge(current)
            if remaining == current:
                report.changes.append(FileChange(path=shown, action="unchanged"))
            elif not remaining and shown in created:
                os.unlink(path)
                _remove_empty_dir(os.path.dirname(path), root)
                report.changes.append(FileChange(path=shown, action="removed"))
            else:
                settings_file.write_atomic(path, _original_text(layout, manifest, shown, remaining))
                report.changes.append(FileChange(path=shown, action="updated", detail="our hooks removed, yours kept"))

    local = os.path.join(root, LOCAL_POLICY)
    local_text = _read(local)
    stub_removed = False
    if local_text is not None and LOCAL_POLICY in created:
        if _sha256(local_text) == manifest.get("local_stub_sha256"):
            os.unlink(local)
            stub_removed = True
            report.changes.append(FileChange(path=LOCAL_POLICY, action="removed"))
        else:
            report.changes.append(FileChange(path=LOCAL_POLICY, action="kept", detail="edited since init"))

    # The state directory stays (ledger and key), so .claude-flow/ stays ignored; the
    # CLAUDE.local.md line goes with the stub it was added for.
    lines = list(manifest.get("gitignore_lines") or [])
    drop = {LOCAL_POLICY} if stub_removed else set()
    if drop and lines == [GITIGNORE_HEADER] + sorted(drop):
        drop.add(GITIGNORE_HEADER)
    _remove_gitignore_lines(root, drop, GITIGNORE in created, report)
    _stop_hook_servers(layout)
    if initialised:
        report.notes.append(
            f"kept {_shown(layout.root, root)}/: it holds the ledger and its key; "
            "delete it yourself when you no longer need the audit trail"
        )
    elif not report.changes:
        report.notes.append(f"nothing to remove: cf-guidance was never set up in {root}")
    manifest["agents"] = []
    manifest["gitignore_lines"] = [line for line in lines if line not in drop]
    manifest["created"] = sorted(rel for rel in created if os.path.exists(os.path.join(root, rel)))
    if initialised:
        settings_file.write_atomic(layout.install_manifest, json.dumps(manifest, indent=2, sort_keys=True) + "\n", 0o600)
    return report


def _original_text(layout: StateLayout, manifest: dict[str, Any], rel: str, remaining: dict[str, Any]) -> str:
    """The file as it was before the first init, byte for byte, when only our hooks changed it."""
    backup = (manifest.get("originals") or {}).get(rel)
    if backup:
        text = _read(os.path.join(layout.root, backup))
        if text is not None:
            try:
                if json.loads(text) == remaining:
                    return text
            except ValueError:
                pass
    return settings_file.render(remaining)


def _stop_hook_servers(layout: StateLayout) -> None:
    """A warm hook server (cf_guidance.hooks.hookd) exits within seconds once its socket is gone."""
    try:
        names = os.listdir(layout.root)
    except OSError:
        return
    for name in names:
        if name.startswith("hookd-") and name.endswith(".sock"):
            try:
                os.unlink(os.path.join(layout.root, name))
            except OSError:
                pass


def _remove_gitignore_lines(root: str, drop: set[str], created: bool, report: InstallReport) -> None:
    if not drop:
        return
    path = os.path.join(root, GITIGNORE)
    text = _read(path)
    if text is None:
        return
    kept = [line for line in text.splitlines() if line.strip() not in drop]
    while kept and not kept[-1].strip():
        kept.pop()
    if not kept and created:
        os.unlink(path)
        report.changes.append(FileChange(path=GITIGNORE, action="removed"))
        return
    new = "\n".join(kept) + ("\n" if kept else "")
    if new != text:
        settings_file.write_atomic(path, new)
        report.changes.append(FileChange(path=GITIGNORE, action="updated", detail="removed " + ", ".join(sorted(drop))))


def _remove_empty_dir(path: str, root: str) -> None:
    if os.path.abspath(path) != root:
        try:
            os.rmdir(path)
        except OSError:
            pass  # not empty: the user keeps other files there
