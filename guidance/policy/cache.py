"""The compiled bundle, cached as plain JSON and loaded with the standard library only.

Hot path module: no `json`, `hashlib`, `typing` or `pathlib` at import time.

    load_bundle(project)  hit:  read cache → stat each source (size, mtime_ns) and each directory
                                the compiler looked in for policy files (mtime_ns) → return
                          racy: a source changed within RACY_NS of the last check → hash it;
                                a directory → list it again (guidance.policy.tree)
                          miss: compile (lazy import) → write both files atomically → return

Two files are cached side by side: `bundle.json`, the whole bundle, and `decide.json`, only
what a pre-tool decision reads (DECIDE_KEYS: identity, sources, settings, checks; about a
fifth of the bytes: shard texts, the constitution and the retrieval index are left out).
`load_bundle(project, part="decide")` reads the small one. Each file carries the same
identity (format, compiler, key, root, sources; the compiler is `compiler_identity()`, the version
and a fingerprint of the compiler's modules) and is validated on its own the same way, so
a torn pair (one written, the other not) or a mismatched pair (one from an older compile) is
never trusted: whichever file is stale, foreign or corrupt is rebuilt by compiling again,
which rewrites both.

A warm process (the hook server) keeps the last decoded bundle per cache file and reuses it
while the file's (mtime_ns, size, inode) is unchanged, so it pays for the JSON decode once per
policy version, not per call. Treat the returned dict as read-only: it may be shared.

The cache lives at `<state dir>/cache/bundle.json` (`.claude-flow/guidance/cache/bundle.json`
by default). A corrupt, unreadable or foreign cache (not a regular file of this user, or one
others may write) is ignored and rebuilt, never trusted; an
unwritable state directory only means the bundle is compiled in memory every time.
On a miss the compiler runs with strict=False: a malformed rule becomes an error diagnostic in
the bundle and every other rule (and every built-in gate) still applies.
"""

from __future__ import annotations

import os

from cf_guidance import __version__
from cf_guidance import _fastjson
from cf_guidance._fnv import fnv1a32
from cf_guidance._statefile import read_bytes
from cf_guidance.policy import tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CACHE_NAME = "bundle.json"
DECIDE_NAME = "decide.json"
FULL = "full"
DECIDE = "decide"
#: The keys of the decision part (the engine and every gate read only these).
DECIDE_KEYS = ("format", "compiler", "key", "root", "sources", "tree", "checked_ns", "settings", "checks", "diagnostics")
#: Every bundle lists the root's CLAUDE.md first (guidance.policy.sources): a cheap identity check.
FIRST_SOURCE = "CLAUDE.md"
#: A file modified this close to the last check may change again within one mtime tick
#: without a visible stat change (git's "racy clean" problem): confirm it by content hash.
RACY_NS = 2_000_000_000
_EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#: Decoded bundles of this process: cache path -> ((mtime_ns, size, inode) of the file, bundle).
_MEMO: dict[str, tuple[tuple[int, int, int], dict[str, Any]]] = {}
_MEMO_SIZE = 8
#: A cache file bigger than this is not one a compile wrote.
MAX_CACHE_BYTES = 256 << 20


#: The package directories whose modules shape a compiled bundle (the compiler, its lexicon, the
#: shell analysis and the command tables it reads), relative to the package.
COMPILER_DIRS = ("policy", "policy/lexicon", "shell", "gates/commands")
_IDENTITY: list[str] = []


