"""The commit message or PR title a command line writes, when the line itself holds it.

`git commit -m A -m B` writes A, a blank line, then B (`--message=A`, `-mA`, and a cluster of
short options ending in m: `-am A`); `gt create -m` and `hub pull-request -m` write a message
the same way, and so do `jj describe -m`, `jj commit -m` and `jj new -m` (jj's commits).
`gh pr create --title T` (`-t`; `gh pr edit`, `glab mr create`) writes a PR title; `body` is
the text a PR, a review, an issue or a comment gets (`--body`, `-b`; glab's `--description`).

What the line does not hold cannot be judged, and `written` says so with None: a message typed
in an editor (no -m), read from a file (-F), taken from another commit (-C, -c, --fixup,
--squash, --no-edit), or a shell expansion (`"$MSG"`). A message passed as
`"$(cat <<'EOF' ... EOF)"`, the way agents write multi-line messages, is the heredoc's text.
`message_files` names the files a message comes from (`-F PATH`, `--body-file PATH`): the
message checks read them (an agent writes the file first, then commits with it).
"""

from __future__ import annotations

from cf_guidance.gates.commands.files import read_head
from cf_guidance.gates.commands.git import split as git_split
from cf_guidance.shell.model import Command

#: where the text goes: a commit message, or a PR title (its first and only line)
COMMIT = "commit"
TITLE = "title"

#: git commit options whose message comes from elsewhere than the line (an editor is one too)
_ELSEWHERE = frozenset(("-F", "--file", "-C", "--reuse-message", "-c", "--reedit-message", "--fixup", "--squash", "--no-edit",
                        "-e", "--edit", "--template", "-t"))
#: git commit options that take the next word as their value (a value is never the message)
_GIT_VALUES = frozenset(("-F", "--file", "-C", "--reuse-message", "-c", "--reedit-message", "--fixup", "--squash", "--author",
                         "--date", "--template", "-t", "--cleanup", "--trailer", "-u", "--untracked-files", "--pathspec-from-file"))


#: the commands whose line can hold the message of the commit they make (`written` reads it);
#: the compiler points a commit message's shape at these
COMMIT_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("git", "commit"), ("jj", "describe"), ("jj", "desc"), ("jj", "commit"), ("jj", "ci"), ("jj", "new"), ("gt", "create"),
    ("gt", "c"), ("gt", "modify"), ("gt", "m"))
#: the commands whose line can hold a PR's title
TITLE_COMMANDS: tuple[tuple[str, ...], ...] = (("gh", "pr", "create"), ("gh", "pr", "edit"), ("glab", "mr", "create"))


def written(cmd: Command) -> tuple[str, str] | None:
    """(COMMIT or TITLE, the text) of the message `cmd` writes, or None when the line does not hold it."""
    program, args = cmd.program, cmd.args
    if program == "git":
        sub, rest, _ = git_split(args)
        return _commit_message(rest) if sub == "commit" else None
    if (program, *args[:2]) in TITLE_COMMANDS:
        title = _values(args[2:], ("--title", "-t"))
        return (TITLE, title[0]) if len(title) == 1 and _literal(title[0]) else None
    if program == "hub" and args[:1] == ["pull-request"] or (program, *args[:1]) in COMMIT_COMMANDS:
        if program == "jj" and ("--stdin" in args or "--edit" in args):
            return None  # the text comes from elsewhere
        return _joined(_values(args[1:], ("--message", "-m")))
    return None


#: the commands whose text a `body` option holds, and its spellings
_BODIES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("gh", ("pr", "create"), ("--body", "-b")), ("gh", ("pr", "edit"), ("--body", "-b")),
    ("gh", ("pr", "comment"), ("--body", "-b")), ("gh", ("pr", "review"), ("--body", "-b")),
    ("gh", ("issue", "create"), ("--body", "-b")), ("gh", ("issue", "comment"), ("--body", "-b")),
    ("gh", ("issue", "edit"), ("--body", "-b")), ("glab", ("mr", "create"), ("--description", "-d")))
#: the commands whose line can hold such a text
BODY_COMMANDS: tuple[tuple[str, ...], ...] = tuple((program, *sub) for program, sub, _ in _BODIES)


def body(cmd: Command) -> str | None:
    """The text of the PR, review, issue or comment `cmd` writes, or None when the line does not
    hold it (no body option: an editor or `--body-file`; an expansion)."""
    for program, sub, names in _BODIES:
        if cmd.program == program and tuple(cmd.args[:len(sub)]) == sub:
            values = [_text(v) for v in _values(cmd.args[len(sub):], names)]
            return values[0] if len(values) == 1 else None
    return None


#: the largest message file read: a commit message or a PR body is far smaller
MAX_MESSAGE_FILE_BYTES = 1 << 16


def message_files(cmd: Command) -> list[str]:
    """The files `cmd` takes its message or body from, as written: `git commit -F PATH` (`--file`),
    `gh pr create --body-file PATH` (`-F` for gh: `gh pr comment`, `gh issue create`, ...). Not `-`:
    stdin is a pipe or a heredoc the line itself holds."""
    if cmd.program == "git":
        sub, rest, _ = git_split(cmd.args)
        names: tuple[str, ...] = ("-F", "--file") if sub == "commit" else ()
    elif any(cmd.program == program and tuple(cmd.args[:len(sub)]) == sub for program, sub, _ in _BODIES):
        names, rest = ("--body-file", "-F"), cmd.args
    else:
        return []
    return [v for v in _values(rest, names) if v and v != "-"]


