"""Compiled CLAUDE.md rules: command, write, read, create, tool, message, arguments, branch,
target, stage and variable checks (sequence checks belong to the sequence gate).

Findings carry the shard id as `rule` and the check's reason as message (what is banned and
what to do instead, with its file:line), so the agent is told which line of CLAUDE.md it ran
into. Command-like checks (command, message, arguments) match each of their patterns
(`pattern` and `also`: equivalent commands, a category's members, message carriers); with
`anchor` their positional words must be the command's leading ones (`bun test` is not `bun bd
test`), options listed in `values` taking the next word. A command in `except` (leading
NAME=value words are required assignments) is exempt, and so is one run under a wrapper or launcher in
`via` (`uv run pytest`, `docker compose exec app npm test`, when the document runs the program that way); a check marked `away` holds only for a
command run below the project root (after a `cd` into a subdirectory), one marked `changes` only for a command the
effect model counts as a change (`aws s3 rm`, not `aws s3 ls`). A script run through an interpreter
or `source` (`python scripts/x.py`, `bash scripts/release`, `bun run x.ts`) is also matched as the
script itself. A command check
marked `published` (a rewrite of pushed commits: amend, rebase) holds only after a successful
`git push` of the session with no commit since (the session history); before that it warns.

The checks are indexed once per bundle (command checks by program name, path checks by
their first literal path segment or file suffix), so an event only meets the rules that
could apply to it. Checks of a subdirectory's CLAUDE.md (`scope`) are indexed per directory
and met only by an event that works there (cf_guidance.gates.scope).
"""

from __future__ import annotations

import os

from cf_guidance._glob import _match_segment, glob_match
from cf_guidance.decision import DENY, SEVERITY, WARN, Finding
from cf_guidance.event import READ, WRITE
from cf_guidance.gates._base import Rule
from cf_guidance.gates.commands import SHELLS, describe, gitwork, resolver, resolver_at, runs_script
from cf_guidance.gates.commands.effects import changes_something
from cf_guidance.gates.commands.files import fed_effects, file_effects, redirect_effects
from cf_guidance.gates.commands.git import current_branch, split as git_split
from cf_guidance.gates.commands.message import (COMMIT, body, message_files, past_tense_subject, read_message_file,
                                                 references_issue, written)
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.patterns import leading_positionals, matches, required_words, same_path, tool_matches
from cf_guidance.gates.reasons import doc
from cf_guidance.gates.scope import touches
from cf_guidance.paths import TEMP, TEMP_ROOT
from cf_guidance.shell.model import Command, program_name
from cf_guidance.shell.unwrap import RUNNER_SUBCOMMANDS, assignment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.summary import Summary
    from cf_guidance.paths import Resolver

GATE = "policy"

RULES = (
    Rule("POL", "compiled-claude-md-rule", DENY, "A rule compiled from CLAUDE.md (the finding's code is the rule id)",
         doc("Enforces the checks compiled from CLAUDE.md and CLAUDE.local.md: `command` patterns (and their equivalents) "
             "against every command the shell analysis found (nested ones included, never raw text); `write`/`read` globs "
             "against file-tool paths and the files shell commands write or read; `create` globs against new files; "
             "`message` phrases in commit messages and PR texts; `arguments` a command must carry; `branch` names new "
             "branches must match; `target` branches not to push, commit or merge to; `stage` globs of files not to commit; "
             "`variable` names not to print; and `tool` names. The verdict (deny, ask, warn) is the rule's; the finding's "
             "code is the rule id (`R010`, `S-…`) and its message the check's reason with its file:line.",
             "The project wrote the rule down; the agent should not need to remember it.",
             "# CLAUDE.md: - Never run `git push --force`\ngit push --force origin main",
             "git push --force-with-lease origin main")),
)

_GLOB_CHARS = ("*", "?", "[")


class _PathCheck:
    """A write/read glob, pre-split so most paths are rejected without running the matcher."""

    __slots__ = ("item", "pattern", "scope", "first", "suffix", "only")

    def __init__(self, item: dict[str, Any], pattern: str) -> None:
        self.item = item
        self.pattern = pattern
        #: the paths a rule confines changes to ("only edit files in `src/`"): the check spares them
        self.only: tuple[str, ...] = tuple(item.get("only") or ())
        #: which form of a path the glob is matched against
        self.scope = "abs" if pattern.startswith("/") else "home" if pattern.startswith("~/") else "project"
        body = pattern[2:] if self.scope == "home" else pattern.lstrip("/")
        while body.startswith("./"):
            body = body[2:]
        anchored = "/" in body.rstrip("/").removesuffix("/**") or self.scope == "abs"
        first = body.split("/", 1)[0]
        #: the first path segment when the glob is anchored and that segment is literal
        self.first = first if anchored and first and not any(c in first for c in _GLOB_CHARS) else ""
        last = body.rstrip("/").rsplit("/", 1)[-1]
        #: a literal ending every matching basename (`*.pem` -> `.pem`) when the glob is a basename glob
        self.suffix = last[1:] if not anchored and last.startswith("*") and not any(c in last[1:] for c in _GLOB_CHARS) else ""

    def could_match(self, rel: str) -> bool:
        if self.first:
            return rel == self.first or rel.startswith(self.first + "/")
        if self.suffix:
            return self.suffix in rel  # a basename glob also matches below a directory of that name
        return True


