"""Command patterns (compiled CLAUDE.md rules and the project allowlist) against parsed commands.

Semantics (see the bundle contract): `w0` matches the program's basename (`*`/`?` globs);
each later word matches a distinct argument; positional words in order; words starting with
`-` anywhere; a short-flag cluster `-rf` is satisfied by the letters r and f in any clustering;
`--force` never matches `--force-with-lease`; a trailing `*` matches any remaining arguments.
With `exact`, every argument must be accounted for (the allowlist), otherwise extra arguments
are allowed (bans).
"""

from __future__ import annotations

from cf_guidance._glob import _match_segment, glob_match

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command


def _is_short_cluster(word: str) -> bool:
    return len(word) > 1 and word[0] == "-" and word[1] != "-" and not word[1].isdigit()


def has_glob(word: str) -> bool:
    return "*" in word or "?" in word or "[" in word


def _word_match(pattern: str, word: str) -> bool:
    if pattern == word:
        return True
    if "/" in pattern and same_path(pattern, word):
        return True  # `migrations/` names the same directory as `./migrations`
    if has_glob(pattern):
        return _match_segment(pattern, word)
    return False


def same_path(pattern: str, word: str) -> bool:
    """Whether two words name the same path (`./bin/rails` and `bin/rails`)."""
    return _path_form(pattern) == _path_form(word)


def _path_form(word: str) -> str:
    while word.startswith("./"):
        word = word[2:]
    return word.rstrip("/") or word


def required_words(pattern: list[str]) -> frozenset[str]:
    """Literal positional words a command must contain among its arguments to match `pattern`
    (the cheap rejection `matches` starts with; indexes use it to skip patterns early)."""
    return frozenset(word for word in pattern[1:] if word and word[0] != "-" and "/" not in word and not has_glob(word))


def literal_positionals(words: list[str]) -> bool:
    """True when no word is empty, an option, a path or a glob (`make test`): `matches` then
    asks only `in_order` of them, unless `exact`."""
    for word in words:
        if not word or word[0] == "-" or "/" in word or "*" in word or "?" in word or "[" in word:
            return False
    return True


def in_order(words: list[str], args: list[str]) -> bool:
    """True when `words` occur among `args` in this order (not necessarily adjacent): how literal
    positional words match, each to an equal argument (never an option, as no word starts with
    `-`) at or after the one before."""
    position = 0
    for word in words:
        if word not in args:
            return False  # the usual miss, without raising below
        try:
            position = args.index(word, position) + 1
        except ValueError:
            return False
    return True


#: Tests switch this off to compare the shortcut for literal positional words (`in_order`) with
#: the general matching below it.
ORDER_SHORTCUT = True


def matches(pattern: list[str], cmd: Command, *, exact: bool = False) -> bool:
    if not pattern or not cmd.argv:
        return False
    if not _word_match(pattern[0], cmd.program):
        return False
    words = pattern[1:]
    rest_any = bool(words) and words[-1] == "*"
    if rest_any:
        words = words[:-1]
    args = cmd.args
    # Cheap rejection first: a literal positional word must appear among the arguments (and
    # when all are such words, `literal_positionals`, what is left to ask is their order).
    positional_only = True
    for word in words:
        if not word or word[0] == "-" or "/" in word or "*" in word or "?" in word or "[" in word:
            positional_only = False
            if word and word[0] != "-" and "/" not in word and word not in args and not has_glob(word):
                return False
        elif word not in args:
            return False
    if positional_only and not exact and ORDER_SHORTCUT:
        return in_order(words, args)
    used = [False] * len(args)
    end_of_options = args.index("--") if "--" in args else len(args)
    needed_letters: set[str] = set()
    position = 0
    for word in words:
        if _is_short_cluster(word) and not has_glob(word):
            needed_letters.update(word[1:])
            continue
        if word.startswith("--"):
            hit = -1
            for i, arg in enumerate(args):
                if not used[i] and (_word_match(word, arg) or (arg.startswith(word + "=") and "=" not in word)):
                    hit = i
                    break
            if hit == -1:
                return False
            used[hit] = True
            continue
        # positional: next unused argument at or after `position` that matches, in order
        hit = -1
        for i in range(position, len(args)):
            if not used[i] and not (i < end_of_options and args[i].startswith("-") and args[i] != "-" and not word.startswith("-")) and _word_match(word, args[i]):
                hit = i
                break
        if hit == -1:
            return False
        used[hit] = True
        position = hit + 1
    if needed_letters:
        # Short letters present in the command's flag clusters (before a `--`).
        letters = {letter for arg in args[:end_of_options] if _is_short_cluster(arg) for letter in arg[1:]}
        if not needed_letters <= letters:
            return False
        for i in range(end_of_options):
            if _is_short_cluster(args[i]) and all(ch in needed_letters for ch in args[i][1:]):
                used[i] = True
    if exact and not rest_any:
        for i, arg in enumerate(args):
            if not used[i] and arg != "--":
                return False
    return True


def leading_positionals(pattern: list[str], cmd: Command, values: list[str] | tuple[str, ...] = ()) -> bool:
    """An anchored pattern's positional words are the command's first positional arguments, in
    order (`bun test` matches `bun test x`, not `bun bd test`); an option in `values` takes the
    next word as its value (`git -C dir push` is a push). Used after `matches`."""
    wanted: list[str] = []
    skip = False
    for word in pattern[1:]:
        if skip:
            skip = False  # the value of an option the pattern names (`pip install -e .`)
        elif word[:1] == "-":
            skip = word in values
        elif word:
            wanted.append(word)
    if wanted and wanted[-1] == "*":
        wanted.pop()
    if not wanted:
        return True
    position = 0
    skip = False
    after_dashes = False
    #: the word before is an option whose kind no table gives: it may take this word as its value
    after_option = False
    for arg in cmd.args:
        if skip:
            skip = False
            continue
        if not after_dashes and arg[:1] == "-" and arg != "-":
            if arg == "--":
                after_dashes = True
            elif arg in values:
                skip = True
            after_option = "=" not in arg and arg != "--" and not skip
            continue
        if not _word_match(wanted[position], arg):
            if after_option:
                # `pio run -e esp32 -t upload`, `helm --kube-context kind upgrade`: a word right
                # after an unknown option is read as its value, not as the command's next word
                after_option = False
                continue
            return False
        after_option = False
        position += 1
        if position == len(wanted):
            return True
    return False


def tool_matches(entry: str, tool: str, tool_class: str) -> bool:
    """A tool-list entry against a tool: exact name, a glob (`mcp__github__*`), or a class (`[web]`)."""
    if entry.startswith("[") and entry.endswith("]"):
        return entry[1:-1].lower() == tool_class
    if entry == tool or entry == "*":
        return True
    return _match_segment(entry, tool)


def path_matches(paths: Resolver, pattern: str, path: str) -> bool:
    """A policy glob against a path as written: project-relative, `~/`-relative or absolute."""
    where = paths.resolve(path)
    if where is None:
        return False
    if pattern.startswith("/"):
        return glob_match(pattern, where)
    if pattern.startswith("~/"):
        rel = paths.relative_to_home(where)
        return rel is not None and glob_match(pattern[2:], rel)
    rel = paths.relative_to_project(where)
    return rel is not None and rel != "." and glob_match(pattern, rel)
