"""What each hook command does. `guidance.hooks.dispatch` picks the handler and owns failures.

Hot path module: standard library only; the policy compiler (markdown-it, pydantic) is
reached only through `load_bundle` on a cache miss (cf_guidance.policy.cache makes
site-packages importable first: the wired command runs `python -S`).

Pre-tool flow: decode → normalise → built-in guard (the gates that need no compiled bundle:
catastrophe, protected paths, threat, secrets, destructive, shell parse) → bundle → engine
(every gate, with the bundle) → spool the decision (never waits on the ledger's lock) →
answer. The built-in guard's deny or ask is kept on the call, so that a timeout or an error
while the bundle loads (a cold compile on a loaded machine) cannot turn it into an allow.
What only some commands need (shell analysis, gates, engine, retriever) is imported inside
their handlers, so that a post event pays for none of it.
"""

from __future__ import annotations

import os

from cf_guidance import _fastjson, state
from cf_guidance._statefile import state_problem
from cf_guidance.decision import DENY, Decision, Finding, decide
from cf_guidance.errors import EventError, GuidanceError, StateError
from cf_guidance.jobs import spool

from . import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from cf_guidance.event import Event
    from cf_guidance.shell.model import ShellAnalysis

#: Rule code of the deny that records a spool failure under fail-closed.
SPOOL_RULE = "spool-unwritable"
#: Rule code of the deny when a policy file cannot be applied under fail-closed.
UNAPPLIED_RULE = "policy-unapplied"


class BadInput(EventError):
    """The hook's stdin is not an event this command can use (one line, no traceback)."""


class Call:
    """One hook invocation: its input, where it runs, and what was decided so far."""

    __slots__ = (
        "name",
        "hook_event",
        "environ",
        "fail_closed",
        "data",
        "payload",
        "project_dir",
        "state_dir",
        "builtin",
        "warnings",
        "fingerprint",
        "state_problem",
        "near",
        "notices",
    )

    def __init__(
        self,
        name: str,
        hook_event: str,
        environ: Mapping[str, str],
        fail_closed: bool,
    ) -> None:
        self.name = name
        self.hook_event = hook_event
        self.environ = environ
        self.fail_closed = fail_closed
        self.data = b""
        self.payload: dict[str, Any] | None = None
        self.project_dir = ""
        self.state_dir = ""
        #: The built-in guard's decision (None until it ran), kept so that no later failure can
        #: turn its deny or ask into an allow (see dispatch._failure).
        self.builtin: Decision | None = None
        #: One-line warnings for stderr, added to whatever the answer is.
        self.warnings: list[str] = []
        #: The call's fingerprint (cf_guidance.session.call_key), kept in its decision record so
        #: that the next calls can tell a retry of it from new work.
        self.fingerprint = ""
        #: Why the state directory cannot be trusted ("" when it can): then the call is decided
        #: from CLAUDE.md alone, without the cache or session state (see cf_guidance._statefile).
        self.state_problem = ""
        #: The paths the call works in (its cwd; a tool call's paths): the bundle cache checks
        #: only the directories on their way for new policy files (see load_bundle). None: all.
        self.near: list[str] | None = None
        #: What the user must see with this call's answer whatever it is (a systemMessage and
        #: stderr: protocol.with_notice, applied by dispatch.run).
        self.notices: list[str] = []

    def decode(self) -> dict[str, Any]:
        """The event object from stdin; BadInput for anything else."""
        data = self.data
        if not data.strip():
            raise BadInput(f"{self.name}: empty stdin; the agent sends the event as JSON on stdin")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(f"{self.name}: stdin is not UTF-8 (byte {exc.start}); send the event JSON unchanged") from None
        try:
            payload = _fastjson.loads(text)
        except (ValueError, RecursionError) as exc:
            raise BadInput(f"{self.name}: stdin is not JSON ({str(exc)[:80]}); send the event JSON unchanged") from None
        if not isinstance(payload, dict):
            raise BadInput(f"{self.name}: the event must be a JSON object, got {type(payload).__name__}")
        event_name = payload.get("hook_event_name")
        if event_name is not None and event_name != self.hook_event:
            raise BadInput(
                f"{self.name} handles {self.hook_event} events, got {str(event_name)[:60]!r}; "
                "wire it as `cf-guidance init` does"
            )
        self.payload = payload
        cwd = payload.get("cwd")
        self.project_dir = state.project_dir(self.environ, cwd if isinstance(cwd, str) else "")
        self.state_dir = state.state_dir(self.project_dir, self.environ)
        self.state_problem = state_problem(self.state_dir)
        if self.state_problem:
            self.notices.append(self.state_problem)
        # Where the agent works, until a tool call says more (pre_tool): a prompt or session
        # start checks the directories on the way there for new policy files, not every one.
        self.near = [cwd] if isinstance(cwd, str) and cwd.startswith("/") else []
        return payload


