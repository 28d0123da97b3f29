"""Which files a command reads and writes, as far as its words say.

Writes include deletes and rewrites in place: `sed -i`, formatters and fixers in their writing
mode (`IN_PLACE`: `prettier --write`, `black`), `find DIR -delete` / `-exec rm` (under DIR).

Used by the secrets gate (reads of secret files), the protected-paths gate (writes to the
guard's own files) and the compiled-rules gate (`deny write` / `deny read` globs on Bash).
Paths are returned as written; callers resolve them.
"""

from __future__ import annotations

from cf_guidance.gates.commands import Args
from cf_guidance.gates.commands.git import split as git_split
from cf_guidance.gates.commands.rm import find_deletes, find_roots, producer_paths
from cf_guidance.shell.model import Command
from cf_guidance.shell.unwrap import FIND_ACTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import ShellAnalysis

def read_head(path: str, limit: int) -> str | None:
    """The first `limit` bytes of a file a command names, as text; None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except OSError:
        return None


#: Programs whose file arguments are read.
READERS = frozenset(
    (
        "cat", "tac", "nl", "less", "more", "most", "head", "tail", "bat", "batcat", "od", "xxd",
        "hexdump", "hd", "strings", "base64", "base32", "basenc", "uuencode", "sort", "uniq",
        "wc", "cut", "paste", "diff", "cmp", "comm", "column", "fold", "fmt", "pr", "rev",
        "jq", "yq", "source", ".", "view", "vi", "vim", "nvim", "nano", "emacs", "pico", "ed",
        "code", "gpg", "openssl", "iconv", "tar", "zip", "gzip", "bzip2", "xz",
        "zcat", "zless", "md5sum", "sha1sum", "sha256sum", "file", "expand", "tr",
        "split", "csplit", "look", "dotenv", "envsubst",
    )
)
#: Readers whose first positional argument is a program or pattern, not a file.
PATTERN_FIRST = frozenset(("grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "mawk", "nawk", "sed", "jq", "yq"))
#: Programs that change or delete every path argument.
MUTATORS = frozenset(
    ("rm", "rmdir", "unlink", "shred", "truncate", "touch", "mkdir", "chmod", "chown", "chgrp", "chattr", "setfacl", "wipe", "srm")
)
#: Interactive editors: opening a file is writing it.
EDITORS = frozenset(("vi", "vim", "nvim", "nano", "emacs", "pico", "ed", "ex", "code", "subl", "micro", "joe", "kak", "hx"))
#: Formatters and fixers that rewrite the files and directories they are given, by program or
#: "program subcommand": (options that make them write, options that make them only check or
#: show). No writing option: they write unless checking (`black src/`, `rustfmt x.rs`). Editors
#: of structured files name their expression first (`yq -i '.a = 1' f.yaml`, `sd old new f`):
#: `_EXPRESSIONS` says how many words come before the files.
IN_PLACE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "prettier": (("--write", "-w"), ()),
    "eslint": (("--fix",), ()),
    "stylelint": (("--fix",), ()),
    "standard": (("--fix",), ()),
    "markdownlint": (("--fix",), ()),
    "markdownlint-cli2": (("--fix",), ()),
    "black": ((), ("--check", "--diff")),
    "isort": ((), ("--check", "--check-only", "-c", "--diff")),
    "ruff format": ((), ("--check", "--diff")),
    "ruff check": (("--fix",), ("--diff",)),
    "autopep8": (("-i", "--in-place"), ()),
    "yapf": (("-i", "--in-place"), ()),
    "gofmt": (("-w",), ()),
    "goimports": (("-w",), ()),
    "gofumpt": (("-w",), ()),
    "go fmt": ((), ("-n",)),
    "rustfmt": ((), ("--check",)),
    "clang-format": (("-i",), ()),
    "shfmt": (("-w", "--write"), ()),
    "biome format": (("--write", "--apply", "--fix"), ()),
    "biome check": (("--write", "--apply", "--apply-unsafe", "--fix"), ()),
    "biome lint": (("--write", "--apply", "--fix"), ()),
    "rubocop": (("-a", "-A", "--autocorrect", "--autocorrect-all", "--auto-correct", "--auto-correct-all"), ()),
    "terraform fmt": ((), ("-check", "--check")),
    "mix format": ((), ("--check-formatted", "--dry-run")),
    "swiftformat": ((), ("--lint", "--dryrun")),
    "ktlint": (("-F", "--format"), ()),
    "php-cs-fixer fix": ((), ("--dry-run",)),
    "dos2unix": ((), ()),
    "unix2dos": ((), ()),
    "yq": (("-i", "--inplace"), ()),
    "yq e": (("-i", "--inplace"), ()),
    "yq eval": (("-i", "--inplace"), ()),
    "sd": ((), ("-p", "--preview")),
}
_EXPRESSIONS = {"yq": 1, "sd": 2}
#: the formatters' options that take the next word (a config file, a rule set), not a file to rewrite
_IN_PLACE_VALUES = frozenset(
    ("-c", "--config", "--ignore-path", "--parser", "--plugin", "--ext", "-f", "--format", "-o", "--output-file", "--rule",
     "--ignore-pattern", "--max-warnings", "-l", "--line-length", "-t", "--target-version", "--include", "--exclude",
     "--extend-exclude", "--force-exclude", "--select", "--ignore", "--extend-select", "--profile", "--settings-path",
     "--style", "-r", "--only", "--except", "--stdin-filename", "--log-level", "--config-path"))
#: Programs that unpack or fetch into the directory an option names (`unzip x.zip -d out`)
_INTO_DIRECTORY = {"unzip": ("-d",), "wget": ("-P", "--directory-prefix")}
#: Redirect targets that are not files.
_NOT_FILES = frozenset(("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"))

_SHORT_VALUE_OPTS = {
    "head": frozenset(("-n", "-c")),
    "tail": frozenset(("-n", "-c", "-s")),
    "grep": frozenset(("-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D")),
    "rg": frozenset(("-e", "-f", "-g", "-t", "-T", "-m", "-A", "-B", "-C", "-j", "-M", "--glob", "--type", "--max-count")),
    "sed": frozenset(("-e", "-f", "-l")),
    "awk": frozenset(("-f", "-v", "-F")),
    "cut": frozenset(("-d", "-f", "-c", "-b")),
    "chmod": frozenset(("--reference",)),
    "truncate": frozenset(("-s", "--size", "-r", "--reference")),
    "tar": frozenset(("-f", "-C", "--file", "--directory", "-T", "-X")),
    "curl": frozenset(
        ("-o", "--output", "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F", "--form",
         "-T", "--upload-file", "-H", "--header", "-X", "--request", "-u", "--user", "-A", "-e", "-b", "-c", "-K", "--config")
    ),
    "wget": frozenset(("-O", "--output-document", "-o", "--post-file", "--body-file", "--header", "-P", "--directory-prefix")),
    "unzip": frozenset(("-d", "-x")),
    "patch": frozenset(("-i", "--input", "-o", "--output", "-d", "--directory", "-p", "-r", "-B", "-F", "-V", "-z")),
    "cp": frozenset(("-t", "--target-directory", "-S", "--suffix")),
    "mv": frozenset(("-t", "--target-directory", "-S", "--suffix")),
    "install": frozenset(("-m", "-o", "-g", "-t", "-S", "--mode", "--owner", "--group", "--target-directory")),
    "ln": frozenset(("-t", "--target-directory", "-S", "--suffix")),
    "scp": frozenset(("-P", "-i", "-o", "-F", "-c", "-l", "-J")),
    "rsync": frozenset(("-e", "--rsh", "--exclude", "--include", "--filter", "-f")),
    "openssl": frozenset(("-in", "-out", "-inkey", "-passin")),
    "dd": frozenset(),
}


def _is_file_word(word: str) -> bool:
    return bool(word) and word not in _NOT_FILES and not word.startswith("&")


def redirect_effects(cmd: Command) -> tuple[list[str], list[str]]:
    reads: list[str] = []
    writes: list[str] = []
    for op, target in cmd.redirects:
        if "<<" in op or op.endswith("&"):
            continue  # heredoc / here-string: text; `2>&1`: a descriptor, not a file
        if not _is_file_word(target):
            continue
        if ">" in op:
            writes.append(target)
            if "<" in op:
                reads.append(target)
        elif "<" in op:
            reads.append(target)
    return reads, writes


def file_effects(cmd: Command) -> tuple[list[str], list[str]]:
    """(paths read, paths written or deleted) by this command, as written (kept on the command: several gates ask)."""
    found = cmd.effects
    if found is None:
        found = cmd.effects = _file_effects(cmd)
    return found


#: Every program `_file_effects` reads the words of (each branch below names its programs):
#: any other command only reads and writes through its redirections.
_WORD_EFFECTS = READERS | PATTERN_FIRST | MUTATORS | EDITORS | frozenset(
    ("mv", "cp", "install", "ln", "rsync", "scp", "tee", "sponge", "dd", "sed", "perl", "git", "curl", "wget", "openssl", "tar",
     "gh", "find", "unzip", "patch")
) | frozenset(name.split(" ", 1)[0] for name in IN_PLACE)


#: Readers whose branch below is `reads.extend(pos)` alone (no earlier branch and no later one takes them).
_PLAIN_READERS = READERS - MUTATORS - EDITORS - PATTERN_FIRST - frozenset(("mv", "cp", "install", "ln", "rsync", "scp", "tee", "dd", "sed", "perl", "curl", "wget", "openssl", "tar"))


def may_touch_files(cmd: Command) -> bool:
    """True when `file_effects(cmd)` names any path. O(1) for the common command without
    redirections whose program's words name no files (`npm test`); gates use it to skip a command."""
    if not cmd.redirects and cmd.program not in _WORD_EFFECTS:
        return False
    reads, writes = file_effects(cmd)
    return bool(reads or writes)


