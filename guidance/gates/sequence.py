"""Sequence rules: "Run `make test` before every commit", checked against the session's past.

Hot path module: standard library only.

A compiled check of kind "sequence" has `before` and `then` command patterns. When a Bash
event runs a command matching `then`, the most recent command matching `before` must have
succeeded, and after the last successful `then` ("before every commit" means each commit
needs its own test run). The past is the session history the engine passes as
`ctx.extra("history")` (guidance.session: commands the worker applied plus post-bash jobs
still spooled). `before` earlier in the same command line counts only when joined to `then`
by `&&` alone, so `make test && git commit` passes and `make test; git commit` does not.
"""

from __future__ import annotations

from guidance.decision import ASK, DENY, WARN
from guidance.gates._base import STANDARD, Rule
from guidance.gates.commands import describe
from guidance.gates.commands.summary import summary
from guidance.gates.patterns import matches, required_words
from guidance.gates.reasons import doc, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    #: A program's sequence checks grouped by their `then` words: (then, the literal words a
    #: command needs to match `then`, checks with that `then`).
    Groups = list[tuple[list[str], frozenset[str], list[dict[str, Any]]]]

    from guidance.decision import Finding
    from guidance.gates._base import GateContext
    from guidance.shell.model import Command, ShellAnalysis

GATE = "sequence"
MISSING = "SEQ001"
NO_HISTORY = "SEQ002"

RULES = (
    Rule(MISSING, "sequence-not-satisfied", DENY, "A command ran without the command CLAUDE.md says must come first",
         doc("Enforces the sequence rules compiled from CLAUDE.md (\"Always run `X` before `Y`\", \"Run `make test` before "
             "every commit\", a guidance block's `require X before Y`). A command matching `Y` is denied unless the most "
             "recent `X` of this session succeeded and came after the last successful `Y`, or `X &&` precedes it on the "
             "same line. The verdict is the rule's (deny unless it says otherwise); the message says what to run.",
             "The project decided that, for example, nothing is committed without passing tests; the agent forgets.",
             "# CLAUDE.md: - Run `make test` before every commit\ngit commit -m \"fix parser\"",
             "make test && git commit -m \"fix parser\"")),
    Rule(NO_HISTORY, "sequence-history-unavailable", WARN, "A sequence rule applies but the session history is unavailable",
         doc("Reports a command gated by a sequence rule when the session history could not be read (no session id, no "
             "state directory). Warns at the standard level and asks at strict and paranoid.",
             "Without the history the rule cannot be checked; silently allowing would make it dead text.",
             "# a hook call without session_id\ngit commit -m x", "# run through the hook, which passes the session id")),
)


def _pattern_text(words: list[str]) -> str:
    return " ".join(words)


#: id(bundle) -> (bundle, index): a warm process (the hook server) reuses one bundle for many events.
_INDEX_CACHE: dict[int, tuple[object, dict[str, Groups]]] = {}


def _index(bundle: dict[str, Any]) -> dict[str, Groups]:
    """Well-formed sequence checks by the program of `then` ("*" for a glob program), grouped
    by `then` (many rules gate the same `git commit`: it is matched once per command)."""
    cached = _INDEX_CACHE.get(id(bundle))
    if cached is not None and cached[0] is bundle:
        return cached[1]
    by_then: dict[str, dict[tuple[str, ...], tuple[list[str], frozenset[str], list[dict[str, Any]]]]] = {}
    for item in bundle.get("checks") or []:
        if item.get("kind") != "sequence":
            continue
        before, then = item.get("before"), item.get("then")
        if isinstance(before, list) and isinstance(then, list) and before and then:
            key = "*" if any(c in then[0] for c in "*?[") else then[0]
            group = by_then.setdefault(key, {}).setdefault(tuple(then), (then, required_words(then), []))
            group[2].append(item)
    index = {program: list(groups.values()) for program, groups in by_then.items()}
    if len(_INDEX_CACHE) > 8:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[id(bundle)] = (bundle, index)
    return index


#: Tests switch this off to prove the skips (no gated program in the summary, a literal word of
#: `then` missing) leave out only commands without findings.
PREFILTER = True


def check(ctx: GateContext) -> list[Finding]:
    if ctx.event.command is None:
        return []
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
    done: set[int] = set()
    for position, cmd in enumerate(analysis.commands):
        own = index.get(cmd.program)
        if own is None and not anywhere:
            continue  # no rule gates this program: most commands stop here
        for groups in (own or (), anywhere):
            for then, required, items in groups:
                if (PREFILTER and not required.issubset(cmd.argv)) or not matches(then, cmd):
                    continue
                for item in items:
                    if id(item) in done:
                        continue
                    done.add(id(item))  # one finding per rule, for its first gated command
                    before = item["before"]
                    if _chained_after(analysis, position, before):
                        continue
                    if history is None:
                        verdict = WARN if ctx.level == STANDARD else ASK
                        out.append(finding(GATE, NO_HISTORY, verdict,
                                           f"`{_pattern_text(then)}` must follow a successful `{_pattern_text(before)}`, but this session's history is unavailable",
                                           segment=describe(cmd)))
                    elif not satisfied(history, before, then):
                        out.append(_missing(item, before, then, cmd))
    return out


def _missing(item: dict[str, Any], before: list[str], then: list[str], cmd: Command) -> Finding:
    verdict = item.get("verdict") if item.get("verdict") in (DENY, ASK, WARN) else DENY
    source = item.get("source") or ""
    rule = item.get("rule") or ""
    origin = f" ({rule}, {source})" if rule and source else (f" ({source or rule})" if source or rule else "")
    message = (f"`{_pattern_text(then)}` needs a successful `{_pattern_text(before)}` earlier in this session, "
               f"after the last `{_pattern_text(then)}`{origin}")
    result = finding(GATE, MISSING, str(verdict), message, segment=describe(cmd))
    result.hint = f"run `{_pattern_text(before)}` first and fix what fails, or `{_pattern_text(before)} && {describe(cmd)}`"
    return result


def _chained_after(analysis: ShellAnalysis, index: int, before: list[str]) -> bool:
    """True when an earlier command of this line matches `before` and only `&&` joins it to the gated one."""
    source = analysis.source
    target = analysis.commands[index]
    for cmd in analysis.commands[:index]:
        if cmd.origin or not matches(before, cmd) or not cmd.text or not target.text:
            continue
        start = source.find(cmd.text)
        end = source.find(target.text, start + len(cmd.text)) if start != -1 else -1
        if start == -1 or end == -1:
            continue
        between = source[start + len(cmd.text) : end]
        if between.strip() == "&&":
            return True
    return False


def satisfied(history: list[dict[str, Any]], before: list[str], then: list[str]) -> bool:
    """True when the latest `before` in `history` succeeded after the latest successful `then`."""
    from guidance.shell import analyze

    program = before[0]
    then_program = then[0]
    literal = not any(c in program + then_program for c in "*?[")
    for entry in reversed(history):
        command = entry.get("command")
        if not isinstance(command, str):
            continue
        if literal and program not in command and then_program not in command:
            continue
        ok = entry.get("ok") is True
        commands = analyze(command).commands
        # within one entry, later commands are more recent
        for cmd in reversed(commands):
            if matches(then, cmd) and ok:
                return False
            if matches(before, cmd):
                return ok
    return False