class _PathChecks:
    """Path checks of one kind, by the first literal segment they require ("" = any)."""

    __slots__ = ("by_first", "anywhere", "outside")

    def __init__(self) -> None:
        self.by_first: dict[str, list[_PathCheck]] = {}
        self.anywhere: list[_PathCheck] = []
        #: a check is about paths outside the project (`../**`)
        self.outside = False

    def add(self, check: _PathCheck) -> None:
        self.outside = self.outside or check.pattern.startswith(OUTSIDE_PREFIX)
        if check.first:
            self.by_first.setdefault(check.first, []).append(check)
        else:
            self.anywhere.append(check)

    def __bool__(self) -> bool:
        return bool(self.by_first or self.anywhere)

    def candidates(self, rel: str) -> list[_PathCheck]:
        first = rel.split("/", 1)[0]
        found = self.by_first.get(first)
        return found + self.anywhere if found else self.anywhere


#: an indexed command check: the check, one of its patterns, that pattern's required words
Entry = "tuple[dict[str, Any], list[str], frozenset[str]]"


class _CommandChecks:
    """One program's command checks, each filed under its rarest required word (or none), so a
    command meets only the checks whose words it could contain; bundle order is kept."""

    __slots__ = ("unkeyed", "by_word", "words")

    def __init__(self, entries: list[tuple[dict[str, Any], list[str], frozenset[str]]]) -> None:
        counts: dict[str, int] = {}
        for _, _, required in entries:
            for word in required:
                counts[word] = counts.get(word, 0) + 1
        self.unkeyed: list[tuple[int, dict[str, Any], list[str], frozenset[str]]] = []
        self.by_word: dict[str, list[tuple[int, dict[str, Any], list[str], frozenset[str]]]] = {}
        for position, (item, pattern, required) in enumerate(entries):
            if required:
                key = min(required, key=lambda word: (counts[word], word))
                self.by_word.setdefault(key, []).append((position, item, pattern, required))
            else:
                self.unkeyed.append((position, item, pattern, required))
        #: every filing word: a command with none of them (and no unkeyed check) meets no check
        self.words = frozenset(self.by_word)

    def candidates(self, words: list[str]) -> list[tuple[int, dict[str, Any], list[str], frozenset[str]]]:
        """The checks whose filing word is among `words` (a necessary condition), in bundle order
        (a word given twice may list its checks twice: the caller reports each check once)."""
        found = list(self.unkeyed)
        by_word = self.by_word
        for word in words:
            hit = by_word.get(word)
            if hit is not None:
                found.extend(hit)
        if len(found) > 1:
            found.sort(key=_position)
        return found


def _position(entry: tuple[int, dict[str, Any], list[str], frozenset[str]]) -> int:
    return entry[0]


#: kinds matched like commands (each of their patterns against each command)
_COMMAND_KINDS = ("command", "message", "arguments", "shape")
#: kinds that look at git commands only
_GIT_KINDS = ("branch", "target", "stage")


class _Index:
    __slots__ = ("by_program", "programs", "glob_programs", "tools", "writes", "reads", "creates", "has_writes", "has_reads",
                 "paths", "git", "variables", "scoped")

    def __init__(self, checks: list[Any], *, split: bool = True) -> None:
        programs: dict[str, list[tuple[dict[str, Any], list[str], frozenset[str]]]] = {}
        self.glob_programs: list[tuple[dict[str, Any], list[str], frozenset[str]]] = []
        self.tools: list[dict[str, Any]] = []
        self.writes = _PathChecks()
        self.reads = _PathChecks()
        self.creates = _PathChecks()
        #: branch, target and stage checks (git commands)
        self.git: list[dict[str, Any]] = []
        self.variables: list[dict[str, Any]] = []
        by_scope: dict[str, list[dict[str, Any]]] = {}
        for item in checks:
            if not isinstance(item, dict):
                continue
            scope = item.get("scope") if split else None
            if scope and isinstance(scope, str):
                by_scope.setdefault(scope, []).append(item)
                continue
            kind = item.get("kind")
            pattern = item.get("pattern")
            if kind in _COMMAND_KINDS and isinstance(pattern, list) and pattern and isinstance(pattern[0], str):
                variants = [pattern] + [p for p in item.get("also") or () if isinstance(p, list) and p and isinstance(p[0], str)]
                for variant in variants:
                    head = variant[0]
                    entry = (item, variant, required_words(variant))
                    if any(c in head for c in _GLOB_CHARS):
                        self.glob_programs.append(entry)
                    else:
                        programs.setdefault(head, []).append(entry)
            elif kind == "tool" and isinstance(pattern, str):
                self.tools.append(item)
            elif kind in ("write", "read", "create") and isinstance(pattern, str) and pattern:
                {"write": self.writes, "read": self.reads, "create": self.creates}[kind].add(_PathCheck(item, pattern))
            elif kind in _GIT_KINDS and (isinstance(pattern, str) and pattern or isinstance(pattern, list) and pattern):
                self.git.append(item)
            elif kind == "variable" and isinstance(pattern, list):
                self.variables.append(item)
        self.by_program = {program: _CommandChecks(entries) for program, entries in programs.items()}
        #: the programs some command check names literally (git, when a git-only check exists)
        self.programs = frozenset(self.by_program) | (frozenset(("git",)) if self.git else frozenset())
        #: some write / read / write or read check exists
        self.has_writes = bool(self.writes)
        self.has_reads = bool(self.reads)
        self.paths = self.has_writes or self.has_reads or bool(self.creates)
        #: the checks of each subdirectory's files, met only by events working there
        self.scoped = {scope: _Index(items, split=False) for scope, items in by_scope.items()}


_indexes: list[tuple[dict[str, Any], _Index]] = []


def index_of(bundle: dict[str, Any]) -> _Index:
    """The check index of `bundle`, built on first use (bundles are not mutated after compiling)."""
    for known, index in _indexes:
        if known is bundle:
            return index
    index = _Index(bundle.get("checks") or [])
    _indexes.insert(0, (bundle, index))
    del _indexes[4:]
    return index


#: Tests switch this off to prove the skips (no program with checks, no filing word, no file
#: effect in the summary) leave out only commands without findings.
PREFILTER = True


