"""Resolve a path as the agent wrote it, and say where it points.

Hot path module: standard library only (`os` is loaded at interpreter start anyway).

A path is resolved against the event's working directory: `~`, `$HOME`, `${HOME}`, `$PWD`
and `$TMPDIR` are expanded, `..` is collapsed (`/tmp/../etc` is `/etc`), and, when asked,
symlinks are followed for paths that exist. Anything else the shell would expand (`$X`,
`$(...)`, backticks) cannot be known before the command runs: `resolve` returns None and the
gate decides what an unknown target means.

`classify` names the kind of place a resolved path is, from most to least dangerous:
ROOT `/`, HOME the user's home itself, ANCESTOR a directory that contains the project,
SYSTEM a system directory or a direct child of one (`/etc`, `/usr/bin`, `/home/other`),
PROJECT_ROOT the project directory itself, PROJECT inside it, TEMP_ROOT a temp directory
itself, TEMP inside one (temp directories: /tmp, /var/tmp, $TMPDIR, and ~/.cache), OUTSIDE
anything else.
"""

from __future__ import annotations

import os
from stat import S_ISLNK

ROOT = "root"
HOME = "home"
ANCESTOR = "project-ancestor"
SYSTEM = "system"
PROJECT_ROOT = "project-root"
PROJECT = "project"
TEMP_ROOT = "temp-root"
TEMP = "temp"
OUTSIDE = "outside"

#: Kinds whose recursive deletion, re-ownership or move destroys the machine or the user's data.
CATASTROPHIC = frozenset((ROOT, HOME, ANCESTOR, SYSTEM))
#: Kinds where the agent may freely create and delete files.
SCRATCH = frozenset((PROJECT, TEMP))

#: Top-level directories of the operating system (Linux and macOS).
SYSTEM_DIRS = frozenset(
    (
        "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
        "/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys",
        "/usr", "/var", "/nix", "/System", "/Library", "/Applications", "/Users", "/Volumes",
        "/private", "/cores", "/efi",
    )
)
DEFAULT_TEMP_DIRS = ("/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/dev/shm")


def home_dir() -> str:
    home = os.environ.get("HOME", "")
    if not home.startswith("/"):
        try:
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
        except (ImportError, KeyError):
            home = "/root" if os.getuid() == 0 else "/"
    return os.path.normpath(home)


def temp_dirs() -> tuple[str, ...]:
    extra = os.environ.get("TMPDIR", "")
    if extra.startswith("/"):
        extra = os.path.normpath(extra)
        # A TMPDIR of `/` or of a system directory would make that directory "scratch".
        if extra != "/" and extra not in SYSTEM_DIRS and extra not in DEFAULT_TEMP_DIRS:
            return DEFAULT_TEMP_DIRS + (extra,)
    return DEFAULT_TEMP_DIRS


def _leading_name(text: str) -> str:
    """The shell variable name at the start of `text` (`HOME/x` -> `HOME`)."""
    end = 0
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[:end]


def is_within(path: str, directory: str) -> bool:
    """True when `path` is `directory` or below it (both absolute and normalised)."""
    if directory == "/":
        return True
    return path == directory or path.startswith(directory + "/")


def has_glob(path: str) -> bool:
    """True when the shell would expand `*`, `?` or `[` in `path` (not inside `${...}`)."""
    if "*" not in path and "?" not in path and "[" not in path:
        return False
    if "${" in path:
        path = _without_parameters(path)
    return "*" in path or "?" in path or "[" in path


def _without_parameters(text: str) -> str:
    """`${HOME:?}/x*` -> `$/x*`: parameter expansions are not globs."""
    out: list[str] = []
    i = 0
    while i < len(text):
        start = text.find("${", i)
        if start == -1:
            out.append(text[i:])
            break
        end = text.find("}", start)
        if end == -1:
            out.append(text[i:])
            break
        out.append(text[i:start] + "$")
        i = end + 1
    return "".join(out)