_NO_OPTIONS: frozenset[str] = frozenset()


def _file_effects(cmd: Command) -> tuple[list[str], list[str]]:
    reads, writes = redirect_effects(cmd) if cmd.redirects else ([], [])
    program = cmd.program
    if program not in _WORD_EFFECTS:
        return reads, writes  # already filtered by redirect_effects; no argument parsing needed
    args = cmd.args
    if program == "git":  # needs only the subcommand: parsing every option costs more than the rest
        if _GIT_FILE_SUBCOMMANDS.isdisjoint(args):
            return reads, writes  # the subcommand is one of the words: none that names files (`git status`)
        _git_effects(args, reads, writes)
        return _file_words(reads), _file_words(writes)
    if program == "gh":  # what it uploads: `gh gist create FILE...`, `gh release upload TAG FILE...`
        words = Args(args, _GH_VALUE_OPTIONS).positionals
        if words[:2] == ["gist", "create"]:
            reads.extend(words[2:])
        elif words[:2] in (["release", "upload"], ["release", "create"]):
            reads.extend(words[3:])
        return _file_words(reads), _file_words(writes)
    if program == "find":
        _find_effects(args, reads, writes)
        return _file_words(reads), _file_words(writes)
    if program in _IN_PLACE_PROGRAMS and _rewritten(program, args, writes):
        return _file_words(reads), _file_words(writes)
    if program in _PLAIN_READERS:
        for arg in args:
            if arg[:1] == "-":
                break
        else:  # no option: every word is a positional, which a plain reader reads (`cat README.md`)
            reads.extend(args)
            return _file_words(reads), _file_words(writes)
    parsed = Args(args, _SHORT_VALUE_OPTS.get(program, _NO_OPTIONS))
    pos = parsed.positionals
    if program in MUTATORS:
        if program in ("chmod", "chown", "chgrp", "chattr", "setfacl") and pos:
            pos = pos[1:]  # mode / owner first
        writes.extend(pos)
    elif program in ("mv",):
        writes.extend(pos)
        writes.extend(parsed.value("-t", "--target-directory"))
    elif program in ("cp", "install", "ln", "rsync", "scp"):
        target = parsed.value("-t", "--target-directory")
        if target:
            reads.extend(pos)
            for directory in target:
                writes.extend(_into(directory.rstrip("/") + "/", pos))
        elif pos:
            reads.extend(pos[:-1])
            writes.extend(_into(pos[-1], pos[:-1]))
            if program == "ln" and len(pos) == 1:
                reads.append(pos[0])
    elif program in ("tee", "sponge"):  # `jq . f.json | sponge f.json` soaks up the input, then writes
        writes.extend(pos)
    elif program == "dd":
        for arg in args:
            if arg.startswith("of="):
                writes.append(arg[3:])
            elif arg.startswith("if="):
                reads.append(arg[3:])
    elif program in ("sed", "perl") and (parsed.has("-i", "--in-place") or any(a.startswith(("-i", "--in-place")) for a in args)):
        files = pos[1:] if (program == "sed" and not parsed.value("-e", "-f")) else pos
        if program == "perl":
            files = [p for p in pos if not p.startswith("-")][1:] if not parsed.has("-e", "-E") else pos
        writes.extend(files)
    elif program in PATTERN_FIRST:
        explicit = parsed.value("-e", "-f", "--regexp", "--file") or (program in ("awk", "gawk", "mawk", "nawk") and parsed.value("-f"))
        reads.extend(pos if explicit else pos[1:])
        reads.extend(parsed.value("-f", "--file"))
    elif program in EDITORS:
        reads.extend(pos)
        writes.extend(pos)
    elif program in ("head", "tail"):
        reads.extend(_without_counts(args, pos))
    elif program in READERS:
        reads.extend(pos)
    if program == "curl":
        writes.extend(parsed.value("-o", "--output"))
        for value in parsed.value("-d", "--data", "--data-binary", "--data-urlencode", "-F", "--form", "-K", "--config"):
            at = value.find("@")
            if at != -1 and value[at + 1 :] not in ("", "-"):
                reads.append(value[at + 1 :])
        reads.extend(parsed.value("-T", "--upload-file"))
        reads.extend(url[7:] for url in pos if url.startswith("file://"))
    elif program == "wget":
        writes.extend(parsed.value("-O", "--output-document"))
        reads.extend(parsed.value("--post-file", "--body-file"))
    elif program == "openssl":
        reads.extend(parsed.value("-in", "-inkey"))
        writes.extend(parsed.value("-out"))
    elif program == "tar" and (parsed.has("-x", "--extract", "--get") or (args and "x" in args[0] and not args[0].startswith("-"))):
        writes.extend(parsed.value("-C", "--directory"))
    if program in _INTO_DIRECTORY:
        writes.extend(parsed.value(*_INTO_DIRECTORY[program]))
    elif program == "patch" and pos:  # `patch FILE < fix.diff`; with no file the patch names them
        writes.append(pos[0])
    return _file_words(reads), _file_words(writes)