def check(ctx: GateContext) -> list[Finding]:
    if not ctx.bundle.get("checks"):
        return []
    index = index_of(ctx.bundle)
    found = summary(ctx) if ctx.event.command is not None else None
    out: list[Finding] = []
    _check(ctx, index, found, out)
    for scope, scoped in index.scoped.items():
        if touches(ctx, scope):
            _check(ctx, scoped, found, out)
    return out


def _check(ctx: GateContext, index: _Index, found: Summary | None, out: list[Finding]) -> None:
    event = ctx.event
    globs = index.glob_programs
    if found is not None and (globs or not PREFILTER or not found.programs.isdisjoint(index.programs)
                              or not found.wrappers.isdisjoint(index.programs)
                              or (index.by_program and any(runs_script(p) or p[-1:].isdigit() for p in found.programs))):
        _commands(ctx, index, found.analysis.commands, out)
    if event.tool:
        for item in index.tools:
            if tool_matches(item["pattern"], event.tool, event.tool_class):
                out.append(_finding(item, event.tool))
    if index.paths and (event.paths or not PREFILTER or (found is not None and (found.files or (index.creates and found.redirects)
                                                                                 or "xargs" in found.programs))):
        _paths(ctx, index, found, out)
    if found is not None and index.git and "git" in found.programs:
        _git(ctx, index, found.analysis.commands, out)
    command = event.command
    if index.variables and command and ("$" in command or "printenv" in command):
        _variables(index, command, out)


def _commands(ctx: GateContext, index: _Index, commands: list[Command], out: list[Finding]) -> None:
    """Command checks: each command meets only the checks of its program (and glob programs)."""
    fired: set[int] = set()
    globs = index.glob_programs
    exported: list[tuple[str, str]] = []
    for cmd in commands:
        if cmd.program == "export":
            # `export HUSKY=0 && git commit`: what the line exports, later commands carry
            exported += [pair for pair in map(assignment, cmd.args) if pair is not None]
        _command_checks(ctx, index, cmd, cmd, globs, fired, out, exported)
        unversioned = cmd.program.rstrip("0123456789.")
        if unversioned != cmd.program and unversioned and cmd.program not in index.by_program and unversioned in index.by_program:
            # `pip3.11 install x`, `python3.12 -m pip`: a versioned copy of the program the check names
            same = Command([unversioned, *cmd.args], text=cmd.text, origin=cmd.origin, assignments=cmd.assignments,
                           wrappers=cmd.wrappers)
            _command_checks(ctx, index, same, cmd, (), fired, out, exported)
        for wrapper in cmd.wrappers:
            if wrapper in index.by_program:
                # "Never use `npx`" / "never use `sudo`": the wrapper is what the rule names, not what it runs
                run = RUNNER_SUBCOMMANDS.get(wrapper, ())[:1]
                # the wrapper as written: `bin/bundle exec rspec` runs the project's launcher, which a
                # rule preferring it over the bare `bundle` spares
                launcher = next((w for w in cmd.text.split() if "/" in w and program_name(w) == wrapper), wrapper)
                _command_checks(ctx, index, Command([launcher, *run, *cmd.argv], text=cmd.text, origin=cmd.origin), cmd, (), fired, out)
        if runs_script(cmd.program):
            script = script_of(cmd)
            if script is not None and script.program in index.by_program:
                _command_checks(ctx, index, script, cmd, (), fired, out)


#: interpreter options that take the next word as their value, which is not the script
#: (`node --loader ts-node/esm x.ts`, `python -W ignore x.py`, `bash -o pipefail x.sh`)
_INTERPRETER_VALUES = frozenset(("-W", "-X", "-o", "-O", "--rcfile", "--init-file", "-r", "--require", "--import", "--loader",
                                 "--experimental-loader", "-I", "-M", "--config", "--import-map", "--env-file", "--tsconfig"))
#: options after which an interpreter runs code given inline or a module, not a file (a
#: shell's only one is `-c`: its `-e` is errexit)
_INLINE = frozenset(("-c", "-e", "-m", "--eval", "-p", "--print", "-E"))
_SHELL_INLINE = frozenset(("-c",))
#: the subcommand some runtimes put before the script (`bun run x.ts`, `deno run -A x.ts`)
_RUN_SUBCOMMANDS = {"bun": "run", "deno": "run"}


def script_of(cmd: Command) -> Command | None:
    """`python scripts/x.py -v` as `x.py -v`: the script an interpreter, a shell or `source` runs,
    when its word names a file (a `/` in it, or an extension: `bash tools/build`, `bun run gen.ts`,
    `. ./env.sh`); a bare word (`bash build`) may be anything and is left alone."""
    args = cmd.args
    start = 1 if args and args[0] == _RUN_SUBCOMMANDS.get(cmd.program) else 0
    inline = _SHELL_INLINE if cmd.program in SHELLS else _INLINE
    skip = False
    for i in range(start, len(args)):
        arg = args[i]
        if skip:
            skip = False
            continue
        if arg.startswith("-") and arg != "-":
            if arg in inline:
                return None
            skip = arg in _INTERPRETER_VALUES
            continue
        if "/" in arg or "." in arg.rsplit("/", 1)[-1]:
            # where and under what the interpreter runs is where the script runs (`docker compose exec web
            # python manage.py`: in the container; `uv run python x.py`: under uv)
            return Command([arg, *args[i + 1 :]], text=cmd.text, origin=cmd.origin, wrappers=cmd.wrappers,
                           assignments=cmd.assignments)
        return None
    return None


