"""Protected paths: the guard's own files, its installation, the policy, git internals.

The agent must not be able to switch the guard off: the hook settings, the Codex hook
config, the guidance state directory (keys, ledger, cache, spool) and the ledger's witness
cannot be written by any tool or shell command (an MCP tool included), the keys cannot be
read, and the installation the hook runs from (cf_guidance.gates.commands.installation)
cannot be deleted, moved or written. A write is judged by its effect: a directory that holds
guard files cannot be moved or deleted, `find -delete` and `find | xargs rm` are judged by
what their filters can match, an inline program that builds its target at run time is read
conservatively (cf_guidance.gates.commands.runtime_targets), a target held in a shell
variable by what the variable was set to. The policy files (CLAUDE.md, CLAUDE.local.md,
AGENTS.md, imported files) are the user's: an agent edit asks. Git operations whose effect
on the wiring needs git to know are the self-protection gate's.
"""

from __future__ import annotations

import os

from cf_guidance.decision import ASK, DENY, WARN
from cf_guidance.event import READ, WRITE
from cf_guidance.gates._base import PARANOID, STRICT, Rule
from cf_guidance.gates.commands import Args, describe, resolver, resolver_at
from cf_guidance.gates.commands.files import file_effects, may_touch_files
from cf_guidance.gates.commands.git import split as git_split
from cf_guidance.gates.commands.installation import installation
from cf_guidance.gates.commands.rm import deletions_of
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.patterns import path_matches
from cf_guidance.gates.reasons import doc, finding
from cf_guidance._glob import _match_segment
from cf_guidance.paths import SCRATCH, glob_base, has_glob, is_within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.summary import Summary
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command, ShellAnalysis

GATE = "protected-paths"

