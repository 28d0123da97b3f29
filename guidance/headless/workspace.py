"""One isolated workspace per run: a project copy, its own config dir and HOME, git snapshots.

Layout under a fresh temp dir::

    <root>/project   the fixture (files, a copied directory or a git ref) plus the policy
    <root>/home      HOME of the run
    <root>/home/.claude   its CLAUDE_CONFIG_DIR (transcripts land in projects/<slug>/...)
    <root>/tmp       its TMPDIR (the client's temp files and sockets)

Every process the run starts is tracked (`hygiene.RunProcesses`) and ended at cleanup.

Snapshots are git trees written through a private index file, so they see commits the agent
makes, uncommitted edits and ignored files alike, without touching the agent's own index.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cf_guidance.errors import RunnerError, SuiteError
from cf_guidance.headless.collect import Commit, FileChanges
from cf_guidance.headless.hygiene import Ended, RunProcesses, alive, guard_workers, leftovers, remove
from cf_guidance.headless.suite import Task, resolve_path
from cf_guidance.state import STATE_TOP

#: Paths never counted as side effects: git's own data and the guard's state directory,
#: which the hooks under test write on every tool call.
EXCLUDED = (".git", STATE_TOP)
#: Longest wait at cleanup for the guard's detached worker to finish draining.
WORKER_WAIT_S = 10.0
#: How long after the last cleanup `sweep` watches for workspaces a late worker recreated.
SWEEP_GRACE_S = 0.5
#: Largest patch text kept for the report.
MAX_PATCH_CHARS = 200_000

_GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "cf-guidance headless",
    "GIT_AUTHOR_EMAIL": "headless@cf-guidance.invalid",
    "GIT_COMMITTER_NAME": "cf-guidance headless",
    "GIT_COMMITTER_EMAIL": "headless@cf-guidance.invalid",
}

#: install(project) -> None: puts the policy's hooks in place (cf-guidance init).
Installer = Callable[[Path], None]


#: Files whose content defines the policy a run was judged under (hashed into the report).
PROVENANCE_FILES = ("CLAUDE.md", "CLAUDE.local.md", ".claude/settings.json", ".claude/settings.local.json")


@dataclass
class Workspace:
    root: Path
    baseline_tree: str = ""
    baseline_head: str = ""
    #: File -> SHA-256 of the policy files as the run started (see PROVENANCE_FILES).
    provenance: dict[str, str] = field(default_factory=dict)
    processes: RunProcesses = field(init=False)
    #: What cleanup ended and removed (see `cleanup`).
    cleaned: dict[str, object] = field(default_factory=dict)
    #: HEAD when `changes` looked, after the run.
    final_head: str = ""

    def __post_init__(self) -> None:
        self.processes = RunProcesses(self.root)

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def config_dir(self) -> Path:
        return self.home / ".claude"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    def run_env(self) -> dict[str, str]:
        """Variables the client runs with on top of its isolated environment: its own temp
        directory (the client honours CLAUDE_CODE_TMPDIR for its own files, programs TMPDIR)
        and the marker its processes are found by."""
        self.tmp.mkdir(mode=0o700, exist_ok=True)
        return {"TMPDIR": str(self.tmp), "CLAUDE_CODE_TMPDIR": str(self.tmp), **self.processes.env()}

    def snapshot(self) -> str:
        """Write the project's current files as a git tree; returns its id."""
        index = self.root / "snapshot.index"
        index.unlink(missing_ok=True)
        env = {"GIT_INDEX_FILE": str(index)}
        excludes = [f":(exclude){name}" for name in EXCLUDED if name != ".git"]
        _git(self.project, "add", "--all", "--force", "--", ".", *excludes, env=env)
        return _git(self.project, "write-tree", env=env).strip()

    def head(self) -> str:
        proc = _run_git(self.project, "rev-parse", "--verify", "-q", "HEAD")
        return proc.stdout.strip() if proc.returncode == 0 else ""

    def changes(self) -> FileChanges:
        """What the run changed since `prepare`: files by status, the patch, new commits."""
        after = self.snapshot()
        out = FileChanges()
        status = _git(self.project, "diff-tree", "-r", "--no-renames", "--name-status", self.baseline_tree, after)
        for line in status.splitlines():
            code, _, path = line.partition("\t")
            {"A": out.created, "D": out.deleted}.get(code[:1], out.modified).append(path)
        patch = _git(self.project, "diff-tree", "-p", "--no-renames", "--binary", self.baseline_tree, after)
        out.patch = patch if len(patch) <= MAX_PATCH_CHARS else patch[:MAX_PATCH_CHARS] + "\n[truncated]\n"
        head = self.final_head = self.head()
        if head and head != self.baseline_head:
            span = f"{self.baseline_head}..{head}" if self.baseline_head else head
            log = _git(self.project, "log", "--format=%x00%H%x09%s", "--name-only", span)
            for chunk in log.split("\x00")[1:]:
                first, _, rest = chunk.partition("\n")
                sha, _, subject = first.partition("\t")
                out.commits.append(Commit(sha, subject, [f for f in rest.splitlines() if f]))
        return out

    def cleanup(self, wait_s: float = WORKER_WAIT_S) -> bool:
        """`release` the run, then remove the workspace. Returns True when it had a guard state
        directory (see `sweep`)."""
        had_state = self.release(wait_s)
        shutil.rmtree(self.root, ignore_errors=True)
        return had_state

    def release(self, wait_s: float = WORKER_WAIT_S) -> bool:
        """End the run's processes and remove what the client left outside the workspace.

        The guard's detached worker (started by the hooks under test) is waited for first, up
        to `wait_s`: deleting the state directory under it would make it fail and recreate
        directories after we are gone. Whatever is still running then is killed. Returns True
        when the workspace has a guard state directory.
        """
        had_state = _state_of(self.project).is_dir()
        if had_state:
            _wait_for_worker(self.project, wait_s)
        ended = self.processes.close()
        removed = leftovers(self.project, self.processes.client_pid)
        remove(removed)
        self.cleaned = {"ended": ended.ended, "left": ended.left, "temp_removed": [str(p) for p in removed]}
        return had_state

    def end_processes(self) -> Ended:
        """End what the run started once the client is gone, sparing the guard's worker."""
        return self.processes.end(spare_workers=True)

    def git_state(self, changed: list[str]) -> dict[str, object]:
        """Branch, the fixture's commit, HEAD after the run (as `changes` saw it) and the files
        changed since the fixture. The branch is read from .git/HEAD: no git process."""
        try:
            ref = (self.project / ".git" / "HEAD").read_text(encoding="utf-8").strip()
        except OSError:
            ref = ""
        branch = ref.removeprefix("ref: refs/heads/") if ref.startswith("ref: refs/heads/") else ""
        return {"branch": branch, "fixture_commit": self.baseline_head, "head": self.final_head, "modified_files": changed}