def glob_base(path: str) -> str:
    """The directory a glob expands inside: `/*` -> `/`, `build/*.o` -> `build`, `*` -> `.`."""
    if not has_glob(path):
        return path
    parts = path.split("/")
    kept: list[str] = []
    for part in parts:
        if has_glob(part):
            break
        kept.append(part)
    base = "/".join(kept)
    if not base:
        return "/" if path.startswith("/") else "."
    return base


class Resolver:
    """Resolves and classifies paths for one event: working directory, project, home, temps.

    What it learns about symlinks (`_realpath`, `where`) it keeps for its own life, so one
    event's gates look each path up once; `resolver_for` therefore gives every event its own
    Resolver (a link may change between two tool calls: an answer kept across events would be
    a bypass). The Resolvers of one set-up share only the lexical work (`resolve`) and the
    project root's real path (see `_roots`).
    """

    __slots__ = ("cwd", "root", "home", "_given_temps", "_temps", "_real_root", "_memo", "_dynamic", "_real", "_where", "_relatives", "_origin")

    def __init__(self, cwd: str, root: str, *, home: str | None = None, temps: tuple[str, ...] | None = None) -> None:
        self.home = home if home is not None else home_dir()
        self._given_temps = temps
        #: the temp directories, read from $TMPDIR when first needed (most paths are classified before)
        self._temps = temps
        self._real_root: str | None = None
        #: resolve() results for literal paths (no `$`): several gates resolve the same path per event
        self._memo: dict[str, str | None] = {}
        #: resolve() results for paths with `$` (they read $TMPDIR), kept only as long as this Resolver
        self._dynamic: dict[str, str | None] = {}
        #: _realpath() and where() answers: they follow symlinks, so they live only as long as this Resolver
        self._real: dict[str, str] = {}
        self._where: dict[tuple[str, bool], tuple[str | None, str]] = {}
        #: relatives() answers: the project root's forms include its real path, so they live as long as this Resolver
        self._relatives: dict[str, tuple[str | None, str | None]] = {}
        #: the cached Resolver this one was made from (for_event), which keeps the project root's real path
        self._origin: Resolver | None = None
        self.root = "/"
        self.cwd = "/"
        given = self._expand_home(root or cwd or "/") or "/"
        self.root = os.path.normpath(given if given.startswith("/") else os.path.abspath(given))
        self.cwd = self.root
        if cwd:
            self.cwd = self.resolve(cwd) or self.root
        self._memo.clear()  # entries above were resolved against the provisional cwd
        self._dynamic.clear()

    def for_event(self) -> Resolver:
        """A Resolver with this one's set-up and lexical memo, and no symlink answers yet."""
        fresh = Resolver.__new__(Resolver)
        fresh.cwd = self.cwd
        fresh.root = self.root
        fresh.home = self.home
        fresh._given_temps = fresh._temps = self._given_temps
        fresh._real_root = self._real_root
        fresh._memo = self._memo
        fresh._dynamic = {}
        fresh._real = {}
        fresh._where = {}
        fresh._relatives = {}
        fresh._origin = self
        return fresh

    @property
    def temps(self) -> tuple[str, ...]:
        found = self._temps
        if found is None:
            # ~/.cache is disposable by definition (XDG): deleting in it is like deleting in /tmp.
            found = self._temps = temp_dirs() + ((self.home + "/.cache",) if self.home != "/" else ())
        return found

    def _expand_home(self, path: str) -> str | None:
        if path == "~" or path.startswith("~/"):
            return self.home + path[1:]
        if path.startswith("~"):
            user, _, rest = path[1:].partition("/")
            if not user.replace("-", "").replace("_", "").replace(".", "").isalnum():
                return None
            base = "/root" if user == "root" else f"/home/{user}"
            return base + ("/" + rest if rest else "")
        return path

    def expand(self, path: str, *, defaults: bool = False) -> str | None:
        """Expand `~`, `$HOME`, `${HOME}`, `${HOME:?}`, `$PWD`, `$TMPDIR`; None if anything else is dynamic.

        With `defaults`, an unknown variable with a default (`${X:-/}`, `${X:=/}`) becomes its
        default: what runs when the variable is unset.
        """
        expanded = self._expand_home(path)
        if expanded is None or "`" in expanded:
            return None
        path = expanded
        if "$" not in path:
            return path
        known = {"HOME": self.home, "PWD": self.cwd, "TMPDIR": os.environ.get("TMPDIR", "") or "/tmp"}
        out: list[str] = []
        i = 0
        while i < len(path):
            if path[i] != "$":
                out.append(path[i])
                i += 1
                continue
            if path.startswith("${", i):
                end = path.find("}", i)
                if end == -1:
                    return None
                body = path[i + 2 : end]
                name = _leading_name(body)
                modifier = body[len(name) :]
                value = known.get(name)
                if value is not None and (not modifier or modifier[:2] in (":?", ":-", ":=") or modifier[:1] in ("?", "-", "=")):
                    out.append(value)  # set, so `?`, `-` and `=` leave the value as it is
                elif value is None and defaults and (modifier[:2] in (":-", ":=") or modifier[:1] in ("-", "=")):
                    default = modifier[2:] if modifier[0] == ":" else modifier[1:]
                    if "$" in default or "`" in default:
                        return None
                    out.append(default)
                else:
                    return None
                i = end + 1
                continue
            name = _leading_name(path[i + 1 :])
            value = known.get(name)
            if value is None:
                return None
            out.append(value)
            i += 1 + len(name)
        return "".join(out)

    def resolve_unset(self, path: str) -> str | None:
        """Like resolve(), taking `${X:-default}` as its default (the case where X is unset)."""
        expanded = self.expand(path, defaults=True)
        if expanded is None or expanded == self.expand(path):
            return None
        return self._resolve(expanded)

    def resolve(self, path: str, *, real: bool = False) -> str | None:
        """Absolute, normalised form of `path` as the shell would see it; None if dynamic."""
        if real:
            literal = self.resolve(path)
            return None if literal is None else self._realpath(literal)
        # `$TMPDIR` is read from the environment when expanded: such answers are not shared with the
        # next event's Resolver (the set-up's memo below is)
        memo = self._dynamic if "$" in path else self._memo
        if path in memo:  # not try/except KeyError: a miss would raise, which costs more than the lookup
            return memo[path]
        if len(memo) > 512:
            memo.clear()
        result = memo[path] = self._resolve(path)
        return result

    def _resolve(self, path: str) -> str | None:
        expanded = self.expand(path)
        if expanded is None or "\x00" in expanded:
            return None
        if not expanded.startswith("/"):
            expanded = self.cwd + "/" + expanded
        # normpath keeps a leading `//`; collapse it so `//etc` is `/etc`.
        result = os.path.normpath(expanded)
        if result.startswith("//"):
            result = "/" + result.lstrip("/")
        return result

    def known_real(self, path: str) -> str | None:
        """What `resolve(..., real=True)` gave for the literal `path` earlier in this event, or None
        (a look at the memo only: no syscall)."""
        return self._real.get(path)

    def _realpath(self, path: str) -> str:
        found = self._real.get(path)
        if found is None:
            found = self._real[path] = _follow_links(path)
        return found

    def _roots(self) -> tuple[str, ...]:
        real_root = self._real_root
        if real_root is None:
            real_root = self._real_root = self._realpath(self.root)
            if self._origin is not None:
                # Where the project root really is belongs to the set-up, like HOME: kept as long as
                # the cached Resolver (as before per-event Resolvers), not looked up on every event.
                self._origin._real_root = real_root
        if real_root != self.root:
            return (self.root, real_root)
        return (self.root,)

    def classify(self, path: str) -> str:
        """The kind of place an absolute, normalised path is (see module docstring)."""
        if path == "/":
            return ROOT
        for root in self._roots():
            if path == root:
                return PROJECT_ROOT
            if is_within(path, root):
                return PROJECT
        if path == self.home:
            return HOME
        for root in self._roots():
            if is_within(root, path):
                return ANCESTOR
        for temp in self.temps:
            if path == temp:
                return TEMP_ROOT
            if is_within(path, temp):
                return TEMP
        if is_within(self.home, path):
            return ANCESTOR if path != "/" else ROOT
        top = "/" + path.split("/")[1]
        if top in SYSTEM_DIRS and path.count("/") <= 2:
            return SYSTEM
        return OUTSIDE

    def where(self, path: str, *, real: bool = True) -> tuple[str | None, str]:
        """Resolve then classify; for paths that exist, the worse of the literal and real place.

        Returns (resolved path or None, kind); kind is "" when the path is dynamic.
        """
        key = (path, real)
        found = self._where.get(key)
        if found is None:
            found = self._where[key] = self._where_uncached(path, real)
        return found

    def _where_uncached(self, path: str, real: bool) -> tuple[str | None, str]:
        literal = self.resolve(glob_base(path))
        if literal is None:
            return None, ""
        kind = self.classify(literal)
        if real and kind != ROOT:  # nothing outranks `/`: its links need no syscalls
            actual = self._realpath(literal)
            if actual != literal:
                other = self.classify(actual)
                if RANK[other] > RANK[kind]:
                    return actual, other
        return literal, kind

    def relatives(self, path: str) -> tuple[str | None, str | None]:
        """(relative_to_project, relative_to_home) of `path` (absolute, normalised), worked out once
        per event: protected-paths, secrets and policy each ask for the same paths."""
        found = self._relatives.get(path)
        if found is None:
            found = self._relatives[path] = (self.relative_to_project(path), self.relative_to_home(path))
        return found

    def relative_to_project(self, path: str) -> str | None:
        """`path` (absolute) relative to the project root, `.` for the root, None if outside."""
        for root in self._roots():
            if path == root:
                return "."
            if is_within(path, root):
                return path[len(root) + 1 :] if root != "/" else path[1:]
        return None

    def relative_to_home(self, path: str) -> str | None:
        if path == self.home:
            return "."
        if is_within(path, self.home) and self.home != "/":
            return path[len(self.home) + 1 :]
        return None


