"""Session state for rules that need a session's past: sequence rules, trust, rate and loop limits.

Hot path module: standard library only, no `typing` at run time, and no ledger lock.

`extras_for(event, state_dir, policy_key)` returns the extras the engine passes to gates:

    history            [{"command", "ok", "seq", "ts"}] Bash commands of this session, and
                       [{"edited", "ok", "seq", "ts"}] the files its file tools changed (absolute
                       paths; consecutive edits share one entry), oldest first: what the worker
                       has applied (``<state>/sessions/<id>.json``) plus post-bash/post-edit/
                       post-failure jobs still waiting in the spool (seq None)
    reads              [paths] the files this session's Read calls were let read
                       (absolute, most recent last, at most MAX_READS): steps of rules such as
                       "read `docs/architecture.md` before changing `core/`" (cf_guidance.gates.sequence)
    trust_score        this agent's score in this session, recovered to now (cf_guidance.trust)
    trust_tier         trusted | standard | probation | untrusted
    rate_per_min       decisions this agent of this session received in the last 60 s (applied
                       + spooled), not counting the rate limiter's own denials (RAT*)
    rate_base          base decisions per minute before the trust multiplier (0: no rate limit)
    call               this call's fingerprint (tool, input and policy version; see `call_key`)
    repeats            None, or when this call repeats what went wrong just before, a dict:
                       `denials`, how many of this agent's latest decisions in a row denied this
                       very call (by rules that do not depend on session state), `rule`, the
                       last one's rule, and `failures`, how many of the session's latest Bash
                       commands in a row were this command and failed

The worker keeps one summary file per session with `apply_record`, so a hook reads one small
file instead of the ledger::

    {"session_id", "seq", "history": [...], "reads": [...], "decisions": [[epoch, agent, verdict, rule, call]],
     "agents": {agent: {"score", "updated", "allow", "warn", "ask", "deny"}}}

Every read is checked (`summary_problem`): a summary of the wrong shape is moved to the state's
quarantine, a `state-repair` job asks the worker to rebuild it from the ledger, and the call
goes on as if the session had no past.
"""

from __future__ import annotations

import os
import time

from cf_guidance import _fastjson, trust
from cf_guidance._fnv import fnv1a32
from cf_guidance._statefile import quarantine, read_bytes
from cf_guidance.errors import EventError, StateError
from cf_guidance.event import READ, WRITE, normalise
from cf_guidance.jobs import spool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cf_guidance.event import Event

SESSIONS_DIR = "sessions"
#: Bash commands kept per session summary (oldest dropped first). The hook parses the summary
#: on every pre-tool call, so it stays small: ~200 commands is ~1 ms of JSON at most.
MAX_HISTORY = 200
#: Decisions kept per session summary, and how far back (the rate window is 60 s).
MAX_DECISIONS = 1_000
DECISION_WINDOW_S = 120.0
RATE_WINDOW_S = 60.0
#: A summary file bigger than this is not one the worker wrote.
MAX_SUMMARY_BYTES = 4 << 20
#: Spool jobs read per call at most (newest first); the worker normally keeps the spool short.
MAX_PENDING_READ = 256
RATE_BASE_ENV = "GUIDANCE_RATE_LIMIT_PER_MIN"
#: Tool calls a minute for one agent of one session at the standard tier: eight sub-agents each
#: get their own, and 30 parallel reads a turn, several turns a minute, stay well below it.
DEFAULT_RATE_BASE = 240
#: Job kinds that carry a Bash command's outcome: kind -> succeeded.
OUTCOME_KINDS = {"post-bash": True, "post-failure": False}
#: The job kind of a file tool's change ("after changing X, run Y" rules need what changed since Y).
EDIT_KIND = "post-edit"
#: Paths one edit entry keeps: a run of edits with no command between them is one entry, so a
#: session of many edits does not push its commands out of the history; past this many different
#: paths the entry says `more` (some change not listed: it matches any scope).
MAX_EDITED_PATHS = 64
DECISION_KIND = spool.DECISION
#: Files read kept per session summary (a read is known from the pre-tool decision that let it
#: through: no post-read hook runs on the most frequent tool call). A set, not history entries:
#: a read step asks whether the file was read, not what came between.
MAX_READS = 256
#: The tools whose call reads a whole file
READ_TOOLS = ("Read", "NotebookRead")
#: Verdicts under which a read call goes ahead at once (an asked one may be refused).
_READ_GOES_AHEAD = ("allow", "warn")
#: Job kind asking the worker to rebuild a derived file from the ledger.
REPAIR_KIND = "state-repair"
#: A denial by these rules does not make the next identical call a "retry of a denied call":
#: sequence rules depend on what ran since, the others on the hook, not on the call.
LOOP_NEUTRAL = ("SEQ",) + trust.NEUTRAL_RULES
RATE_RULES = ("RAT",)


