"""Which files a patch writes: `git apply`, `git am`, `patch`, read from the patch text itself.

A patch names the files it changes in its headers (`diff --git a/X b/Y`, `--- a/X`,
`+++ b/Y`, `rename from/to`, Codex's `*** Update File: X`). The text comes from a heredoc or
here-string, from the files the command names (`git apply x.patch`, `patch -i x.patch`,
`patch < x.patch`), or from `cat FILE |`. When it comes from anywhere else (another
program's output, a file the guard cannot read) the patch is opaque: `patched_files`
returns None and the gate decides what an unknown patch means.

Paths are returned as the patch spells them with the `a/` / `b/` prefix (and, for `patch
-pN`, N leading components) removed; a header's timestamp after a tab is dropped.
"""

from __future__ import annotations

from cf_guidance.gates.commands import Args
from cf_guidance.gates.commands.files import read_head
from cf_guidance.gates.commands.git import split as git_split

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command, ShellAnalysis

#: Most bytes of a patch file read at hook time (a larger file is read up to this).
MAX_PATCH_BYTES = 1 << 20
#: `git apply` options that only look at the patch.
_ONLY_LOOK = frozenset(("--check", "--stat", "--numstat", "--summary"))
_PATCH_VALUES = frozenset(("-i", "--input", "-o", "--output", "-p", "--strip", "-d", "--directory", "-D", "--ifdef", "-F", "--fuzz",
                           "-r", "--reject-file", "-z", "--suffix", "-B", "--prefix", "-V", "--version-control", "-Y", "--basename-prefix"))
_APPLY_VALUES = frozenset(("-p", "-C", "--exclude", "--include", "--directory", "--whitespace", "--build-fake-ancestor"))


def patch_sources(cmd: Command, analysis: ShellAnalysis | None) -> tuple[list[str], list[str], int] | None:
    """(patch texts given inline, patch files named, leading components to strip) of a command
    that applies a patch; None when it applies none. A text list holding None-like "" means
    the patch comes from somewhere the guard cannot read (see `patched_files`)."""
    program = cmd.program
    if program == "git":
        sub, rest, _ = git_split(cmd.args)
        if sub not in ("apply", "am"):
            return None
        parsed = Args(rest, _APPLY_VALUES)
        if sub == "apply" and parsed.long & _ONLY_LOOK:
            return None
        if sub == "am" and parsed.long & {"--abort", "--skip", "--continue", "--quit", "--show-current-patch", "--resolved"}:
            return None
        files = [p for p in parsed.positionals if p != "-"]
        strip = _int(parsed.value("-p"), 1)
    elif program == "patch":
        parsed = Args(cmd.args, _PATCH_VALUES)
        if parsed.has("--dry-run"):
            return None
        files = parsed.value("-i", "--input")
        # `patch FILE [PATCHFILE]`: the first positional is the file to patch, the second the patch
        if len(parsed.positionals) >= 2:
            files = files + parsed.positionals[1:2]
        strip = _int(parsed.value("-p", "--strip"), -1)
    else:
        return None
    texts: list[str] = []
    if cmd.stdin:
        texts.append(cmd.stdin)
    for op, target in cmd.redirects:
        if op == "<":
            files.append(target)
    if not files and not cmd.stdin:
        producer = _producer(cmd, analysis)
        if producer is None:
            texts.append("")  # stdin from a pipe or the terminal: unknown
        else:
            files.extend(producer)
    return texts, files, strip


def _int(values: list[str], default: int) -> int:
    for value in values:
        if value.isdigit():
            return int(value)
    return default


def _producer(cmd: Command, analysis: ShellAnalysis | None) -> list[str] | None:
    """The files `cat F... |` pipes into `cmd`, or None when the producer is anything else."""
    if analysis is None or cmd.pipe_prev != "cat":
        return None
    for other in analysis.commands:
        if other.pipe_next == cmd.program and other.program == "cat" and not other.origin:
            files = Args(other.args).positionals
            return files or None
    return None


def patched_files(text: str, strip: int) -> list[str]:
    """The files a patch text writes (old and new names of renames and copies included).

    `strip` is patch's `-p`: -1 means patch's default, the file name as written and with an
    `a/`/`b/` prefix removed (both are returned, so a guessed strip level never hides a file).
    """
    out: list[str] = []
    for line in text.splitlines():
        names: list[str] = []
        if line.startswith("diff --git "):
            names = [part for part in line[11:].split(" ") if part]
        elif line.startswith(("--- ", "+++ ")):
            names = [line[4:].split("\t", 1)[0].strip()]
        elif line.startswith(("rename from ", "rename to ", "copy from ", "copy to ")):
            names = [line.split(" ", 2)[2].strip()]
        elif line.startswith(("*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: ")):
            names = [line.split(": ", 1)[1].strip()]
        for name in names:
            if name.startswith('"') and name.endswith('"'):
                name = name[1:-1]
            if not name or name == "/dev/null":
                continue
            for form in _forms(name, strip):
                if form and form not in out:
                    out.append(form)
    return out


def _forms(name: str, strip: int) -> list[str]:
    """The name as written, without an `a/`/`b/` prefix, and without `strip` leading components:
    a guessed strip level must never hide a file."""
    forms = [name]
    if name.startswith(("a/", "b/")):
        forms.append(name[2:])
    if strip > 0:
        forms.append("/".join(name.split("/")[strip:]))
    return forms


def read_patch(path: str) -> str | None:
    """The text of a patch file (its first MAX_PATCH_BYTES), None when it cannot be read."""
    return read_head(path, MAX_PATCH_BYTES)
