"""What a git command would do to the work tree's copy of the hook wiring (issue 11).

Whether `git stash`, `git reset --hard`, `git checkout other-branch` or `git restore .` switch
the guard off depends on the repository, not on the words: `git stash` reverts
`.claude/settings.json` when `cf-guidance init` changed a committed file, and leaves it alone
when the file is committed unchanged or untracked. So this module first reads the words
(`change`: which part of the work tree the command rewrites, from where), and then, only for
such a command and only when the wiring lives in that repository, asks git
(`effect_on`): one `git status` of the wiring paths, and a `git diff --name-only` against
the revision the files would come from. Ordinary git commands (status, diff, log, add,
commit, push, fetch, branch) never reach git.

The questions run git with the repository's own hooks and filters unable to run code
(`core.fsmonitor=false`, no external diff or textconv, optional locks off), revisions are
passed after `--end-of-options` and refused when they look like options, and a failure or a
timeout is an answer ("cannot tell"), which the gate treats as a change.
"""

from __future__ import annotations

import os

from cf_guidance.gates.commands import Args
from cf_guidance.gates.commands.git import resolved
from cf_guidance.paths import is_within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command

#: Seconds one git question may take before the answer is "cannot tell".
GIT_TIMEOUT_S = 3.0

#: What local state a command throws away: nothing, changes to tracked files, also untracked
#: files, also ignored files (the state directory is ignored).
KEEP, TRACKED, UNTRACKED, IGNORED = 0, 1, 2, 3


class Change:
    """How one git command rewrites the work tree.

    `paths`: pathspecs it is limited to (None: the whole tree). `discards`: which local state
    it reverts (KEEP, TRACKED, UNTRACKED, IGNORED). `source`: for a path checkout, the revision
    the files come from ("" the index). `brings`: (kind, spec) of content it brings in: ("tree",
    rev) a tree checked out, ("range", "A...B") a merge, ("commits", "A B") a pick, ("stash",
    ref) a stash. `tracked`: it removes tracked files (`git rm`, `sparse-checkout`). `clean`:
    the options of a `git clean` to dry-run. `tree`: a work-tree directory it removes or moves.
    `unknown`: why the effect cannot be known.
    """

    __slots__ = ("paths", "discards", "source", "brings", "tracked", "clean", "tree", "unknown", "what")

    def __init__(self, what: str, *, paths: list[str] | None = None, discards: int = KEEP, source: str | None = None,
                 brings: list[tuple[str, str]] | None = None, tracked: bool = False, clean: list[str] | None = None,
                 tree: str = "", unknown: str = "") -> None:
        self.what = what
        self.paths = paths
        self.discards = discards
        self.source = source
        self.brings = brings or []
        self.tracked = tracked
        self.clean = clean
        self.tree = tree
        self.unknown = unknown


_CHECKOUT_VALUES = frozenset(("-b", "-B", "--orphan", "--conflict", "--pathspec-from-file", "-s", "--source"))
_CONTINUES = frozenset(("--abort", "--continue", "--skip", "--quit", "--edit-todo", "--show-current-patch"))


#: The subcommands `change` has a branch for (keep in step with it: tests/gates/commands/test_gitwork.py).
REWRITING = frozenset((
    "stash", "checkout", "switch", "restore", "reset", "rm", "clean", "merge", "rebase", "cherry-pick", "revert", "read-tree",
    "checkout-index", "sparse-checkout", "worktree",
))


def may_alias(args: list[str]) -> bool:
    """True when a word could set an alias (`-c alias.X=...`) that renames the subcommand."""
    for arg in args:
        if arg.startswith("-c"):
            return True
    return False