def _safe_name(session_id: str) -> str:
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in session_id)[:128]
    return name.lstrip(".") or "_"


def summary_path(state_dir: str, session_id: str) -> str:
    return os.path.join(state_dir, SESSIONS_DIR, _safe_name(session_id) + ".json")


def empty_summary(session_id: str) -> dict[str, Any]:
    return {"session_id": session_id, "seq": -1, "history": [], "decisions": [], "agents": {}}


def _paths(value: object) -> bool:
    return isinstance(value, list) and all(type(path) is str for path in value)


def _number(value: object) -> bool:
    return (type(value) is float or type(value) is int)


def summary_problem(summary: object) -> str:
    """"" when `summary` has the shape the hook and worker rely on; else what is wrong (one line)."""
    if not isinstance(summary, dict):
        return f"is a JSON {type(summary).__name__}, not an object"
    if type(summary.get("seq")) is not int:
        return "its seq is not an integer"
    history = summary.get("history")
    if not isinstance(history, list):
        return "its history is not a list"
    for entry in history:
        if not isinstance(entry, dict) or type(entry.get("ok")) is not bool or not (
                type(entry.get("command")) is str or _paths(entry.get("edited"))):
            return "a history entry is not {command: text, ok: true|false} or {edited: [paths], ok: true}"
    reads = summary.get("reads", [])
    if not _paths(reads):
        return "its reads are not a list of paths"
    decisions = summary.get("decisions", [])
    if not isinstance(decisions, list):
        return "its decisions are not a list"
    for item in decisions:
        if (type(item) is not list or len(item) < 3 or not _number(item[0])
                or not all(type(part) is str for part in item[1:5])):
            return "a decision is not [time, agent, verdict, rule, call]"
    agents = summary.get("agents", {})
    if not isinstance(agents, dict):
        return "its agents are not an object"
    for entry in agents.values():
        if not isinstance(entry, dict) or not _number(entry.get("score")) or not _number(entry.get("updated")):
            return "an agent's trust entry lacks a numeric score or time"
    return ""


def load_summary(state_dir: str, session_id: str, *, repair: bool = True) -> dict[str, Any]:
    """The session's summary; an empty one when there is none yet.

    A summary that cannot be used (not a regular file of ours, not JSON, the wrong shape) is
    moved to the quarantine and, with `repair`, a `state-repair` job asks the worker to rebuild
    it from the ledger; the caller gets an empty summary either way.
    """
    path = summary_path(state_dir, session_id)
    try:
        data = read_bytes(path, MAX_SUMMARY_BYTES)
    except FileNotFoundError:
        return empty_summary(session_id)
    except OSError as exc:
        return _set_aside(state_dir, session_id, path, exc.strerror or str(exc), repair)
    try:
        summary = _fastjson.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return _set_aside(state_dir, session_id, path, f"is not JSON ({str(exc)[:80]})", repair)
    problem = summary_problem(summary)
    if problem:
        return _set_aside(state_dir, session_id, path, problem, repair)
    for item in summary.setdefault("decisions", []):
        if len(item) < 5:  # written before decisions carried their rule and call
            item.extend([""] * (5 - len(item)))
    summary.setdefault("agents", {})
    return summary  # type: ignore[no-any-return]


def _set_aside(state_dir: str, session_id: str, path: str, problem: str, repair: bool) -> dict[str, Any]:
    relative = os.path.join(SESSIONS_DIR, os.path.basename(path))
    quarantine(state_dir, path, f"{relative}: {problem}")
    if repair:
        try:
            spool.enqueue(state_dir, REPAIR_KIND, {"session_id": session_id, "file": relative, "problem": problem})
        except StateError:
            pass  # the spool is broken too: the hook already says so when it records the decision
    return empty_summary(session_id)