def _command_checks(ctx: GateContext, index: _Index, cmd: Command, shown: Command, globs: Any, fired: set[int], out: list[Finding],
                    exported: list[tuple[str, str]] | None = None) -> None:
    checks = index.by_program.get(cmd.program)
    argv = cmd.argv
    if checks is not None and (checks.unkeyed or not PREFILTER or not checks.words.isdisjoint(argv)):
        entries = [(item, pattern, required) for _, item, pattern, required in checks.candidates(argv)]
    elif globs:
        entries = []
    else:
        return  # most commands: no check of their program could match
    if globs:
        entries.extend(globs)
    if not entries:
        return
    words = set(cmd.args)
    for item, pattern, required in entries:
        if required and not required <= words:
            continue
        if id(item) in fired or not matches(pattern, cmd):
            continue
        if item.get("anchor") and not leading_positionals(pattern, cmd, item.get("values") or ()):
            continue
        if item.get("except") and any(_exempt(e, cmd) for e in item["except"] if isinstance(e, list)):
            continue
        if item.get("via") and any(w in item["via"] for w in _run_under(cmd)):
            continue  # the document runs the program this way (`uv run pytest`, `docker compose exec app npm test`)
        kind = item.get("kind")
        if item.get("wrapped") == "timeout" and not ("timeout" in cmd.wrappers or _tool_timeout(ctx)):
            continue
        if item.get("away") and not _below_root(ctx, cmd):
            continue  # "run make from the repository root": it runs there
        if item.get("changes") and not changes_something(cmd, ctx.shell):
            continue  # "never run `aws` commands that modify state": this one reads
        if kind == "message" and not _says(ctx, item, cmd):
            continue
        if kind == "arguments" and not _lacks(item, cmd):
            continue
        fault = _misshapen(item, cmd) if kind == "shape" else ""
        if kind == "shape" and not fault:
            continue
        if item.get("assigned") and not _carries(item["assigned"], [*cmd.assignments, *(exported or ())]):
            continue  # before `fired`: a later command of the line may carry it (`git commit && HUSKY=0 git commit`)
        fired.add(id(item))
        if item.get("published") and not _pushed_since_commit(ctx):
            # "never amend pushed commits": this session has not pushed what the command rewrites;
            # commits pushed before it no call shows, so the rule is a reminder (warn)
            out.append(_finding(dict(item, verdict=WARN, message=f"{item.get('message') or ''} (no push of this session "
                                                                 "since the last commit: if these commits were pushed "
                                                                 "before, do not rewrite them)"), describe(shown)))
            continue
        out.append(_finding(item, describe(shown), evidence=fault))


def _run_under(cmd: Command) -> list[str]:
    """The runners a command runs under: its wrappers (`uv run`, `bundle exec`) and the program
    of the launcher that started it (`docker` for `docker compose exec app npm test`)."""
    if not cmd.origin:
        return cmd.wrappers
    launcher = cmd.origin.rsplit(">", 1)[-1].split(" ", 1)[0]
    return [*cmd.wrappers, launcher]


def _pushed_since_commit(ctx: GateContext) -> bool:
    """A successful `git push` in this session's history with no `git commit` after it: the
    commits a rewrite (amend, rebase) would change are on the remote."""
    for cmd in _past_git(ctx):
        sub = git_split(cmd.args)[0]
        if sub == "commit":
            return False
        if sub == "push" and "--dry-run" not in cmd.args and "-n" not in cmd.args:
            return True
    return False


def _past_git(ctx: GateContext) -> Iterator[Command]:
    """The git commands of the session's successful history, the latest first."""
    history = ctx.extra("history")
    if not isinstance(history, list):
        return
    for entry in reversed(history):
        command = entry.get("command") if isinstance(entry, dict) else None
        if not isinstance(command, str) or entry.get("ok") is not True or "git" not in command:
            continue
        for cmd in reversed(ctx.past_command(command).commands):
            if cmd.program == "git":
                yield cmd


def _carries(assigned: list[str], environment: list[tuple[str, str]]) -> bool:
    """The command's environment sets one of the NAME=value words (`HUSKY=0 git commit`; `SKIP=*`: any value)."""
    for word in assigned:
        name, _, value = word.partition("=")
        if any(n == name and (value == "*" or v == value) for n, v in environment):
            return True
    return False


def _exempt(words: list[str], cmd: Command) -> bool:
    """`except` entry: NAME=value words first (the command must carry those assignments), then a pattern."""
    assignments = []
    for word in words:
        if "=" in word and word.split("=", 1)[0].isupper():
            assignments.append(tuple(word.split("=", 1)))
        else:
            break
    pattern = words[len(assignments):]
    if not pattern:
        return False
    if "/" in pattern[0]:
        # the project's launcher (`bin/rails *`): the command runs the program by that path
        if not same_path(pattern[0], cmd.argv[0]):
            return False
        pattern = [program_name(pattern[0]), *pattern[1:]]
    if assignments and not all(pair in cmd.assignments for pair in assignments):
        return False
    return matches(pattern, cmd, exact=not assignments and "*" not in pattern)


def _below_root(ctx: GateContext, cmd: Command) -> bool:
    """Whether `cmd` runs in a subdirectory of the project (the call's cwd, or after a `cd`)."""
    where = resolver_at(ctx, cmd).cwd
    return resolver(ctx).relatives(where)[0] not in (".", None)


def _tool_timeout(ctx: GateContext) -> bool:
    value = ctx.event.tool_input.get("timeout") if isinstance(ctx.event.tool_input, dict) else None
    return value is not None and value is not False


def _normal(text: str) -> str:
    """Message text for phrase matching: lowercase, markdown marks and brackets as spaces, and the
    escapes `printf`, `echo -e` and `$'...'` turn into line breaks and tabs (`\\n\\nCo-Authored-By`)."""
    for escape in ("\\n", "\\t", "\\r"):
        text = text.replace(escape, " ")
    for ch in "[](){}*_`#>|\"\n\t\\":
        text = text.replace(ch, " ")
    return " ".join(text.lower().split())