def sweep(roots: list[Path], grace_s: float = SWEEP_GRACE_S, wait_s: float = WORKER_WAIT_S) -> None:
    """Remove workspaces again that a late worker (one spawned while another drained) wrote into.

    Where /proc lists processes, `cleanup` already waited for every worker process of the
    workspace, late ones included, so one pass suffices; elsewhere watch for `grace_s`.
    """
    deadline = time.monotonic() + (0.0 if os.path.isdir("/proc/self") else grace_s)
    while roots:
        for root in [r for r in roots if r.exists()]:
            _wait_for_worker(root / "project", wait_s)
            shutil.rmtree(root, ignore_errors=True)
        if time.monotonic() >= deadline:
            return
        time.sleep(0.1)


def _state_of(project: Path) -> Path:
    from cf_guidance.state import state_dir

    return Path(state_dir(str(project), environ={}))


def _wait_for_worker(project: Path, wait_s: float) -> None:
    """Until no worker is spawned or alive for this project (at most `wait_s`)."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline and (_worker_busy(_state_of(project)) or guard_workers(project)):
        time.sleep(0.05)


def _worker_busy(state: Path) -> bool:
    from cf_guidance.state import StateLayout

    layout = StateLayout(str(state))
    if Path(layout.worker_marker).exists():  # spawned, not yet drained
        return True
    try:
        status = json.loads((Path(layout.logs) / "worker.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    pid = status.get("pid") if isinstance(status, dict) else None
    return isinstance(pid, int) and pid > 0 and alive(pid)  # alive: it may be checkpointing or logging


def workspace_prefix(task_id: str) -> str:
    """The name of a run's directory of `task_id` before its random part (mkdtemp adds 8 characters)."""
    return f"cfg-{task_id[:40]}-"


