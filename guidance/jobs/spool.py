"""The durable job spool between hooks and the detached worker.

Hot path module: standard library only; no `subprocess` (17 ms to import), no `json`.

A hook never waits on the ledger's lock: it writes each job as one file (temp file, fsync,
`os.replace`, fsync of the directory) into ``<state>/spool/``, and post-event hooks start
the worker (`guidance.jobs.worker`, a new session with no inherited stdio) at most once
per `SPAWN_INTERVAL_NS`. File names sort by creation time: ``<time_ns>-<pid>-<random>.json``.
A job is::

    {"id", "kind", "created", "session_id", "agent_id",
     "event": <the hook payload, bounded and redacted>, "decision": <Decision.to_dict()> | null,
     ["event_altered": ["truncated", "redacted"], "event_sha256": <sha256 of the event as received>]}

Its id comes from the event (`job_key`: kind, session, tool_use_id), so the same event spooled
twice is one job to the worker. Secret values are redacted (cf_guidance.ledger.redact) before
the job is written: no raw secret reaches the disk, even for the moment before the worker runs.

The worker reads `pending()` in order, applies each job idempotently by id and `remove()`s
it only after its effect is durable; `stranded()` lists the temp files of writers that died
before their rename, which the worker recovers or sets aside. When it has drained the spool it calls
`clear_spawn_marker()`, so that the next job starts a new worker at once.
"""

from __future__ import annotations

import os
import sys
import time

from cf_guidance import _fastjson
from cf_guidance._atomic import write_atomic
from cf_guidance._statefile import read_bytes
from cf_guidance.errors import StateError
from cf_guidance.state import STATE_DIR_ENV, StateLayout, state_dir as state_dir_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Kind of the job that carries a pre-tool decision to the ledger.
DECISION = "decision"
#: A hook starts at most one worker per this interval (the worker serialises on its lock anyway).
SPAWN_INTERVAL_NS = 1_000_000_000
#: Bounds on the copy of the hook payload kept in a job: a Read's `tool_response` can be megabytes.
MAX_JOB_STRING = 8_192
MAX_JOB_ITEMS = 256
MAX_JOB_DEPTH = 12
#: Characters of all the strings of one job's event together (keys included): past it, strings are
#: cut, and the job keeps the sha256 of the event as received (`event_sha256`).
MAX_JOB_CHARS = 65_536
#: A spool file bigger than this is not a job `enqueue` wrote: it is set aside unread.
MAX_JOB_FILE_BYTES = 1 << 20
#: Marks where a string or list was cut.
TRUNCATED = "…[truncated]"
#: Job files stranded by a writer that died before its rename are this old before a drain takes them.
STRANDED_AGE_S = 30.0

_SUFFIX = ".json"
_TMP_SUFFIX = ".tmp"


def spool_dir(state_dir: str) -> str:
    return StateLayout(state_dir).spool


class _Budget:
    __slots__ = ("chars", "cut")

    def __init__(self, chars: int) -> None:
        self.chars = chars
        self.cut = False

    def text(self, value: str, limit: int = MAX_JOB_STRING) -> str:
        keep = min(limit, self.chars)
        self.chars -= min(len(value), keep)
        if len(value) <= keep:
            return value
        self.cut = True
        return value[:keep] + TRUNCATED


def bounded(value: Any, depth: int = 0, budget: _Budget | None = None) -> Any:
    """A copy of decoded JSON with long strings and lists cut, deep nesting dropped, and all its
    strings together held to MAX_JOB_CHARS (`budget.cut` tells whether anything was cut)."""
    if budget is None:
        budget = _Budget(MAX_JOB_CHARS)
    if isinstance(value, str):
        return budget.text(value)
    if depth >= MAX_JOB_DEPTH and isinstance(value, (dict, list)):
        budget.cut = True
        return TRUNCATED
    if isinstance(value, dict):
        out = {}
        for index, (key, item) in enumerate(value.items()):
            if index >= MAX_JOB_ITEMS or budget.chars <= 0:
                out[TRUNCATED] = len(value) - index
                budget.cut = True
                break
            out[budget.text(str(key))] = bounded(item, depth + 1, budget)
        return out
    if isinstance(value, list):
        items = []
        for index, item in enumerate(value):
            if index >= MAX_JOB_ITEMS or budget.chars <= 0:
                items.append(TRUNCATED)
                budget.cut = True
                break
            items.append(bounded(item, depth + 1, budget))
        return items
    return value