def _says(ctx: GateContext, item: dict[str, Any], cmd: Command) -> bool:
    """A message check: the command line (its -m texts, --body, heredocs, a `printf` piped to
    `-F -`) or the message file it names (`-F PATH`, `--body-file PATH`) holds one of the phrases
    (with `absent`: holds none of them, a required text missing)."""
    files = [read_message_file(where) for path in message_files(cmd) if (where := resolver_at(ctx, cmd).resolve(path))]
    text = _normal("\n".join([ctx.event.command or "", *(f for f in files if f)]))
    said = any(isinstance(p, str) and _mentions(text, _normal(p)) for p in item.get("phrases") or ())
    return not said if item.get("absent") else said


def _mentions(text: str, phrase: str) -> bool:
    """`phrase` stands in `text` as words of their own: "claude" is in "written by claude" and
    "claude's", not in "claude.md" or "docs/claude" (a file named after it) nor in "claudette"."""
    if not phrase:
        return False
    start = text.find(phrase)
    while start >= 0:
        end = start + len(phrase)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        joined_before = phrase[0].isalnum() and (before.isalnum() or before in "/._")
        joined_after = phrase[-1].isalnum() and (after.isalnum() or after in "/_"
                                                 or (after == "." and text[end + 1:end + 2].isalnum()))
        if not joined_before and not joined_after:
            return True
        start = text.find(phrase, start + 1)
    return False


#: subjects git or a tool writes, which no message convention asks to change
_GENERATED_SUBJECTS = ("merge ", "revert ", "fixup! ", "squash! ", "amend! ", "initial commit")


def _misshapen(item: dict[str, Any], cmd: Command) -> str:
    """A shape check: what of the message the command writes breaks the form ("" when it keeps
    it, or when the line does not hold the message: an editor, a file, an expansion)."""
    found = written(cmd)
    form = item.get("form")
    if form in ("emoji", "dash"):
        # "no emoji in commits or PR descriptions": the title and the body a line writes, each when it holds it
        texts = [t for t in (found[1] if found else None, body(cmd) if item.get("part") == "body" else None) if t is not None]
        chars = [c for c in item.get("starts") or () if isinstance(c, str)]
        return next((ch for t in texts for ch in t if (ch in chars if form == "dash" else _is_emoji(ch))), "")
    if form == "reference":
        # a PR's body that the line does not hold (an editor, a file, `--fill`) is not judged
        if found is not None and found[0] == COMMIT:
            text = found[1]
        else:
            described = body(cmd)
            if described is None:
                return ""
            text = f"{found[1] if found else ''}\n{described}"
        return "" if references_issue(text) else text.strip().split("\n", 1)[0] or "no issue reference"
    if found is None:
        return ""
    text = found[1]
    subject = text.strip().split("\n", 1)[0].strip()
    if form == "starts":
        starts = [s for s in item.get("starts") or () if isinstance(s, str)]
        if not subject or not starts or subject.lower().startswith(_GENERATED_SUBJECTS):
            return ""
        return "" if any(_begins(s, subject) for s in starts) else subject
    if form == "length":
        limit = item.get("max")
        return f"{len(subject)} characters: {subject}" if isinstance(limit, int) and len(subject) > limit else ""
    if form == "period":
        return subject if subject.endswith(".") else ""
    if form == "unstarts":
        low = subject.lower()
        return subject if any(low.startswith(s.lower()) and not low[len(s):len(s) + 1].isalnum()
                              for s in item.get("starts") or () if isinstance(s, str) and s) else ""
    if form == "mood":
        return subject if not subject.lower().startswith(_GENERATED_SUBJECTS) and past_tense_subject(subject) else ""
    return ""


def _begins(form: str, text: str) -> bool:
    """`text` begins with `form`, case aside: `*` stands for one or more characters up to a space
    or the form's next character (`*(*): ` is `fix(api): `, `[*] ` is `[ios] `)."""
    i = 0
    for k, ch in enumerate(form):
        if ch == "*":
            stop = form[k + 1] if k + 1 < len(form) else ""
            j = i
            while j < len(text) and not text[j].isspace() and text[j] != stop:
                j += 1
            if j == i:
                return False
            i = j
        elif i < len(text) and text[i].lower() == ch.lower():
            i += 1
        else:
            return False
    return True


def _is_emoji(ch: str) -> bool:
    """A pictograph: the emoji blocks, the symbols and dingbats emoji are drawn from, and the
    variation selector that makes a symbol one (arrows and box drawing are not)."""
    code = ord(ch)
    return 0x1F000 <= code <= 0x1FAFF or 0x2600 <= code <= 0x27BF or 0x2B00 <= code <= 0x2BFF or code == 0xFE0F


def _lacks(item: dict[str, Any], cmd: Command) -> bool:
    """An arguments check: some required option (any of its spellings) is missing."""
    argv = cmd.argv
    for spellings in item.get("requires") or ():
        if not isinstance(spellings, list):
            continue
        if not any(_has_option(word, argv) for word in spellings if isinstance(word, str)):
            return True
    return False


def _has_option(word: str, argv: list[str]) -> bool:
    if word in argv:
        return True
    if len(word) == 2 and word[0] == "-" and word[1] != "-":
        return any(a[:1] == "-" and a[1:2] != "-" and word[1] in a[1:] for a in argv)
    return any(a.startswith(word + "=") for a in argv)


# --- git: branch names, target branches, staged paths ------------------------------------------

#: `git branch` options that do not create a branch
_BRANCH_NOT_CREATE = frozenset(("-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "--list", "-l", "-a", "-r",
                                "--all", "--remotes", "-v", "-vv", "--verbose", "--show-current", "--set-upstream-to", "-u",
                                "--unset-upstream", "--contains", "--no-contains", "--merged", "--no-merged", "--edit-description",
                                "--format", "--sort", "--points-at"))


