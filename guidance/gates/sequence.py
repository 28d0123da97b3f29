"""Sequence rules: "`make test` must pass before every commit", "Read `docs/a.md` before changing
`core/`", checked against the session's past.

Hot path module: standard library only.

A compiled check of kind "sequence" has `before` and `then` command patterns. When a Bash
event runs a command matching `then`, the most recent command matching `before` must have
succeeded, and after the last successful `then` ("before every commit" means each commit
needs its own test run); else the check's verdict: deny where the text states the step as hard
("must pass", "only push after", "never commit without"), warn where it states practice
("Always run `make test` before committing", "Run `make lint` before pushing"). A check's
`before_any` lists other commands that satisfy it as well (`npm run flint` for `flint`, a
category's test commands for "run the tests"); its `target` limits it to `then` commands that
push to that branch. The past is the session history the
engine passes as `ctx.extra("history")` (cf_guidance.session: commands the worker applied plus
post-bash jobs still spooled). `before` earlier in the same command line counts only when
joined to `then` by `&&` alone (other `&&`-joined commands may stand between), so `make test
&& git add src/ && git commit` passes and `make test; git commit` does not.

The history is walked backwards once per `then` group and event, for all its rules at once.
What a history entry decides for a group (per rule: nothing, "a `before` ran", "a `then` ran")
is a function of its text and the group's patterns alone: the shell analysis reads no
environment and no files (tests/gates/test_sequence.py checks its imports), and matching reads
only the analysed words. So a warm process (the decision server) works it out once per text
and keeps it in `_EFFECTS`, bounded; each event still walks its own history, so a new entry, a
failed run or a new commit changes the answer at once. An entry is analysed only when its text
can hold what a pattern needs (see `_Pattern.absent`), and at most once per event.
"""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY, WARN
from cf_guidance.gates._base import STANDARD, Rule
from cf_guidance.gates.commands import describe, resolver, runs_script
from cf_guidance.gates.commands.files import file_effects, may_touch_files
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.patterns import has_glob, in_order, literal_positionals, matches, required_words
from cf_guidance.gates.reasons import doc, finding
from cf_guidance.event import WRITE
from cf_guidance.gates.scope import applies
from cf_guidance._glob import _match_segment, glob_match
from cf_guidance.gates.policy_rules import pushed_branches, script_of
from cf_guidance.shell.model import Command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    #: What one history text decides for a group: (rule number k, the entry's answer for it)
    #: when the entry succeeded, and the same when it did not (see `_effect`).
    Decisions = tuple[tuple[int, bool], ...]
    Effect = tuple[Decisions, Decisions]

    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.shell.model import ShellAnalysis

GATE = "sequence"
MISSING = "SEQ001"
NO_HISTORY = "SEQ002"

RULES = (
    Rule(MISSING, "sequence-not-satisfied", DENY, "An action ran without the step CLAUDE.md says must come first",
         doc("Enforces the sequence rules compiled from CLAUDE.md (\"`make test` must pass before every commit\", \"Always "
             "run `X` before `Y`\", a guidance block's `require X before Y`). A command matching `Y` is flagged unless the "
             "most recent `X` of this session succeeded and came after the last successful `Y`, or `X &&` precedes it on "
             "the same line. A step that is a tool use (\"Read `docs/a.md` before changing `core/`\", \"Update "
             "`CHANGELOG.md` before every commit\") needs a read of the file earlier in the session, or an edit of it since "
             "the last `Y`. The verdict is the rule's, as strong as the text says: deny when it states the step as hard "
             "(\"must pass\", \"mandatory\", \"only push after `X`\", \"never commit without `X`\", a guidance block's "
             "`require`), a warning when it states practice (\"Always run `X` before committing\", \"Run `X` before "
             "pushing\") or softly; the message says what to do first.",
             "The project decided that, for example, nothing is committed without passing tests; the agent forgets.",
             "# CLAUDE.md: - `make test` must pass before every commit\ngit commit -m \"fix parser\"",
             "make test && git commit -m \"fix parser\"")),
    Rule(NO_HISTORY, "sequence-history-unavailable", WARN, "A sequence rule applies but the session history is unavailable",
         doc("Reports a command gated by a sequence rule when the session history could not be read (no session id, no "
             "state directory). Warns at the standard level and asks at strict and paranoid.",
             "Without the history the rule cannot be checked; silently allowing would make it dead text.",
             "# a hook call without session_id\ngit commit -m x", "# run through the hook, which passes the session id")),
)