def _into(target: str, sources: list[str]) -> list[str]:
    """A copy into a target written as a folder (`cp out/a.c /tmp/`) writes the sources' names there,
    not the whole folder: the folder may hold the repository, and copying into it changes nothing else."""
    if not target.endswith("/") or not sources:
        return [target]
    return [target + source.rstrip("/").rsplit("/", 1)[-1] for source in sources]


def _find_effects(args: list[str], reads: list[str], writes: list[str]) -> None:
    """What `find DIR ...` does to what it matches, as done to DIR: `-delete` deletes there, and
    `-exec CMD {} +` is CMD on DIR (`-exec rm -f {} +` writes, `-exec cat {} +` reads, `-exec
    sed -i ... {} +` rewrites); a bare find only lists."""
    roots = find_roots(args)
    if find_deletes(args):  # also `-exec sh -c 'rm "$1"' _ {} ;`
        writes.extend(roots)
    for i, word in enumerate(args):
        if word not in FIND_ACTIONS:
            continue
        end = i + 1
        while end < len(args) and args[end] not in (";", "\\;", "+"):
            end += 1
        action = args[i + 1 : end]
        if not action or "{}" not in action:
            continue
        for root in roots:
            inner = _file_effects(Command([root if w == "{}" else w for w in action]))
            reads.extend(inner[0])
            writes.extend(inner[1])