def change(args: list[str]) -> Change | None:
    """How `git ARGS` rewrites the work tree, or None when it leaves the work tree alone."""
    if REWRITING.isdisjoint(args) and not may_alias(args):
        return None  # the subcommand is one of the words, and only `-c alias.X=...` could rename it
    sub, rest, globals_ = resolved(args)
    what = f"git {sub}"
    if sub == "stash":
        return _stash(rest, what)
    if sub in ("checkout", "switch"):
        return _checkout(sub, rest, what)
    if sub == "restore":
        parsed = Args(rest, _CHECKOUT_VALUES)
        if parsed.has("-S", "--staged") and not parsed.has("-W", "--worktree"):
            return None
        if parsed.value("--pathspec-from-file"):
            return Change(what, unknown="its paths come from a file")
        source = (parsed.value("-s", "--source") or ["HEAD" if parsed.has("-S", "--staged") else ""])[0]
        return Change(what, paths=parsed.positionals, source=source)
    if sub == "reset":
        parsed = Args(rest)
        if not parsed.long & {"--hard", "--merge", "--keep"}:
            return None  # --soft / --mixed / paths: the index only
        target = parsed.positionals[0] if parsed.positionals else "HEAD"
        return Change(what, discards=TRACKED, brings=[("tree", target)])
    if sub == "rm":
        parsed = Args(rest, frozenset(("--pathspec-from-file",)))
        if parsed.has("--cached"):
            return None
        return Change(what, paths=parsed.positionals, tracked=True)
    if sub == "clean":
        parsed = Args(rest, frozenset(("-e", "--exclude")))
        if not parsed.has("-f", "--force") or parsed.has("-n", "--dry-run"):
            return None
        return Change(what, clean=[a for a in rest if a not in ("-i", "--interactive", "-q", "--quiet")])
    if sub in ("merge", "rebase", "cherry-pick", "revert"):
        return _brings(sub, rest, what)
    if sub == "read-tree":
        parsed = Args(rest, frozenset(("--prefix", "--index-output", "--exclude-per-directory")))
        if not parsed.has("-u") or parsed.value("--prefix"):
            return None
        return Change(what, discards=TRACKED, brings=[("tree", rev) for rev in parsed.positionals[-1:]] or [("tree", "HEAD")])
    if sub == "checkout-index":
        parsed = Args(rest, frozenset(("--prefix", "--stage")))
        if any(a.startswith("--prefix") for a in rest):
            return None
        return Change(what, paths=None if parsed.has("-a", "--all") else parsed.positionals, source="")
    if sub == "sparse-checkout" and rest[:1] and rest[0] in ("set", "add", "init", "reapply", "disable"):
        return Change(what, tracked=True)
    if sub == "worktree" and rest[:1] and rest[0] in ("remove", "move"):
        places = Args(rest[1:]).positionals
        return Change(f"{what} {rest[0]}", tree=places[0] if places else "")
    return None


def _stash(rest: list[str], what: str) -> Change | None:
    action = rest[0] if rest and not rest[0].startswith("-") else "push"
    options = rest[1:] if rest and not rest[0].startswith("-") else rest
    if action in ("pop", "apply", "branch"):
        refs = Args(options).positionals
        ref = refs[-1] if refs and (action != "branch" or len(refs) > 1) else "stash@{0}"
        return Change(f"git stash {action}", brings=[("stash", ref)])
    if action not in ("push", "save"):
        return None  # list, show, drop, clear, create, store: the work tree stays
    parsed = Args(options, frozenset(("-m", "--message", "--pathspec-from-file")))
    discards = IGNORED if parsed.has("-a", "--all") else UNTRACKED if parsed.has("-u", "--include-untracked") else TRACKED
    if parsed.value("--pathspec-from-file"):
        return Change(what, unknown="its paths come from a file")
    paths = parsed.positionals if action == "push" and parsed.positionals else None
    return Change(what, paths=paths, discards=discards)


def _checkout(sub: str, rest: list[str], what: str) -> Change | None:
    parsed = Args(rest, _CHECKOUT_VALUES | frozenset(("-c", "-C", "--create", "--force-create")))
    force = parsed.has("-f", "--force", "--discard-changes")
    discards = TRACKED if force else KEEP
    if "--" in rest:
        before = Args(rest[: rest.index("--")], _CHECKOUT_VALUES).positionals
        return Change(what, paths=rest[rest.index("--") + 1 :], source=before[0] if before else "")
    if parsed.value("--pathspec-from-file"):
        return Change(what, unknown="its paths come from a file")
    created = parsed.value("-b", "-B", "-c", "-C", "--create", "--force-create", "--orphan")
    positionals = parsed.positionals
    if parsed.has("--orphan") or parsed.value("--orphan"):
        return None  # a new root branch keeps the work tree
    if created:
        target = positionals[0] if positionals else ""
        return Change(what, discards=discards, brings=[("tree", target)] if target else []) if (target or force) else None
    if not positionals:
        return Change(what, discards=discards, brings=[("tree", "HEAD")]) if force else None
    target = "@{-1}" if positionals[0] == "-" else positionals[0]
    if sub == "checkout" and len(positionals) > 1:
        return Change(what, paths=positionals[1:], source=target)  # `git checkout REV PATH...`
    # `git checkout X`: a branch or commit when X is a revision, else a path (git decides the same way)
    return Change(what, discards=discards, brings=[("tree-or-path", target)])