def _program_of(word: str) -> str:
    """A pattern's program as the shell analysis names a command's: `tools/lint-all.py` is
    `lint-all.py` (as a rule written with a code span is compiled), however the path is spelled."""
    if "/" not in word or has_glob(word):
        return word
    return word.rstrip("/").rsplit("/", 1)[-1] or word


def _pattern_text(words: list[str]) -> str:
    return " ".join(words)


#: Characters a history entry may hold for `_Pattern.absent` to judge it by its text: words,
#: options, paths, `=`, and the operators `&&`, `||`, `;`, `|`. Quotes, `\\`, `$`, backquotes,
#: braces, parentheses, redirections, globs and `%` are missing on purpose: with them the
#: analysis may build a word that is not in the text (`ma"ke"`, `{ma,}ke`, `$X`, printf `%s`).
_TRANSPARENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_./:=,+@&|;")
#: Programs whose output or behaviour the analysis turns into words of its own: decoders feeding
#: a shell (`echo tset | rev | sh`), and xargs without a command (it runs `echo`).
_WORD_MAKERS = ("rev", "base64", "xargs")


def _transparent(command: str) -> bool:
    """True when every word the analysis of `command` can give a command is a substring of it."""
    if not _TRANSPARENT.issuperset(command):
        return False
    for maker in _WORD_MAKERS:
        if maker in command:
            return False
    return True


class _Pattern:
    """A `before` or `then` command pattern with what the history walk tests before `matches`."""

    __slots__ = ("words", "shown", "program", "literal", "key", "required", "literals", "probe", "positionals")

    def __init__(self, words: list[str]) -> None:
        #: as the rule writes it, for messages (`tools/lint-all.py`)
        self.shown = words
        words = [_program_of(words[0]), *words[1:]]
        self.words = words
        program = self.program = words[0]
        #: no glob in the program: an entry whose text lacks it is not analysed for this pattern
        #: (unless the other pattern's program is there; as since the first version)
        self.literal = not has_glob(program)
        #: the program a matching command has, when `matches` compares it as it is (no glob, no `/`)
        self.key = program if self.literal and "/" not in program else None
        #: literal positional words a matching command has among its arguments
        self.required = required_words(words)
        #: the words above that a transparent entry's text holds if it can match
        self.literals = ((self.key,) if self.key is not None else ()) + tuple(self.required)
        #: the longest of them (most often the one missing), tested first; "" when there is none
        self.probe = max(self.literals, key=len) if self.literals else ""
        #: the words after the program when `matches` reduces to finding them in order (see
        #: patterns.literal_positionals), else None
        self.positionals = words[1:] if self.key and literal_positionals(words[1:]) else None

    def absent(self, command: str) -> bool:
        """True when a word this pattern needs is missing from `command` (a transparent text)."""
        for word in self.literals:
            if word not in command:
                return True
        return False

    def match(self, cmd: Command) -> bool:
        """`matches(self.words, cmd)`; with PREFILTER, first rejected by program and required words,
        and for literal positional words answered by their order alone (as `matches` does)."""
        if not PREFILTER:
            return matches(self.words, cmd)
        key = self.key
        if key is not None and cmd.program != key:
            return False
        positionals = self.positionals
        if positionals is not None:
            return in_order(positionals, cmd.args) if cmd.argv else False
        return self.required.issubset(cmd.argv) and matches(self.words, cmd)


class _AnyPattern:
    """Several `before` patterns of which any satisfies the rule (`before` and `before_any`).
    It has no fixed program and no required words, so the walk never skips an entry for it."""

    __slots__ = ("patterns", "words", "shown", "program", "literal", "key", "required", "literals", "probe", "positionals")

    def __init__(self, patterns: list[_Pattern]) -> None:
        self.patterns = patterns
        self.words = patterns[0].words
        self.shown = patterns[0].shown
        self.program = "*"
        self.literal = False
        self.key = None
        self.required: frozenset[str] = frozenset()
        self.literals: tuple[str, ...] = ()
        self.probe = ""
        self.positionals = None

    def absent(self, command: str) -> bool:
        return all(p.absent(command) for p in self.patterns)

    def match(self, cmd: Command) -> bool:
        return any(p.match(cmd) for p in self.patterns)