# -- pre-tool ------------------------------------------------------------------------------


def pre_tool(call: Call) -> protocol.Answer:
    from cf_guidance.event import normalise

    payload = call.decode()
    event = normalise(payload, project_dir=call.project_dir)
    shell = _analysed(event)
    guard = call.builtin = _builtin(call, event, shell)
    if _final(guard):
        decision = guard  # nothing in a bundle could lift it: no need to load one
    else:
        call.near = _worked_paths(event, shell)
        bundle = load_bundle(call, part="decide")
        decision = _evaluate(call, bundle, event, shell)
        unapplied = unapplied_message(bundle)
        if unapplied:
            call.notices.append(unapplied)
            if call.fail_closed and decision.verdict != DENY:
                finding = Finding("hooks", UNAPPLIED_RULE, DENY, unapplied.rstrip(".") + ", and GUIDANCE_EVENT_FAIL_CLOSED=1.",
                                  hint="fix the policy file as said, then run `cf-guidance verify`.")
                decision = decide([finding, *decision.findings])
    return _answer_and_record(call, decision)


def unapplied_message(bundle: dict[str, Any]) -> str:
    """One sentence when a policy file exists but its rules could not be compiled (unreadable,
    not a regular file, too big, binary: status "unusable"), else ""."""
    notes = [str(source.get("note") or source.get("name")) for source in bundle.get("sources") or ()
             if isinstance(source, dict) and source.get("status") == "unusable"]
    if not notes:
        return ""
    more = f" (and {len(notes) - 2} more)" if len(notes) > 2 else ""
    return ("this project's CLAUDE.md rules are NOT being applied, only the built-in checks: "
            + "; ".join(notes[:2]) + more + ".")


def _analysed(event: Event) -> ShellAnalysis | None:
    """The shell analysis both stages share, or None to let the engine analyse (and report)."""
    if event.command is None:
        return None
    from cf_guidance.shell import analyze

    try:
        return analyze(event.command)
    except Exception:
        return None  # the engine tries again and turns the failure into a GATE-ERROR finding


def _worked_paths(event: Event, shell: ShellAnalysis | None) -> list[str] | None:
    """Where this call works (cf_guidance.gates.scope): the cache checks only those directories
    for new policy files. None (check them all) when the command could not be analysed."""
    if event.command is not None and shell is None:
        return None
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.scope import worked_paths

    ctx = GateContext(event, {})
    ctx._shell = shell
    return worked_paths(ctx)


def _builtin(call: Call, event: Event, shell: ShellAnalysis | None) -> Decision:
    """The built-in guard: the engine with an empty bundle, on the gates that need none.

    Runs at the standard level (the bundle's level is not known yet); higher levels only add
    findings, which the full evaluation then reports.
    """
    from cf_guidance.engine import evaluate
    from cf_guidance.gates.registry import BUILTIN

    return evaluate({}, event, fail_closed=call.fail_closed, gates=BUILTIN, shell=shell)


def _final(guard: Decision) -> bool:
    """A deny no bundle can lift: from a gate the project allowlist does not cover (a higher
    level never weakens a finding)."""
    from cf_guidance.gates.registry import ALLOWLISTABLE

    return guard.verdict == DENY and any(f.verdict == DENY and f.gate not in ALLOWLISTABLE for f in guard.findings)