def _brings(sub: str, rest: list[str], what: str) -> Change | None:
    parsed = Args(rest, frozenset(("-m", "--mainline", "-s", "--strategy", "-X", "--strategy-option", "--onto", "-x", "-C")))
    if parsed.long & _CONTINUES:
        return None
    revs = parsed.positionals
    if sub == "merge":
        return Change(what, brings=[("range", f"HEAD...{rev}") for rev in (revs or ["@{upstream}"])])
    if sub == "rebase":
        onto = parsed.value("--onto")
        upstream = (onto or revs[:1] or ["@{upstream}"])[0]
        return Change(what, brings=[("range", f"HEAD...{upstream}")])
    if not revs:
        return None
    brought: list[tuple[str, str]] = []
    for rev in revs:
        if ".." in rev and "..." not in rev:
            low, high = rev.split("..", 1)
            brought.append(("commits", f"{low or 'HEAD'} {high or 'HEAD'}"))
        else:
            brought.append(("commits", f"{rev}~1 {rev}"))
    return Change(what, brings=brought)


# -- the work tree, and what git knows about it -------------------------------------------------------


def toplevel(start: str) -> str:
    """The work tree that holds `start` (the nearest directory with `.git`), "" when none does."""
    here = start
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return ""
        here = parent


def effect_on(change: Change, paths: Resolver, top: str, wiring: list[str], state: str, base: str) -> str:
    """What `change` does to the wiring files (absolute) and the state directory in the work tree
    `top` (one line), or "" when it leaves them as they are; `base` is where git runs (pathspecs
    are relative to it)."""
    rels = [os.path.relpath(w, top) for w in wiring if is_within(w, top)]
    state_rel = os.path.relpath(state, top) if state and is_within(state, top) else ""
    if not rels and not state_rel:
        return ""
    if change.tree:
        where = paths.resolve(change.tree)
        if where is None or is_within(paths.root, where):
            return f"{change.what} would remove the work tree that holds the project and its hook wiring"
        return ""
    if change.unknown:
        return f"{change.what} changes files the guard cannot list ({change.unknown}), which may be the hook wiring"
    ask = _Git(top)
    brings = change.brings
    if brings and brings[0][0] == "tree-or-path" and _safe_rev(brings[0][1]) and not ask.is_rev(brings[0][1]):
        # `git checkout NAME` where NAME is no revision: git checks out the path NAME from the index
        change = Change(change.what, paths=[brings[0][1]], source="")
    if change.paths is not None:
        rels = _covered(change.paths, base, top, rels)
        state_rel = state_rel if _covered(change.paths, base, top, [state_rel] if state_rel else []) else ""
        if not rels and not state_rel:
            return ""
    if change.clean is not None:
        removed = ask.lines(["clean", "-n", *change.clean], zero=False)
        if removed is None:
            return f"{change.what}: git could not say what it removes"
        for line in removed:
            name = line.removeprefix("Would remove ").rstrip("/")
            if any(is_within(os.path.join(top, rel), os.path.join(top, name)) for rel in rels + ([state_rel] if state_rel else [])):
                return f"{change.what} would delete {name}, which holds the hook wiring or the guard's state"
        return ""
    if change.tracked:
        tracked = ask.lines(["ls-files", "-z", "--", *rels])
        if tracked is None:
            return f"{change.what}: git could not say which wiring files it tracks"
        return f"{change.what} would remove the tracked hook wiring {tracked[0]}" if tracked else ""
    status = ask.status(rels + ([state_rel] if state_rel else []))
    if status is None:
        return f"{change.what}: git could not say whether the hook wiring has local changes"
    if change.source is not None:
        return _path_checkout(change, ask, rels, status)
    for code, name in status:
        lost = (code == "??" and change.discards >= UNTRACKED) or (code == "!!" and change.discards >= IGNORED) or (
            code not in ("??", "!!") and change.discards >= TRACKED)
        if lost:
            return f"{change.what} would revert or remove {name}, the hook wiring as `cf-guidance init` left it"
    for kind, spec in change.brings:
        found = _brought(ask, kind, spec, rels)
        if found:
            return f"{change.what} would bring in another version of {found}" if found != "?" else \
                f"{change.what}: git could not say what {spec} does to the hook wiring"
    return ""