class _Group:
    """A `then` pattern with the sequence checks it gates and their `before`s, in the same order
    (many rules gate the same `git commit`: it is matched once per command)."""

    __slots__ = ("then", "target", "items", "befores", "numbers", "by_program", "unkeyed", "scoped", "tied")

    def __init__(self, then: _Pattern, items: list[dict[str, Any]], befores: list[_Pattern | _AnyPattern], target: str = "") -> None:
        self.then = then
        #: only `then` commands that push to this branch are gated ("" = all)
        self.target = target
        self.items = items
        self.befores = befores
        #: the rules' numbers
        self.numbers = range(len(befores))
        #: some rule comes from a subdirectory's file: it applies only to events working there
        self.scoped = any(item.get("scope") for item in items)
        #: some rule is tied to changes ("after changing `*.sql`, run `make gen`"): `_changed_since`
        self.tied = any(item.get("edits") for item in items)
        #: the rules' numbers by the program their `before` has (`_Pattern.key`), and those without one
        self.by_program: dict[str, list[int]] = {}
        self.unkeyed: list[int] = []
        for k, before in enumerate(befores):
            if before.key is None:
                self.unkeyed.append(k)
            else:
                self.by_program.setdefault(before.key, []).append(k)

    def ran_in(self, chained: list[Command]) -> set[int]:
        """The rules whose `before` one of `chained` matches; with PREFILTER, only those whose
        `before` has the program of one of them, or no fixed program, are matched."""
        candidates: Sequence[int] = self.numbers
        if PREFILTER:
            candidates = list(self.unkeyed)
            for program in {cmd.program for cmd in chained}:
                candidates.extend(self.by_program.get(program, ()))
        befores = self.befores
        return {k for k in candidates if any(befores[k].match(cmd) for cmd in chained)}


#: id(bundle) -> (bundle, index): a warm process (the hook server) reuses one bundle for many events.
_INDEX_CACHE: dict[int, tuple[object, dict[str, list[_Group]]]] = {}


def _index(bundle: dict[str, Any]) -> dict[str, list[_Group]]:
    """Well-formed sequence checks by the program of `then` ("*" for a glob program), grouped
    by `then` and target."""
    cached = _INDEX_CACHE.get(id(bundle))
    if cached is not None and cached[0] is bundle:
        return cached[1]
    by_then: dict[str, dict[tuple[tuple[str, ...], str], list[dict[str, Any]]]] = {}
    seen: set[int] = set()
    for item in bundle.get("checks") or []:
        if item.get("kind") != "sequence" or id(item) in seen:
            continue  # a check listed twice reports once
        seen.add(id(item))
        before, then = item.get("before"), item.get("then")
        if isinstance(before, list) and isinstance(then, list) and before and then:
            key = "*" if has_glob(then[0]) else _program_of(then[0])
            target = item.get("target") if isinstance(item.get("target"), str) else ""
            by_then.setdefault(key, {}).setdefault((tuple(then), target), []).append(item)
    index = {program: [_Group(_Pattern(list(then)), items, [_before(item) for item in items], target)
                       for (then, target), items in groups.items()]
             for program, groups in by_then.items()}
    if len(_INDEX_CACHE) > 8:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[id(bundle)] = (bundle, index)
    return index


def _before(item: dict[str, Any]) -> _Pattern | _AnyPattern:
    first = _Pattern(list(item["before"]))
    others = [_Pattern(list(p)) for p in item.get("before_any") or () if isinstance(p, list) and p and all(isinstance(w, str) for w in p)]
    return _AnyPattern([first, *others]) if others else first


def _run_forms(commands: list[Command]) -> list[Command]:
    """The commands, each followed by what an interpreter of it runs: `python3 tools/lint.py` and
    `bash scripts/check.sh` run those scripts, `python -m pytest` runs `pytest` (a rule names the
    step as its author types it; the agent may start it either way)."""
    out: list[Command] = []
    for cmd in commands:
        out.append(cmd)
        if not runs_script(cmd.program):
            continue
        run = script_of(cmd)
        if run is None and len(cmd.args) > 1 and cmd.args[0] == "-m" and not cmd.args[1].startswith("-"):
            run = Command(cmd.args[1:], text=cmd.text, origin=cmd.origin)
        if run is not None:
            out.append(run)
    return out