def _id_part(text: str) -> str:
    return "".join(c if c.isalnum() or c in "_.:-" else "_" for c in text[:128])


def job_key(kind: str, payload: object) -> str:
    """The job's id, derived from the event, so that one event spooled twice (a warm server that
    died after spooling, then the hook's in-process answer) is applied once:
    ``<kind>/<session_id>/<tool_use_id>``, or the sha256 of the event when it has no tool_use_id.
    """
    session = _text_field(payload, "session_id")
    tool_use = _text_field(payload, "tool_use_id")
    if not tool_use:
        tool_use = "sha256:" + _sha256_hex(_fastjson.dumps(payload).encode("utf-8", "surrogatepass"))[:32]
    return "%s/%s/%s" % (_id_part(kind), _id_part(session), _id_part(tool_use))


def _sha256_hex(data: bytes) -> str:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]  # hashlib costs 3 ms, this 1
    except ImportError:  # pragma: no cover - a build without the C module
        from hashlib import sha256
    return str(sha256(data).hexdigest())


def _created(now_ns: int) -> str:
    seconds, rest = divmod(now_ns, 1_000_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".%06dZ" % (rest // 1000)


def _text_field(payload: object, name: str) -> str:
    value = payload.get(name) if isinstance(payload, dict) else None
    return value if isinstance(value, str) else ""


def enqueue(
    state_dir: str,
    kind: str,
    payload: object,
    decision: dict[str, Any] | None = None,
    *,
    raw: bytes | None = None,
) -> str:
    """Write one job durably and return its id; raise StateError if the spool is unusable.

    Secrets are redacted before the job touches the disk, and the event is bounded; when either
    changed it, the job keeps the sha256 of `raw` (the hook's stdin bytes, else the encoded
    payload) in `event_sha256`, so the event an agent sent can still be matched to its record.
    """
    now_ns = time.time_ns()
    job_id = job_key(kind, payload)
    budget = _Budget(MAX_JOB_CHARS)
    event = bounded(payload, 0, budget)
    altered = ["truncated"] if budget.cut else []
    from cf_guidance.ledger.redact import maybe_secret_text, redact  # not needed to spawn the worker

    if maybe_secret_text(_fastjson.dumps([event, decision])):
        event, decision = redact(event), redact(decision)
        altered.append("redacted")
    job = {
        "id": job_id,
        "kind": kind,
        "created": _created(now_ns),
        "session_id": _text_field(payload, "session_id"),
        "agent_id": _text_field(payload, "agent_id"),
        "event": event,
        "decision": decision,
    }
    if altered:
        job["event_altered"] = altered
        job["event_sha256"] = _sha256_hex(raw if raw is not None else _fastjson.dumps(payload).encode("utf-8", "surrogatepass"))
    data = _fastjson.dumps(job).encode("utf-8", "surrogatepass")
    directory = spool_dir(state_dir)
    name = "%020d-%d-%s%s" % (now_ns, os.getpid(), os.urandom(4).hex(), _SUFFIX)
    try:
        write_atomic(os.path.join(directory, name), data, mode=0o600, fsync_dir=True, parent_mode=0o700)
    except OSError as exc:
        raise StateError(
            f"cannot write a job to the spool {directory}: {exc.strerror or exc}; "
            "make the state directory writable (or set GUIDANCE_STATE_DIR)"
        ) from None
    return job_id


def pending(state_dir: str) -> list[str]:
    """Paths of the jobs waiting in the spool, oldest first."""
    directory = spool_dir(state_dir)
    try:
        names = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise StateError(f"cannot list the spool {directory}: {exc.strerror or exc}; check the state directory's permissions") from None
    return [os.path.join(directory, name) for name in sorted(names) if name.endswith(_SUFFIX) and not name.startswith(".")]


def stranded(state_dir: str, min_age_s: float = STRANDED_AGE_S) -> list[str]:
    """Temp files (``.<name>.json.<pid>-<random>.tmp``) older than `min_age_s`: their writer died."""
    directory = spool_dir(state_dir)
    try:
        names = [name for name in os.listdir(directory)
                 if name.startswith(".") and name.endswith(_TMP_SUFFIX) and _SUFFIX + "." in name]
    except OSError:
        return []
    horizon = time.time() - min_age_s
    found = []
    for name in sorted(names):
        path = os.path.join(directory, name)
        try:
            if os.lstat(path).st_mtime < horizon:
                found.append(path)
        except OSError:
            continue
    return found


def final_name(tmp_path: str) -> str:
    """The job file a stranded temp file was meant to become (see cf_guidance._atomic)."""
    directory, name = os.path.split(tmp_path)
    return os.path.join(directory, name[1:].rsplit(".", 2)[0])


def read_job(path: str) -> dict[str, Any]:
    """Decode one job file; raise StateError for a file that is not a job (a FIFO, a symlink, a
    foreign or oversized file included: none is opened in a way that could block)."""
    try:
        job = _fastjson.loads(read_bytes(path, MAX_JOB_FILE_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise StateError(f"cannot read spool job {path}: {exc}; move it aside and run `cf-guidance jobs drain`") from None
    if not isinstance(job, dict) or not isinstance(job.get("id"), str) or not isinstance(job.get("kind"), str):
        raise StateError(f"spool job {path} is not a job object; move it aside and run `cf-guidance jobs drain`")
    return job


def remove(path: str) -> None:
    """Delete a job whose effect is durable; a job already removed by another worker is fine."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def note_failure(state_dir: str, problem: str) -> None:
    """Leave a mark that an event could not be recorded, for `cf-guidance status`.

    On a full disk the message itself may not fit: then the mark's time is updated (an inode
    change, which needs no free block), or an empty mark is created, so `status` still says when.
    """
    path = StateLayout(state_dir).unrecorded
    now_ns = time.time_ns()
    data = _fastjson.dumps({"at": _created(now_ns), "problem": problem[:500]}).encode("utf-8")
    try:
        write_atomic(path, data, mode=0o600)
        return
    except OSError:
        pass
    try:
        _touch(path, now_ns)
    except OSError:
        pass  # nothing at all can be written there: the stderr line is all that is left


def clear_spawn_marker(state_dir: str) -> None:
    """Called by the worker when it has drained the spool: the next job spawns a worker at once."""
    remove(StateLayout(state_dir).worker_marker)


def _touch(path: str, now_ns: int) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    os.utime(path, ns=(now_ns, now_ns))


def spawn_worker(project_dir: str, state_dir: str | None = None, *, force: bool = False) -> bool:
    """Start the detached worker unless one was started within SPAWN_INTERVAL_NS; True if started.

    A plain fork, then `setsid` and exec in the child: no `subprocess` (17 ms to import),
    and unlike `posix_spawn` (vfork) the hook does not wait for the exec (measured here:
    fork 0.2 ms, posix_spawn 0.3 to 38 ms under load). The worker gets /dev/null for
    stdin, stdout and stderr, so the agent, which waits for the hook's pipes to close,
    never waits for the worker; its own session keeps it alive after the hook exits.
    """
    if state_dir is None:
        state_dir = state_dir_of(project_dir)
    marker = StateLayout(state_dir).worker_marker
    now_ns = time.time_ns()
    if not force:
        try:
            if now_ns - os.stat(marker).st_mtime_ns < SPAWN_INTERVAL_NS:
                return False
        except OSError:
            pass
    try:
        _touch(marker, now_ns)
    except FileNotFoundError:
        try:
            os.makedirs(os.path.dirname(marker), mode=0o700, exist_ok=True)
            _touch(marker, now_ns)
        except OSError:
            pass
    except OSError:
        pass  # no marker: spawning more often is harmless, the worker holds a lock
    argv = [sys.executable, "-m", "cf_guidance.jobs.worker", "--project", project_dir]
    env = dict(os.environ)
    env[STATE_DIR_ENV] = state_dir  # the worker drains the spool this hook wrote to
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid == 0:  # the child: detach and become the worker; never return into the hook
        try:
            os.setsid()
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execve(sys.executable, argv, env)
        finally:
            os._exit(127)
    return True