def fed_effects(cmd: Command, analysis: ShellAnalysis | None) -> tuple[list[str], list[str]]:
    """(reads, writes) of a command `xargs` runs on the paths a producer it can read pipes in
    (`find out -name '*.o' | xargs rm`, `ls logs | xargs cat`): the command given those paths."""
    if not cmd.origin.endswith("xargs") or not cmd.argv:
        return [], []
    fed = producer_paths(cmd, analysis)
    if not fed:
        return [], []
    return _file_effects(Command([*cmd.argv, *fed], text=cmd.text))


_IN_PLACE_PROGRAMS = frozenset(name.split(" ", 1)[0] for name in IN_PLACE)


def _rewritten(program: str, args: list[str], writes: list[str]) -> bool:
    """The files and directories a formatter or fixer rewrites (IN_PLACE): its path arguments,
    when it runs in its writing mode (`prettier --write src`, `black src`, not `black --check src`).
    False when it does not write (then it is read like any other command: `yq '.a' f.yaml`)."""
    parsed = Args(args, _IN_PLACE_VALUES)
    pos = parsed.positionals
    mode = IN_PLACE.get(f"{program} {pos[0]}") if pos else None
    if mode is not None:
        pos = pos[1:]
    else:
        mode = IN_PLACE.get(program)
        if mode is None:
            return False  # `ruff` without a subcommand it rewrites with, `biome ci`
    writing, checking = mode
    if any(_given(parsed, args, option) for option in checking):
        return False
    if writing and not any(_given(parsed, args, option) for option in writing):
        return False
    writes.extend(pos[_EXPRESSIONS.get(program, 0) :])
    return True