def compiler_identity() -> str:
    """What a cached bundle must have been compiled by: this version of cf-guidance with the
    modules of its compiler as they are now, so that a checkout updated or reinstalled under the
    same version number compiles again instead of serving what the older code compiled."""
    if not _IDENTITY:
        _IDENTITY.append(identity_of(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    return _IDENTITY[0]


def identity_of(package: str) -> str:
    """The version and a fingerprint of the name, size and mtime of each module in `package`'s
    COMPILER_DIRS (modules only: the bytecode Python writes beside them changes nothing)."""
    stamps: list[str] = []
    for directory in COMPILER_DIRS:
        try:
            with os.scandir(os.path.join(package, directory)) as entries:
                for entry in entries:
                    if entry.name.endswith(".py"):
                        stat = entry.stat()
                        stamps.append(f"{directory}/{entry.name}\0{stat.st_size}\0{stat.st_mtime_ns}")
        except OSError:
            stamps.append(f"{directory}\0-")
    stamps.sort()
    return f"{__version__}+{fnv1a32(chr(10).join(stamps))}"


def cache_path(project_dir: str, state_dir: str | None = None, part: str = FULL) -> str:
    """Where the bundle of `project_dir` (or its decision part, `part="decide"`) is cached."""
    if state_dir is None:
        from cf_guidance.state import state_dir as default_state_dir

        state_dir = default_state_dir(project_dir)
    return os.path.join(state_dir, "cache", DECIDE_NAME if part == DECIDE else CACHE_NAME)


def load_bundle(project_dir: str, state_dir: str | None = None, *, part: str = FULL, use_cache: bool = True,
                near: list[str] | None = None, detached: bool = False) -> dict[str, Any]:
    """The compiled policy bundle of `project_dir`, from the cache when it is still valid.

    `part="decide"` returns only DECIDE_KEYS (what the engine needs to decide a tool call),
    read from the smaller `decide.json`; on a miss it compiles and returns the whole bundle.
    `use_cache=False` compiles in memory and neither reads nor writes the cache (the hook's
    choice when others could have written the state directory).
    `near`: the absolute paths one tool call works in (cf_guidance.gates.scope.worked_paths).
    Then only the directories on their way are checked for new policy files (the root always):
    a subdirectory's rules apply to calls working there only, so one elsewhere cannot matter
    to this call, and a hit costs a stat per directory on the way instead of one per directory
    of the project. None checks every directory the compiler looked in.
    `detached=True` (the hook, whose own deadline may be shorter than a compile) compiles a
    miss in a detached child that writes the cache however long it takes, and waits for it: a
    caller that gives up waiting leaves the compile running, every other caller waits for the
    same compile, and the next call finds the cache (see `_compile_detached`).
    """
    if part != FULL and part != DECIDE:
        raise ValueError(f"unknown bundle part {part!r}: use 'full' or 'decide'")
    root = os.path.abspath(project_dir)
    if not use_cache:
        return _compile(root)
    path = cache_path(root, state_dir, part)
    cached = _read_cache(path, root, part)
    if cached is not None:
        state = _freshness(cached, near)
        if state == "fresh":
            return cached
        if state == "same-content":
            if _settled(cached):  # else the next load would be racy again: no point rewriting yet
                if near is not None:
                    _forget_unchecked(cached, near)
                _write_cache(path, cached)
            return cached
    if detached and os.path.isdir(root):
        shared = _compile_detached(root, state_dir, path, part)
        if shared is not None:
            return shared
    bundle = _compile(root)
    if os.path.isdir(root):  # never create directories for a project that does not exist
        # The full file first: a crash in between leaves an old decide.json, whose source
        # stamps no longer match, so it is rebuilt rather than trusted.
        _write_cache(cache_path(root, state_dir, FULL), bundle)
        _write_cache(cache_path(root, state_dir, DECIDE), decision_part(bundle))
    return bundle


def decision_part(bundle: dict[str, Any]) -> dict[str, Any]:
    """The keys of `bundle` a pre-tool decision reads (a new dict; values shared)."""
    return {key: bundle[key] for key in DECIDE_KEYS if key in bundle}


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _remember(path: str, stamp: tuple[int, int, int] | None, bundle: dict[str, Any]) -> None:
    if stamp is None:
        return
    _MEMO.pop(path, None)
    while len(_MEMO) >= _MEMO_SIZE:
        del _MEMO[next(iter(_MEMO))]
    _MEMO[path] = (stamp, bundle)


def _read_cache(path: str, root: str, part: str) -> dict[str, Any] | None:
    stamp = _stamp(path)
    if stamp is None:
        return None
    known = _MEMO.get(path)
    if known is not None and known[0] == stamp and known[1].get("root") == root:
        return known[1]
    bundle = _decode_cache(path, root, part)
    if bundle is not None:
        # The stamp was taken before reading: if the file changed in between, the next call
        # sees a different stamp and decodes again.
        _remember(path, stamp, bundle)
    return bundle


def _decode_cache(path: str, root: str, part: str) -> dict[str, Any] | None:
    try:
        # A regular file of this user that no one else may write, or it is not ours to trust.
        bundle = _fastjson.loads(read_bytes(path, MAX_CACHE_BYTES).decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(bundle, dict):
        return None
    sources = bundle.get("sources")
    if (
        bundle.get("format") != 1
        or bundle.get("compiler") != compiler_identity()
        or bundle.get("root") != root
        or not isinstance(sources, list)
        or not sources
        or not isinstance(sources[0], dict)
        or sources[0].get("path") != os.path.join(root, FIRST_SOURCE)
        or not isinstance(bundle.get("checked_ns"), int)
        or not tree.valid(bundle.get("tree"))
    ):
        return None
    for entry in sources:
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("path"), str)
            or not entry["path"].startswith("/")
            or not isinstance(entry.get("size"), int)
            or not isinstance(entry.get("mtime_ns"), int)
            or not isinstance(entry.get("sha256"), str)
        ):
            return None
    full = part == FULL
    if not isinstance(bundle.get("key"), str):
        return None
    for key in ("settings", "constitution", "retrieval") if full else ("settings",):
        if not isinstance(bundle.get(key), dict):
            return None
    for key in ("shards", "checks", "diagnostics") if full else ("checks", "diagnostics"):
        if not isinstance(bundle.get(key), list):
            return None
    return bundle


def _freshness(bundle: dict[str, Any], near: list[str] | None = None) -> str:
    """"fresh" (stat unchanged), "same-content" (stat changed, bytes did not) or "stale".

    With `near` (see load_bundle), only the directories on the way to those paths, and the
    sources whose rules could apply there (the project's, and those of the directories on the
    way), are looked at.
    """
    checked_ns: int = bundle["checked_ns"]
    found = bundle["tree"]
    ways = None if near is None else tree.near(found, bundle["root"], near)
    entries = bundle["sources"] if ways is None else _on_the_way(bundle["sources"], ways)
    stat_changed = False
    racy = False
    for entry in entries:
        if not entry.get("exists") and not entry.get("imported_by"):
            continue  # a file of a walked directory that is absent: its directory's stamp tells when it appears
        try:
            st = os.stat(entry["path"])
        except OSError:
            if entry.get("exists"):
                return "stale"
            continue
        if not entry.get("exists"):
            return "stale"
        if st.st_size != entry["size"]:
            return "stale"
        if st.st_mtime_ns != entry["mtime_ns"]:
            stat_changed = True
        elif st.st_mtime_ns + RACY_NS > checked_ns:
            racy = True
    directories = tree.verify(found, bundle["root"], checked_ns, ways)
    if directories == "stale":
        return "stale"
    if not stat_changed and not racy:
        return "fresh" if directories == "fresh" else "same-content"
    for entry in entries:
        digest = _file_sha256(entry["path"]) if entry.get("exists") else _EMPTY_SHA256
        if digest != entry["sha256"]:
            return "stale"
    # Same bytes: refresh the stat fields so the next load is a plain stat hit.
    for entry in entries:
        try:
            st = os.stat(entry["path"])
        except OSError:
            continue
        entry["mtime_ns"] = st.st_mtime_ns
        entry["size"] = st.st_size
    return "same-content"


def _on_the_way(sources: list[dict[str, Any]], ways: list[str]) -> list[dict[str, Any]]:
    """The sources whose rules could apply on the way to `near`: the project's and those scoped
    to a directory on the way."""
    return [entry for entry in sources if not entry.get("scope") or entry["scope"] in ways]


def _forget_unchecked(bundle: dict[str, Any], near: list[str]) -> None:
    """Before a rewrite after a partial (near) check, which moves `checked_ns` on: a source or
    directory left out of it that was still racy at the last check keeps no trusted stamp
    (mtime -1: hashed or listed again when next checked), or its unseen same-tick change
    would look settled."""
    checked_ns: int = bundle["checked_ns"]
    found = bundle["tree"]
    ways = tree.near(found, bundle["root"], near)
    checked = {id(entry) for entry in _on_the_way(bundle["sources"], ways)}
    for entry in bundle["sources"]:
        if id(entry) not in checked and entry["mtime_ns"] + RACY_NS > checked_ns:
            entry["mtime_ns"] = -1
    tree.forget_racy(found, set(ways), checked_ns)


def _settled(bundle: dict[str, Any]) -> bool:
    """True when no source was modified within RACY_NS of now."""
    import time

    newest = max((entry["mtime_ns"] for entry in bundle["sources"] if entry.get("exists")), default=0)
    return time.time_ns() >= max(newest, tree.newest(bundle["tree"])) + RACY_NS


def _file_sha256(path: str) -> str:
    import hashlib

    digest = hashlib.sha256()
    try:
        if os.stat(path).st_mode & 0o170000 != 0o100000:
            return _EMPTY_SHA256  # not a regular file: never opened (a FIFO would block), as the compiler
        with open(path, "rb") as handle:
            while True:
                chunk = handle.read(1 << 20)
                if not chunk:
                    break
                digest.update(chunk)
    except OSError:
        return ""
    return digest.hexdigest()


def _ensure_site_packages() -> None:
    # The hook may run under `python -S` to save start-up time; the compiler needs
    # markdown-it-py and pydantic from site-packages, so add them on this (rare) slow path.
    import sys

    if sys.flags.no_site:
        import site

        site.main()


def _compile(root: str) -> dict[str, Any]:
    _ensure_site_packages()
    from cf_guidance.policy.compiler import compile_project

    return compile_project(root, strict=False)


def _compile_detached(root: str, state_dir: str | None, path: str, part: str) -> dict[str, Any] | None:
    """Compile in a detached child that writes the cache, and wait for it; None when the cache
    cannot be shared (no lock file can be made: compile here instead) or the child failed.

    The child holds ``cache/.compile.lock`` exclusively while it compiles; a caller that finds
    it held does not compile again but waits for it, as the starter does. Waiting is a
    blocking flock, which the hook's own deadline (SIGALRM) interrupts; the child has its own
    session and no stdio of ours, so it finishes and caches the bundle whatever happens to the
    callers, and the agent never waits for it. (A hook process exits soon after; a warm server
    reaps its exited children on every request.)
    """
    import fcntl

    lock_path = os.path.join(os.path.dirname(path), ".compile.lock")
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pass  # a compile is running: wait for it below
    except OSError:
        os.close(fd)
        return None
    else:
        try:
            pid = os.fork()
        except OSError:
            os.close(fd)
            return None
        if pid == 0:  # the child: compile, cache, exit; never return into the caller
            try:
                os.setsid()
                null = os.open(os.devnull, os.O_RDWR)
                for stdio in (0, 1, 2):
                    os.dup2(null, stdio)
                os.closerange(3, fd)  # a warm server's listening socket must not outlive it here
                os.closerange(fd + 1, 1 << 16)
                bundle = _compile(root)
                _write_cache(cache_path(root, state_dir, FULL), bundle)
                _write_cache(cache_path(root, state_dir, DECIDE), decision_part(bundle))
            finally:
                os._exit(0)
    os.close(fd)  # the child's copy of this descriptor holds the lock until it exits
    wait = os.open(lock_path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(wait, fcntl.LOCK_SH)
    finally:
        os.close(wait)
    cached = _read_cache(path, root, part)
    if cached is None or _freshness(cached) == "stale":
        return None  # the child failed, or a source changed meanwhile: compile here
    return cached


def _write_cache(path: str, bundle: dict[str, Any]) -> None:
    import time

    from cf_guidance._atomic import write_atomic

    bundle["checked_ns"] = time.time_ns()
    try:
        write_atomic(path, _fastjson.dumps(bundle).encode("utf-8"), mode=0o644, parent_mode=0o700)
        _remember(path, _stamp(path), bundle)
    except OSError:
        pass  # read-only checkout or full disk: the bundle is still used, only not cached