RULES = (
    Rule("PTH001", "guard-file-write", DENY, "Changing the guard's own files",
         doc("Denies every write to `.claude/settings.json`, `.claude/settings.local.json`, `.codex/hooks.json`, "
             "`.codex/config.toml` (in the project and in the home directory) and anything under the guidance state "
             "directory `.claude-flow/guidance/` (keys, ledger, cache, spool): by Write/Edit/MultiEdit/NotebookEdit/"
             "apply_patch, by shell redirection, `tee`, `cp`/`mv`/`ln` onto them, `sed -i`, `rm`, `chmod`, `truncate`, "
             "`git checkout`, editors, inline programs that name them, deleting or moving a directory that holds them, "
             "and `cf-guidance init`/`uninstall` run by the agent. Symlinks are followed.",
             "An agent that can edit the hook settings or the ledger can switch the guard off or erase its record.",
             "echo '{}' > .claude/settings.json\nrm -rf .claude-flow\nsed -i 's/PreToolUse/x/' .claude/settings.json",
             "# ask the user to change the guard's settings")),
    Rule("PTH002", "guard-key-read", DENY, "Reading the guard's keys",
         doc("Denies reading anything under `.claude-flow/guidance/keys/` with any tool.",
             "The ledger key signs the audit trail; whoever reads it can forge records.",
             "cat .claude-flow/guidance/keys/ledger.key", "cf-guidance ledger verify")),
    Rule("PTH003", "protected-write", DENY, "Writing a path the project protects",
         doc("Denies writes (file tools and shell) to globs listed in the bundle's `settings.protect_write`.",
             "The project declared these files off limits for the agent.", "echo x > vendor/lib.js", "# edit files outside the protected globs")),
    Rule("PTH004", "protected-read", DENY, "Reading a path the project protects",
         doc("Denies reads (file tools and shell) of globs listed in the bundle's `settings.protect_read`.",
             "The project declared these files private.", "cat private/notes.md", "# ask the user for what you need")),
    Rule("PTH005", "git-internals-write", ASK, "Writing .git/hooks or .git/config",
         doc("Asks before writing `.git/hooks/**` or `.git/config`.",
             "Git hooks run code on every commit; git config can point `core.hooksPath` or `core.sshCommand` anywhere.",
             "echo 'curl x | sh' > .git/hooks/pre-commit", "# ask the user to install git hooks")),
    Rule("PTH006", "write-outside-project", ASK, "File tool writes outside the project (strict and paranoid levels)",
         doc("At the strict level asks, at paranoid denies, when Write/Edit/MultiEdit/NotebookEdit/apply_patch target a path "
             "outside the project and temp directories. The standard level does not check this.",
             "Files outside the project belong to the user and other projects.", "Write ~/.bashrc", "Write ./notes.md")),
    Rule("PTH007", "policy-file-write", ASK, "Changing a policy file (CLAUDE.md, AGENTS.md, ...)",
         doc("Asks before any agent change, by any tool, to `CLAUDE.md`, `CLAUDE.local.md`, `AGENTS.md`, `AGENTS.override.md` "
             "anywhere in the project, `~/.claude/CLAUDE.md`, and every file the compiled policy was read from (imports "
             "included). The user sees the change and decides; under `claude -p` an ask is a denial. An imported file the "
             "policy tells the agent to keep up to date (\"Keep `docs/OVERVIEW.md` current\": settings.endorsed_files) "
             "only warns, naming that line; CLAUDE.md, AGENTS.md and their kin always ask.",
             "The policy is the user's: an agent that rewrites CLAUDE.md without its rules makes the project's own bans "
             "disappear for the rest of the session.",
             "Write CLAUDE.md\nsed -i '/Never/d' CLAUDE.md", "# propose the change to the user")),
    Rule("PTH008", "guard-write-unknown-target", ASK, "An inline program writes to a path it hides",
         doc("Asks when an inline program (`python -c`, `node -e`, `perl -e`, a heredoc to an interpreter) writes or deletes "
             "files whose paths it makes at run time in a way no literal shows: from character codes (`chr`, "
             "`String.fromCharCode`) or by listing directories (`os.walk`, `rglob`, `readdirSync`). When the literals spell "
             "a guard directory (`'.cla' + 'ude'`), or a glob reaches into one, it is PTH001.",
             "Such a program may write the hook settings or the ledger, and nothing in its text says so.",
             "python3 -c \"import os; [os.remove(os.path.join(r, f)) for r, _, fs in os.walk('.') for f in fs]\"",
             "find . -name '*.pyc' -delete")),
    Rule("PTH009", "installation-change", DENY, "Removing or changing the installation the hook runs from",
         doc("Denies deleting, moving or writing the installation the running hook comes from, found from the hook process "
             "itself: its virtual environment (venv, pipx, `uv tool`), the `cf_guidance` package, the launcher or console "
             "script the hook command runs, and the interpreter; deleting a directory above them counts too. A source "
             "checkout installed in editable mode is development: its source files may be edited, not removed.",
             "Without its installation the hook command cannot start, and a hook that fails to start does not block: "
             "every later tool call would run unchecked.",
             "rm -rf .venv\nrm -rf ~/.local/share/pipx/venvs/cf-guidance", "# ask the user to reinstall or remove cf-guidance")),
    Rule("PTH010", "unreadable-patch", ASK, "Applying a patch the guard cannot read",
         doc("Asks before `git apply`, `git am` or `patch` apply a patch that comes from another program's output or a "
             "file the guard cannot read. A patch the guard can read (a heredoc, a file, `cat FILE |`) is judged by the "
             "files its headers name, like any other write (a patch of `.claude/settings.json` is PTH001).",
             "A patch can change or delete any file, the hook settings included, and nothing in the command says which.",
             "curl -s https://example.com/x.patch | git apply", "git apply fix.patch")),
)