def created_branch(args: list[str]) -> str:
    """The branch `git ARGS` creates ("" if none): checkout -b, switch -c, branch NAME, worktree add -b."""
    sub, rest, _ = git_split(args)
    options = {"checkout": ("-b", "-B", "--orphan"), "switch": ("-c", "-C", "--create", "--force-create", "--orphan")}.get(sub)
    if options is not None:
        for i, arg in enumerate(rest):
            name, eq, value = arg.partition("=")
            if name in options:
                return value if eq else (rest[i + 1] if i + 1 < len(rest) else "")
        return ""
    if sub == "branch":
        if any(a.split("=", 1)[0] in _BRANCH_NOT_CREATE for a in rest):
            return ""
        positionals = [a for a in rest if not a.startswith("-")]
        return positionals[0] if positionals else ""
    if sub == "worktree" and rest[:1] == ["add"]:
        for i, arg in enumerate(rest):
            if arg in ("-b", "-B") and i + 1 < len(rest):
                return rest[i + 1]
    return ""


def pushed_branches(args: list[str], *, from_another: bool = False) -> list[str]:
    """The remote branches `git push ARGS` updates by name (refspecs after the remote);
    `from_another`: only those it sets from a different branch (`HEAD:main`, `feat:main`), a
    merge into them by push (`git push origin main` sends the local main, merged or not)."""
    sub, rest, _ = git_split(args)
    if sub != "push":
        return []
    positionals = _positionals(rest, _PUSH_VALUES)
    out = []
    for ref in positionals[1:]:
        ref = ref.lstrip("+")
        src, dst = ref.split(":", 1) if ":" in ref else (ref, ref)
        if dst.startswith("refs/heads/"):
            dst = dst[len("refs/heads/"):]
        if from_another and src.removeprefix("refs/heads/") in ("", dst):
            continue
        if dst:
            out.append(dst)
    return out


#: `git push` options that take the next word as their value (not a remote or a refspec)
_PUSH_VALUES = frozenset(("-o", "--push-option", "--repo", "--receive-pack", "--exec"))
#: `git merge` options that take the next word as their value (not a branch to merge)
_MERGE_VALUES = frozenset(("-m", "--message", "-F", "--file", "-s", "--strategy", "-X", "--strategy-option", "--into-name",
                           "--cleanup", "-S", "--gpg-sign"))


def merged_sources(args: list[str]) -> list[str]:
    """The branches `git ARGS` merges into the branch checked out: `git merge A B` (A, B), `git pull
    REMOTE BRANCH` (REMOTE/BRANCH; a bare pull's upstream is not named, so none)."""
    sub, rest, _ = git_split(args)
    if sub not in ("merge", "pull"):
        return []
    positionals = _positionals(rest, _MERGE_VALUES)
    if sub == "merge":
        return positionals
    return [f"{positionals[0]}/{ref.split(':', 1)[0]}" for ref in positionals[1:]] if len(positionals) > 1 else []


def _positionals(rest: list[str], takes_value: frozenset[str]) -> list[str]:
    """The words of a git subcommand's arguments that are no option nor an option's value."""
    positionals: list[str] = []
    skip = False
    for arg in rest:
        if skip:
            skip = False
        elif arg in takes_value:
            skip = True
        elif not arg.startswith("-"):
            positionals.append(arg)
    return positionals


def _git(ctx: GateContext, index: _Index, commands: list[Command], out: list[Finding]) -> None:
    """Branch, target and stage checks, on the git commands of the line."""
    fired: set[int] = set()
    on_branch = ""
    #: the branch checked out where the command runs, read once per command (None: not read yet)
    current: tuple[Command | None, str] = (None, "")
    for cmd in commands:
        if cmd.program != "git":
            continue
        args = cmd.args
        sub = git_split(args)[0]
        if sub in ("checkout", "switch"):
            made = created_branch(args)
            positionals = [a for a in git_split(args)[1] if not a.startswith("-")]
            # `git checkout -b feat && git commit`: the commit lands on the new branch
            on_branch = made or (positionals[0] if len(positionals) == 1 else on_branch)
        for item in index.git:
            if id(item) in fired:
                continue
            kind = item["kind"]
            glob = item["pattern"]
            hit = False
            if kind == "branch" and isinstance(glob, (str, list)):
                name = created_branch(args)
                forms = [glob] if isinstance(glob, str) else [g for g in glob if isinstance(g, str)]
                hit = bool(name) and bool(forms) and not any(_match_segment(form, name) for form in forms)
            elif kind == "target" and isinstance(glob, str) and item.get("merged"):
                # "never merge `upstream/main` into main": a merge (or pull) of those branches while
                # the target is the branch checked out (on the line, else in the working tree)
                merged = [m for m in item["merged"] if isinstance(m, str)]
                sources = merged_sources(args)
                if sources and any(_match_segment(m, s) for m in merged for s in sources):
                    into = on_branch
                    if not into:
                        current = _checked_out(ctx, cmd, current)
                        into = current[1]
                    hit = bool(into) and _match_segment(glob, into)
            elif kind == "target" and isinstance(glob, str):
                action = item.get("action")
                # committing to main, or merging into it, reaches it by a push too (`git push origin HEAD:main`)
                if sub == "push" and action in ("push", "commit", "merge"):
                    refs = pushed_branches(args, from_another=action == "merge")
                    hit = any(_lands(item, glob, ref) for ref in refs if ref != "HEAD")
                    if not hit and action != "merge" and _pushes_current(args, refs) and on_branch:
                        # `git checkout main && git push`: the agent moved onto the branch on this line
                        hit = _lands(item, glob, on_branch)
                    elif not hit and action != "merge" and _pushes_current(args, refs):
                        current = _checked_out(ctx, cmd, current)
                        if current[1] and _lands(item, glob, current[1]):
                            fired.add(id(item))
                            out.append(_on_branch(ctx, item, describe(cmd), current[1], "push"))
                            continue
                elif sub == action and action in ("commit", "merge") and on_branch:
                    hit = _lands(item, glob, on_branch)
                elif sub == "commit" and action == "commit":
                    current = _checked_out(ctx, cmd, current)
                    if current[1] and _lands(item, glob, current[1]):
                        fired.add(id(item))
                        out.append(_on_branch(ctx, item, describe(cmd), current[1], "commit"))
                        continue
            elif kind == "stage" and sub in ("add", "commit"):
                globs = glob if isinstance(glob, list) else [glob]
                hit = _stages(ctx, cmd, sub, git_split(args)[1], [g for g in globs if isinstance(g, str)])
            if hit:
                fired.add(id(item))
                out.append(_finding(item, describe(cmd)))