def _path_checkout(change: Change, ask: _Git, rels: list[str], status: list[tuple[str, str]]) -> str:
    if change.source:
        differs = ask.lines(["diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", "--no-renames", "--end-of-options",
                             change.source, "--", *rels]) if _safe_rev(change.source) else None
        if differs is None:
            return f"{change.what}: git could not compare the hook wiring with {change.source}"
        return f"{change.what} would replace {differs[0]} with its version in {change.source}" if differs else ""
    for code, name in status:
        if code not in ("??", "!!") and code[1] != " ":
            return f"{change.what} would revert the local changes to {name}, the hook wiring as `cf-guidance init` left it"
    return ""


def _brought(ask: _Git, kind: str, spec: str, rels: list[str]) -> str:
    """The first wiring file `spec` changes, "?" when git cannot say, "" when none."""
    if not rels:
        return ""
    if kind == "stash":
        if not _safe_rev(spec):
            return "?"
        changed = ask.lines(["diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", "--no-renames", "--end-of-options",
                             f"{spec}^1", spec, "--", *rels])
        untracked = ask.lines(["ls-tree", "-r", "--name-only", "-z", "--end-of-options", f"{spec}^3", "--", *rels], quiet_failure=True)
        if changed is None:
            return ""  # no such stash: git stash pop fails
        found = changed + (untracked or [])
        return found[0] if found else ""
    if kind == "commits":
        low, high = spec.split(" ", 1)
        revs = [low, high]
    elif kind == "range":
        revs = [spec]
    else:
        # a checkout of another tree keeps local changes to files it does not change (or
        # refuses), so what matters is whether that tree's wiring differs from HEAD's
        revs = ["HEAD", spec]
    if not all(_safe_rev(rev) for rev in revs):
        return "?"
    if kind in ("tree", "tree-or-path") and not ask.is_rev(spec):
        return ""  # not a revision: a path (protected-paths judges it), or git fails
    changed = ask.lines(["diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", "--no-renames", "--end-of-options", *revs, "--", *rels])
    if changed is None:
        return "?" if kind != "range" else ""  # a range without an upstream: git merge fails too
    return changed[0] if changed else ""


def _safe_rev(rev: str) -> bool:
    return bool(rev) and not rev.startswith("-") and not any(c in rev for c in " \t\n\0$`")


def _covered(specs: list[str], base: str, top: str, rels: list[str]) -> list[str]:
    """The paths of `rels` (relative to `top`) some pathspec covers. A pathspec is relative to
    `base` (`:/x` and `:(top)x` to `top`); one with other magic, a glob or an unknown value covers all."""
    out: list[str] = []
    for rel in rels:
        target = os.path.join(top, rel)
        for spec in specs:
            if spec.startswith((":/", ":(top)")):
                rest = spec[2:] if spec.startswith(":/") else spec[6:]
                if any(c in rest for c in "*?[") or rest.startswith(("(", ":")):
                    out.append(rel)
                    break
                where = os.path.normpath(os.path.join(top, rest))
            elif spec.startswith(":") or any(c in spec for c in "*?[$`"):
                out.append(rel)
                break
            else:
                where = os.path.normpath(os.path.join(base, os.path.expanduser(spec)))
            if is_within(target, where):
                out.append(rel)
                break
    return out


