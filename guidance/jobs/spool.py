"""The durable job spool between hooks and the detached worker.

Hot path module: standard library only; no `subprocess` (17 ms to import), no `json`.

A hook never waits on the ledger's lock: it writes each job as one file (temp file, fsync,
`os.replace`, fsync of the directory) into ``<state>/spool/``, and post-event hooks start
the worker (`guidance.jobs.worker`, a new session with no inherited stdio) at most once
per `SPAWN_INTERVAL_NS`. File names sort by creation time: ``<time_ns>-<pid>-<random>.json``.
A job is::

    {"id", "kind", "created", "session_id", "agent_id",
     "event": <the hook payload, bounded>, "decision": <Decision.to_dict()> | null}

The worker reads `pending()` in order, applies each job idempotently by id and `remove()`s
it only after its effect is durable. When it has drained the spool it calls
`clear_spawn_marker()`, so that the next job starts a new worker at once.
"""

from __future__ import annotations

import os
import sys
import time

from cf_guidance import _fastjson
from cf_guidance._atomic import write_atomic
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
#: Marks where a string or list was cut.
TRUNCATED = "…[truncated]"

_SUFFIX = ".json"


def spool_dir(state_dir: str) -> str:
    return StateLayout(state_dir).spool


def bounded(value: Any, depth: int = 0) -> Any:
    """A copy of decoded JSON with long strings and lists cut and deep nesting dropped."""
    if isinstance(value, str):
        return value if len(value) <= MAX_JOB_STRING else value[:MAX_JOB_STRING] + TRUNCATED
    if depth >= MAX_JOB_DEPTH and isinstance(value, (dict, list)):
        return TRUNCATED
    if isinstance(value, dict):
        out = {}
        for index, (key, item) in enumerate(value.items()):
            if index >= MAX_JOB_ITEMS:
                out[TRUNCATED] = len(value) - MAX_JOB_ITEMS
                break
            out[str(key)[:MAX_JOB_STRING]] = bounded(item, depth + 1)
        return out
    if isinstance(value, list):
        items = [bounded(item, depth + 1) for item in value[:MAX_JOB_ITEMS]]
        if len(value) > MAX_JOB_ITEMS:
            items.append(TRUNCATED)
        return items
    return value


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
) -> str:
    """Write one job durably and return its id; raise StateError if the spool is unusable."""
    now_ns = time.time_ns()
    job_id = "%020d-%d-%s" % (now_ns, os.getpid(), os.urandom(4).hex())
    job = {
        "id": job_id,
        "kind": kind,
        "created": _created(now_ns),
        "session_id": _text_field(payload, "session_id"),
        "agent_id": _text_field(payload, "agent_id"),
        "event": bounded(payload),
        "decision": decision,
    }
    data = _fastjson.dumps(job).encode("utf-8")
    directory = spool_dir(state_dir)
    try:
        write_atomic(os.path.join(directory, job_id + _SUFFIX), data, mode=0o600, fsync_dir=True, parent_mode=0o700)
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


def read_job(path: str) -> dict[str, Any]:
    """Decode one job file; raise StateError for a file that is not a job."""
    try:
        with open(path, "rb") as handle:
            job = _fastjson.loads(handle.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
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