def _lands(item: dict[str, Any], glob: str, branch: str) -> bool:
    """A target check holds for `branch`: it matches the check's pattern, or, for a check that
    lists the only branches allowed ("only push to `claude/*`"), it matches none of them."""
    allowed = [b for b in item.get("only") or () if isinstance(b, str)]
    if allowed:
        return not any(_match_segment(b, branch) for b in allowed)
    return _match_segment(glob, branch)


#: `git push` options after which no branch of the working tree is pushed by default
_PUSH_NOT_CURRENT = frozenset(("--tags", "--delete", "-d", "--all", "--branches", "--mirror", "--prune"))


def _pushes_current(args: list[str], refs: list[str]) -> bool:
    """`git push`, `git push origin`, `git push -u origin HEAD`: the push updates the branch
    checked out (git's default), not a branch the line names."""
    if refs and refs != ["HEAD"]:
        return False
    return not any(a.split("=", 1)[0] in _PUSH_NOT_CURRENT for a in git_split(args)[1])


def _checked_out(ctx: GateContext, cmd: Command, known: tuple[Command | None, str]) -> tuple[Command | None, str]:
    """(cmd, the branch checked out where `cmd` runs): its directory after the line's `cd`s and
    `git -C`; "" with `--git-dir` / `--work-tree` (another repository than the one found)."""
    if known[0] is cmd:
        return known
    _, _, globals_ = git_split(cmd.args)
    if globals_.keys() & {"--git-dir", "--work-tree"}:
        return cmd, ""
    where = resolver_at(ctx, cmd).cwd
    for folder in globals_.get("-C", []):
        where = os.path.join(where, os.path.expanduser(folder)) if folder else where
    return cmd, current_branch(where)


def _session_switched_to(ctx: GateContext) -> str:
    """The branch the session's last successful `git checkout`/`git switch` moved onto ("" when
    the history has none): `git checkout main`, `git switch -c feat`. A `git checkout FILE` reads
    the same; a caller compares the result with the branch checked out, which a file never is."""
    for cmd in _past_git(ctx):
        sub, rest, _ = git_split(cmd.args)
        if sub in ("checkout", "switch"):
            positionals = [a for a in rest if not a.startswith("-")]
            return created_branch(cmd.args) or (positionals[0] if len(positionals) == 1 else "")
    return ""


def _on_branch(ctx: GateContext, item: dict[str, Any], segment: str, branch: str, action: str) -> Finding:
    """A commit or push that lands on a protected branch because it is the one checked out: a
    warning (scratch and new repositories sit on their default branch, and their ordinary work
    commits there), unless the agent itself moved onto that branch, on the line (`git checkout
    main && git commit`, read before this) or earlier in the session: then the check's own verdict."""
    if _session_switched_to(ctx) == branch:
        return _finding(item, segment)
    what = "This commit lands on" if action == "commit" else "This push updates"
    given = str(item.get("message") or "")
    then = "" if "instead" in given else " Create a feature branch first (`git checkout -b NAME`)."
    message = f"{given} {what} `{branch}`, the branch checked out.{then}"
    return _finding(dict(item, verdict=WARN, message=message.strip()), segment)


def _stages(ctx: GateContext, cmd: Command, sub: str, rest: list[str], globs: list[str]) -> bool:
    """`git add`/`git commit` names a path one of `globs` matches, or takes one without naming it
    (`git add -A` with a `.env` in the tree that git does not ignore): git says which files it takes."""
    paths = resolver_at(ctx, cmd)
    for word in rest:
        if word.startswith("-") or word in (".", "-A"):
            continue
        _, project_rel, _ = _forms(paths, word)
        rel = project_rel if project_rel is not None else word
        if any(glob_match(glob, rel) for glob in globs):
            return True
    for path in gitwork.staged_by(paths.cwd, sub, rest) or ():
        project_rel, _ = paths.relatives(path)
        if project_rel is not None and any(glob_match(glob, project_rel) for glob in globs):
            return True
    return False


def _variables(index: _Index, command: str, out: list[Finding]) -> None:
    for item in index.variables:
        for name in item.get("pattern") or ():
            if isinstance(name, str) and (f"${name}" in command or "${" + name in command or f"printenv {name}" in command):
                out.append(_finding(item, command[:200], evidence=f"${name}"))
                break