def _evaluate(call: Call, bundle: dict[str, Any], event: Event, shell: ShellAnalysis | None) -> Decision:
    from cf_guidance.engine import evaluate
    from cf_guidance.session import extras_for

    extras = extras_for(event, call.state_dir, str(bundle.get("key") or ""), trusted=not call.state_problem)
    call.fingerprint = extras["call"]
    # level=None: the engine takes the bundle's level (CLAUDE.md `level strict`).
    return evaluate(bundle, event, extras=extras, fail_closed=call.fail_closed, shell=shell)


def _answer_and_record(call: Call, decision: Decision) -> protocol.Answer:
    record = decision.to_dict()
    record["hook"] = call.name
    if call.fingerprint:
        record["call"] = call.fingerprint
    if not record_decision(call, record) and call.fail_closed and decision.verdict != DENY:
        finding = Finding(
            "hooks",
            SPOOL_RULE,
            DENY,
            "cf-guidance cannot record this decision (the spool is not writable) and GUIDANCE_EVENT_FAIL_CLOSED=1.",
            hint="make the state directory writable, or run `cf-guidance verify`.",
        )
        decision = decide([finding])
    return protocol.for_decision(decision)


def record_decision(call: Call, record: dict[str, Any]) -> bool:
    """Spool a pre-tool decision for the ledger before the answer leaves; False (and a warning)
    if the spool is unusable. Durable first, answer second: a hook or warm server killed right
    after answering has already recorded what it answered."""
    if call.payload is None or not call.state_dir:
        return False
    try:
        spool.enqueue(call.state_dir, spool.DECISION, call.payload, record, raw=call.data)
    except StateError as exc:
        _unrecorded(call, str(exc))
        return False
    # No worker start here: the next post event (PostToolUse, Stop, SessionEnd) starts one,
    # and session rules read decisions still in the spool. The pre-tool path stays minimal.
    return True


def _unrecorded(call: Call, problem: str) -> None:
    """Say that an event could not be recorded: a line on stderr now, and a mark `status` shows."""
    call.warnings.append(problem)
    spool.note_failure(call.state_dir, problem)


# -- bundle --------------------------------------------------------------------------------


def load_bundle(call: Call, part: str = "full") -> dict[str, Any]:
    """The project's compiled bundle (a cache miss compiles it, after `site.main()`: see cache).

    Pre-tool decisions ask for the "decide" part: the checks and settings, without the shard
    texts and retrieval index (a fifth of the bytes to decode), having set `call.near`, the
    paths the call works in (only the directories on their way are checked for new policy files).
    """
    from cf_guidance.policy.cache import load_bundle as load

    return load(call.project_dir, call.state_dir, part=part, use_cache=not call.state_problem, near=call.near,
                detached=True)


# -- post events ---------------------------------------------------------------------------


def post_event(call: Call) -> protocol.Answer:
    """Spool the event for the worker and return at once (no output: post events never block)."""
    payload = call.decode()
    try:
        spool.enqueue(call.state_dir, call.name, payload, raw=call.data)
    except StateError as exc:
        _unrecorded(call, str(exc))
        return protocol.allow()
    return protocol.Answer(worker=(call.project_dir, call.state_dir))


# -- context -------------------------------------------------------------------------------


def user_prompt(call: Call) -> protocol.Answer:
    from cf_guidance.policy.retriever import context_text, retrieve

    payload = call.decode()
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return protocol.allow()
    text = context_text(retrieve(load_bundle(call), prompt))
    return protocol.context(call.hook_event, text)


def constitution_text(bundle: dict[str, Any]) -> str:
    constitution = bundle.get("constitution") or {}
    text = constitution.get("text") if isinstance(constitution, dict) else ""
    return text.strip() if isinstance(text, str) else ""


def session_restore(call: Call) -> protocol.Answer:
    """The constitution for the model, and for the user whatever they must know about: a policy
    file that cannot be applied, a failed worker, events that could not be recorded."""
    call.decode()
    bundle = load_bundle(call)
    call.notices.extend(problem for problem in (unapplied_message(bundle), *state_problems(call.state_dir)) if problem)
    return protocol.context(call.hook_event, constitution_text(bundle))


