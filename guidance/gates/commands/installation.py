"""The installation the running hook is made of, found from this process at hook time.

Whatever the wired command looks like (an absolute interpreter and launcher, a `cf-guidance`
console script on PATH, `python -m cf_guidance...`), the process answering the hook knows
what it runs from: the interpreter's prefix when that is a virtual environment (a venv,
pipx or `uv tool` directory), the `cf_guidance` package directory, the program the hook
command ran (`sys.argv[0]`: hooks/launcher.py or the console script) and the interpreter
itself. Deleting or moving any of them, or a directory above them, breaks every later hook
call (and a hook that cannot start is not a deny to the client); writing into them changes
what the hook does.

A source checkout installed in editable mode (the package directory is `guidance/` beside
`hooks/`, as in cf-guidance's own repository) is a development set-up: its package files
are the project's source, so writes there are allowed; removing them is not.

The warm hook server (cf_guidance.hooks.hookd) is a fork of the launcher process, so the
same values hold there. Computed once per process.
"""

from __future__ import annotations

import os
import sys

from cf_guidance.paths import is_within


class Installation:
    """`removal`: paths whose deletion or move (or of a directory above them) breaks the hook;
    `guarded`: directories and files a write into changes the hook."""

    __slots__ = ("removal", "guarded", "_inside")

    def __init__(self, removal: tuple[str, ...], guarded: tuple[str, ...]) -> None:
        self.removal = removal
        self.guarded = guarded
        # every write of every event asks `written_by`: one startswith over all prefixes first
        self._inside = tuple(path + "/" for path in guarded) + guarded

    def removed_by(self, target: str) -> str:
        """The part of the installation a delete or move of `target` (absolute, normalised) takes with it, or ""."""
        for path in self.removal:
            if is_within(path, target):
                return path
        return ""

    def written_by(self, target: str) -> str:
        """The part of the installation a write to `target` changes, or ""."""
        if not target.startswith(self._inside):
            return ""
        for path in self.guarded:
            if is_within(target, path):
                return path
        return ""


_found: Installation | None = None


def installation() -> Installation:
    global _found
    if _found is None:
        _found = _discover()
    return _found


def _discover() -> Installation:
    import cf_guidance

    package = os.path.dirname(os.path.abspath(cf_guidance.__file__))
    removal: list[str] = [package]
    guarded: list[str] = []
    source_tree = os.path.basename(package) == "guidance" and os.path.isdir(os.path.join(os.path.dirname(package), "hooks"))
    if source_tree:
        removal.append(os.path.join(os.path.dirname(package), "hooks"))
    else:
        guarded.append(package)
    if sys.prefix != sys.base_prefix:  # a virtual environment: venv, pipx, uv tool
        removal.append(sys.prefix)
        guarded.append(sys.prefix)
    program = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] not in ("", "-c", "-m") else ""
    for path in (program, sys.executable):
        if path and os.path.isabs(path):
            for form in {os.path.normpath(path), os.path.realpath(path)}:
                if not form.startswith(("/usr/", "/bin/", "/lib")) or form == program:
                    removal.append(form)
                    guarded.append(form)
    return Installation(tuple(dict.fromkeys(removal)), tuple(dict.fromkeys(guarded)))


# -- package managers that remove or replace it --------------------------------------------------

#: The distribution's names as package managers spell them (compared after normalising `_` and `.` to `-`).
DISTRIBUTION = "cf-guidance"
#: (program, words before the package names) of each command that removes a package.
UNINSTALLERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pip", ("uninstall",)), ("pipx", ("uninstall",)), ("pipx", ("uninstall-all",)), ("uv", ("tool", "uninstall")),
    ("uv", ("pip", "uninstall")), ("uv", ("remove",)), ("poetry", ("remove",)), ("pdm", ("remove",)), ("pipenv", ("uninstall",)),
    ("conda", ("remove",)), ("conda", ("uninstall",)), ("mamba", ("remove",)), ("micromamba", ("remove",)), ("rye", ("remove",)),
    ("hatch", ("dep", "remove")),
)
#: Commands that take every package (no name needed).
_EVERYTHING = frozenset(("uninstall-all",))
#: (program, words) of commands that replace an installed package when they name it.
REINSTALLERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pip", ("install",)), ("uv", ("pip", "install")), ("pipx", ("reinstall",)), ("pipx", ("install",)), ("uv", ("tool", "install")),
)
_PIP_VALUES = frozenset(("-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t", "--target", "--prefix", "--root",
                         "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--python", "-p", "--src"))


def _normalised(name: str) -> str:
    for stop in "=<>!~[;@ ":
        name = name.split(stop, 1)[0]
    return name.lower().replace("_", "-").replace(".", "-")


def _package_manager(program: str, args: list[str]) -> tuple[str, list[str]]:
    """(`pip` for pip3 / pip3.12 / `python -m pip`, else the program; its arguments)."""
    if program.startswith("pip") and program.rstrip("0123456789.") == "pip":
        return "pip", args
    if program.rstrip("0123456789.") in ("python", "python3", "py") and args[:2] == ["-m", "pip"]:
        return "pip", args[2:]
    return program, args


def uninstalls(program: str, args: list[str]) -> str:
    """A one-line account when `program ARGS` removes or replaces the cf-guidance distribution, else ""."""
    from cf_guidance.gates.commands import Args

    manager, words = _package_manager(program, args)
    for table, replacing in ((UNINSTALLERS, False), (REINSTALLERS, True)):
        for name, verbs in table:
            if manager != name:
                continue
            parsed = Args(words, _PIP_VALUES)
            positionals = parsed.positionals
            if positionals[: len(verbs)] != list(verbs):
                continue
            named = [p for p in positionals[len(verbs):] if _normalised(p) == DISTRIBUTION]
            if replacing:
                if named or any(_normalised(v) == DISTRIBUTION for v in parsed.value("-e", "--editable")):
                    return f"{manager} {' '.join(verbs)} would replace {DISTRIBUTION}, which the hook runs from"
                continue
            if named or verbs[-1] in _EVERYTHING:
                return f"{manager} {' '.join(verbs)} would remove {DISTRIBUTION}, which the hook runs from"
            if len(positionals) == len(verbs) and (parsed.value("-r", "--requirement") or manager == "pip"):
                return f"{manager} {' '.join(verbs)} removes packages the guard cannot list (from a file or a pipe), {DISTRIBUTION} among them perhaps"
    return ""
