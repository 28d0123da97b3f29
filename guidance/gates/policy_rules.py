"""Compiled CLAUDE.md rules of kind command, write, read and tool.

Findings carry the shard id as `rule` and the rule's text as message, so the agent is told
which line of CLAUDE.md it ran into. Sequence checks belong to the sequence gate.

The checks are indexed once per bundle (command checks by program name, path checks by
their first literal path segment or file suffix), so an event only meets the rules that
could apply to it. Checks of a subdirectory's CLAUDE.md (`scope`) are indexed per directory
and met only by an event that works there (cf_guidance.gates.scope).
"""

from __future__ import annotations

from cf_guidance._glob import glob_match
from cf_guidance.decision import DENY, SEVERITY, Finding
from cf_guidance.event import READ, WRITE
from cf_guidance.gates._base import Rule
from cf_guidance.gates.commands import describe, resolver, resolver_at
from cf_guidance.gates.commands.files import file_effects
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.patterns import matches, required_words, tool_matches
from cf_guidance.gates.reasons import doc
from cf_guidance.gates.scope import touches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.summary import Summary
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command

GATE = "policy"

RULES = (
    Rule("POL", "compiled-claude-md-rule", DENY, "A rule compiled from CLAUDE.md (the finding's code is the rule id)",
         doc("Enforces the checks compiled from CLAUDE.md and CLAUDE.local.md: `command` patterns against every command the "
             "shell analysis found (nested ones included, never raw text), `write`/`read` globs against file-tool paths and "
             "the files shell commands write or read, and `tool` names. The verdict (deny, ask, warn) is the rule's; the "
             "finding's code is the rule id (`R010`, `S-…`) and its message the rule text.",
             "The project wrote the rule down; the agent should not need to remember it.",
             "# CLAUDE.md: - Never run `git push --force`\ngit push --force origin main",
             "git push --force-with-lease origin main")),
)

_GLOB_CHARS = ("*", "?", "[")


class _PathCheck:
    """A write/read glob, pre-split so most paths are rejected without running the matcher."""

    __slots__ = ("item", "pattern", "scope", "first", "suffix")

    def __init__(self, item: dict[str, Any], pattern: str) -> None:
        self.item = item
        self.pattern = pattern
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

    __slots__ = ("by_first", "anywhere")

    def __init__(self) -> None:
        self.by_first: dict[str, list[_PathCheck]] = {}
        self.anywhere: list[_PathCheck] = []

    def add(self, check: _PathCheck) -> None:
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


class _CommandChecks:
    """One program's command checks, each filed under its rarest required word (or none), so a
    command meets only the checks whose words it could contain; bundle order is kept."""

    __slots__ = ("unkeyed", "by_word", "words")

    def __init__(self, entries: list[tuple[dict[str, Any], frozenset[str]]]) -> None:
        counts: dict[str, int] = {}
        for _, required in entries:
            for word in required:
                counts[word] = counts.get(word, 0) + 1
        self.unkeyed: list[tuple[int, dict[str, Any], frozenset[str]]] = []
        self.by_word: dict[str, list[tuple[int, dict[str, Any], frozenset[str]]]] = {}
        for position, (item, required) in enumerate(entries):
            if required:
                key = min(required, key=lambda word: (counts[word], word))
                self.by_word.setdefault(key, []).append((position, item, required))
            else:
                self.unkeyed.append((position, item, required))
        #: every filing word: a command with none of them (and no unkeyed check) meets no check
        self.words = frozenset(self.by_word)

    def candidates(self, words: list[str]) -> list[tuple[int, dict[str, Any], frozenset[str]]]:
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


def _position(entry: tuple[int, dict[str, Any], frozenset[str]]) -> int:
    return entry[0]