#: Tests switch this off to prove the skips (no gated program in the summary, a literal word of
#: `then` missing; history entries without the words of either pattern, commands of an entry
#: without a pattern's program or words) leave out only commands without findings.
PREFILTER = True


def check(ctx: GateContext) -> list[Finding]:
    found = _command_steps(ctx) if ctx.event.command is not None else []
    steps = _step_index(ctx.bundle)
    if steps:
        found += _tool_steps(ctx, steps)
    return found


def _command_steps(ctx: GateContext) -> list[Finding]:
    """The rules whose step is a command, for the commands of a Bash event."""
    index = _index(ctx.bundle)
    if not index:
        return []
    found = summary(ctx)
    if found is None:
        return []
    anywhere = index.get("*", ())
    if PREFILTER and not anywhere and found.programs.isdisjoint(index):
        return []  # no rule gates a program of this line: most events stop here
    analysis = found.analysis
    history = ctx.extra("history")
    out: list[Finding] = []
    done: set[_Group] = set()
    for position, cmd in enumerate(analysis.commands):
        own = index.get(cmd.program)
        if own is None and not anywhere:
            continue  # no rule gates this program: most commands stop here
        chained: list[Command] | None = None
        for groups in (own or (), anywhere):
            for group in groups:
                then = group.then
                if group in done or (PREFILTER and not then.required.issubset(cmd.argv)) or not then.match(cmd):
                    continue  # most gated programs run another subcommand (`git status`)
                if group.target and not any(_match_segment(group.target, ref) for ref in pushed_branches(cmd.args)):
                    continue  # "before pushing to main": another branch
                done.add(group)  # one finding per rule, for its first gated command (a check is in one group)
                befores = group.befores
                if chained is None:
                    chained = _run_forms(_chained_before(analysis, position))
                pending: Sequence[int] = group.numbers
                if group.scoped:
                    pending = [k for k in pending if applies(ctx, group.items[k])]
                if chained:
                    ran = group.ran_in(chained)
                    if ran:
                        pending = [k for k in pending if k not in ran]
                if history is None:
                    verdict = WARN if ctx.level == STANDARD else ASK
                    for k in pending:
                        out.append(finding(GATE, NO_HISTORY, verdict,
                                           f"`{_pattern_text(then.shown)}` must follow a successful `{_pattern_text(befores[k].shown)}`, but this session's history is unavailable",
                                           segment=describe(cmd)))
                elif pending:
                    tied = [k for k in pending if group.items[k].get("edits")] if group.tied else []
                    for k in tied:
                        scope = group.items[k]["edits"]
                        changed = _changed_since(ctx, history, scope, befores[k])
                        if changed:
                            item = group.items[k] if changed is CHANGED else dict(group.items[k], verdict=WARN)
                            out.append(_missing(item, befores[k].shown, then.shown, cmd, scope))
                    if tied:
                        pending = [k for k in pending if k not in tied]
                        if not pending:
                            continue
                    answers = satisfied(ctx, history, group, pending)
                    if len(answers) < len(befores) or not all(answers.values()):  # else every rule is satisfied
                        for k in pending:
                            if not answers.get(k):
                                out.append(_missing(group.items[k], befores[k].shown, then.shown, cmd))
    return out


#: `_changed_since`: a file of the scope changed after the last successful `before`
CHANGED = "changed"
#: `_changed_since`: a rule about any change whose `before` never ran, in a session that changed nothing
UNSEEN = "unseen"