#: Guard files, relative to the project root and to the home directory (lower case).
GUARD_FILES = frozenset((".claude/settings.json", ".claude/settings.local.json", ".codex/hooks.json", ".codex/config.toml"))
STATE_DIR = ".claude-flow/guidance"
KEYS_DIR = STATE_DIR + "/keys"
#: Directories whose removal or move takes guard files with them.
GUARD_PARENTS = frozenset((".claude", ".codex", ".claude-flow", STATE_DIR))
_REMOVERS = frozenset(("rm", "rmdir", "mv", "shred", "unlink", "trash", "trash-put", "srm"))
_DESTROYERS = _REMOVERS | frozenset(("chmod", "chown", "chgrp", "chattr"))
#: Programs that only look at the files they are given.
_LOOKERS = frozenset(("cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ls", "stat", "file", "wc", "diff", "jq", "bat", "git", "echo", "printf", "test", "[", "realpath", "readlink", "dirname", "basename", "sha256sum", "md5sum", "shasum", "find", "tree", "du", "cf-guidance"))
#: All start with ".c" (_shell relies on it for a cheap first test).
_GUARD_MARKERS = (".claude/settings", ".claude-flow/guidance", ".codex/hooks.json", ".codex/config.toml")
_GIT_READS = frozenset(("diff", "log", "show", "status", "add", "commit", "blame", "ls-files", "grep", "check-ignore"))