def bash_command(payload: object) -> str | None:
    """The command of a Bash hook payload (Claude `tool_input.command`; Codex argv lists too)."""
    if not isinstance(payload, dict):
        return None
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command", tool_input.get("cmd"))
    if isinstance(command, list):
        command = " ".join(str(part) for part in command)
    if not isinstance(command, str):
        return None
    tool = payload.get("tool_name")
    if tool not in (None, "", "Bash", "shell", "exec_command", "local_shell"):
        return None
    return command


def edited_paths(payload: object) -> list[str]:
    """The files a file tool's hook payload changed, absolute (relative ones joined to its `cwd`):
    Write, Edit, MultiEdit, NotebookEdit, apply_patch; [] for anything else."""
    try:
        event = normalise(payload)
    except EventError:
        return []
    if event.command is not None or event.tool_class != "edit":
        return []
    out: list[str] = []
    for path, access in event.paths:
        if access == WRITE and path:
            full = os.path.normpath(path if os.path.isabs(path) or not event.cwd else os.path.join(event.cwd, path))
            if full not in out:
                out.append(full)
    return out[:MAX_EDITED_PATHS]


def read_paths(payload: object, decision: object) -> list[str]:
    """The file a Read call was let read, absolute (a relative one joined to its `cwd`); [] for
    another call (a Grep or a Glob reads no file whole) or one denied or asked."""
    if not isinstance(decision, dict) or decision.get("decision", decision.get("verdict")) not in _READ_GOES_AHEAD:
        return []
    try:
        event = normalise(payload)
    except EventError:
        return []
    if event.tool not in READ_TOOLS:
        return []
    return [os.path.normpath(path if os.path.isabs(path) or not event.cwd else os.path.join(event.cwd, path))
            for path, access in event.paths if access == READ and path]


def add_reads(reads: list[str], paths: list[str]) -> None:
    """Add `paths` to `reads` (most recent last, each once, at most MAX_READS)."""
    for path in paths:
        if path in reads:
            reads.remove(path)
        reads.append(path)
    if len(reads) > MAX_READS:
        del reads[: len(reads) - MAX_READS]


def add_entry(history: list[dict[str, Any]], entry: dict[str, Any]) -> None:
    """Append `entry`; an edit right after an edit entry joins it (its paths, at most
    MAX_EDITED_PATHS of them, then `more`)."""
    last = history[-1] if history else None
    if "edited" in entry and last is not None and "edited" in last:
        paths = last["edited"] = list(last["edited"])
        for path in entry["edited"]:
            if path in paths:
                continue
            if len(paths) >= MAX_EDITED_PATHS:
                last["more"] = True
                break
            paths.append(path)
        last["seq"], last["ts"] = entry["seq"], entry["ts"]
        return
    history.append(entry)


def outcome_entry(kind: str, payload: object, seq: int | None, ts: str) -> dict[str, Any] | None:
    """A history entry for a post-bash / post-failure / post-edit record or job, else None."""
    if kind == EDIT_KIND:
        paths = edited_paths(payload)
        return {"edited": paths, "ok": True, "seq": seq, "ts": ts} if paths else None
    ok = OUTCOME_KINDS.get(kind)
    if ok is None:
        return None
    command = bash_command(payload)
    if command is None:
        return None
    if ok and isinstance(payload, dict):
        response = payload.get("tool_response")
        if isinstance(response, dict) and response.get("interrupted") is True:
            ok = False
    return {"command": command, "ok": ok, "seq": seq, "ts": ts}


def decision_entry(at: float, agent_id: str, decision: object) -> list[Any]:
    """[epoch, agent, verdict, rule, call] of a decision record's or job's `decision` object."""
    verdict = rule = call = ""
    if isinstance(decision, dict):
        found, rule_found, call_found = decision.get("decision", decision.get("verdict")), decision.get("rule"), decision.get("call")
        verdict = found if isinstance(found, str) else ""
        rule = rule_found if isinstance(rule_found, str) else ""
        call = call_found if isinstance(call_found, str) else ""
    return [at, trust.agent_key(agent_id), verdict, rule, call]