def _changed_since(ctx: GateContext, history: list[dict[str, Any]], scope: list[str], before: _Pattern | _AnyPattern) -> str:
    """CHANGED when a file of `scope` (globs relative to the project; `**`: any file) changed
    after the last run of `before` that succeeded, by a file tool (an `edited` entry) or a
    command the shell analysis sees write it (`sed -i`, `>`, `cp`, ...); a failed `before`
    does not count. With `**` and no run of `before` at all, UNSEEN: the
    changes may predate the session (the rule's verdict drops to a warning; nothing shows them).
    "" otherwise: a scoped rule with no change of its files in the history is satisfied."""
    for entry in reversed(history):
        edited = entry.get("edited")
        if edited is not None:
            if entry.get("more") or any(_in_scope(ctx, path, scope) for path in edited if isinstance(path, str)):
                return CHANGED
            continue
        command = entry.get("command")
        if not isinstance(command, str):
            continue
        for cmd in reversed(_run_forms(ctx.past_command(command).commands)):
            if before.match(cmd):
                if entry.get("ok") is True:
                    return ""
                continue  # a failed run neither satisfies the rule nor changes a file
            if may_touch_files(cmd) and any(_in_scope(ctx, path, scope) for path in file_effects(cmd)[1]):
                return CHANGED
    return UNSEEN if ANY_CHANGE in scope else ""


#: the scope of an unscoped "after any change, run Y": every file of the project
ANY_CHANGE = "**"


def _in_scope(ctx: GateContext, path: str, scope: list[str]) -> bool:
    """`path` (as written: absolute, or relative to this event's directory) is a file of the
    project that one of the `scope` globs matches."""
    paths = resolver(ctx)
    full = paths.resolve(path)
    relative = paths.relative_to_project(full) if full is not None else None
    if relative is None or relative == ".":
        return False
    relative = relative.lower()  # "the grammar" is `Grammar.g4` too
    return any(glob == ANY_CHANGE or glob_match(glob.lower(), relative) for glob in scope)


def _missing(item: dict[str, Any], before: list[str], then: list[str], cmd: Command, scope: list[str] | None = None) -> Finding:
    verdict = item.get("verdict") if item.get("verdict") in (DENY, ASK, WARN) else DENY
    source = item.get("source") or ""
    rule = item.get("rule") or ""
    origin = f" ({rule}, {source})" if rule and source else (f" ({source or rule})" if source or rule else "")
    if scope:
        changed = "change" if ANY_CHANGE in scope else "change of " + ", ".join(f"`{glob}`" for glob in scope[:4])
        message = f"`{_pattern_text(then)}` needs a successful `{_pattern_text(before)}` after the last {changed} in this session{origin}"
    else:
        message = (f"`{_pattern_text(then)}` needs a successful `{_pattern_text(before)}` earlier in this session, "
                   f"after the last `{_pattern_text(then)}`{origin}")
    if isinstance(item.get("message"), str) and item["message"] and not item["message"].startswith("Run `"):
        message += f". {item['message']}"
    result = finding(GATE, MISSING, str(verdict), message, segment=describe(cmd))
    result.hint = f"run `{_pattern_text(before)}` first and fix what fails, or `{_pattern_text(before)} && {describe(cmd)}`"
    return result


def _chained_before(analysis: ShellAnalysis, index: int) -> list[Command]:
    """The earlier top-level commands of this line joined to command `index` by `&&` alone, with
    other `&&`-joined commands possibly between (`make test && git add . && git commit`): a
    `before` among them satisfies its rule."""
    source = analysis.source
    target = analysis.commands[index]
    chained: list[Command] = []
    if not target.text:
        return chained
    position = 0
    previous_end = -1
    for cmd in analysis.commands[: index + 1]:
        if cmd.origin or not cmd.text:
            continue
        start = source.find(cmd.text, position)
        if start == -1:
            return []
        if previous_end != -1 and source[previous_end:start].strip() != "&&":
            chained = []  # `;`, `||`, `|`, a newline or `&`: what ran before need not have succeeded
        end = start + len(cmd.text)
        if cmd is target:
            return chained
        chained.append(cmd)
        previous_end = position = end
    return []