class _Index:
    __slots__ = ("by_program", "programs", "glob_programs", "tools", "writes", "reads", "has_writes", "has_reads", "paths", "scoped")

    def __init__(self, checks: list[Any], *, split: bool = True) -> None:
        programs: dict[str, list[tuple[dict[str, Any], frozenset[str]]]] = {}
        self.glob_programs: list[tuple[dict[str, Any], frozenset[str]]] = []
        self.tools: list[dict[str, Any]] = []
        self.writes = _PathChecks()
        self.reads = _PathChecks()
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
            if kind == "command" and isinstance(pattern, list) and pattern and isinstance(pattern[0], str):
                head = pattern[0]
                entry = (item, required_words(pattern))
                if any(c in head for c in _GLOB_CHARS):
                    self.glob_programs.append(entry)
                else:
                    programs.setdefault(head, []).append(entry)
            elif kind == "tool" and isinstance(pattern, str):
                self.tools.append(item)
            elif kind in ("write", "read") and isinstance(pattern, str) and pattern:
                (self.writes if kind == "write" else self.reads).add(_PathCheck(item, pattern))
        self.by_program = {program: _CommandChecks(entries) for program, entries in programs.items()}
        #: the programs some command check names literally
        self.programs = frozenset(self.by_program)
        #: some write / read / write or read check exists
        self.has_writes = bool(self.writes)
        self.has_reads = bool(self.reads)
        self.paths = self.has_writes or self.has_reads
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
    if found is not None and (globs or not PREFILTER or not found.programs.isdisjoint(index.programs)):
        _commands(index, found.analysis.commands, out)
    if event.tool:
        for item in index.tools:
            if tool_matches(item["pattern"], event.tool, event.tool_class):
                out.append(_finding(item, event.tool))
    if index.paths and (event.paths or not PREFILTER or (found is not None and found.files)):
        _paths(ctx, index, found, out)


def _commands(index: _Index, commands: list[Command], out: list[Finding]) -> None:
    """Command checks: each command meets only the checks of its program (and glob programs)."""
    fired: set[int] = set()
    globs = index.glob_programs
    for cmd in commands:
        checks = index.by_program.get(cmd.program)
        argv = cmd.argv
        if checks is not None and (checks.unkeyed or not PREFILTER or not checks.words.isdisjoint(argv)):
            entries = [(item, required) for _, item, required in checks.candidates(argv)]
        elif globs:
            entries = []
        else:
            continue  # most commands: no check of their program could match
        if globs:
            entries.extend(globs)
        if not entries:
            continue
        words = set(cmd.args)
        for item, required in entries:
            if required and not required <= words:
                continue
            if id(item) not in fired and matches(item["pattern"], cmd):
                fired.add(id(item))
                out.append(_finding(item, describe(cmd)))


def _paths(ctx: GateContext, index: _Index, found: Summary | None, out: list[Finding]) -> None:
    event = ctx.event
    # (path, segment or the command to describe when a check fires, resolver): most paths meet no check
    writes: list[tuple[str, str | Command, Resolver]] = []
    reads: list[tuple[str, str | Command, Resolver]] = []
    for path, access in event.paths:
        if path:
            (writes if access == WRITE else reads if access == READ else []).append((path, f"{event.tool} {path}", resolver(ctx)))
    if found is not None and (found.files or not PREFILTER):
        has_writes = index.has_writes
        has_reads = index.has_reads
        for cmd in found.analysis.commands:
            cmd_reads, cmd_writes = file_effects(cmd)
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


def _match_paths(checks: _PathChecks, candidates: list[tuple[str, str | Command, Resolver]], out: list[Finding]) -> None:
    """Each check of one kind once: against the project-, home-relative and absolute form of each path."""
    fired: set[int] = set()
    by_first = checks.by_first
    anywhere = checks.anywhere
    for path, segment, paths in candidates:
        if PREFILTER and not anywhere:
            # Every form below is the resolved path from one of its components on, so a form's
            # first segment is one of its components: with none of them filing a check, no form meets one.
            where = paths.resolve(path)
            if where is None or by_first.keys().isdisjoint(where.split("/")):
                continue
        absolute, project_rel, home_rel = _forms(paths, path)
        for rel, scope in ((project_rel, "project"), (home_rel, "home"), (absolute, "abs")):
            if rel is None or rel == ".":
                continue
            bare = rel.lstrip("/")
            for path_check in checks.candidates(bare):
                if path_check.scope != scope or id(path_check) in fired or not path_check.could_match(bare):
                    continue
                if glob_match(path_check.pattern[2:] if scope == "home" else path_check.pattern, rel):
                    fired.add(id(path_check))
                    out.append(_finding(path_check.item, segment if isinstance(segment, str) else describe(segment), evidence=path))


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