class _Git:
    """Questions to git about one work tree; None answers mean git failed or took too long."""

    def __init__(self, top: str) -> None:
        self.top = top

    def run(self, args: list[str]) -> tuple[int, bytes] | None:
        import subprocess

        env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_LITERAL_PATHSPECS="1", LC_ALL="C", GIT_TERMINAL_PROMPT="0")
        argv = ["git", "-C", self.top, "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "diff.external=", *args]
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=GIT_TIMEOUT_S, env=env, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.returncode, done.stdout

    def lines(self, args: list[str], *, zero: bool = True, quiet_failure: bool = False) -> list[str] | None:
        found = self.run(args)
        if found is None or found[0] != 0:
            return [] if quiet_failure else None
        text = found[1].decode("utf-8", "surrogateescape")
        return [item for item in text.split("\0" if zero else "\n") if item]

    def status(self, rels: list[str]) -> list[tuple[str, str]] | None:
        found = self.lines(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--no-renames", "--", *rels])
        if found is None:
            return None
        return [(item[:2], item[3:]) for item in found if len(item) > 3]

    def is_rev(self, rev: str) -> bool:
        found = self.run(["rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"])
        return found is not None and found[0] == 0


def wiring_of(paths: Resolver) -> list[str]:
    """The hook wiring files of the project and of the user (absolute)."""
    from cf_guidance.gates.protected_paths import GUARD_FILES

    return [base + "/" + rel for base in (paths.root, paths.home) for rel in sorted(GUARD_FILES)]


def git_cwd(cmd: Command, paths: Resolver) -> tuple[str, str]:
    """(the directory git works in, the work tree it was pointed at with --work-tree /
    GIT_WORK_TREE / --git-dir / GIT_DIR, or "")."""
    _, _, globals_ = resolved(cmd.args)
    where = paths.cwd
    for step in globals_.get("-C", []):
        found = paths.resolve(step) if not step.startswith("/") else os.path.normpath(step)
        if found is not None:
            where = found if step.startswith("/") else os.path.normpath(os.path.join(where, step))
    redirected = ""
    for name, value in cmd.assignments:
        if name in ("GIT_WORK_TREE", "GIT_DIR"):
            redirected = value or "?"
    for option in ("--work-tree", "--git-dir"):
        for value in globals_.get(option, []):
            redirected = value or "?"
    return where, redirected


def staged_by(where: str, sub: str, rest: list[str]) -> list[str] | None:
    """The files (absolute) a `git add` or `git commit` in `where` takes without naming them one by
    one: `git add -A`, `git add .`, `git add src/`, `git add -u`, `git commit -a`. Git lists them
    itself (`ls-files`: changed tracked files, and for `git add` the untracked ones it would take;
    ignored files stay out, as they do for git), so a ban on committing `.env` holds for the
    `git add -A` that would sweep it in and not for one that leaves it alone. [] when the command
    names its files (the caller reads those words) or takes none; None when git cannot tell."""
    positionals: list[str] = []
    everything = tracked_only = False
    after_dashes = False
    for word in rest:
        if after_dashes or not word.startswith("-") or word == "-":
            positionals.append(word)
        elif word == "--":
            after_dashes = True
        elif sub == "add" and word in ("-A", "--all"):
            everything = True
        elif sub == "add" and word in ("-u", "--update"):
            everything = tracked_only = True
        elif sub == "commit" and (word == "--all" or not word.startswith("--") and "a" in word[1:].partition("m")[0]):
            everything = tracked_only = True  # `-a`, `-am MSG`: every changed tracked file
    if sub == "commit":
        if not everything:
            return []
        positionals = []  # the message and other values are not pathspecs; `-a` takes the whole tree
    whole = any(p in (":/", ":/*") for p in positionals)
    # the pathspecs that are places (the questions run with literal pathspecs: `*` is the directory)
    specs = ["." if p == "*" else p for p in positionals
             if p in (".", "./", "*") or p.endswith("/") or os.path.isdir(os.path.join(where, p))]
    if sub == "add" and positionals and not specs and not whole:
        return []  # `git add a.py`, `git add -A a.py`: the named files only
    if not everything and not specs and not whole:
        return []
    top = toplevel(where)
    if not top:
        return None
    kinds = ["--modified"] if tracked_only else ["--modified", "--others", "--exclude-standard"]
    if specs and not whole:
        found = _Git(where).lines(["ls-files", "-z", "--full-name", *kinds, "--", *specs])
    else:
        found = _Git(top).lines(["ls-files", "-z", *kinds])
    if found is None:
        return None
    return [os.path.join(top, rel) for rel in dict.fromkeys(found)]