#: How bad it is to destroy a place of each kind (used to pick the worse of two readings).
RANK = {
    ROOT: 8,
    HOME: 7,
    ANCESTOR: 6,
    SYSTEM: 5,
    OUTSIDE: 4,
    PROJECT_ROOT: 3,
    TEMP_ROOT: 2,
    PROJECT: 1,
    TEMP: 0,
}

_CACHE: dict[tuple[str, str, str], Resolver] = {}


def resolver_for(cwd: str, root: str) -> Resolver:
    """A Resolver for one event at this cwd/root. The set-up (home, root, lexical answers) is
    cached by cwd, root and HOME; each call gets its own Resolver (`Resolver.for_event`), which
    reads $TMPDIR when it first needs it and looks symlinks up afresh."""
    home = os.environ.get("HOME", "")
    key = (cwd, root, home)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        found = _CACHE[key] = Resolver(cwd, root)
    return found.for_event()


def _follow_links(path: str) -> str:
    """`path` (absolute, normalised) with its symlinks followed when it or its parent exists
    (`link/sub` where link -> /etc), else `path` as it is.

    The real path first: when it changes nothing (the usual case) no existence check is needed;
    only a changed answer asks whether the path or its parent exists.
    """
    try:
        real = _real_path(path)
        if real == path or os.path.lexists(path):
            return real
        parent = os.path.dirname(path)
        if parent != path and os.path.lexists(parent):
            return real  # = realpath(parent) + the last name: realpath keeps a missing last component
    except (OSError, ValueError):
        pass
    return path


def _real_path(path: str) -> str:
    """os.path.realpath(path) for an absolute, normalised path, with fewer steps on the usual way.

    Components are looked at from the top; the first symlink hands the whole path to
    os.path.realpath. Until then every component is a plain directory, so when one is missing
    (or cannot be looked at) so is everything below it, and realpath would keep the rest as
    written: the answer is `path` itself, without a look at each missing component.
    """
    if path == "/" or path[:2] == "//":
        return os.path.realpath(path)
    lstat = os.lstat
    end = 0
    while end != -1:
        end = path.find("/", end + 1)
        try:
            mode = lstat(path if end == -1 else path[:end]).st_mode
        except OSError:
            return path
        if S_ISLNK(mode):
            return os.path.realpath(path)
    return path
