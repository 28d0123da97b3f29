"""Nothing a run started outlives it: its processes are found and ended, its temp files removed.

The client runs each Bash tool call in a session of its own, so killing the client's process
group misses what the agent started (`cmd &`, a server, a watcher): after a timeout or Ctrl-C
those were orphans with parent PID 1 working in a deleted directory. A run's processes are
found in two ways:

- **cgroup v2** where this process may create one (root, or a delegated subtree): the client
  joins the run's cgroup before it executes (a one-line `sh` wrapper writes its own pid, then
  execs), so everything it starts stays in it whatever its session or parent, and
  `cgroup.kill` ends them all at once;
- **/proc** elsewhere: processes whose environment carries the run's marker (inherited by
  everything the client starts unless a program clears its environment), whose working
  directory is inside the run's directory, or that descend from the client.

The guard's detached worker (started by the hooks under test, in a session of its own) is one
of the run's processes too; it is spared when the client exits, so it can drain the
workspace's spool, and ended with the rest at cleanup if still there.

The client's temp directory and sockets go to `<run>/tmp` (TMPDIR and CLAUDE_CODE_TMPDIR),
removed with the workspace; `leftovers` names what a client writes elsewhere anyway (a socket
path too long for the run's directory falls back to /tmp/cc-socks-<uid>/<pid>.sock).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Environment variable every process of a run inherits; its value is the run's directory.
MARKER_ENV = "CF_GUIDANCE_HEADLESS_RUN"
#: Name prefix of the cgroups this package creates (one per run: <prefix><runner pid>-<n>).
CGROUP_PREFIX = "cf-guidance-headless-"
#: The guard's detached worker, recognised by its command line.
WORKER_MODULE = "cf_guidance.jobs.worker"
#: Rounds of "find, SIGKILL" before giving up on processes that keep appearing (a fork loop).
KILL_ROUNDS = 40
#: Wait between rounds, seconds.
KILL_PAUSE_S = 0.01
#: The shell line that moves itself into the cgroup named by $0, then becomes the client.
_JOIN = 'echo $$ > "$0" 2>/dev/null; exec "$@"'

_counter = itertools.count(1)
_base_lock = threading.Lock()
_base: list[Path | None] = []


@dataclass
class Ended:
    """What `RunProcesses.end` found: how the processes were tracked, which it ended, which stayed."""

    tracked_by: str
    ended: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"tracked_by": self.tracked_by, "ended": self.ended, "left": self.left}


class RunProcesses:
    """The processes of one run, rooted at the run's directory `root`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        #: Created when the client is started (`wrap`), removed by `close`.
        self.cgroup: Path | None = None
        self.client_pid = 0
        #: False once the client was reaped: its pid may then belong to another process.
        self.client_running = False
        #: True once the client is known to be in the cgroup (then /proc need not be searched).
        self.contained = False

    @property
    def tracked_by(self) -> str:
        return "cgroup" if self.contained else "proc"

    def env(self) -> dict[str, str]:
        """Variables to add to the client's environment."""
        return {MARKER_ENV: str(self.root)}

    def wrap(self, argv: list[str]) -> list[str]:
        """`argv` started so that it joins the run's cgroup before it executes (unchanged without one)."""
        if self.cgroup is None:
            self.cgroup = _new_cgroup()
        if self.cgroup is None:
            return argv
        return ["/bin/sh", "-c", _JOIN, str(self.cgroup / "cgroup.procs"), *argv]

    def started(self, pid: int) -> None:
        """The client runs as `pid`. Moving it again from here confirms the cgroup took it: the
        wrapper's own write is silent, and a cgroup this process cannot fill must not be trusted."""
        self.client_pid, self.client_running = pid, True
        if self.cgroup is not None:
            try:
                (self.cgroup / "cgroup.procs").write_text(str(pid))
                self.contained = True
            except OSError:
                self.contained = False

    def reaped(self) -> None:
        """The client was waited for: its pid no longer identifies it (its orphans are found by
        the marker, their working directory, or the cgroup)."""
        self.client_running = False

    def members(self) -> set[int]:
        """Live processes of the run (zombies excluded), never this process."""
        found: set[int] = set()
        if self.cgroup is not None:
            found |= _cgroup_pids(self.cgroup)
        if not self.contained:
            found |= _scan(self.root, self.client_pid if self.client_running else 0)
        found.discard(os.getpid())
        return {pid for pid in found if alive(pid)}

    def end(self, *, spare_workers: bool = False) -> Ended:
        """SIGKILL every process of the run (but the guard's workers when `spare_workers`)."""
        report = Ended(self.tracked_by)
        seen: set[int] = set()
        use_kill_file = not spare_workers and self.contained and self.cgroup is not None
        for _ in range(KILL_ROUNDS):
            targets = [pid for pid in self.members() if not (spare_workers and is_guard_worker(pid))]
            if not targets:
                break
            for pid in targets:  # named before they die: a killed process's command line is gone
                if pid not in seen and pid != self.client_pid:  # the client is no leftover
                    seen.add(pid)
                    report.ended.append(describe(pid))
            if use_kill_file and self.cgroup is not None:
                _write(self.cgroup / "cgroup.kill", "1")  # atomic: a forking process cannot outrun it
            for pid in targets:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(KILL_PAUSE_S)
        else:
            report.left = [describe(pid) for pid in self.members()
                           if not (spare_workers and is_guard_worker(pid))]
        return report

    def close(self) -> Ended:
        """End every process of the run and remove its cgroup."""
        report = self.end()
        if self.cgroup is not None:
            for _ in range(50):
                try:
                    self.cgroup.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy while the last killed processes exit
                    time.sleep(0.01)
            self.cgroup = None
        return report