class _Memo:
    """What history texts decide, per group (`_effect`), for texts of at most `_MEMO_CHARS`
    characters; emptied when it holds `limit` texts over all groups (a session's history holds
    at most cf_guidance.session.MAX_HISTORY texts, a warm server may serve a few sessions). Holds
    tuples of ints and bools only: nothing a gate could change."""

    __slots__ = ("groups", "size", "limit")

    def __init__(self, limit: int) -> None:
        self.groups: dict[_Group, dict[str, Effect]] = {}
        self.size = 0
        self.limit = limit

    def of(self, group: _Group) -> dict[str, Effect]:
        effects = self.groups.get(group)
        if effects is None:
            if len(self.groups) >= _MEMO_GROUPS:
                # groups of bundles since replaced (a warm server recompiles when CLAUDE.md changes)
                self.groups = {}
                self.size = 0
            effects = self.groups[group] = {}
        return effects

    def keep(self, group: _Group, effects: dict[str, Effect], command: str, effect: Effect) -> None:
        if len(command) > _MEMO_CHARS:
            return
        if self.size >= self.limit:
            # start afresh; nothing iterates these dicts, so a walk of another thread keeps
            # working with the dict it holds (its lookups miss, or land in one dropped here)
            effects.clear()
            self.groups = {group: effects}
            self.size = 0
        effects[command] = effect
        self.size += 1


_MEMO_CHARS = 4096
_MEMO_GROUPS = 256
_EFFECTS = _Memo(2048)
#: the effect of a text that decides nothing (most history entries)
_NOTHING: Effect = ((), ())


def satisfied(ctx: GateContext, history: list[dict[str, Any]], group: _Group, pending: Sequence[int]) -> dict[int, bool]:
    """For each `before` of `group` numbered in `pending`: True when its latest run in `history`
    succeeded after the latest successful `then` (`answers.get(k)` true; false or missing when
    not). One walk back through the history answers them all; each entry's part is `_effect`
    of its text (memoised in `_EFFECTS` with PREFILTER)."""
    total = len(group.befores)
    #: rule number -> its answer, from the first entry (going back) that decides it; rules
    #: not asked about are entered first, so the walk ends when every rule is there
    answers: dict[int, bool] = {}
    if len(pending) < total:
        answers = dict.fromkeys(range(total), False)
        for k in pending:
            del answers[k]
    memo = _EFFECTS if PREFILTER else None
    effects = memo.of(group) if memo is not None else {}
    for entry in reversed(history):
        command = entry.get("command")
        try:
            effect = effects.get(command)
        except TypeError:
            continue  # an unhashable command (malformed entries are skipped)
        if effect is None:
            if not isinstance(command, str):
                continue
            effect = _effect(ctx, group, command)
            if memo is not None:
                memo.keep(group, effects, command, effect)
        if effect is _NOTHING:
            continue  # most entries
        for k, ok in effect[0] if entry.get("ok") is True else effect[1]:
            answers.setdefault(k, ok)
        if len(answers) == total:
            break
    return answers


def _effect(ctx: GateContext, group: _Group, command: str) -> Effect:
    """What a history entry with this text decides for each rule of `group`, if it succeeded
    and if not: the walk takes, per rule, the first decision it meets going back.

    The text is analysed only for the rules whose answer it may decide: when both programs
    are literal, not if it holds neither (as the walk always did); with PREFILTER, not if it
    is transparent (`_transparent`) and lacks a literal word of `then` and one of the `before`
    (its analysis cannot match either)."""
    then, befores = group.then, group.befores
    # "" for a glob program: it is in every text, so such patterns never skip an entry
    then_here = (then.program if then.literal else "") in command
    if PREFILTER and then.absent(command) and _transparent(command):
        # only befores with all their words here (the longest first: most often the one missing)
        relevant = [k for k, before in enumerate(befores)
                    if before.probe in command and (then_here or not before.literal or before.program in command) and not before.absent(command)]
    elif then_here:
        relevant = list(range(len(befores)))
    else:
        relevant = [k for k, before in enumerate(befores) if not before.literal or before.program in command]
    if not relevant:
        return _NOTHING
    return _decide(_run_forms(ctx.past_command(command).commands), then, befores, relevant)


def _decide(commands: list[Command], then: _Pattern, befores: list[_Pattern | _AnyPattern], relevant: list[int]) -> Effect:
    """The `relevant` rules an entry with these commands decides (its later commands first),
    if it succeeded and if not: a successful `then` answers each False, a `before` answers its
    own with the entry's success. One pass for both: until a `then`, the rules left open are
    the same either way; after it, only a failed entry leaves any open."""
    if_ok: list[tuple[int, bool]] = []
    if_failed: list[tuple[int, bool]] = []
    then_ran = False
    left = relevant
    for cmd in reversed(commands):
        if not then_ran and then.match(cmd):
            then_ran = True
            for k in left:
                if_ok.append((k, False))
        still: list[int] = []
        for k in left:
            if befores[k].match(cmd):
                if_failed.append((k, False))
                if not then_ran:
                    if_ok.append((k, True))
            else:
                still.append(k)
        if not still:
            break
        left = still
    if not if_ok and not if_failed:
        return _NOTHING
    return tuple(if_ok), tuple(if_failed)


