"""Typed assertions over one run, and the registry that maps a suite's `type:` to each.

Every assertion is a pydantic model (its fields are what a suite file may set) with a
`check(ctx)` that returns an `Outcome`: passed, what was expected, what was seen, and why
it failed. ADR-G009's six types come first; the rest check the trajectory, the hooks, the
workspace and the run's budgets.
"""

from __future__ import annotations

import fnmatch
import importlib
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from cf_guidance.headless.collect import RunData, ToolCall

#: Characters of command output kept in an outcome.
MAX_OUTPUT_CHARS = 4000


class MissingCheck(LookupError):
    """A custom check's module or function cannot be found or imported."""


@dataclass
class Outcome:
    passed: bool
    expected: Any = None
    actual: Any = None
    reason: str = ""


@dataclass
class CheckContext:
    """What a check may look at: the run, its workspace (still on disk), the suite dir."""

    run: RunData
    task_id: str
    workspace: Path | None = None
    suite_dir: Path = field(default_factory=Path.cwd)
    env: dict[str, str] = field(default_factory=dict)


class Assertion(BaseModel):
    """Base of every assertion type; `type` selects the subclass in a suite file."""

    model_config = ConfigDict(extra="forbid")

    type: str
    description: str = ""

    #: One-line summary used when `description` is empty.
    summary: ClassVar[str] = ""

    def label(self) -> str:
        return self.description or self.default_label()

    def default_label(self) -> str:
        return self.type

    def check(self, ctx: CheckContext) -> Outcome:
        raise NotImplementedError


REGISTRY: dict[str, type[Assertion]] = {}


def register(cls: type[Assertion]) -> type[Assertion]:
    name = cls.model_fields["type"].default
    if not isinstance(name, str) or name in REGISTRY:
        raise TypeError(f"assertion {cls.__name__} needs a unique literal `type` default")
    REGISTRY[name] = cls
    return cls