def read_message_file(path: str) -> str | None:
    """The text of a message file (its first MAX_MESSAGE_FILE_BYTES), None when it cannot be read."""
    return read_head(path, MAX_MESSAGE_FILE_BYTES)


def _commit_message(rest: list[str]) -> tuple[str, str] | None:
    messages: list[str] = []
    i = 0
    while i < len(rest):
        arg = rest[i]
        name = arg.split("=", 1)[0]
        if arg == "--":
            break
        if name in _ELSEWHERE:
            return None
        if name == "--message":
            value = arg[len("--message="):] if "=" in arg else rest[i + 1] if i + 1 < len(rest) else ""
            messages.append(value)
            i += 1 if "=" in arg else 2
            continue
        if arg.startswith("-") and not arg.startswith("--") and "m" in arg[1:]:
            # `-m MSG`, `-mMSG`, `-am MSG`: the m takes the rest of the cluster, or the next word
            head, _, tail = arg[1:].partition("m")
            if any(f"-{c}" in _ELSEWHERE or f"-{c}" in _GIT_VALUES for c in head):
                return None  # `-Cm`, `-cm`: another option of the cluster takes a value first
            if tail:
                messages.append(tail)
                i += 1
            else:
                messages.append(rest[i + 1] if i + 1 < len(rest) else "")
                i += 2
            continue
        i += 2 if name in _GIT_VALUES and "=" not in arg else 1
    return _joined(messages)


def _values(args: list[str], names: tuple[str, ...]) -> list[str]:
    """The values of the options `names` (long ones also as `--name=value`)."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg in names and i + 1 < len(args):
            out.append(args[i + 1])
        elif arg.startswith("--") and arg.split("=", 1)[0] in names and "=" in arg:
            out.append(arg.split("=", 1)[1])
    return out


def _joined(messages: list[str]) -> tuple[str, str] | None:
    texts = [_text(m) for m in messages]
    if not texts or any(t is None for t in texts):
        return None
    return COMMIT, "\n\n".join(t for t in texts if t is not None)


def _text(value: str) -> str | None:
    """The words of one message argument, or None when the shell would change them (an expansion)."""
    heredoc = _heredoc(value)
    if heredoc is not None:
        return heredoc
    return value if _literal(value) else None


def _literal(value: str) -> bool:
    return "$" not in value and "`" not in value


def _heredoc(value: str) -> str | None:
    """`$(cat <<'EOF' ... EOF)`: the heredoc's lines (an unquoted delimiter with an expansion inside: None)."""
    if not value.startswith("$(cat <<") or not value.rstrip().endswith(")"):
        return None
    lines = value.rstrip()[:-1].split("\n")
    opener = lines[0][len("$(cat <<"):].lstrip("-").strip()
    delimiter = opener.strip("'\"")
    if not delimiter or " " in delimiter:
        return None
    body: list[str] = []
    for line in lines[1:]:
        if line.strip() == delimiter:
            text = "\n".join(body)
            quoted = opener[:1] in ("'", '"')
            return text if quoted or _literal(text) else None
        body.append(line)
    return None


#: words ending in -ed that are no past tense ("Embed the font", "Seed the database")
_NOT_PAST = frozenset(("embed", "reembed", "seed", "reseed", "feed", "speed", "need", "proceed", "exceed", "succeed",
                       "breed", "bleed", "heed", "weed", "shred", "shed"))
#: past tenses that do not end in -ed
_PAST_IRREGULAR = frozenset(("made", "wrote", "rewrote", "built", "rebuilt", "ran", "reran", "broke", "took", "brought",
                             "kept", "left", "found", "began", "threw", "drew", "went", "did", "redid", "undid", "chose"))


def past_tense_subject(subject: str) -> bool:
    """The subject's first word after its prefix (`fix(api): `, `[ios] `, `net: `) is a verb in
    the past tense: "Added", "fixed", "Rewrote" (what an imperative-mood rule warns of)."""
    rest = subject.strip()
    if rest.startswith("["):
        rest = rest.partition("]")[2]
    head, colon, tail = rest.partition(":")
    if colon and " " not in head.strip():
        rest = tail
    words = rest.split()
    word = words[0].strip("\"'`*").lower() if words else ""
    if not word.isalpha():
        return False
    return word in _PAST_IRREGULAR or word.endswith("ed") and len(word) > 4 and word not in _NOT_PAST


def references_issue(text: str) -> bool:
    """The text names an issue: `Fixes #123`, `PROJ-42` (two digits or more: `UTF-8` is none),
    `https://github.com/o/r/issues/7` (no regular expressions: this runs on the hook's hot path)."""
    words = text.replace("(", " ").replace("[", " ").split()
    for word in words:
        if word[:1] == "#" and word[1:2].isdigit():
            return True
        key, dash, number = word.partition("-")
        digits = "".join(ch for ch in number if ch.isdigit())
        if dash and key[:1].isupper() and key.isalnum() and key.isupper() and len(digits) >= 2 and number.startswith(digits):
            return True
        for marker in ("/issues/", "/pull/"):
            at = word.find(marker)
            if at >= 0 and word[at + len(marker):at + len(marker) + 1].isdigit():
                return True
    return False