def merge_descriptions(*lists: list[str]) -> list[str]:
    """`describe` lines of several `end`s, each process once (its first, fullest description)."""
    seen: dict[str, str] = {}
    for line in (line for group in lists for line in group):
        pid, _, text = line.partition(" ")
        if pid not in seen or seen[pid].endswith(" ?"):
            seen[pid] = line
    return list(seen.values())


def describe(pid: int) -> str:
    """`pid command line` (shortened) for reports."""
    words = read_cmdline(pid)
    text = " ".join(words) if words else "?"
    return f"{pid} {text[:160]}"


def read_cmdline(pid: int) -> list[str]:
    """The argv of `pid` ([] when it exited or cannot be read)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read()
    except OSError:
        return []
    return [part for part in raw.decode("utf-8", "surrogateescape").split("\0") if part]


def is_guard_worker(pid: int) -> bool:
    return WORKER_MODULE in read_cmdline(pid)


def guard_workers(project: Path) -> list[int]:
    """Live guard workers working on `project` (none found without a /proc).

    A worker spawned while another drained waits for the drain lock without a marker or
    status of its own, then writes into the state directory: only its command line shows it.
    """
    wanted = os.path.realpath(project)
    found: list[int] = []
    for pid in pids():
        argv = read_cmdline(pid)
        if WORKER_MODULE not in argv or "--project" not in argv[:-1]:
            continue
        target = os.path.realpath(argv[argv.index("--project") + 1])
        if (target == wanted or target.startswith(wanted + os.sep)) and alive(pid):
            found.append(pid)
    return found


def pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    """True while `pid` runs. A zombie is dead: in containers whose init does not reap, a
    detached process stays a zombie after it exits."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc (macOS): ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return stat.rpartition(b")")[2].split()[:1] not in ([b"Z"], [b"X"])


def leftovers(project: Path, client_pid: int) -> list[Path]:
    """What a client of `project` (process `client_pid`) left outside the run's directory.

    Its temp directory is `<TMPDIR>/claude-<uid>/<project slug>` and its messaging socket
    `<TMPDIR>/cc-socks/<pid>.sock`, or `/tmp/cc-socks-<uid>/<pid>.sock` when that path is too
    long for a socket; the run's TMPDIR holds them unless a client ignores it.
    """
    uid = os.getuid()
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(project))
    found: list[Path] = []
    for top in sorted({tempfile.gettempdir(), "/tmp"}):
        candidates = [Path(top) / f"claude-{uid}" / slug]
        if client_pid:
            candidates += [Path(top) / name / f"{client_pid}.sock" for name in ("cc-socks", f"cc-socks-{uid}")]
        found += [path for path in candidates if path.is_symlink() or path.exists()]
    return found


def remove(paths: list[Path]) -> None:
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def cgroup_available() -> bool:
    """True when runs can be put in cgroups of their own here."""
    return _cgroup_base() is not None


# -- cgroups -----------------------------------------------------------------------------------


def _cgroup_base() -> Path | None:
    """This process's own cgroup v2 directory when it may create cgroups under it, else None."""
    with _base_lock:
        if not _base:
            _base.append(_find_base())
        return _base[0]


def _find_base() -> Path | None:
    mount = _cgroup2_mount()
    own = ""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("0::"):
                    own = line[3:].strip()
    except OSError:
        return None
    if mount is None or not own:
        return None
    base = Path(mount) / own.lstrip("/")
    if not os.access(base, os.W_OK):
        return None
    _sweep_stale(base)
    return base


def _cgroup2_mount() -> str | None:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as handle:
            for line in handle:
                before, _, after = line.partition(" - ")
                if after.split()[:1] == ["cgroup2"]:
                    return before.split()[4]
    except OSError:
        return None
    return None


def _new_cgroup() -> Path | None:
    base = _cgroup_base()
    if base is None:
        return None
    path = base / f"{CGROUP_PREFIX}{os.getpid()}-{next(_counter)}"
    try:
        path.mkdir()
    except OSError:
        return None
    return path


def _sweep_stale(base: Path) -> None:
    """Remove empty cgroups of runners that are gone (a runner killed before its cleanup)."""
    try:
        entries = [entry for entry in base.iterdir() if entry.name.startswith(CGROUP_PREFIX)]
    except OSError:
        return
    for entry in entries:
        owner = entry.name[len(CGROUP_PREFIX):].partition("-")[0]
        if owner.isdigit() and not alive(int(owner)):
            try:
                if not _cgroup_pids(entry):
                    entry.rmdir()
            except OSError:
                continue


def _cgroup_pids(cgroup: Path) -> set[int]:
    try:
        text = (cgroup / "cgroup.procs").read_text()
    except OSError:
        return set()
    return {int(word) for word in text.split() if word.isdigit()}


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text)
    except OSError:
        pass


# -- /proc search ------------------------------------------------------------------------------------


def _scan(root: Path, client_pid: int) -> set[int]:
    """Processes carrying the run's marker, working inside `root`, or descending from the client."""
    marker = b"\0" + f"{MARKER_ENV}={root}".encode("utf-8", "surrogateescape") + b"\0"
    inside = os.path.realpath(root)
    parents: dict[int, int] = {}
    found: set[int] = set()
    me = os.getpid()
    for pid in pids():
        if pid == me:
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
            parents[pid] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                if marker in b"\0" + handle.read():
                    found.add(pid)
                    continue
        except OSError:
            pass
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd").removesuffix(" (deleted)")
        except OSError:
            continue
        if cwd == inside or cwd.startswith(inside + os.sep):
            found.add(pid)
    if client_pid in parents:
        found.add(client_pid)
        family, frontier = {client_pid}, {client_pid}
        while frontier:
            frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in family}
            family |= frontier
        found |= family
    return found