def state_problems(state_dir: str) -> list[str]:
    """One sentence per problem of the state directory a person must hear about at session start."""
    from cf_guidance._statefile import read_bytes

    layout = state.StateLayout(state_dir)
    problems = []
    try:
        worker = _fastjson.loads(read_bytes(layout.worker_status, 1 << 16).decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        worker = None
    if isinstance(worker, dict) and worker.get("state") == "failed":
        problems.append(f"the worker that records decisions failed ({str(worker.get('error', ''))[:300]}); "
                        "they wait in the spool: see `cf-guidance jobs status`.")
    try:
        note = _fastjson.loads(read_bytes(layout.unrecorded, 4096).decode("utf-8") or "{}")
    except FileNotFoundError:
        note = None
    except (OSError, ValueError, UnicodeDecodeError):
        note = {}
    if isinstance(note, dict):
        why = str(note.get("problem") or "the spool could not be written")[:300]
        problems.append(f"an event could not be recorded ({why}); see `cf-guidance status`.")
    return problems


def compact(call: Call) -> protocol.Answer:
    call.decode()
    return protocol.plain(constitution_text(load_bundle(call)))


# -- informational -------------------------------------------------------------------------


def _here(call: Call) -> None:
    call.project_dir = state.project_dir(call.environ)
    call.state_dir = state.state_dir(call.project_dir, call.environ)


def status(call: Call) -> protocol.Answer:
    """Where this hook would look and what it would use, for a person at a terminal."""
    _here(call)
    layout = state.StateLayout(call.state_dir)
    lines = [
        f"project:      {call.project_dir}",
        f"state:        {call.state_dir}" + ("" if os.path.isdir(call.state_dir) else "  (missing: run `cf-guidance init`)"),
        f"fail mode:    {'closed' if call.fail_closed else 'open'}",
        f"key file:     {'present' if os.path.exists(layout.ledger_key) else 'missing'}",
        f"spool:        {len(spool.pending(call.state_dir))} job(s) waiting",
    ]
    try:
        bundle = load_bundle(call)
    except GuidanceError as exc:
        lines.append(f"policy:       cannot load: {exc}")
    else:
        shards = bundle.get("shards") or []
        checks = bundle.get("checks") or []
        settings = bundle.get("settings") or {}
        lines.append(f"policy:       {len(shards)} rule(s), {len(checks)} check(s), level {settings.get('level') or 'standard'}")
    return protocol.Answer("\n".join(lines) + "\n")


def _count(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def stats(call: Call) -> protocol.Answer:
    """Decisions by verdict and by rule, from the ledger and the jobs still in the spool."""
    _here(call)
    verdicts: dict[str, int] = {}
    rules: dict[str, int] = {}
    for record in _decision_records(call.state_dir):
        verdict = record.get("decision")
        if isinstance(verdict, str):
            _count(verdicts, verdict)
        rule = record.get("rule")
        if isinstance(rule, str) and rule:
            _count(rules, rule)
    total = sum(verdicts.values())
    lines = [f"decisions: {total}"]
    lines += [f"  {verdict:<6} {n}" for verdict, n in sorted(verdicts.items())]
    if rules:
        lines.append("rules that fired:")
        lines += [f"  {rule:<24} {n}" for rule, n in sorted(rules.items(), key=lambda item: (-item[1], item[0]))[:20]]
    return protocol.Answer("\n".join(lines) + "\n")


def _decision_records(state_dir: str) -> list[dict[str, Any]]:
    """Decision objects in the ledger files (JSON Lines) and in spooled jobs."""
    found: list[dict[str, Any]] = []
    ledger_dir = state.StateLayout(state_dir).ledger
    try:
        names = sorted(name for name in os.listdir(ledger_dir) if name.endswith(".jsonl"))
    except OSError:
        names = []
    for name in names:
        with open(os.path.join(ledger_dir, name), "rb") as handle:
            for line in handle:
                try:
                    record = _fastjson.loads(line.decode("utf-8"))
                except (ValueError, UnicodeDecodeError):
                    continue  # a torn last line: `cf-guidance ledger verify` reports it
                if isinstance(record, dict) and record.get("kind") == spool.DECISION:
                    inner = record.get("decision")
                    found.append(inner if isinstance(inner, dict) else record)
    for path in spool.pending(state_dir):
        try:
            job = spool.read_job(path)
        except StateError:
            continue
        if job.get("kind") == spool.DECISION and isinstance(job.get("decision"), dict):
            found.append(job["decision"])
    return found