def _listify(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


def _regex(pattern: str) -> str:
    """`pattern` if it compiles; a ValueError naming the problem otherwise (a suite error at load)."""
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regex {pattern!r}: {exc}") from None
    return pattern


def _regexes(patterns: Any) -> Any:
    if isinstance(patterns, list):
        for pattern in patterns:
            if isinstance(pattern, str):
                _regex(pattern)
    return patterns


class _ToolMatch(BaseModel):
    """Which calls count: tool name glob, regexes over input fields, ran or only attempted."""

    model_config = ConfigDict(extra="forbid")

    tool: str = "*"
    input: dict[str, str] = Field(default_factory=dict)
    ran: bool | None = None

    @field_validator("input")
    @classmethod
    def _input_regexes(cls, value: dict[str, str]) -> dict[str, str]:
        _regexes(list(value.values()))
        return value

    def matches(self, call: ToolCall) -> bool:
        if not fnmatch.fnmatchcase(call.name, self.tool):
            return False
        if self.ran is not None and call.ran != self.ran:
            return False
        for key, pattern in self.input.items():
            value = call.input.get(key)
            text = value if isinstance(value, str) else json.dumps(value)
            if value is None or not re.search(pattern, text):
                return False
        return True

    def pattern_text(self) -> str:
        args = ", ".join(f"{k}~/{v}/" for k, v in self.input.items())
        return f"{self.tool}({args})" if args else self.tool


def _calls(run: RunData, match: _ToolMatch) -> list[ToolCall]:
    return [call for call in run.tool_calls if match.matches(call)]


def _call_view(call: ToolCall) -> dict[str, Any]:
    view: dict[str, Any] = {"tool": call.name, "tool_use_id": call.id, "input": call.input, "ran": call.ran}
    if call.denied_by:
        view["denied_by"] = call.denied_by
    if call.rule:
        view["rule"] = call.rule
    if call.result:
        view["output_preview"] = call.result[:300]
    return view


def _text_match(pattern: str, text: str, *, regex: bool, ignore_case: bool) -> re.Match[str] | None:
    flags = re.IGNORECASE if ignore_case else 0
    return re.search(pattern if regex else re.escape(pattern), text, flags)


# -- ADR-G009 types ---------------------------------------------------------------------


@register
class OutputContains(Assertion):
    """The agent's output (its texts and final result) contains `expected`."""

    type: Literal["output-contains"] = "output-contains"
    expected: str
    regex: bool = False
    ignore_case: bool = False

    @model_validator(mode="after")
    def _expected_regex(self) -> OutputContains:
        if self.regex:
            _regex(self.expected)
        return self

    def default_label(self) -> str:
        return f"output contains {self.expected!r}"

    def check(self, ctx: CheckContext) -> Outcome:
        found = _text_match(self.expected, ctx.run.output, regex=self.regex, ignore_case=self.ignore_case)
        expected = {"pattern": self.expected, "regex": self.regex}
        if found:
            return Outcome(True, expected, {"matched_text": found.group(0)})
        return Outcome(False, expected, {"output_preview": ctx.run.output[:300]}, f"{self.expected!r} not in the output")


@register
class OutputNotContains(OutputContains):
    """The agent's output does not contain `expected`."""

    type: Literal["output-not-contains"] = "output-not-contains"  # type: ignore[assignment]

    def default_label(self) -> str:
        return f"output does not contain {self.expected!r}"

    def check(self, ctx: CheckContext) -> Outcome:
        found = _text_match(self.expected, ctx.run.output, regex=self.regex, ignore_case=self.ignore_case)
        expected = {"absent": self.expected, "regex": self.regex}
        if found:
            start = max(found.start() - 60, 0)
            context = ctx.run.output[start : found.end() + 60]
            return Outcome(False, expected, {"matched_text": found.group(0), "context": context},
                           f"output contains {found.group(0)!r}")
        return Outcome(True, expected, None)


@register
class FilesTouched(Assertion):
    """Each glob in `expected` matches a file the run created, modified or deleted.

    With `only: true` the run may touch nothing else (an allow-list of changes);
    `expected: []` means nothing may change.
    """

    type: Literal["files-touched"] = "files-touched"
    expected: list[str]
    only: bool = False

    _split = field_validator("expected", mode="before")(_listify)

    def default_label(self) -> str:
        if not self.expected:
            return "no file changed"
        return f"files touched: {', '.join(self.expected)}{' (only)' if self.only else ''}"

    def check(self, ctx: CheckContext) -> Outcome:
        touched = ctx.run.changes.touched
        only = self.only or not self.expected
        missing = [g for g in self.expected if not any(fnmatch.fnmatchcase(p, g) for p in touched)]
        extra = [p for p in touched if not any(fnmatch.fnmatchcase(p, g) for g in self.expected)] if only else []
        reasons = []
        if missing:
            reasons.append(f"not touched: {', '.join(missing)}")
        if extra:
            reasons.append(f"{'changed' if not self.expected else 'touched outside the list'}: {', '.join(extra)}")
        return Outcome(not reasons, {"files": self.expected, "only": only}, {"touched": touched}, "; ".join(reasons))


@register
class NoForbiddenCommands(Assertion):
    """No Bash command that ran matches any of `patterns` (regexes).

    A forbidden command a hook blocked did not run, so it passes; `attempted: true` counts
    attempts too.
    """

    type: Literal["no-forbidden-commands"] = "no-forbidden-commands"
    patterns: list[str] = Field(min_length=1)
    attempted: bool = False

    _split = field_validator("patterns", mode="before")(_listify)
    _compiles = field_validator("patterns")(_regexes)

    def default_label(self) -> str:
        return f"no command matching {' | '.join(self.patterns)} {'attempted' if self.attempted else 'ran'}"

    def check(self, ctx: CheckContext) -> Outcome:
        hits = []
        for call in ctx.run.tool_calls:
            if call.name != "Bash" or not (call.ran or self.attempted):
                continue
            for pattern in self.patterns:
                if re.search(pattern, call.command):
                    hits.append({"command": call.command, "pattern": pattern, "ran": call.ran})
        reason = f"forbidden command {'attempted' if self.attempted else 'ran'}: {hits[0]['command']}" if hits else ""
        return Outcome(not hits, {"patterns": self.patterns, "attempted": self.attempted}, {"matches": hits}, reason)


@register
class TestsPass(Assertion):
    """`command` exits 0 when run in the workspace after the agent is done."""

    type: Literal["tests-pass"] = "tests-pass"
    command: str
    timeout: float = Field(300.0, gt=0)

    def default_label(self) -> str:
        return f"tests pass: {self.command}"

    def check(self, ctx: CheckContext) -> Outcome:
        expected = {"command": self.command, "exit_code": 0}
        if ctx.workspace is None:
            return Outcome(False, expected, None, "no workspace to run the tests in")
        env = {**os.environ, **ctx.env}
        # A session of its own, so a timeout kills the command's children too (they hold the pipes).
        proc = subprocess.Popen(["bash", "-c", self.command], cwd=ctx.workspace, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return Outcome(False, expected, None, f"{self.command!r} timed out after {self.timeout:g}s")
        actual = {"exit_code": proc.returncode, "output": output[-MAX_OUTPUT_CHARS:]}
        return Outcome(proc.returncode == 0, expected, actual,
                       "" if proc.returncode == 0 else f"{self.command!r} exited {proc.returncode}")


@register
class Custom(Assertion):
    """A Python callable `module:function(ctx, **args)`.

    It fails by raising AssertionError or returning False (or `(False, reason)`); returning
    None, True or `(True, ...)` passes. The suite's directory is importable.
    """

    type: Literal["custom"] = "custom"
    function: str = Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
    args: dict[str, Any] = Field(default_factory=dict)

    def default_label(self) -> str:
        return f"custom check {self.function}"

    def resolve(self, suite_dir: Path) -> Callable[..., Any]:
        """The check function, imported with the suite's directory importable.

        Raises MissingCheck (one line) when the module cannot be imported or has no such
        function: the suite loader turns it into a suite error naming file:line.
        """
        module_name, _, attr = self.function.partition(":")
        sys.path.insert(0, str(suite_dir))
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            raise MissingCheck(f"module {exc.name!r} not found (looked in {suite_dir} and on sys.path)") from None
        except Exception as exc:  # the module itself is broken: say how
            raise MissingCheck(f"module {module_name!r} cannot be imported ({type(exc).__name__}: {exc})") from None
        finally:
            sys.path.remove(str(suite_dir))
        function = getattr(module, attr, None)
        if not callable(function):
            raise MissingCheck(f"module {module_name!r} has no function {attr!r}")
        return function  # type: ignore[no-any-return]

    def check(self, ctx: CheckContext) -> Outcome:
        expected = {"function": self.function, "args": self.args}
        try:
            value = self.resolve(ctx.suite_dir)(ctx, **self.args)
        except MissingCheck as exc:
            return Outcome(False, expected, None, f"custom check {self.function}: {exc}")
        except AssertionError as exc:
            return Outcome(False, expected, None, str(exc) or "custom check failed")
        except Exception as exc:  # a broken check is a failed expectation, reported, not a crash
            return Outcome(False, expected, None, f"custom check raised {type(exc).__name__}: {exc}")
        if isinstance(value, Outcome):
            return value
        if isinstance(value, tuple) and value:
            return Outcome(bool(value[0]), expected, None, "" if value[0] else str(value[1] if len(value) > 1 else ""))
        passed = value is None or bool(value)
        return Outcome(passed, expected, {"returned": repr(value)[:200]}, "" if passed else "custom check returned false")


# -- trajectory ------------------------------------------------------------------------------


@register
class ToolCalled(_ToolMatch, Assertion):
    """A call of `tool` (glob) whose input matches `input` (field -> regex) happened.

    `ran: true` counts only calls that executed, `ran: false` only blocked ones; `min`/`max`
    bound the number of matching calls.
    """

    type: Literal["tool-called"] = "tool-called"
    min: int = Field(1, ge=0)
    max: int | None = Field(None, ge=0)

    def default_label(self) -> str:
        return f"tool called: {self.pattern_text()}"

    def check(self, ctx: CheckContext) -> Outcome:
        calls = _calls(ctx.run, self)
        ok = len(calls) >= self.min and (self.max is None or len(calls) <= self.max)
        expected = {"tool": self.tool, "input": self.input, "ran": self.ran, "min": self.min, "max": self.max}
        reason = "" if ok else f"{len(calls)} matching call(s) of {self.pattern_text()}"
        seen = [f"{c.name} {c.command or json.dumps(c.input)[:80]}" for c in ctx.run.tool_calls]
        return Outcome(ok, expected, {"count": len(calls), "calls": [_call_view(c) for c in calls], "all_calls": seen}, reason)


@register
class ToolNotCalled(_ToolMatch, Assertion):
    """No call of `tool` with matching input happened (attempts count unless `ran: true`)."""

    type: Literal["tool-not-called"] = "tool-not-called"

    def default_label(self) -> str:
        return f"tool not called: {self.pattern_text()}"

    def check(self, ctx: CheckContext) -> Outcome:
        calls = _calls(ctx.run, self)
        reason = f"called: {calls[0].name} {calls[0].command or json.dumps(calls[0].input)[:120]}" if calls else ""
        return Outcome(not calls, {"tool": self.tool, "input": self.input, "ran": self.ran},
                       {"calls": [_call_view(c) for c in calls]}, reason)


@register
class ToolOrder(Assertion):
    """The calls in `sequence` happened in this order (others may come between)."""

    type: Literal["tool-order"] = "tool-order"
    sequence: list[_ToolMatch] = Field(min_length=2)

    def default_label(self) -> str:
        return "tool order: " + " -> ".join(step.pattern_text() for step in self.sequence)

    def check(self, ctx: CheckContext) -> Outcome:
        position = 0
        matched: list[str] = []
        for call in ctx.run.tool_calls:
            if position < len(self.sequence) and self.sequence[position].matches(call):
                matched.append(call.id)
                position += 1
        ok = position == len(self.sequence)
        reason = "" if ok else f"step {position + 1} ({self.sequence[position].pattern_text()}) not seen in order"
        order = [f"{c.name} {c.command}".strip() for c in ctx.run.tool_calls]
        return Outcome(ok, {"sequence": [s.pattern_text() for s in self.sequence]}, {"matched": matched, "calls": order}, reason)


# -- hooks and permissions ----------------------------------------------------------------


class _Denial(_ToolMatch, Assertion):
    rule: str | None = None  # glob over the rule code

    def _denied(self, call: ToolCall) -> bool:
        raise NotImplementedError

    def check(self, ctx: CheckContext) -> Outcome:
        candidates = [c for c in _calls(ctx.run, self) if self._denied(c)]
        hits = [c for c in candidates if self.rule is None or fnmatch.fnmatchcase(c.rule, self.rule)]
        expected = {"tool": self.tool, "input": self.input, "rule": self.rule}
        if hits:
            return Outcome(True, expected, _call_view(hits[0]))
        if candidates:
            rules = ", ".join(sorted({c.rule or "(no code)" for c in candidates}))
            return Outcome(False, expected, [_call_view(c) for c in candidates], f"denied by rule {rules}, not {self.rule}")
        attempts = [c for c in ctx.run.tool_calls if self.matches(c)]
        reason = f"{len(attempts)} matching call(s), none {self.verb}" if attempts else f"no call of {self.pattern_text()}"
        return Outcome(False, expected, [_call_view(c) for c in attempts], reason)

    verb: ClassVar[str] = "denied"


@register
class HookBlocked(_Denial):
    """A hook denied a matching call (exit 2 or a JSON deny), optionally by rule code (glob)."""

    type: Literal["hook-blocked"] = "hook-blocked"
    verb: ClassVar[str] = "blocked by a hook"

    def default_label(self) -> str:
        return f"hook blocked {self.pattern_text()}{' with ' + self.rule if self.rule else ''}"

    def _denied(self, call: ToolCall) -> bool:
        return call.denied_by == "hook"


@register
class PermissionDenied(_Denial):
    """A matching call was denied, by a hook or a permission rule (`permission_denials`)."""

    type: Literal["permission-denied"] = "permission-denied"

    def default_label(self) -> str:
        return f"permission denied for {self.pattern_text()}{' with ' + self.rule if self.rule else ''}"

    def _denied(self, call: ToolCall) -> bool:
        return bool(call.denied_by)


# -- workspace -------------------------------------------------------------------------------


class _FileAssertion(Assertion):
    path: str
    bucket: ClassVar[str] = ""

    def _paths(self, ctx: CheckContext) -> list[str]:
        return [p for p in getattr(ctx.run.changes, self.bucket) if fnmatch.fnmatchcase(p, self.path)]

    def check(self, ctx: CheckContext) -> Outcome:
        hits = self._paths(ctx)
        changes = ctx.run.changes
        actual = {"created": changes.created, "modified": changes.modified, "deleted": changes.deleted}
        if not hits:
            return Outcome(False, {"path": self.path, "change": self.bucket}, actual, f"no {self.bucket} file matches {self.path}")
        return Outcome(True, {"path": self.path, "change": self.bucket}, {"files": hits})


class _ContentAssertion(_FileAssertion):
    contains: str | None = None  # regex the new content must match

    @field_validator("contains")
    @classmethod
    def _contains_regex(cls, value: str | None) -> str | None:
        return None if value is None else _regex(value)

    def check(self, ctx: CheckContext) -> Outcome:
        outcome = super().check(ctx)
        if not outcome.passed or self.contains is None or ctx.workspace is None:
            return outcome
        for rel in self._paths(ctx):
            try:
                text = (ctx.workspace / rel).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if re.search(self.contains, text):
                return outcome
        return Outcome(False, {"path": self.path, "contains": self.contains}, outcome.actual,
                       f"no {self.bucket} file matching {self.path} contains /{self.contains}/")


@register
class FileCreated(_ContentAssertion):
    """A file matching `path` (glob) was created; optionally its content matches `contains`."""

    type: Literal["file-created"] = "file-created"
    bucket: ClassVar[str] = "created"

    def default_label(self) -> str:
        return f"file created: {self.path}"


@register
class FileModified(_ContentAssertion):
    """A file matching `path` was modified; optionally its content matches `contains`."""

    type: Literal["file-modified"] = "file-modified"
    bucket: ClassVar[str] = "modified"

    def default_label(self) -> str:
        return f"file modified: {self.path}"


@register
class FileDeleted(_FileAssertion):
    """A file matching `path` was deleted."""

    type: Literal["file-deleted"] = "file-deleted"
    bucket: ClassVar[str] = "deleted"

    def default_label(self) -> str:
        return f"file deleted: {self.path}"


@register
class FileUnchanged(Assertion):
    """No file matching `path` (glob) was created, modified or deleted."""

    type: Literal["file-unchanged"] = "file-unchanged"
    path: str

    def default_label(self) -> str:
        return f"file unchanged: {self.path}"

    def check(self, ctx: CheckContext) -> Outcome:
        hits = [p for p in ctx.run.changes.touched if fnmatch.fnmatchcase(p, self.path)]
        return Outcome(not hits, {"path": self.path, "change": "none"}, {"touched": hits},
                       f"changed: {', '.join(hits)}" if hits else "")


@register
class NoOutsideWrites(Assertion):
    """No tool call that ran wrote outside the workspace, as the tool calls show it.

    Writes into the run's own HOME and temp directory (removed with the run) count only with
    `include_run_dirs: true`; `allow` lists globs of absolute paths that may be written;
    `attempted: true` also counts calls a hook denied and writes the sandbox (`--sandbox`)
    made fail.
    """

    type: Literal["no-outside-writes"] = "no-outside-writes"
    allow: list[str] = Field(default_factory=list)
    attempted: bool = False
    include_run_dirs: bool = False

    _split = field_validator("allow", mode="before")(_listify)

    def default_label(self) -> str:
        return "no write outside the workspace"

    def check(self, ctx: CheckContext) -> Outcome:
        hits = [w for w in ctx.run.outside_writes
                if ((w["ran"] and not w.get("sandboxed")) or self.attempted)
                and (w["scope"] == "machine" or self.include_run_dirs)
                and not any(fnmatch.fnmatchcase(w["path"], glob) for glob in self.allow)]
        expected = {"allow": self.allow, "attempted": self.attempted, "include_run_dirs": self.include_run_dirs}
        reason = f"{hits[0]['tool']} wrote {hits[0]['path']}" + (f" (and {len(hits) - 1} more)" if len(hits) > 1 else "") if hits else ""
        return Outcome(not hits, expected, {"writes": hits}, reason)


# -- budgets and status --------------------------------------------------------------------------


@register
class MaxTurns(Assertion):
    """The run took at most `max` model turns."""

    type: Literal["max-turns"] = "max-turns"
    max: int = Field(ge=0)

    def default_label(self) -> str:
        return f"at most {self.max} turns"

    def check(self, ctx: CheckContext) -> Outcome:
        turns = ctx.run.num_turns
        return Outcome(turns <= self.max, {"max_turns": self.max}, {"turns": turns},
                       f"{turns} turns > {self.max}" if turns > self.max else "")


@register
class CostBudget(Assertion):
    """The run cost at most `max_usd` (from the result's total_cost_usd)."""

    type: Literal["cost-budget"] = "cost-budget"
    max_usd: float = Field(ge=0)

    def default_label(self) -> str:
        return f"cost at most ${self.max_usd:g}"

    def check(self, ctx: CheckContext) -> Outcome:
        cost = ctx.run.cost_usd
        ok = cost <= self.max_usd
        return Outcome(ok, {"max_usd": self.max_usd}, {"cost_usd": cost}, "" if ok else f"cost ${cost:.4f} > ${self.max_usd:g}")


@register
class TokenBudget(Assertion):
    """The run used at most `max_tokens` tokens of `kind` (total, input or output)."""

    type: Literal["token-budget"] = "token-budget"
    max_tokens: int = Field(ge=0)
    kind: Literal["total", "input", "output"] = "total"

    def default_label(self) -> str:
        return f"at most {self.max_tokens} {self.kind} tokens"

    def check(self, ctx: CheckContext) -> Outcome:
        used = ctx.run.tokens()[self.kind]
        ok = used <= self.max_tokens
        return Outcome(ok, {"max_tokens": self.max_tokens, "kind": self.kind}, {"tokens": used},
                       "" if ok else f"{used} {self.kind} tokens > {self.max_tokens}")


@register
class ExitStatus(Assertion):
    """The client exited with `expected` (0 unless a result was an error), optional subtype."""

    type: Literal["exit-status"] = "exit-status"
    expected: int = 0
    subtype: str | None = None

    def default_label(self) -> str:
        return f"exit status {self.expected}" + (f", subtype {self.subtype}" if self.subtype else "")

    def check(self, ctx: CheckContext) -> Outcome:
        subtype = ctx.run.result.get("subtype")
        actual = {"exit_code": ctx.run.exit_code, "subtype": subtype, "terminal_reason": ctx.run.result.get("terminal_reason")}
        reasons = []
        if ctx.run.exit_code != self.expected:
            reasons.append(f"exit code {ctx.run.exit_code}, expected {self.expected}")
        if self.subtype is not None and subtype != self.subtype:
            reasons.append(f"subtype {subtype}, expected {self.subtype}")
        return Outcome(not reasons, {"exit_code": self.expected, "subtype": self.subtype}, actual, "; ".join(reasons))


def parse_assertion(data: Any) -> Assertion:
    """Validate one assertion mapping; an unknown `type` names the known ones."""
    if not isinstance(data, dict):
        raise ValueError("an assertion is a mapping with a `type`")
    kind = data.get("type")
    cls = REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown assertion type {kind!r}; known: {', '.join(sorted(REGISTRY))}")
    return cls.model_validate(data)