# -- steps that are tool uses ------------------------------------------------------------------
#
# "Read `docs/architecture.md` before changing `core/`", "At the start of each session, read
# `TODO.md`", "Update `CHANGELOG.md` before every commit", "When you change `settings.py`,
# update `docs/settings.md`": a check of kind "sequence" whose `step` is "read" or "edit" has
# the step's files in `paths` (globs relative to the project) and gates either the commands of
# `then` (as above) or, with `then_paths`, the edits of those files (`**`: any file).
#
# A read step is done once in the session: any earlier read of one of its files, by a read tool
# (the session's `reads`, cf_guidance.session: the files of every read call the hooks let
# through) or by a Bash command the shell analysis sees read it (`cat`, `head`, `sed -n`, ...),
# satisfies it; "before editing" asks for the read before the edits, not before each one. An
# edit step is owed again after each `then` ("before every commit"): an edit of one of its files
# by a file tool (an `edited` entry) or a Bash command that writes it (`sed -i`, `>>`), after the
# last successful `then`, satisfies it. With `edits` ("when you change `settings.py`, update
# `docs/settings.md`") the edit is owed only when one of those files changed since that `then`.


class _Steps:
    """The tool-step checks of a bundle: those gating commands (with their `then` patterns) and
    those gating edits."""

    __slots__ = ("commands", "edits")

    def __init__(self) -> None:
        self.commands: list[tuple[dict[str, Any], _Pattern]] = []
        self.edits: list[dict[str, Any]] = []

    def __bool__(self) -> bool:
        return bool(self.commands or self.edits)


_STEP_CACHE: dict[int, tuple[object, _Steps]] = {}


def _paths_of(value: object) -> list[str]:
    return [p for p in value if isinstance(p, str) and p] if isinstance(value, list) else []


def _step_index(bundle: dict[str, Any]) -> _Steps:
    cached = _STEP_CACHE.get(id(bundle))
    if cached is not None and cached[0] is bundle:
        return cached[1]
    steps = _Steps()
    for item in bundle.get("checks") or []:
        if item.get("kind") != "sequence" or item.get("step") not in (READ_STEP, EDIT_STEP) or not _paths_of(item.get("paths")):
            continue
        then = item.get("then")
        if _paths_of(item.get("then_paths")):
            steps.edits.append(item)
        elif isinstance(then, list) and then and all(isinstance(w, str) for w in then):
            steps.commands.append((item, _Pattern(list(then))))
    if len(_STEP_CACHE) > 8:
        _STEP_CACHE.clear()
    _STEP_CACHE[id(bundle)] = (bundle, steps)
    return steps


#: the `step` of a check whose step is a read of a file, or an edit of one
READ_STEP = "read"
EDIT_STEP = "edit"


def _tool_steps(ctx: GateContext, steps: _Steps) -> list[Finding]:
    out: list[Finding] = []
    history = ctx.extra("history")
    if ctx.event.command is not None:
        analysis = ctx.shell
        if analysis is None:
            return out
        if steps.commands:
            for item, then in steps.commands:
                cmd = next((c for c in analysis.commands if then.match(c) and _to_target(item, c)), None)
                if cmd is not None and applies(ctx, item) and not _step_done(ctx, item, history, then):
                    out.append(_step_missing(ctx, item, describe(cmd), history))
        if steps.edits:
            written = [path for cmd in analysis.commands if may_touch_files(cmd) for path in file_effects(cmd)[1]]
            if written:
                out += _gated_edits(ctx, steps.edits, written, history)
        return out
    if steps.edits and ctx.event.tool_class == "edit":
        out += _gated_edits(ctx, steps.edits, [path for path, access in ctx.event.paths if access == WRITE and path], history)
    return out


