"""Directory stamps: how a cached bundle notices a new CLAUDE.md in a subdirectory, unwalked.

Hot path module: standard library only (`os`; no `hashlib`, no `re`); the glob matcher is
imported only when a directory has to be listed again.

Creating, removing or renaming a file changes the mtime of the directory that holds it. So
when the compiler walks the project (guidance.policy.sources), it records for every directory
it looked in the directory's mtime and what in it matters to the policy (`contents`): which
policy names are present (`POLICY_NAMES`) and which subdirectories the walk enters. A cache hit
then stats each recorded directory (`verify`): an unchanged mtime means nothing was added or
removed there; a new one (or one within RACY_NS of the last check, when a second change in the
same clock tick would not show) means the directory is listed again and its contents compared.
The same contents (a build wrote `src/x.o`, an editor saved by rename) keep the bundle; others
(a new `src/gen/CLAUDE.md`, a new subdirectory that may hold one) recompile it.

The tree part of a bundle, `{"dirs": {rel: [mtime_ns, contents]}, "files": {".gitignore":
[mtime_ns, size]}, "ignore": [patterns]}`: `rel` is relative to the project root ("." for the
root, `sub/.claude` for a `.claude` directory, whose only policy name is CLAUDE.md); `files`
holds the stamp of the root `.gitignore` (size -1: absent), whose directory patterns
(`ignore`) the walk skips. When its stamp changes it is read again, and only a change of those
patterns matters.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

#: Names whose appearance or disappearance in a directory changes its policy: the files Claude
#: Code (CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md) and Codex (AGENTS.md,
#: AGENTS.override.md) read there.
POLICY_NAMES = frozenset(("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", ".claude"))
#: The file of the project root whose directory patterns the walk skips (its stamp is kept apart).
GITIGNORE = ".gitignore"
#: Directories never walked, at any depth: dependencies, build output and caches (hidden
#: directories, `.git`, `.venv`, `.tox`, ..., are never walked either).
SKIP_DIRS = frozenset((
    "node_modules", "bower_components", "jspm_packages", "vendor", "third_party", "third-party",
    "__pycache__", "site-packages", "venv", "dist", "build", "target", "coverage", "htmlcov",
    "Pods", "Carthage", "DerivedData",
))
#: A directory modified this close to the last check is listed again even with an unchanged
#: mtime (the cache's RACY_NS; see guidance.policy.cache).
RACY_NS = 2_000_000_000
#: The root .gitignore is read up to this size.
MAX_GITIGNORE_BYTES = 1 << 20


def is_walked(name: str, rel: str, ignore: list[str]) -> bool:
    """Whether the walk enters subdirectory `name` of the directory at `rel` ("." = root):
    not hidden, not in SKIP_DIRS, not named by a directory pattern of the root .gitignore."""
    if name[:1] == "." or name in SKIP_DIRS:
        return False
    if ignore:
        from cf_guidance._glob import glob_match

        path = name if rel == "." else rel + "/" + name
        for pattern in ignore:
            if glob_match(pattern, path):
                return False
    return True


def ignore_patterns(text: str) -> list[str]:
    """The directory patterns of a .gitignore the walk honours: plain names and globs (`build/`,
    `/data`, `*.egg-info`, `docs/_build`). Negations (`!keep/`) and `**` are not read, so a
    directory they would re-include is still skipped, and one they would exclude is walked."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#!" or "**" in line or "\\" in line:
            continue
        pattern = line.rstrip("/")
        if pattern and pattern != "/" and pattern not in out:
            out.append(pattern)
    return out


def _path(root: str, rel: str) -> str:
    return root if rel == "." else root + "/" + rel


def listing(root: str, rel: str, ignore: list[str]) -> tuple[list[str], list[str]]:
    """(policy names present, subdirectories walked) of directory `rel`, both sorted; OSError if unreadable."""
    present: list[str] = []
    subdirs: list[str] = []
    dot_claude = rel == ".claude" or rel.endswith("/.claude")
    with os.scandir(_path(root, rel)) as entries:
        for entry in entries:
            name = entry.name
            if dot_claude:
                if name == "CLAUDE.md":
                    present.append(name)
                continue
            if name in POLICY_NAMES:
                present.append(name)
            if entry.is_dir(follow_symlinks=False) and is_walked(name, rel, ignore):
                subdirs.append(name)
    present.sort()
    subdirs.sort()
    return present, subdirs


def contents(present: list[str], subdirs: list[str]) -> str:
    """What a directory holds that matters, as one string: `CLAUDE.md/.claude//docs/src` (a name
    never holds `/` and is never empty, so `//` separates the two lists). Kept as written, not
    hashed: a hit that lists a directory again then needs no `hashlib`."""
    return "/".join(present) + "//" + "/".join(subdirs)