def prepare(task: Task, suite_dir: Path, *, install: Installer | None, base_dir: Path | None = None) -> Workspace:
    """Build the isolated workspace of one run of `task` and take the baseline snapshot.

    Raises SuiteError for a fixture that does not exist and RunnerError when git or the
    installer fail.
    """
    root = Path(tempfile.mkdtemp(prefix=workspace_prefix(task.id), dir=base_dir))
    ws = Workspace(root)
    try:
        _fill(ws, task, suite_dir)
        if install is not None and task.policy is not None and task.policy.install:
            install(ws.project)
        _commit_fixture(ws)
        ws.baseline_head = ws.head()
        ws.baseline_tree = ws.snapshot()
        ws.provenance = {name: hashlib.sha256((ws.project / name).read_bytes()).hexdigest()
                         for name in PROVENANCE_FILES if (ws.project / name).is_file()}
    except BaseException:
        ws.cleanup()
        raise
    return ws


def _fill(ws: Workspace, task: Task, suite_dir: Path) -> None:
    ws.config_dir.mkdir(parents=True)
    spec = task.workspace
    if spec.git is not None:
        repo = resolve_path(suite_dir, spec.git.repo)
        if not repo.exists():
            raise SuiteError(f"task {task.id}: workspace git repo {repo} does not exist")
        _git(suite_dir, "clone", "--quiet", "--shared", "--no-checkout", str(repo), str(ws.project))
        proc = _run_git(ws.project, "checkout", "--quiet", "--detach", spec.git.ref)
        if proc.returncode != 0:
            raise SuiteError(f"task {task.id}: git ref {spec.git.ref!r} not found in {repo}")
    elif spec.copy_from is not None:
        source = resolve_path(suite_dir, spec.copy_from)
        if not source.is_dir():
            raise SuiteError(f"task {task.id}: workspace directory {source} does not exist")
        shutil.copytree(source, ws.project, symlinks=True)
    else:
        ws.project.mkdir()
    for rel, content in spec.files.items():
        target = ws.project / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    if task.policy is not None:
        for name, text in task.policy.sources(suite_dir).items():
            (ws.project / name).write_text(text, encoding="utf-8")
    if not (ws.project / ".git").exists():
        _git(ws.project, "init", "--quiet", "--initial-branch=main")
    exclude = ws.project / ".git" / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    with exclude.open("a", encoding="utf-8") as fh:
        fh.write("".join(f"/{name}/\n" for name in EXCLUDED if name != ".git"))
    _git(ws.project, "config", "user.name", _GIT_IDENTITY["GIT_AUTHOR_NAME"])
    _git(ws.project, "config", "user.email", _GIT_IDENTITY["GIT_AUTHOR_EMAIL"])


def _commit_fixture(ws: Workspace) -> None:
    """Commit the fixture so the agent starts from a clean tree, like a real checkout."""
    _git(ws.project, "add", "--all", "--", ".")
    dirty = _run_git(ws.project, "diff", "--cached", "--quiet").returncode != 0
    if dirty or not ws.head():
        _git(ws.project, "commit", "--quiet", "--allow-empty", "--no-verify", "-m", "headless fixture")


def _run_git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **_GIT_IDENTITY, "GIT_TERMINAL_PROMPT": "0", **(env or {})}
    try:
        return subprocess.run(
            ["git", *args], cwd=cwd, env=full_env, capture_output=True, text=True, check=False, timeout=120
        )
    except FileNotFoundError:
        raise RunnerError("git not found on PATH; install git to run headless suites") from None
    except subprocess.TimeoutExpired:
        raise RunnerError(f"git {args[0]} timed out in {cwd}") from None


def _git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    proc = _run_git(cwd, *args, env=env)
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        raise RunnerError(f"git {args[0]} failed in {cwd}: {detail[-1] if detail else proc.returncode}")
    return proc.stdout