def _to_target(item: dict[str, Any], cmd: Command) -> bool:
    target = item.get("target")
    return not isinstance(target, str) or not target or any(_match_segment(target, ref) for ref in pushed_branches(cmd.args))


def _gated_edits(ctx: GateContext, items: list[dict[str, Any]], written: list[str], history: object) -> list[Finding]:
    """The edit-gated rules one of the `written` files falls under, whose step is not done; an
    edit of a file the step itself names is the step, not an edit it gates."""
    out: list[Finding] = []
    for item in items:
        own = _paths_of(item.get("paths"))
        gated = [p for p in written if _in_scope(ctx, p, _paths_of(item.get("then_paths"))) and not _in_scope(ctx, p, own)]
        if gated and applies(ctx, item) and not _step_done(ctx, item, history, None):
            out.append(_step_missing(ctx, item, gated[0], history))
    return out


def _step_done(ctx: GateContext, item: dict[str, Any], history: object, then: _Pattern | None) -> bool:
    """Whether the session did the rule's step where it must come (see above). Without a
    history the step cannot be seen: the rule is reported (NO_HISTORY)."""
    if not isinstance(history, list):
        return False
    paths = _paths_of(item.get("paths"))
    if item.get("step") == READ_STEP:
        reads = ctx.extra("reads")
        if isinstance(reads, list) and any(isinstance(p, str) and _in_scope(ctx, p, paths) for p in reads):
            return True
        for entry in history:
            command = entry.get("command") if isinstance(entry, dict) else None
            if isinstance(command, str) and any(
                    _in_scope(ctx, p, paths) for cmd in ctx.past_command(command).commands if may_touch_files(cmd) for p in file_effects(cmd)[0]):
                return True
        return False
    tied = _paths_of(item.get("edits"))
    changed = not tied
    for entry in reversed(history):
        if not isinstance(entry, dict):
            continue
        edited = entry.get("edited")
        if isinstance(edited, list):
            files = [p for p in edited if isinstance(p, str)]
            if any(_in_scope(ctx, p, paths) for p in files):
                return True
            changed = changed or bool(entry.get("more")) or any(_in_scope(ctx, p, tied) for p in files)
            continue
        command = entry.get("command")
        if not isinstance(command, str):
            continue
        commands = ctx.past_command(command).commands
        if then is not None and entry.get("ok") is True and any(then.match(cmd) for cmd in commands):
            break  # the last `then`: what came before it was owed to that one
        written = [p for cmd in commands if may_touch_files(cmd) for p in file_effects(cmd)[1]]
        if any(_in_scope(ctx, p, paths) for p in written):
            return True
        changed = changed or any(_in_scope(ctx, p, tied) for p in written)
    return not changed


def _step_missing(ctx: GateContext, item: dict[str, Any], what: str, history: object) -> Finding:
    """The finding of a rule whose step is not done: what the text asks (the check's message),
    what this session did not do, and where the rule is."""
    paths = _paths_of(item.get("paths"))
    shown = " or ".join(f"`{p}`" for p in paths[:3]) + (" (or another of its files)" if len(paths) > 3 else "")
    source = item.get("source") or ""
    rule = item.get("rule") or ""
    origin = f" ({rule}, {source})" if rule and source else (f" ({source or rule})" if source or rule else "")
    reading = item.get("step") == READ_STEP
    if not isinstance(history, list):
        verdict = WARN if ctx.level == STANDARD else ASK
        return finding(GATE, NO_HISTORY, verdict, f"`{what}` must follow a {'read' if reading else 'change'} of {shown}, "
                                                  f"but this session's history is unavailable{origin}", segment=what)
    message = item.get("message")
    asked = message if isinstance(message, str) else ""
    if reading:
        asked = asked or f"Read {shown} first."
        status = "this session has not read it"
        hint = f"read {shown} first (the Read tool or `cat`), then retry"
    else:
        then = _pattern_text(item.get("then") or [])
        asked = asked or f"Update {shown} first."
        status = f"this session has not changed it since the last `{then}`" if then else "this session has not changed it"
        hint = f"update {shown} first, then retry"
    wanted = item.get("verdict")
    return finding(GATE, MISSING, wanted if wanted in (DENY, ASK, WARN) else WARN, f"{asked.rstrip('.')}: {status}{origin}.",
                   segment=what, hint=hint)