def read_ignore(root: str) -> tuple[list[int], list[str]]:
    """The stamp ([mtime_ns, size], size -1 when absent) and directory patterns of the root .gitignore."""
    path = _path(root, GITIGNORE)
    try:
        st = os.stat(path)
        if st.st_mode & 0o170000 != 0o100000:
            return [st.st_mtime_ns, -1], []  # not a regular file: never opened
        with open(path, "rb") as handle:
            data = handle.read(MAX_GITIGNORE_BYTES)
    except OSError:
        return [0, -1], []
    return [st.st_mtime_ns, st.st_size], ignore_patterns(data.decode("utf-8", "replace"))


def near(tree: dict[str, Any], root: str, paths: Iterable[str]) -> list[str]:
    """The recorded directories on the way from the root to each of `paths` (absolute), the
    root first, with their `.claude` directories: where a policy file that applies to those
    paths would have to appear (a new directory on the way changes its parent's mtime)."""
    dirs = tree["dirs"]
    found = {".": None}
    for path in paths:
        if not path.startswith(root + "/"):
            continue  # outside the project: no subdirectory's rule is about it
        prefix = ""
        for part in path[len(root) + 1 :].split("/"):
            prefix = part if not prefix else prefix + "/" + part
            if prefix not in dirs:
                break
            found[prefix] = None
    for rel in list(found):
        dot_claude = ".claude" if rel == "." else rel + "/.claude"
        if dot_claude in dirs:
            found[dot_claude] = None
    return [rel for rel in found if rel in dirs]


def verify(tree: dict[str, Any], root: str, checked_ns: int, only: list[str] | None = None) -> str:
    """"fresh" (no recorded directory or file changed), "same" (some changed in ways that do
    not matter: their stamps are refreshed in `tree`) or "stale" (the policy may differ, or
    an entry is malformed). `only`: check just these directories (see `near`), else every
    recorded one."""
    try:
        return _verify(tree, root, checked_ns, only)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        return "stale"  # a cache file that is not what this version writes: compile again


def _verify(tree: dict[str, Any], root: str, checked_ns: int, only: list[str] | None) -> str:
    ignore = tree["ignore"]
    refreshed = False
    files = tree["files"]
    if GITIGNORE in files:
        stamp = files[GITIGNORE]
        if not (isinstance(stamp, list) and len(stamp) == 2):
            return "stale"
        try:
            st = os.stat(_path(root, GITIGNORE))
            now = [st.st_mtime_ns, st.st_size]
        except OSError:
            now = [0, -1]
        if now != stamp or now[0] + RACY_NS > checked_ns:
            found, patterns = read_ignore(root)
            if patterns != ignore:
                return "stale"
            stamp[:] = found
            refreshed = True
    dirs = tree["dirs"]
    for rel in dirs if only is None else only:
        stamp = dirs[rel]
        try:
            mtime = os.stat(_path(root, rel)).st_mtime_ns
        except OSError:
            return "stale"  # a directory the walk entered is gone (or unreadable)
        if mtime == stamp[0] and mtime + RACY_NS <= checked_ns:
            continue
        if not isinstance(stamp[1], str):
            return "stale"
        try:
            present, subdirs = listing(root, rel, ignore)
        except OSError:
            return "stale"
        if contents(present, subdirs) != stamp[1]:
            return "stale"
        stamp[0] = mtime
        refreshed = True
    return "same" if refreshed else "fresh"


def forget_racy(tree: dict[str, Any], checked: set[str], checked_ns: int) -> None:
    """Before the bundle is written again with a later check time: a directory left out of a
    partial check (`verify(only=...)`) that was still racy at `checked_ns` keeps no trusted
    stamp, or its mtime would look settled although it was never listed after its last change.
    Mtime -1 lists it again whenever it is next checked."""
    for rel, stamp in tree["dirs"].items():
        if rel not in checked and isinstance(stamp, list) and stamp and isinstance(stamp[0], int) and stamp[0] + RACY_NS > checked_ns:
            stamp[0] = -1


def newest(tree: dict[str, Any]) -> int:
    """The latest mtime recorded in `tree` (the cache rewrites a bundle once it is settled)."""
    stamps = [*tree["dirs"].values(), *tree["files"].values()]
    return max((stamp[0] for stamp in stamps if isinstance(stamp, list) and stamp and isinstance(stamp[0], int)), default=0)


def valid(tree: Any) -> bool:
    """Whether `tree` (from a cache file) has the shape `verify` reads, at its top level: its
    entries are checked as `verify` meets them (a bad one makes the bundle stale), so a hit
    does not walk thousands of them twice."""
    return (isinstance(tree, dict) and isinstance(tree.get("dirs"), dict) and isinstance(tree.get("files"), dict)
            and isinstance(tree.get("ignore"), list))