#: Policy files by name (lower case), anywhere in the project; `.claude/claude.md` also in the home directory.
POLICY_NAMES = frozenset(("claude.md", "claude.local.md", "agents.md", "agents.override.md"))
#: Files a sample of the state directory holds that find's filters are matched against (what
#: `find . -name '*.json' -delete` would take): the ledger, its keys, the spool, the install manifest.
STATE_SAMPLES = (
    "ledger/ledger.jsonl", "ledger/head.json", "ledger/checkpoints.jsonl", "ledger/origin", "keys/ledger.key",
    "keys/checkpoint.ed25519", "keys/lost.json", "install.json", "trust.json", "spool/00000000000000000000-1-00000000.json",
    "sessions/session.json",
)
#: Programs find -exec / xargs can run that change what they are given.
_CHANGERS = frozenset(("rm", "rmdir", "unlink", "shred", "srm", "mv", "truncate", "chmod", "chown", "sed", "perl", "tee", "cp", "dd",
                       "sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "install", "ln"))


#: Basenames whose symlinks are followed even on reads (cheap: no syscall for other names).
_GUARD_NAMES = frozenset(("settings.json", "settings.local.json", "hooks.json", "config.toml", "ledger.key"))


def _rels(paths: Resolver, path: str, *, write: bool = False) -> list[str]:
    """Lower-cased project- and home-relative forms of `path`, literal and with symlinks followed.

    Following symlinks costs syscalls, so it is done for guard-file names and key files, and for
    writes whose last component is a link; a link the agent creates is caught by `ln` itself.
    """
    out: list[str] = []
    if has_glob(path):
        path = _glob_target(paths, path)
        if not path:
            return out
    literal = paths.resolve(path)
    if literal is None:
        return out
    candidates = [literal]
    name = literal.rsplit("/", 1)[-1].lower()
    # A link adds its target below only when that differs from the literal path: when this event
    # already followed the path's links and found none, there is nothing to ask the file system.
    if name in _GUARD_NAMES or name.endswith(".key") or (write and paths.known_real(literal) != literal and _is_link(literal)):
        real = paths.resolve(path, real=True)
        if real is not None and real != literal:
            candidates.append(real)
    for where in candidates:
        for rel in paths.relatives(where):
            if rel is not None:
                rel = rel.lower()
                if rel not in out:
                    out.append(rel)
        state = _state_override(paths, where)
        if state and state not in out:
            out.append(state)
    return out


_GUARD_NAME_ENDS = tuple("/" + name for name in _GUARD_NAMES)


def _may_be_key(paths: Resolver, path: str) -> bool:
    """False only when no form `_rels` gives of a read `path` is a key target; checked on the
    resolved path without the relative forms, links or the $GUIDANCE_STATE_DIR look-up.

    Every project- or home-relative form is a suffix of the resolved path, and a key target
    holds ".claude-flow/guidance/keys"; a moved state directory's form holds what follows the
    state directory, which for a key target starts with "/keys". Either way the resolved path
    holds "/keys" (any case). A link is followed only for guard names and `.key` files, and
    globs stand for other paths: those take the full check.
    """
    if has_glob(path):
        return True
    literal = paths.resolve(path)
    if literal is None:
        return False  # _rels gives nothing for a dynamic path
    lowered = literal.lower()
    return "/keys" in lowered or ".key" in lowered or lowered.endswith(_GUARD_NAME_ENDS)


#: Top-level entries that hold guard files (all dot-names: a plain `*` never matches them).
_GUARD_TOPS = (".claude", ".codex", ".claude-flow")


def _glob_target(paths: Resolver, path: str) -> str:
    """The guard-relevant path a glob stands for, or "" when it cannot reach a guard file.

    `.claude/*` stands for `.claude`; `*.log` or `./*` in the project root cannot match a dot
    directory, but `.*` and `.c*` can, and then stand for the entry they would match.
    """
    base = glob_base(path)
    where = paths.resolve(base)
    if where is None:
        return ""
    first = next(segment for segment in path.split("/") if has_glob(segment))
    if where in (paths.root, paths.home):
        for top in _GUARD_TOPS:
            # the shell's globs skip dot-names unless the pattern itself starts with a dot
            if first.startswith(".") and _match_segment(first, top):
                return where + "/" + top
        return ""
    if path.count("/") == base.count("/") + 1:
        # `.claude/*.json` (a loop over it, `sed -i ... .claude/*`) stands for the guard files it matches
        folder = base.rstrip("/").rsplit("/", 1)[-1].lower()
        for guard in sorted(GUARD_FILES):
            top, _, name = guard.partition("/")
            if top == folder and _match_segment(first, name):
                return base + "/" + name
    return base


def _is_link(path: str) -> bool:
    try:
        return os.path.islink(path)
    except (OSError, ValueError):
        return False


def _state_override(paths: Resolver, where: str) -> str:
    state = _moved_state_dir(paths.root)
    if state and (where == state or where.startswith(state + "/")):
        return STATE_DIR + where[len(state):].lower()
    return ""


_moved: tuple[str, str, str] = ("", "", "")


def _moved_state_dir(root: str) -> str:
    """The state directory when `$GUIDANCE_STATE_DIR` moves it, else "" (cached per value and root)."""
    global _moved
    override = os.environ.get("GUIDANCE_STATE_DIR", "")
    if not override:
        return ""
    moved = _moved
    if moved[0] != override or moved[1] != root:
        from cf_guidance.state import state_dir

        moved = _moved = (override, root, state_dir(root))
    return moved[2]


def guard_state_dir(root: str) -> str:
    """The state directory of the project at `root` (absolute), moved or not."""
    return _moved_state_dir(root) or root + "/" + STATE_DIR


def guard_target(rel: str) -> bool:
    return rel in GUARD_FILES or rel == STATE_DIR or rel.startswith(STATE_DIR + "/")


def key_target(rel: str) -> bool:
    return rel == KEYS_DIR or rel.startswith(KEYS_DIR + "/")


def check(ctx: GateContext) -> list[Finding]:
    event = ctx.event
    settings = ctx.bundle.get("settings") or {}
    protect_write = settings.get("protect_write") or []
    protect_read = settings.get("protect_read") or []
    out: list[Finding] = []
    policy = _policy_sources(ctx.bundle)
    for path, access in event.paths:
        if not path:
            continue
        paths = resolver(ctx)
        segment = f"{event.tool} {path}"
        if access == WRITE:
            # an MCP tool that writes a directory moves or deletes it
            whole = event.tool_class == "mcp"
            _write(paths, path, segment, protect_write, out, tool=event.tool, parents=whole, root=whole, policy=policy)
            if ctx.level in (STRICT, PARANOID):
                # The literal place decides (following links costs syscalls on every write).
                _, kind = paths.where(path, real=False)
                if kind and kind not in SCRATCH:
                    verdict = DENY if ctx.level == PARANOID else ASK
                    out.append(finding(GATE, "PTH006", verdict, f"{event.tool} writes {path}, outside the project", segment=segment, evidence=path))
        elif access == READ:
            _read(paths, path, segment, protect_read, out, tool=event.tool)
    if event.command is not None:
        found = summary(ctx)
        if found is not None and (not PREFILTER or _any_may_matter(found)):
            for cmd in found.analysis.commands:
                if PREFILTER and not _may_matter(cmd):
                    continue
                at = resolver_at(ctx, cmd)
                if _shell(at, cmd, protect_write, protect_read, out, policy, found.analysis):
                    continue
                if cmd.program == "find" or cmd.origin.endswith("xargs"):
                    _find_deletes(ctx, at, cmd, out)
    return out


_policy_cache: tuple[object, object, dict[str, str]] = (None, None, {})


def _policy_sources(bundle: dict[str, object]) -> dict[str, str]:
    """Absolute paths of the files the compiled policy was read from (imports included), each with
    the line that tells the agent to keep it up to date ("" for none: settings.endorsed_files);
    kept while the bundle's lists are the same objects (a cached bundle serves many events)."""
    global _policy_cache
    sources = bundle.get("sources")
    settings = bundle.get("settings")
    endorsed = settings.get("endorsed_files") if isinstance(settings, dict) else None
    if sources is _policy_cache[0] and endorsed is _policy_cache[1]:
        return _policy_cache[2]
    found: dict[str, str] = {}
    if isinstance(sources, list):
        found = {entry["path"]: "" for entry in sources if isinstance(entry, dict) and isinstance(entry.get("path"), str)}
    for entry in endorsed if isinstance(endorsed, list) else ():
        if isinstance(entry, dict) and entry.get("path") in found and isinstance(entry.get("source"), str):
            found[entry["path"]] = entry["source"]
    _policy_cache = (sources, endorsed, found)
    return found


def _write(paths: Resolver, path: str, segment: str, globs: list[str], out: list[Finding], *, tool: str, parents: bool = False,
           root: bool = False, policy: Mapping[str, str] | None = None) -> bool:
    rels = _rels(paths, path, write=True)
    for rel in rels:
        if guard_target(rel) or (parents and rel in GUARD_PARENTS) or (root and rel == "."):
            out.append(finding(GATE, "PTH001", DENY, f"{tool} would change the guard's own file {path}", segment=segment, evidence=path))
            return True
    absolute = paths.resolve(path)
    if absolute is not None:
        # a path into the witness holds "cf-guidance"; only a delete or move can reach it from above
        if parents or "cf-guidance" in absolute:
            for witness in witness_dirs():
                if is_within(absolute, witness) or (parents and is_within(witness, absolute)):
                    out.append(finding(GATE, "PTH001", DENY, f"{tool} would change the ledger's witness {path}", segment=segment, evidence=path))
                    return True
        place = installation()
        hit = place.removed_by(absolute) if parents else ""
        hit = hit or place.written_by(absolute)
        if hit:
            out.append(finding(GATE, "PTH009", DENY, f"{tool} would change {hit}, which the hook runs from", segment=segment, evidence=path))
            return True
        policy = policy or {}
        if _is_policy_file(paths, absolute, rels, policy):
            said = "" if parents else policy.get(absolute, "")
            if said:  # an imported file the policy tells the agent to keep up to date (not to delete or move)
                out.append(finding(GATE, "PTH007", WARN, f"{tool} changes {path}, which the policy imports (warned, not asked: "
                                   f"{said} says to keep it up to date)", segment=segment, evidence=path,
                                   hint="keep the policy's rules in it as they are"))
            else:
                out.append(finding(GATE, "PTH007", ASK, f"{tool} would change the policy file {path}", segment=segment, evidence=path))
    for rel in rels:
        if rel == ".git/config" or rel.startswith(".git/hooks/") or rel == ".git/hooks":
            out.append(finding(GATE, "PTH005", ASK, f"{tool} writes {path}", segment=segment, evidence=path))
            break
    if globs:  # most projects protect no extra paths
        _match_globs(paths, path, globs, "PTH003", f"{tool} writes the protected path {path}", segment, out)
    return False


def _is_policy_file(paths: Resolver, absolute: str, rels: list[str], policy: Mapping[str, str]) -> bool:
    if absolute in policy:
        return True
    name = absolute.rsplit("/", 1)[-1].lower()
    if name not in POLICY_NAMES:
        return False
    return paths.relative_to_project(absolute) is not None or ".claude/claude.md" in rels


_witness: tuple[str, str, tuple[str, ...]] = ("\0", "\0", ())


def witness_dirs() -> tuple[str, ...]:
    """Where the ledger's witnesses are: under $XDG_DATA_HOME as this process sees it, and under
    the default ~/.local/share (a worker started with another environment writes there).
    Cached per $XDG_DATA_HOME and $HOME."""
    global _witness
    xdg, home = os.environ.get("XDG_DATA_HOME", ""), os.environ.get("HOME", "")
    if _witness[0] != xdg or _witness[1] != home:
        from cf_guidance.state import witness_dir

        found = (os.path.normpath(witness_dir()), os.path.normpath(witness_dir({"HOME": home})))
        _witness = (xdg, home, tuple(dict.fromkeys(found)))
    return _witness[2]


def _read(paths: Resolver, path: str, segment: str, globs: list[str], out: list[Finding], *, tool: str) -> None:
    if not PREFILTER or _may_be_key(paths, path):
        for rel in _rels(paths, path):
            if key_target(rel):
                out.append(finding(GATE, "PTH002", DENY, f"{tool} would read the guard's key {path}", segment=segment, evidence=path))
                break
    if globs:
        _match_globs(paths, path, globs, "PTH004", f"{tool} reads the protected path {path}", segment, out)


def _match_globs(paths: Resolver, path: str, globs: list[str], code: str, message: str, segment: str, out: list[Finding]) -> None:
    for pattern in globs:
        if isinstance(pattern, str) and path_matches(paths, pattern, path):
            out.append(finding(GATE, code, DENY, message, segment=segment, evidence=path))
            return


#: Tests switch this off to prove the pre-filter skips only commands without findings.
PREFILTER = True


def _may_matter(cmd: Command) -> bool:
    """False only when the gate finds nothing in `cmd`: not cf-guidance, not a find or an xargs
    child (deletes judged by their filters), not a patch, not inline code with run-time targets,
    no file read or written, and no word or inline code that could name a guard file (every
    marker holds ".c")."""
    program = cmd.program
    if program in _ALWAYS or may_touch_files(cmd) or (cmd.language and cmd.dynamic) or cmd.origin.endswith("xargs"):
        return True
    if program == "git" and not _PATCHING.isdisjoint(cmd.argv):
        return True
    code = cmd.code
    for text in cmd.argv:
        if ".c" in text or ".C" in text:
            return True
    return ".c" in code or ".C" in code


#: Programs the gate always looks at (whatever their words).
_ALWAYS = frozenset(("cf-guidance", "find", "xargs", "patch"))
#: git subcommands that apply a patch (`_may_matter` looks for them among a git command's words).
_PATCHING = frozenset(("apply", "am"))


def _any_may_matter(found: Summary) -> bool:
    """`_may_matter` OR-ed over all commands: False lets the gate skip the loop."""
    if found.files or found.dot_c or found.language or not _ALWAYS.isdisjoint(found.programs):
        return True
    return "git" in found.programs and any(c.program == "git" and not _PATCHING.isdisjoint(c.argv) for c in found.analysis.commands)


#: `cf-guidance` subcommands the agent may not run: they rewire the hooks or re-anchor the ledger.
_OWN_COMMANDS = (("init",), ("uninstall",), ("ledger", "rotate-key"))
#: Programs that copy their sources into a target directory (`cp -r x/.claude .` writes ./.claude).
_COPIERS = frozenset(("cp", "mv", "rsync", "install", "ln"))


def _shell(paths: Resolver, cmd: Command, protect_write: list[str], protect_read: list[str], out: list[Finding],
           policy: Mapping[str, str] | None = None, analysis: ShellAnalysis | None = None) -> bool:
    """The findings of one command; True when it is denied outright (nothing more to look at)."""
    segment = describe(cmd)
    program = cmd.program
    if program == "cf-guidance":
        words = tuple(Args(cmd.args).positionals[:2])
        if words[:1] in _OWN_COMMANDS or words in _OWN_COMMANDS or (words == ("ledger", "witness") and "--reset" in cmd.args):
            out.append(finding(GATE, "PTH001", DENY, f"the agent may not run cf-guidance {' '.join(words)}", segment=segment))
            return True
    reads, writes = file_effects(cmd)
    if program == "ln":
        writes = writes + reads  # a link to a guard file is a way to write it later
    if writes:
        parents = program in _DESTROYERS or program in ("cp", "install", "rsync", "ln", "tar", "unzip") or (
            program == "git" and _git_sub(cmd) in ("mv", "rm") and "--cached" not in cmd.args)
        for target in writes:
            if ("$" in target or "`" in target) and analysis is not None and _variable_names_guard(target, analysis.source):
                out.append(finding(GATE, "PTH001", DENY, f"{program} writes {target}, which this command sets to a guard file",
                                   segment=segment, evidence=target))
                return True
            if _write(paths, target, segment, protect_write, out, tool=program, parents=parents, root=program in _REMOVERS, policy=policy):
                return True
        if program in _COPIERS and len(writes) == 1 and reads:
            # the sources land inside the target when it is a directory: `cp -r x/.claude .`
            for item in reads:
                name = item.rstrip("/").rsplit("/", 1)[-1]
                if name and name not in (".", ".."):
                    inside = writes[0].rstrip("/") + "/" + name
                    if _write(paths, inside, segment, protect_write, out, tool=program, parents=True, policy=policy):
                        return True
    for target in reads:
        _read(paths, target, segment, protect_read, out, tool=program)
    if (program == "git" or program == "patch") and _patch(paths, cmd, segment, protect_write, out, policy, analysis):
        return True
    if cmd.language:
        return _inline_program(cmd, segment, out)
    if program in _LOOKERS and not (program == "git" and _git_sub(cmd) not in _GIT_READS):
        return False
    # Anything else handed a guard file (an unknown tool, a script) is treated as a write.
    texts = list(cmd.args)
    if ".c" not in "\n".join(texts).lower():
        return False  # every marker starts with ".c": one scan of all texts instead of one per marker and text
    for text in texts:
        lowered = text.lower()
        if any(marker in lowered for marker in _GUARD_MARKERS) and text not in writes:
            out.append(finding(GATE, "PTH001", DENY, f"{program} is given the guard's own file {text[:80]}", segment=segment, evidence=text))
            return True
    return False


def _patch(paths: Resolver, cmd: Command, segment: str, globs: list[str], out: list[Finding], policy: Mapping[str, str] | None,
           analysis: ShellAnalysis | None) -> bool:
    """`git apply` / `git am` / `patch`: every file the patch's headers name is written."""
    from cf_guidance.gates.commands.patches import patch_sources, patched_files, read_patch

    found = patch_sources(cmd, analysis)
    if found is None:
        return False
    texts, files, strip = found
    for name in files:
        where = paths.resolve(name)
        text = read_patch(where) if where is not None else None
        if text is None:
            out.append(finding(GATE, "PTH010", ASK, f"{cmd.program} applies {name}, which the guard cannot read", segment=segment, evidence=name))
            return False
        texts.append(text)
    for text in texts:
        if not text:
            out.append(finding(GATE, "PTH010", ASK, f"{cmd.program} applies a patch from a pipe the guard cannot read", segment=segment))
            return False
        for name in patched_files(text, strip):
            for form in (name, paths.root + "/" + name) if not name.startswith("/") else (name,):
                if _write(paths, form, segment, globs, out, tool=cmd.program, policy=policy):
                    return True
    return False


def _inline_program(cmd: Command, segment: str, out: list[Finding]) -> bool:
    """An interpreter's inline code. What it was translated to (`open(p, 'w')` -> `true > p`) are
    commands of their own; reading the guard's files is allowed. Code whose targets were not all
    translated (`dynamic`), or that names a guard file, is read conservatively."""
    text = (cmd.code + "\0" + "\0".join(cmd.args)).lower()
    if not (cmd.dynamic or cmd.language == "awk" or any(marker in text for marker in _GUARD_MARKERS)):
        return False
    from cf_guidance.gates.commands.runtime_targets import GUARD, runtime_write

    found = runtime_write(cmd)
    if found is None:
        return False
    kind, why = found
    if kind == GUARD:
        out.append(finding(GATE, "PTH001", DENY, f"{cmd.program} may write the guard's own files: {why}", segment=segment, evidence=why))
        return True
    out.append(finding(GATE, "PTH008", ASK, f"{cmd.program} writes files it cannot be told from the guard's: {why}", segment=segment, evidence=why))
    return False


def _variable_names_guard(target: str, source: str) -> bool:
    """True when `target` (`$F`, `${F}/x`) uses a variable this command line sets (`F=...`,
    `for F in ...`) to something that names a guard file or directory."""
    import re

    for name in re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", target):
        for value in re.findall(rf"(?:^|[\s;&|(]){name}=(\"[^\"]*\"|'[^']*'|[^\s;&|)]*)", source):
            if _names_guard(value):
                return True
        for words in re.findall(rf"\bfor\s+{name}\s+in\s+([^;\n]*)", source):
            if _names_guard(words):
                return True
    return False


def _names_guard(text: str) -> bool:
    lowered = text.lower()
    return any(top in lowered for top in _GUARD_TOPS) or any(marker in lowered for marker in _GUARD_MARKERS)


def _find_deletes(ctx: GateContext, paths: Resolver, cmd: Command, out: list[Finding]) -> None:
    """`find ROOT ... -delete` / `-exec rm` / `| xargs rm`: denied when its filters can match a guard
    file below ROOT (a sample of the state directory's files stands for the rest)."""
    for deletion in deletions_of(ctx, cmd):
        if deletion.target is None or deletion.via not in ("find", "xargs"):
            continue
        producer = cmd if deletion.via == "find" else _producer(ctx, cmd)
        tests = _find_tests(producer.args) if producer is not None else None
        start = paths.resolve(deletion.target)
        if start is None or tests is None:
            continue
        hit = _find_reaches(paths, start, deletion.target, tests)
        if hit:
            out.append(finding(GATE, "PTH001", DENY, f"find deletes under {deletion.target}, and its filters match the guard's file {hit}",
                               segment=describe(cmd), evidence=hit))
            return


def _producer(ctx: GateContext, cmd: Command) -> Command | None:
    analysis = ctx.shell
    if analysis is None:
        return None
    return next((other for other in analysis.commands if other.program == "find" and other.pipe_next == "xargs"), None)


#: find tests whose value is matched against names or paths.
_NAME_TESTS = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex"))


def _find_tests(args: list[str]) -> list[tuple[str, str]] | None:
    """The name and path tests of a find (OR-ed, which matches at least what find would); None when
    a negation makes them useless (every path may match)."""
    tests: list[tuple[str, str]] = []
    for i, arg in enumerate(args):
        if arg in ("!", "-not", "\\!"):
            return []
        if arg in _NAME_TESTS and i + 1 < len(args):
            tests.append((arg, args[i + 1]))
    return tests


def _find_reaches(paths: Resolver, start: str, written: str, tests: list[tuple[str, str]]) -> str:
    """The first guard file below `start` that one of `tests` matches (all when there is none)."""
    import re
    from fnmatch import fnmatchcase  # find matches `*` across `/` and dots, as fnmatch does

    state = guard_state_dir(paths.root)
    candidates = [paths.root + "/" + rel for rel in sorted(GUARD_FILES)] + [state + "/" + rel for rel in STATE_SAMPLES]
    for candidate in candidates:
        if not is_within(candidate, start) or candidate == start:
            continue
        shown = written.rstrip("/") + candidate[len(start.rstrip("/")):]
        if not tests:
            return candidate
        for test, pattern in tests:
            fold = test in ("-iname", "-ipath", "-iwholename", "-iregex")
            subject = candidate.rsplit("/", 1)[-1] if test in ("-name", "-iname") else shown
            if test in ("-regex", "-iregex"):
                try:
                    matched = re.fullmatch(pattern, subject, re.IGNORECASE if fold else 0) is not None
                except re.error:
                    matched = True
            else:
                matched = fnmatchcase(subject.lower(), pattern.lower()) if fold else fnmatchcase(subject, pattern)
            if matched:
                return candidate
    return ""


def _git_sub(cmd: Command) -> str:
    return git_split(cmd.args)[0]
