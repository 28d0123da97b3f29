"""git: global options, the subcommand, and what it does to local history and work.

What git does to remotes (push variants, remote and config settings) is in the effect model's
table (cf_guidance.gates.commands.effects.git), which reads the command with `resolved` from
here."""

from __future__ import annotations

import os

from cf_guidance.gates.commands import Args

#: git options that come before the subcommand and take a value.
_GLOBAL_WITH_VALUE = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--super-prefix", "--config-env"))


def split(args: list[str]) -> tuple[str, list[str], dict[str, list[str]]]:
    """(subcommand, its arguments, global options) of `git ARGS`."""
    globals_: dict[str, list[str]] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("-"):
            return arg, args[i + 1 :], globals_
        name, eq, value = arg.partition("=")
        if name in _GLOBAL_WITH_VALUE and not eq:
            globals_.setdefault(name, []).append(args[i + 1] if i + 1 < len(args) else "")
            i += 2
            continue
        globals_.setdefault(name, []).append(value)
        i += 1
    return "", [], globals_


#: The subcommands `_analyse` has a branch for (keep in step with it: tests/gates/commands/test_git.py).
BRANCHED = frozenset(
    ("reset", "clean", "checkout", "switch", "restore", "branch", "filter-branch", "filter-repo", "reflog", "gc", "rebase", "stash", "update-ref", "read-tree")
)
#: Branches others build on: moving or overwriting them locally is asked (DST021).
SHARED_BRANCHES = frozenset(("main", "master", "trunk", "develop", "development", "production", "prod", "staging", "stable", "release", "gh-pages"))
_SHARED_PREFIXES = ("release/", "releases/")


def shared_branch(name: str) -> bool:
    """`main`, `refs/heads/main`, `release/1.2`: a branch others build on."""
    if name.startswith("refs/heads/"):
        name = name[11:]
    return name in SHARED_BRANCHES or name.startswith(_SHARED_PREFIXES)


def git_dir(root: str) -> str:
    """The git directory that holds the config and refs of the repository at `root` (a
    worktree's `.git` file leads to the shared one), "" when there is none. No git process."""
    git = os.path.join(root, ".git")
    try:
        if os.path.isfile(git):
            with open(git, encoding="utf-8") as handle:
                git = os.path.normpath(os.path.join(root, handle.read().partition("gitdir:")[2].strip()))
            common = os.path.join(git, "commondir")
            if os.path.isfile(common):
                with open(common, encoding="utf-8") as handle:
                    git = os.path.normpath(os.path.join(git, handle.read().strip()))
    except (OSError, UnicodeDecodeError):
        return ""
    return git if os.path.isdir(git) else ""


def current_branch(start: str) -> str:
    """The branch checked out in the repository or worktree holding the directory `start`, read
    from its HEAD file (a worktree's `.git` file leads to its own HEAD); "" when HEAD is detached
    or no repository holds `start`. No git process: the hook asks on every commit."""
    folder = os.path.abspath(start)
    while True:
        dotgit = os.path.join(folder, ".git")
        try:
            if os.path.isdir(dotgit):
                head = os.path.join(dotgit, "HEAD")
                break
            if os.path.isfile(dotgit):
                with open(dotgit, encoding="utf-8") as handle:
                    head = os.path.join(folder, handle.read().partition("gitdir:")[2].strip(), "HEAD")
                break
        except (OSError, UnicodeDecodeError):
            return ""
        parent = os.path.dirname(folder)
        if parent == folder:
            return ""
        folder = parent
    try:
        with open(head, encoding="utf-8") as handle:
            ref = handle.read(4096).strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return ref[len("ref: refs/heads/"):] if ref.startswith("ref: refs/heads/") else ""


def ref_tips(gitdir: str) -> dict[str, str]:
    """Every branch, remote-tracking branch and tag of the repository with the commit it names
    (loose refs win over packed-refs; symbolic refs are left out)."""
    tips: dict[str, str] = {}
    try:
        with open(os.path.join(gitdir, "packed-refs"), encoding="utf-8") as handle:
            for line in handle:
                sha, _, name = line.strip().partition(" ")
                if name.startswith("refs/") and len(sha) >= 40:
                    tips[name] = sha
    except (OSError, UnicodeDecodeError):
        pass
    top = os.path.join(gitdir, "refs")
    for folder, _, files in os.walk(top):
        for file in files:
            path = os.path.join(folder, file)
            try:
                with open(path, encoding="utf-8") as handle:
                    sha = handle.read().strip()
            except (OSError, UnicodeDecodeError):
                continue
            if not sha.startswith("ref:"):
                tips["refs/" + os.path.relpath(path, top).replace(os.sep, "/")] = sha
    return tips


