"""Did a later call of the session undo a call? The undo commands, kept as data with examples.

The promotion gate asks this of actions a candidate rule would have stopped that succeeded at
the time: one that was undone later in the session (a commit reset, a package uninstalled, an
edited file checked out again) is evidence the rule helps; one that was kept is a likely false
positive. Each `Undo` names what an action looks like, what undoes it and whether the undo must
name one of the action's operands (the package, the path); its examples are run by
tests/replay/test_reverts.py, so an entry cannot be added without saying what it catches and
what it leaves alone.

Words of an action or undo are matched against the parsed command (`cf_guidance.shell`, so
`sudo`, `env`, chains and `bash -c` are seen through) as a prefix of its argv; `a|b` means
either word and `*` any word. How far an undo reaches: `any` (any later undo), `operand` (it
names one of the action's operands), `latest` (`git reset HEAD~N` undoes the N latest commits:
the action if fewer than N of its kind ran after it) and `exact` (`git revert HEAD~N` undoes
the commit N back: the action if exactly N of its kind ran after it). File writes by tools (Write, Edit, MultiEdit, NotebookEdit,
apply_patch) are undone by `FILE_UNDOS`, or by a later Edit of the same file that swaps the
earlier Edit's strings back.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase
from typing import Literal, NamedTuple

from cf_guidance.replay.calls import SUCCEEDED, ToolCall
from cf_guidance.shell import analyze
from cf_guidance.shell.model import Command

#: Tools whose calls write files, and where their path is.
WRITE_TOOLS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
PATCH_TOOL = "apply_patch"
_PATCH_MARKS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ")


Reach = Literal["any", "operand", "latest", "exact"]


class Undo(NamedTuple):
    name: str
    #: the action's leading words (program first)
    does: tuple[str, ...]
    #: each a command's leading words that undo it
    undone_by: tuple[tuple[str, ...], ...]
    reach: Reach
    #: (action, later command, whether it undoes the action)
    examples: tuple[tuple[str, str, bool], ...]


#: A commit named relative to HEAD (`HEAD`, `HEAD~2`, `HEAD^^`, `@~1`).
_REVISION = "HEAD|HEAD~*|HEAD^*|@|@~*|@^*"

UNDOS: tuple[Undo, ...] = (
    Undo("commit reset", ("git", "commit"), (("git", "reset", _REVISION),), "latest",
         (("git commit -m wip", "git reset --soft HEAD~1", True), ("git commit -m wip", "git reset --hard HEAD^", True),
          ("git commit -m wip", "git reset --hard HEAD", False), ("git commit -m wip", "git reset README.md", False),
          ("git commit -m wip", "git log", False))),
    Undo("commit reverted", ("git", "commit"), (("git", "revert", _REVISION),), "exact",
         (("git commit -am fix", "git revert HEAD", True), ("git commit -am fix", "git revert --no-edit HEAD~1", False))),
    Undo("staged file unstaged", ("git", "add"), (("git", "reset"), ("git", "restore", "--staged"), ("git", "rm", "--cached")),
         "operand",
         (("git add secrets.env", "git reset secrets.env", True), ("git add a.py", "git restore --staged a.py", True),
          ("git add a.py", "git reset b.py", False))),
    Undo("branch deleted", ("git", "checkout|switch", "-b|-c|-B|-C"), (("git", "branch", "-D|-d|--delete"),), "operand",
         (("git checkout -b spike", "git branch -D spike", True), ("git switch -c tmp", "git branch -d tmp", True),
          ("git checkout -b spike", "git branch -D other", False))),
    Undo("stash popped", ("git", "stash"), (("git", "stash", "pop|apply"),), "any",
         (("git stash", "git stash pop", True), ("git stash push -m x", "git stash apply", True), ("git stash", "git status", False))),
    Undo("npm package removed", ("npm", "install|i|add"), (("npm", "uninstall|remove|rm|un|r"),), "operand",
         (("npm install left-pad", "npm uninstall left-pad", True), ("npm i -D jest", "npm rm jest", True),
          ("npm install left-pad", "npm uninstall lodash", False))),
    Undo("pnpm/yarn package removed", ("pnpm|yarn", "add"), (("pnpm|yarn", "remove|rm"),), "operand",
         (("yarn add react", "yarn remove react", True), ("pnpm add zod", "pnpm remove zod", True), ("yarn add react", "yarn remove vue", False))),
    Undo("pip package removed", ("pip|pip3", "install"), (("pip|pip3", "uninstall"),), "operand",
         (("pip install requests", "pip uninstall -y requests", True), ("pip3 install rich", "pip uninstall rich", True),
          ("pip install requests", "pip uninstall flask", False))),
    Undo("uv/poetry dependency removed", ("uv|poetry", "add"), (("uv|poetry", "remove"),), "operand",
         (("uv add httpx", "uv remove httpx", True), ("poetry add black", "poetry remove black", True), ("uv add httpx", "uv remove attrs", False))),
    Undo("cargo dependency removed", ("cargo", "add"), (("cargo", "remove|rm"),), "operand",
         (("cargo add serde", "cargo remove serde", True), ("cargo add serde", "cargo remove tokio", False))),
    Undo("directory removed", ("mkdir",), (("rmdir",), ("rm",)), "operand",
         (("mkdir -p tmp/out", "rm -rf tmp/out", True), ("mkdir build", "rmdir build", True), ("mkdir build", "rm -rf dist", False))),
    Undo("file removed", ("touch",), (("rm",),), "operand",
         (("touch notes.txt", "rm notes.txt", True), ("touch notes.txt", "rm other.txt", False))),
)

#: What undoes a file a tool wrote: checked out or restored again (by name, or a directory
#: holding it), the working tree reset or stashed, the file removed.
FILE_UNDOS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("git", "checkout|restore"), True),
    (("git", "reset", "--hard"), False),
    (("git", "stash"), False),
    (("git", "rm"), True),
    (("rm",), True),
)
FILE_EXAMPLES: tuple[tuple[str, str, bool], ...] = (
    ("Write src/app.py", "git checkout -- src/app.py", True),
    ("Edit src/app.py", "git restore src", True),
    ("Edit src/app.py", "git checkout .", True),
    ("Write src/app.py", "git reset --hard", True),
    ("Write notes.txt", "rm notes.txt", True),
    ("Edit src/app.py", "git stash", True),
    ("Write src/app.py", "git checkout -- src/other.py", False),
    ("Write src/app.py", "git checkout main", False),
    ("Write src/app.py", "git diff src/app.py", False),
)


#: Options before a subcommand that take the next word as their value (`git -C dir commit`,
#: `npm --prefix web install`).
OPTIONS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--prefix", "--cwd", "--dir"})


def _word(pattern: str, word: str) -> bool:
    return any(alt == "*" or fnmatchcase(word, alt) for alt in pattern.split("|"))


def _prefix(words: Sequence[str], argv: Sequence[str]) -> tuple[str, list[str]] | None:
    """(the last word matched, the operands after it) when argv starts with `words` (options
    skipped on the way), else None."""
    if not argv or not _word(words[0], os.path.basename(argv[0])):
        return None
    rest = list(argv[1:])
    last = os.path.basename(argv[0])
    for pattern in words[1:]:
        # Options before a subcommand (`git -C dir commit`, `npm --silent install`) are skipped.
        while rest and rest[0].startswith("-") and not _word(pattern, rest[0]):
            if rest.pop(0) in OPTIONS_WITH_VALUE and rest:
                rest.pop(0)
        if not rest or not _word(pattern, rest[0]):
            return None
        last = rest.pop(0)
    return last, [word for word in rest if not word.startswith("-")]


def _depth(revision: str) -> int:
    """How many commits back a revision relative to HEAD is: HEAD 0, HEAD~ 1, HEAD~3 3, HEAD^^ 2."""
    tail = revision[1:] if revision.startswith("@") else revision[4:]
    if tail.startswith("~"):
        return int(tail[1:]) if tail[1:].isdigit() else len(tail)
    return len(tail)  # `^` per generation back (HEAD^2, a second parent, is one back as well)


def _commands(call: ToolCall) -> list[Command]:
    command = call.input.get("command") if call.tool == "Bash" else None
    if not isinstance(command, str):
        return []
    try:
        return [c for c in analyze(command).commands if c.argv]
    except Exception:  # an unparsable command undoes nothing we can tell
        return []


def _path(base: str, word: str) -> str:
    return os.path.normpath(os.path.join(base, os.path.expanduser(word)))


def written_paths(call: ToolCall) -> list[str]:
    """The files a tool call writes, absolute (against the call's working directory)."""
    field = WRITE_TOOLS.get(call.tool)
    if field is not None:
        value = call.input.get(field)
        return [_path(call.cwd, value)] if isinstance(value, str) and value else []
    if call.tool == PATCH_TOOL:
        patch = call.input.get("command", call.input.get("patch", call.input.get("input")))
        if isinstance(patch, str):
            return [_path(call.cwd, line.split(": ", 1)[1].strip())
                    for line in patch.splitlines() if line.startswith(_PATCH_MARKS)]
    return []


def _undoes_file(paths: list[str], later: ToolCall, earlier: ToolCall) -> bool:
    if later.tool == "Edit" and earlier.tool == "Edit" and later.input.get("file_path") == earlier.input.get("file_path"):
        old, new = earlier.input.get("old_string"), earlier.input.get("new_string")
        if isinstance(old, str) and (later.input.get("old_string"), later.input.get("new_string")) == (new, old):
            return True
    for cmd in _commands(later):
        for words, same in FILE_UNDOS:
            found = _prefix(words, cmd.argv)
            if found is None:
                continue
            if not same:
                return True
            named = [_path(later.cwd, w) for w in found[1]]
            if any(p == n or p.startswith(n.rstrip("/") + "/") for p in paths for n in named):
                return True
    return False


def _actions(commands: list[Command]) -> list[tuple[Undo, list[str]]]:
    """The undo entries whose action these commands perform, with the action's operands."""
    out = []
    for undo in UNDOS:
        for cmd in commands:
            found = _prefix(undo.does, cmd.argv)
            if found is not None:
                out.append((undo, found[1]))
    return out


def _undoes(undo: Undo, operands: list[str], commands: list[Command], since: int) -> bool:
    """Whether one of `commands` undoes an action of `undo` with `operands`, when `since` more
    actions of its kind ran in between."""
    for cmd in commands:
        for words in undo.undone_by:
            found = _prefix(words, cmd.argv)
            if found is None:
                continue
            if undo.reach == "any" or (undo.reach == "operand" and set(found[1]) & set(operands)):
                return True
            if undo.reach == "latest" and since < _depth(found[0]):
                return True
            if undo.reach == "exact" and since == _depth(found[0]):
                return True
    return False


def undone_by(call: ToolCall, later: Iterable[ToolCall]) -> ToolCall | None:
    """The first later call (that ran) which undid `call`, or None."""
    paths = written_paths(call)
    actions = _actions(_commands(call)) if not paths else []
    if not paths and not actions:
        return None
    since = [0] * len(actions)  # actions of the same kind that succeeded after `call`
    for after in later:
        if not after.ran:
            continue
        if paths:
            if _undoes_file(paths, after, call):
                return after
            continue
        commands = _commands(after)
        for index, (undo, operands) in enumerate(actions):
            if _undoes(undo, operands, commands, since[index]):
                return after
        if after.outcome == SUCCEEDED:
            for index, (undo, _) in enumerate(actions):
                since[index] += any(_prefix(undo.does, c.argv) is not None for c in commands)
    return None