def _given(parsed: Args, args: list[str], option: str) -> bool:
    """`option` is given: a long one (`--write`, `--write=true`), a single-dash word (`-check`), a
    short letter alone or in a cluster (`-w`, `-iw`)."""
    if option.startswith("--"):
        return option in parsed.long
    if len(option) > 2:
        return any(arg == option or arg.startswith(option + "=") for arg in args)
    return parsed.has(option) or option in parsed.values


def _is_count(word: str) -> bool:
    return word[:1] == "-" and word[1:].isdigit()


def _without_counts(args: list[str], positionals: list[str]) -> list[str]:
    """`head -20 f`: `-20` is the obsolete form of `-n 20`, a count, not a file (Args keeps
    `-<digits>` as a word). After `--` it is a file name; those come last among the positionals."""
    end = args.index("--") if "--" in args else len(args)
    counts = sum(1 for arg in args[:end] if _is_count(arg))
    out: list[str] = []
    for word in positionals:
        if counts and _is_count(word):
            counts -= 1
            continue
        out.append(word)
    return out


def _file_words(words: list[str]) -> list[str]:
    """The words that name files (`_is_file_word`, inlined: this runs for every word of every command)."""
    return [w for w in words if w and w not in _NOT_FILES and w[0] != "&"]


#: gh options before the files of `gist create` / `release upload` that take a value.
_GH_VALUE_OPTIONS = frozenset(("-d", "--desc", "-f", "--filename", "-R", "--repo", "-t", "--title", "-n", "--notes", "-F", "--notes-file", "--target"))

_GIT_WRITES = frozenset(("checkout", "restore", "rm", "mv", "clean"))
_GIT_READS = frozenset(("show", "cat-file", "blame", "log", "diff"))
#: The git subcommands `_git_effects` finds files for.
_GIT_FILE_SUBCOMMANDS = _GIT_WRITES | _GIT_READS


def _git_effects(args: list[str], reads: list[str], writes: list[str]) -> None:
    sub, rest, _ = git_split(args)
    if sub in _GIT_WRITES:
        writes.extend(p for p in rest if not p.startswith("-") and p != "HEAD")
    elif sub in _GIT_READS:
        for word in rest:
            if ":" in word:
                reads.append(word.split(":", 1)[1])
        if "--" in rest:  # `git diff -- src/`, `git log -p -- x`: what follows are paths
            reads.extend(rest[rest.index("--") + 1 :])