def kept_elsewhere(root: str, branches: list[str]) -> bool:
    """True when each of `branches` names a commit another branch, remote-tracking branch or tag
    also names: deleting it (`git branch -D`) loses no commit."""
    gitdir = git_dir(root)
    if not gitdir or not branches:
        return False
    tips = ref_tips(gitdir)
    for branch in branches:
        own = "refs/heads/" + branch
        sha = tips.get(own)
        if sha is None or not any(tip == sha for ref, tip in tips.items() if ref != own):
            return False
    return True


def deleted_branches(args: list[str]) -> list[str]:
    """The local branches `git branch -D NAME...` deletes ([] for another command, or one that
    runs in another repository: `git -C DIR`, `--git-dir`)."""
    sub, rest, globals_ = resolved(args)
    if sub != "branch" or globals_.keys() & {"-C", "--git-dir", "--work-tree"}:
        return []
    parsed = Args(rest)
    return parsed.positionals if "D" in parsed.short or parsed.has("-d", "--delete") else []


def analyse(args: list[str]) -> list[tuple[str, str]]:
    """Findings of `git ARGS`: (code, detail). Codes are documented in cf_guidance.gates.destructive."""
    if BRANCHED.isdisjoint(args) and not _may_set_alias(args):
        return []  # the subcommand is one of the words, and only `-c alias.X=...` could rename it
    return _analyse(args)


def _may_set_alias(args: list[str]) -> bool:
    """True when a word could be `-c` or `-c=...` (what `split` files under the `-c` option)."""
    for arg in args:
        if arg.startswith("-c"):
            return True
    return False


def _analyse(args: list[str]) -> list[tuple[str, str]]:
    sub, rest, globals_ = resolved(args)
    out: list[tuple[str, str]] = []
    if sub == "reset":
        parsed = Args(rest)
        if "--hard" in parsed.long:
            out.append(("DST010", "git reset --hard discards uncommitted changes"))
    elif sub == "clean":
        parsed = Args(rest, frozenset(("-e", "--exclude")))
        dry = parsed.has("-n", "--dry-run") or parsed.has("-i", "--interactive")
        if parsed.has("-f", "--force") and not dry:
            out.append(("DST011", "git clean -f deletes untracked files"))
    elif sub in ("checkout", "restore"):
        _discard(sub, rest, out)
        if sub == "checkout":
            _recreate(rest, "-B", out)
    elif sub == "switch":
        parsed = Args(rest, frozenset(("-c", "-C", "--create", "--force-create", "--orphan", "--conflict")))
        if parsed.has("--discard-changes", "-f", "--force"):
            out.append(("DST019", "git switch --discard-changes throws away every uncommitted change"))
        _recreate(rest, "-C", out)
    elif sub == "read-tree":
        parsed = Args(rest, frozenset(("--prefix", "--index-output", "--exclude-per-directory")))
        if parsed.has("-u") and parsed.has("--reset"):
            out.append(("DST019", "git read-tree -u --reset overwrites the working tree and discards every uncommitted change"))
    elif sub == "branch":
        parsed = Args(rest)
        if "D" in parsed.short or (parsed.has("-d", "--delete") and parsed.has("-f", "--force")):
            out.append(("DST013", "git branch -D deletes a branch even when it is not merged"))
        _move_branch(parsed, out)
    elif sub in ("filter-branch", "filter-repo"):
        out.append(("DST014", f"git {sub} rewrites the whole history"))
    elif sub == "reflog" and rest[:1] in (["expire"], ["delete"]):
        out.append(("DST015", "git reflog expire/delete drops the safety net for lost commits"))
    elif sub == "gc" and any(a.startswith("--prune") and a.split("=", 1)[-1] in ("now", "all") for a in rest):
        out.append(("DST015", "git gc --prune=now removes unreachable commits for good"))
    elif sub == "gc" and _expires_now(globals_.get("-c", [])):
        out.append(("DST015", "git -c gc.reflogExpire/pruneExpire=now gc drops the reflog and removes unreachable commits for good"))
    elif sub == "rebase":
        parsed = Args(rest)
        if not parsed.has("--abort", "--continue", "--skip", "--quit", "--edit-todo", "--show-current-patch"):
            out.append(("DST016", "git rebase rewrites commits; if they were pushed, others lose them"))
    elif sub == "stash" and rest[:1] in (["clear"], ["drop"]):
        out.append(("DST017", f"git stash {rest[0]} deletes stashed work"))
    elif sub == "update-ref" and "-d" in rest:
        out.append(("DST017", "git update-ref -d deletes a ref"))
    elif sub == "update-ref":
        refs = [a for a in rest if not a.startswith("-")]
        if "--stdin" in rest:
            out.append(("DST021", "git update-ref --stdin moves refs read from input"))
        elif refs and (refs[0] == "HEAD" or shared_branch(refs[0])):
            out.append(("DST021", f"git update-ref points {refs[0]} at another commit"))
    return out