def _paths(ctx: GateContext, index: _Index, found: Summary | None, out: list[Finding]) -> None:
    event = ctx.event
    # (path, segment or the command to describe when a check fires, resolver): most paths meet no check
    writes: list[tuple[str, str | Command, Resolver]] = []
    reads: list[tuple[str, str | Command, Resolver]] = []
    for path, access in event.paths:
        if path:
            (writes if access == WRITE else reads if access == READ else []).append((path, f"{event.tool} {path}", resolver(ctx)))
    if found is not None and (found.files or not PREFILTER or "xargs" in found.programs):
        has_writes = index.has_writes
        has_reads = index.has_reads
        for cmd in found.analysis.commands:
            cmd_reads, cmd_writes = file_effects(cmd)
            if cmd.origin.endswith("xargs"):  # `find out -name '*.o' | xargs rm`: the paths come from the producer
                fed_reads, fed_writes = fed_effects(cmd, found.analysis)
                cmd_reads, cmd_writes = [*cmd_reads, *fed_reads], [*cmd_writes, *fed_writes]
            if cmd_reads or cmd_writes:
                at = resolver_at(ctx, cmd)
                if has_reads:  # the other kind's list would only be dropped below
                    for path in cmd_reads:
                        reads.append((path, cmd, at))
                if has_writes:
                    for path in cmd_writes:
                        writes.append((path, cmd, at))
    if writes and index.has_writes:
        _match_paths(index.writes, writes, out)
    if reads and index.has_reads:
        _match_paths(index.reads, reads, out)
    if index.creates:
        created = _new_files(ctx, found)
        if created:
            _match_paths(index.creates, created, out)


#: programs whose written paths may be new files or folders (what `create` checks look at), besides
#: redirections: a folder made with `mkdir`, a download or an archive unpacked into a new place
_CREATORS = frozenset(("touch", "cp", "mv", "tee", "install", "ln", "rsync", "dd", "mkdir", "curl", "wget", "unzip"))


def _new_files(ctx: GateContext, found: Summary | None) -> list[tuple[str, str | Command, Resolver]]:
    """Paths this event would create: a Write to a missing file, or a shell command writing one."""
    event = ctx.event
    out: list[tuple[str, str | Command, Resolver]] = []
    if event.tool in ("Write", "NotebookEdit"):
        for path, access in event.paths:
            if path and access == WRITE and not _exists(resolver(ctx), path):
                out.append((path, f"{event.tool} {path}", resolver(ctx)))
    if found is not None:
        for cmd in found.analysis.commands:
            if cmd.program not in _CREATORS and not cmd.redirects:
                continue
            at = resolver_at(ctx, cmd)
            written = file_effects(cmd)[1] if cmd.program in _CREATORS else redirect_effects(cmd)[1]
            for path in written:
                if not _exists(at, path):
                    out.append((path, cmd, at))
    return out


def _exists(paths: Resolver, path: str) -> bool:
    where = paths.resolve(path)
    return where is not None and os.path.lexists(where)


def _match_paths(checks: _PathChecks, candidates: list[tuple[str, str | Command, Resolver]], out: list[Finding]) -> None:
    """Each check of one kind once: against the project-, home-relative and absolute form of each path."""
    fired: set[int] = set()
    by_first = checks.by_first
    anywhere = checks.anywhere
    outside = checks.outside
    for path, segment, paths in candidates:
        if PREFILTER and not anywhere and not outside:
            # Every form below is the resolved path from one of its components on, so a form's
            # first segment is one of its components: with none of them filing a check, no form meets one.
            where = paths.resolve(path)
            if where is None or by_first.keys().isdisjoint(where.split("/")):
                continue
        absolute, project_rel, home_rel = _forms(paths, path)
        if outside and project_rel is None and absolute is not None:
            project_rel = _outside_form(paths, absolute)
        for rel, scope in ((project_rel, "project"), (home_rel, "home"), (absolute, "abs")):
            if rel is None or rel == ".":
                continue
            bare = rel.lstrip("/")
            for path_check in checks.candidates(bare):
                if path_check.scope != scope or id(path_check) in fired or not path_check.could_match(bare):
                    continue
                if glob_match(path_check.pattern[2:] if scope == "home" else path_check.pattern, rel):
                    if path_check.only and any(glob_match(allowed, rel) for allowed in path_check.only):
                        continue
                    fired.add(id(path_check))
                    out.append(_finding(path_check.item, segment if isinstance(segment, str) else describe(segment), evidence=path))


#: how a glob about what lies outside the project starts ("never modify files outside this
#: repository": `../**`)
OUTSIDE_PREFIX = "../"
#: kinds of place a path outside the project may be that such a rule is not about: scratch space
_NOT_OUTSIDE = frozenset((TEMP, TEMP_ROOT))


def _outside_form(paths: Resolver, absolute: str) -> str | None:
    """A path outside the project as the project sees it (`../other/x.go`), for `../**` globs.
    Temporary directories and devices (`> /dev/null`) are everyday scratch space, not "outside";
    but the project's own neighbours (`../other`, one level up) are what such a rule is about,
    even when the project itself sits in a temporary directory."""
    if absolute.startswith(("/dev/", "/proc/")):
        return None
    relative = os.path.relpath(absolute, paths.root)
    if relative.startswith("../../") and paths.classify(absolute) in _NOT_OUTSIDE:
        return None
    return relative


def _forms(paths: Resolver, path: str) -> tuple[str | None, str | None, str | None]:
    where = paths.resolve(path)
    if where is None:
        return None, None, None
    project_rel, home_rel = paths.relatives(where)
    return where, project_rel, home_rel


def _finding(item: dict[str, Any], segment: str, *, evidence: str = "") -> Finding:
    rule = str(item.get("rule") or item.get("id") or "POL")
    message = str(item.get("message") or "")
    source = item.get("source")
    if source:
        message = f"{message} ({source})"
    verdict = str(item.get("verdict") or DENY)
    if verdict not in SEVERITY:
        verdict = DENY  # a bundle is trusted, but an unknown verdict must not weaken a rule
    return Finding(GATE, rule, verdict, message, segment=segment[:200], evidence=evidence[:200])