def apply_record(summary: dict[str, Any], record: dict[str, Any]) -> bool:
    """Fold one ledger record into its session's summary; False if already applied."""
    seq = record.get("seq")
    if not isinstance(seq, int) or seq <= int(summary.get("seq", -1)):
        return False
    summary["seq"] = seq
    kind = record.get("kind", "")
    ts = record.get("ts", "")
    entry = outcome_entry(kind, record.get("event"), seq, ts)
    if entry is not None:
        history = summary["history"]
        add_entry(history, entry)
        if len(history) > MAX_HISTORY:
            del history[: len(history) - MAX_HISTORY]
    elif kind == DECISION_KIND:
        read = read_paths(record.get("event"), record.get("decision"))
        if read:
            add_reads(summary.setdefault("reads", []), read)
        at = trust.iso_epoch(ts)
        item = decision_entry(at, str(record.get("agent_id", "")), record.get("decision"))
        trust.record_outcome(summary.setdefault("agents", {}), item[1], item[2], item[3], at)
        decisions = summary.setdefault("decisions", [])
        decisions.append(item)
        horizon = at - DECISION_WINDOW_S
        if len(decisions) > MAX_DECISIONS or decisions[0][0] < horizon:
            summary["decisions"] = [d for d in decisions if d[0] >= horizon][-MAX_DECISIONS:]
    return True


def _pending_jobs(state_dir: str, session_id: str) -> list[dict[str, Any]]:
    """Spooled jobs of this session not yet applied by the worker, oldest first."""
    jobs: list[dict[str, Any]] = []
    paths = spool.pending(state_dir)[-MAX_PENDING_READ:]
    for job_path in paths:
        try:
            job = spool.read_job(job_path)
        except StateError:  # a job removed by the worker right now, or no job at all: skip it
            continue
        if job.get("session_id") == session_id:
            jobs.append(job)
    return jobs


def call_key(event: Event, policy_key: str = "") -> str:
    """A short fingerprint of what this call asks (tool and input) under which policy version:
    an identical retry has the same one; an edited CLAUDE.md makes every call new again."""
    what = event.command if event.command is not None else _fastjson.dumps(event.tool_input)
    return fnv1a32("\0".join((event.tool, what, policy_key)))


def rate_base(environ: Any = None) -> int:
    """GUIDANCE_RATE_LIMIT_PER_MIN (0 turns the rate limit off), else DEFAULT_RATE_BASE."""
    text = (os.environ if environ is None else environ).get(RATE_BASE_ENV, "")
    try:
        value = int(text) if text else DEFAULT_RATE_BASE
    except ValueError:
        return DEFAULT_RATE_BASE
    return value if value >= 0 else DEFAULT_RATE_BASE


def extras_for(event: Event, state_dir: str, policy_key: str = "", *, trusted: bool = True) -> dict[str, Any]:
    """The extras for `event`; with `trusted=False` (others could have written the state
    directory) nothing is read from it: the session has no past."""
    now = time.time()
    session_id = event.session_id if trusted else ""
    agent = trust.agent_key(event.agent_id)
    summary = load_summary(state_dir, session_id) if session_id else empty_summary("")
    history = list(summary["history"])
    reads = list(summary.get("reads") or ())
    decisions = [d for d in summary["decisions"] if d[1] == agent]
    if session_id:
        for job in _pending_jobs(state_dir, session_id):
            kind = job.get("kind", "")
            created = job.get("created", "")
            created = created if isinstance(created, str) else ""
            entry = outcome_entry(kind, job.get("event"), None, created)
            if entry is not None:
                add_entry(history, entry)
            elif kind == DECISION_KIND:
                add_reads(reads, read_paths(job.get("event"), job.get("decision")))
                if trust.agent_key(str(job.get("agent_id", ""))) == agent:
                    decisions.append(decision_entry(trust.iso_epoch(created), agent, job.get("decision")))
    horizon = now - RATE_WINDOW_S
    rate = 0
    for item in decisions:
        if item[0] >= horizon and not (item[2] == "deny" and item[3].startswith(RATE_RULES)):
            rate += 1
    call = call_key(event, policy_key)
    repeated, repeated_rule = 0, ""
    for item in reversed(decisions):
        if len(item) < 5 or item[4] != call or item[2] != "deny" or item[3].startswith(LOOP_NEUTRAL):
            break
        repeated += 1
        repeated_rule = repeated_rule or item[3]
    failures = 0
    if event.command is not None:
        for entry in reversed(history):
            if entry.get("command") != event.command or entry["ok"]:
                break
            failures += 1
    score, tier_name = trust.current(summary["agents"], event.agent_id, now)
    return {
        "history": history,
        "reads": reads,
        "trust_score": score,
        "trust_tier": tier_name,
        "rate_per_min": rate,
        "rate_base": rate_base(),
        "call": call,
        "repeats": {"denials": repeated, "rule": repeated_rule, "failures": failures} if repeated or failures else None,
    }