def _move_branch(parsed: Args, out: list[tuple[str, str]]) -> None:
    """`git branch -f main X`, `git branch -M wip main`, `git branch -C x main`: a shared branch
    is moved or overwritten (`git branch -f feature/x` and `git branch -M main` are not)."""
    names = parsed.positionals
    force = parsed.has("-f", "--force")
    if "M" in parsed.short or "C" in parsed.short or (force and parsed.has("-m", "--move", "-c", "--copy")):
        if len(names) >= 2 and shared_branch(names[1]):
            out.append(("DST021", f"git branch overwrites the branch {names[1]} with {names[0]}"))
    elif force and names and shared_branch(names[0]) and not parsed.has("-d", "--delete", "-D"):
        out.append(("DST021", f"git branch -f moves the branch {names[0]}"))


def _recreate(rest: list[str], flag: str, out: list[tuple[str, str]]) -> None:
    """`git checkout -B main X` / `git switch -C main X` reset a shared branch to another commit."""
    parsed = Args(rest, frozenset((flag, "--force-create", "-b", "-c", "--orphan", "--conflict")))
    for name in parsed.value(flag, "--force-create"):
        if shared_branch(name):
            out.append(("DST021", f"git {'checkout -B' if flag == '-B' else 'switch -C'} resets the branch {name}"))


#: One-shot settings that make `git gc` expire the reflog and prune at once.
_EXPIRY_KEYS = ("gc.reflogexpire", "gc.reflogexpireunreachable", "gc.pruneexpire")


def _expires_now(settings: list[str]) -> bool:
    """`git -c gc.reflogExpire=now -c gc.pruneExpire=now gc`: the settings of `reflog expire --expire=now`."""
    for setting in settings:
        key, _, value = setting.partition("=")
        if key.lower() in _EXPIRY_KEYS and value.lower() in ("now", "all"):
            return True
    return False


def resolved(args: list[str]) -> tuple[str, list[str], dict[str, list[str]]]:
    """`split`, with an alias set on the command line expanded (`git -c alias.s=stash s` is `git stash`)."""
    sub, rest, globals_ = split(args)
    sub, rest = _expand_alias(sub, rest, globals_)
    return sub, rest, globals_


def _expand_alias(sub: str, rest: list[str], globals_: dict[str, list[str]]) -> tuple[str, list[str]]:
    """`git -c alias.p='push --force' p` runs `git push --force`: expand aliases set on the command line."""
    for setting in globals_.get("-c", []):
        name, _, value = setting.partition("=")
        if name.lower() == f"alias.{sub}".lower() and value and not value.startswith("!"):
            words = value.split()
            return words[0], words[1:] + rest
    return sub, rest


def _discard(sub: str, rest: list[str], out: list[tuple[str, str]]) -> None:
    parsed = Args(rest, frozenset(("-s", "--source", "-b", "-B", "--orphan", "--conflict", "--pathspec-from-file")))
    if sub == "restore":
        if parsed.has("-S", "--staged") and not parsed.has("-W", "--worktree"):
            return  # only unstages; the working tree is untouched
        paths = parsed.positionals
    else:
        if parsed.has("-f", "--force") and not parsed.positionals[1:]:
            out.append(("DST019", "git checkout -f discards local changes"))
            return
        if "--" in rest:
            paths = rest[rest.index("--") + 1 :]
        elif parsed.positionals in (["."], [":/"], ["*"]):
            paths = parsed.positionals
        elif len(parsed.positionals) >= 2:
            paths = parsed.positionals[1:]  # `git checkout TREE-ISH PATH...`
        else:
            return
    if any(p in (".", "./", ":/", "*", ":/*", "-A") or p.endswith("/.") for p in paths):
        out.append(("DST019", f"git {sub} {' '.join(paths)} discards every uncommitted change"))
    elif paths:
        out.append(("DST020", f"git {sub} {' '.join(paths)} discards uncommitted changes to those files"))
