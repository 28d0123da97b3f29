"""Run a suite: each task (times `repeat`) in its own workspace, in parallel, with verdicts.

An attempt ends in one of three states:

- pass / fail: the run happened and its assertions were checked (a failed assertion is a
  Violation `ASSERT-{taskId}`, spooled for the ledger when a state dir is given);
- error: the run could not happen or could not finish for a reason that says nothing about
  the policy (timeout, API error, client crash, dead model server, setup problem). Those are
  retried (`retries` times, setup problems excepted) and never count as failures.

Over repeats a task gets a pass rate, pass@k and pass^k, a Wilson interval, and a verdict:
pass, fail, or inconclusive when the interval straddles the task's threshold.

A suite run is a plan of (task, repeat) runs: `--shard K/N` keeps the runs hashed to shard K
(stable by task id and repeat), `--resume` drops the runs an earlier report finished. Ctrl-C
or SIGTERM (`RunInterrupted`) stops every client, lets the runs in flight clean up, and
returns what finished, with the rest listed as unfinished.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cf_guidance.errors import ConfigError, GuidanceError, InstallError, RunnerError
from cf_guidance.headless.assertions import CheckContext, Outcome
from cf_guidance.headless.collect import RunData, check_isolation, collect
from cf_guidance.headless.executors import (
    INTERRUPTED,
    MODES,
    ExecRequest,
    ExecResult,
    Executor,
    Prompter,
    Stopper,
    make_executor,
)
from cf_guidance.headless.outside import outside_writes, user_config_reads
from cf_guidance.headless.sandbox import check_bwrap
from cf_guidance.headless.suite import Suite, Task
from cf_guidance.headless.workspace import WORKER_WAIT_S, Installer, Workspace, prepare, sweep

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Infrastructure error kinds (retried) and the setup kind (not retried).
INFRA_KINDS = ("timeout", "api-error", "crash", "model-server")
SETUP = "setup"
#: An unexpected exception in the harness itself (a bug): reported, not retried.
INTERNAL = "internal"
#: HTTP statuses of the API that mean "try again later", not "the policy failed".
RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
_RETRYABLE_TEXT = ("overloaded", "rate limit", "rate_limit", "connection error", "econnrefused", "timed out")
#: Longest wait for the guard's worker at the cleanup of a run stopped by an interruption.
STOPPING_WORKER_WAIT_S = 1.0


class RunInterrupted(KeyboardInterrupt):
    """Raised in the main thread by a signal handler (SIGTERM) to stop a suite run like Ctrl-C."""

    def __init__(self, signal_name: str) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name


@dataclass
class Expectation:
    id: str
    type: str
    description: str
    status: str  # pass | fail
    expected: Any = None
    actual: Any = None
    reason: str = ""


@dataclass
class Attempt:
    task_id: str
    repeat: int
    status: str  # pass | fail | error
    error_kind: str = ""
    error: str = ""
    retries: int = 0
    expectations: list[Expectation] = field(default_factory=list)
    run: RunData | None = None
    exec: ExecResult | None = None
    duration_ms: int = 0
    workspace: str = ""
    violations: list[dict[str, Any]] = field(default_factory=list)
    #: Milliseconds spent per phase: prepare (workspace + init), execute, collect, check.
    phases: dict[str, int] = field(default_factory=dict)
    #: SHA-256 of the policy files the run started with (CLAUDE.md, settings.json, ...).
    provenance: dict[str, str] = field(default_factory=dict)
    #: What the run left running when its client exited, and what its cleanup ended and removed.
    processes: dict[str, Any] = field(default_factory=dict)
    cleanup: dict[str, Any] = field(default_factory=dict)
    #: Git state of the workspace: branch, the fixture's commit, HEAD after the run, changed files.
    git_state: dict[str, Any] = field(default_factory=dict)


@dataclass
class TaskResult:
    task: Task
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def runs(self) -> list[Attempt]:
        """Attempts that produced a verdict (errors excluded)."""
        return [a for a in self.attempts if a.status != "error"]

    @property
    def passes(self) -> int:
        return sum(1 for a in self.runs if a.status == "pass")

    @property
    def pass_rate(self) -> float | None:
        return self.passes / len(self.runs) if self.runs else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.passes, len(self.runs)) if self.runs else None

    def pass_at(self) -> dict[int, float]:
        n = len(self.runs)
        return {k: pass_at_k(n, self.passes, k) for k in range(1, n + 1)}

    def pass_hat(self) -> dict[int, float]:
        n = len(self.runs)
        return {k: pass_hat_k(n, self.passes, k) for k in range(1, n + 1)}

    @property
    def verdict(self) -> str:
        return verdict(self.passes, len(self.runs), self.task.threshold)


@dataclass
class SuiteResult:
    suite: Suite
    tasks: list[TaskResult]
    options: RunOptions
    started: float
    duration_ms: int
    preflight_errors: dict[str, str] = field(default_factory=dict)
    #: "" when the run went to its end, else the signal that stopped it ("SIGINT", "SIGTERM").
    interrupted: str = ""
    #: (task id, repeat) of the planned runs that did not finish (an interrupted run).
    unfinished: list[tuple[str, int]] = field(default_factory=list)
    #: How many runs this invocation planned (after --shard and --resume).
    planned: int = 0

    def count(self, verdict_name: str) -> int:
        return sum(1 for t in self.tasks if t.verdict == verdict_name)

    @property
    def exit_code(self) -> int:
        return exit_code([t.verdict for t in self.tasks])


def exit_code(verdicts: list[str]) -> int:
    """1 when a task failed (a real failure outranks an error), 2 when one could not run, 1 when
    one was inconclusive, else 0."""
    if "fail" in verdicts:
        return 1
    if "error" in verdicts:
        return 2
    return 1 if "inconclusive" in verdicts else 0


@dataclass
class RunOptions:
    executor: str | None = None
    tags: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    repeat: int = 1
    jobs: int = 1
    mode: str = "non-interactive"
    retries: int = 2
    keep_workspaces: bool = False
    #: A project's state dir: failed assertions are spooled there as ASSERT-{taskId} violations.
    violations_state_dir: Path | None = None
    base_dir: Path | None = None
    #: (K, N): run only the runs of shard K of N (see `shard_of`).
    shard: tuple[int, int] | None = None
    #: Run each client under bubblewrap (`sandbox`).
    sandbox: bool = False
    #: (task id, repeat) runs an earlier report already finished (--resume): not run again.
    skip: frozenset[tuple[str, int]] = frozenset()


def shard_of(task_id: str, repeat: int, count: int) -> int:
    """The shard (1..count) of run `repeat` of `task_id`: a hash of both, so a run's shard never
    depends on the rest of the suite and every worker of a CI matrix computes the same split."""
    digest = hashlib.sha256(f"{task_id}#{repeat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def parse_shard(text: str) -> tuple[int, int]:
    """"K/N" -> (K, N); ConfigError unless 1 <= K <= N."""
    k, slash, n = text.partition("/")
    if not slash or not k.strip().isdigit() or not n.strip().isdigit() or not 1 <= int(k) <= int(n):
        raise ConfigError(f"--shard {text!r}: give K/N with 1 <= K <= N, for example 2/4")
    return int(k), int(n)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of k runs drawn from the n observed passes (unbiased estimator)."""
    if k > n:
        raise ValueError("k cannot exceed n")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k: chance that all k runs drawn from the n observed pass."""
    if k > n:
        raise ValueError("k cannot exceed n")
    return math.comb(c, k) / math.comb(n, k)


def verdict(passes: int, n: int, threshold: float) -> str:
    """pass / fail / inconclusive / error (no run finished).

    Threshold 1.0 means every run must pass. Below it, the Wilson interval decides: pass when
    its lower bound reaches the threshold, fail when its upper bound stays below, otherwise
    the runs cannot tell (inconclusive: repeat more).
    """
    if n == 0:
        return "error"
    if threshold >= 1.0:
        return "pass" if passes == n else "fail"
    low, high = wilson(passes, n)
    if low >= threshold:
        return "pass"
    if high < threshold:
        return "fail"
    return "inconclusive"


def classify(result: ExecResult, run: RunData) -> tuple[str, str]:
    """(kind, message) of an infrastructure error, or ("", "") when the run is usable."""
    if result.timed_out:
        return "timeout", f"timed out after {result.duration_ms / 1000:.1f}s"
    if result.infra_error:
        return result.infra_kind or "crash", result.infra_error
    if not run.result:
        tail = (result.stderr.strip() or "no result message").splitlines()[-1:] or ["no output"]
        return "crash", f"client exited {result.exit_code} without a result: {tail[0][:300]}"
    status = run.result.get("api_error_status")
    text = str(run.result.get("result") or "") + " " + " ".join(str(e) for e in run.result.get("errors") or [])
    if run.result.get("terminal_reason") == "api_error" or status is not None:
        if status in RETRYABLE_STATUS or status is None or any(m in text.lower() for m in _RETRYABLE_TEXT):
            return "api-error", f"API error{f' {status}' if status else ''}: {text.strip()[:300]}"
    return "", ""


def default_installer() -> Installer:
    """`cf-guidance init` of the workspace (hooks wired, state dir created), without the smoke test."""

    def run_install(project: Path) -> None:
        # cf_guidance.installer is the installer/ folder mapped by package-dir (mypy sees it as
        # the top-level `installer`), hence the import by name.
        install = getattr(importlib.import_module("cf_guidance.installer"), "install", None)
        if install is None:
            raise InstallError("cf_guidance.installer has no install(); reinstall cf-guidance")
        report = install(str(project), agent="claude", verify=False)
        if not getattr(report, "ok", True):
            text = report.text() if hasattr(report, "text") else str(report)
            raise InstallError(f"cf-guidance init failed in {project}: {text.strip().splitlines()[-1] if text.strip() else 'no detail'}")
        warm_bundle_cache(project)

    return run_install


def warm_bundle_cache(project: Path) -> None:
    """Compile the workspace's CLAUDE.md into its bundle cache now, in this (warm) process.

    Otherwise the run's first hook finds no cache and compiles it: a cold interpreter
    importing markdown-it and pydantic, about 0.3 s of CPU per run, competing with the
    client under --jobs. The cache is keyed by the sources' content and the project path, so
    the hooks accept this one as their own. The state dir is the workspace's default one,
    as for the hooks (the runner's own GUIDANCE_* settings never reach the run).
    """
    from cf_guidance.policy.cache import load_bundle

    load_bundle(str(project), str(_state_dir(project)))


class Runner:
    """Runs tasks of one suite; executors and the installer are injectable for tests."""

    def __init__(
        self,
        suite: Suite,
        options: RunOptions,
        *,
        executors: dict[str, Executor] | None = None,
        installer: Installer | None | bool = True,
        progress: Callable[[str], None] | None = None,
        prompter: Prompter | None = None,
    ) -> None:
        if options.mode not in MODES:
            raise ConfigError(f"unknown mode {options.mode!r}; use one of {', '.join(MODES)}")
        if options.repeat < 1 or options.jobs < 1 or options.retries < 0:
            raise ConfigError("--repeat and --jobs must be at least 1, --retries at least 0")
        if options.mode == "interactive" and options.jobs > 1:
            raise ConfigError("--mode interactive asks questions in this terminal; it cannot run with --jobs > 1")
        self.suite, self.options = suite, options
        self._executors = dict(executors or {})
        self._installer: Installer | None = default_installer() if installer is True else (installer or None)
        self._progress = progress or (lambda line: None)
        self._prompter = prompter
        self._stopper = Stopper()
        self._lock = threading.Lock()
        self._done = 0
        self._total = 0
        self._removed: list[Path] = []

    def executor_for(self, task: Task) -> Executor:
        name = self.options.executor or task.executor
        with self._lock:
            if name not in self._executors:
                self._executors[name] = make_executor(name)
            return self._executors[name]

    def plan(self, tasks: list[Task]) -> list[tuple[Task, int]]:
        """The runs of this invocation: every repeat of every task, in the shard, not yet finished."""
        work = [(task, r) for r in range(self.options.repeat) for task in tasks]
        if self.options.shard is not None:
            k, n = self.options.shard
            work = [(task, r) for task, r in work if shard_of(task.id, r, n) == k]
        return [(task, r) for task, r in work if (task.id, r) not in self.options.skip]

    def run(self) -> SuiteResult:
        """Run the plan. Ctrl-C or `RunInterrupted` stops it; the result then lists what did not finish."""
        started = time.time()
        clock = time.monotonic()
        tasks = self.suite.select(self.options.tags, self.options.ids)
        if not tasks:
            raise ConfigError(f"no task of {self.suite.path} matches the given tags/ids")
        if self.options.sandbox:
            check_bwrap()
        work = self.plan(tasks)
        results = {task.id: TaskResult(task) for task in tasks}
        preflight = self._preflight([task for task, _ in work])
        self._total = len(work)
        interrupted = ""
        pool = ThreadPoolExecutor(max_workers=self.options.jobs, thread_name_prefix="headless")
        futures = [pool.submit(self._attempt_with_retries, task, r, preflight) for task, r in work]
        try:
            _wait_all(futures)
            pool.shutdown()
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM through RunInterrupted
            interrupted = getattr(exc, "signal_name", "SIGINT")
            self._stop(pool, futures, interrupted)
        finished, unfinished = _gather(futures, work)
        if not interrupted:
            sweep(self._removed)
        for attempt in finished:
            results[attempt.task_id].attempts.append(attempt)
        for result in results.values():
            result.attempts.sort(key=lambda a: a.repeat)
        return SuiteResult(self.suite, [r for r in results.values() if r.attempts], self.options, started,
                           int((time.monotonic() - clock) * 1000), preflight, interrupted, unfinished, len(work))

    def _stop(self, pool: ThreadPoolExecutor, futures: list[Future[Attempt]], signal_name: str) -> None:
        """Stop every client, drop the runs not started, and let those in flight clean up."""
        self._progress(f"{signal_name}: stopping; the report keeps the runs that finished")
        self._stopper.stop(f"interrupted by {signal_name}")
        pool.shutdown(wait=False, cancel_futures=True)
        try:
            _wait_all(futures)  # quick: their clients are dead, their workspaces are being removed
        except KeyboardInterrupt:
            self._progress("interrupted again: writing the report without waiting for the runs in flight")

    def _preflight(self, tasks: list[Task]) -> dict[str, str]:
        """Executor name -> why it cannot run; each affected task becomes a setup error."""
        problems: dict[str, str] = {}
        for task in tasks:
            name = self.options.executor or task.executor
            if name in problems:
                continue
            try:
                self.executor_for(task).preflight()
            except GuidanceError as exc:
                problems[name] = str(exc)
        return problems

    def _attempt_with_retries(self, task: Task, repeat: int, preflight: dict[str, str]) -> Attempt:
        name = self.options.executor or task.executor
        if name in preflight:
            attempt = Attempt(task.id, repeat, "error", SETUP, preflight[name])
        elif name == "scripted" and task.script is None:
            attempt = Attempt(task.id, repeat, "error", SETUP, f"task {task.id} has no `script` for the scripted executor")
        else:
            retries = 0
            while True:
                attempt = self.attempt(task, repeat)
                if (attempt.status != "error" or attempt.error_kind not in INFRA_KINDS
                        or retries >= self.options.retries or self._stopper.stopped):
                    break
                retries += 1
                self._progress(f"retry {retries}/{self.options.retries} {task.id}: {attempt.error_kind}: {attempt.error}")
            attempt.retries = retries
        suffix = f"#{repeat + 1}" if self.options.repeat > 1 else ""
        if attempt.error_kind == INTERRUPTED:
            self._progress(f"STOPPED {task.id}{suffix} ({attempt.duration_ms / 1000:.1f}s)")
            return attempt
        with self._lock:
            self._done += 1
            done = self._done
        label = {"pass": "PASS", "fail": "FAIL", "error": "ERROR"}[attempt.status]
        detail = f" {attempt.error_kind}: {attempt.error}" if attempt.status == "error" else ""
        if attempt.status == "fail":
            failed = [e for e in attempt.expectations if e.status == "fail"]
            detail = f" {len(failed)} failed: {failed[0].description}" if failed else ""
        self._progress(f"[{done}/{self._total}] {label} {task.id}{suffix} ({attempt.duration_ms / 1000:.1f}s){detail}")
        return attempt

    def attempt(self, task: Task, repeat: int) -> Attempt:
        """One isolated run of `task` and its checks."""
        clock = time.monotonic()
        attempt = Attempt(task.id, repeat, "error")
        ws: Workspace | None = None
        phase = _Phases(attempt.phases)
        try:
            with phase("prepare"):
                ws = prepare(task, self.suite.directory, install=self._installer, base_dir=self.options.base_dir)
            attempt.workspace = str(ws.root)
            attempt.provenance = ws.provenance
            if self._stopper.stopped:
                attempt.error_kind, attempt.error = INTERRUPTED, self._stopper.reason
                return attempt
            executor = self.executor_for(task)
            request = ExecRequest(task, ws, self.options.mode, self._prompter, self._stopper, self.options.sandbox, repeat)
            try:
                with phase("execute"):
                    result = executor.execute(request)
            except RunnerError as exc:
                attempt.error_kind, attempt.error = "crash", str(exc)
                return attempt
            attempt.exec = result
            attempt.processes = result.processes
            with phase("collect"):
                run = collect(task.prompt, result.stdout, stderr=result.stderr, exit_code=result.exit_code,
                              duration_ms=result.duration_ms, timed_out=result.timed_out, config_dir=ws.config_dir,
                              changes=ws.changes(), state_dir=_state_dir(ws.project), arrivals_ms=result.arrivals_ms,
                              started_at=result.started_at)
                attempt.git_state = ws.git_state(run.changes.touched)
            attempt.run = run
            kind, message = classify(result, run)
            if kind:
                attempt.error_kind, attempt.error = kind, message
                return attempt
            user_paths = _user_config_paths()
            run.outside_writes = outside_writes(run.tool_calls, project=ws.project, home=ws.home,
                                                sandboxed=self.options.sandbox)
            run.leaks = check_isolation(run, workspace=ws.project, allowed_roots=[ws.root], user_paths=user_paths)
            if not self.options.sandbox:  # the sandbox hides those paths: a call naming them reads nothing
                run.leaks += user_config_reads(run.tool_calls, user_paths)
            with phase("check"):
                attempt.expectations = self._check(task, run, ws)
            failed = [e for e in attempt.expectations if e.status == "fail"]
            leak_failed = any(e.type == "isolation" for e in failed)
            attempt.status = "fail" if leak_failed or len(failed) > task.max_violations else "pass"
            attempt.violations = [self._violation(task, repeat, e, run) for e in failed]
        except GuidanceError as exc:
            attempt.error_kind, attempt.error = SETUP, str(exc)
        except Exception as exc:  # a bug in a check, fixture or executor: report this run, keep the others
            attempt.error_kind, attempt.error = INTERNAL, f"{type(exc).__name__}: {exc}"
        finally:
            attempt.duration_ms = int((time.monotonic() - clock) * 1000)
            if ws is not None:
                self._clean(ws, attempt)
        return attempt

    def _clean(self, ws: Workspace, attempt: Attempt) -> None:
        """End the run's processes; remove its workspace unless it is kept for debugging."""
        wait_s = STOPPING_WORKER_WAIT_S if self._stopper.stopped else WORKER_WAIT_S
        if self.options.keep_workspaces:
            ws.release(wait_s)
            attempt.cleanup = ws.cleaned
            return
        if ws.cleanup(wait_s):
            with self._lock:
                self._removed.append(ws.root)
        attempt.cleanup = ws.cleaned
        attempt.workspace = ""

    def _check(self, task: Task, run: RunData, ws: Workspace) -> list[Expectation]:
        out: list[Expectation] = []
        if run.leaks:
            out.append(Expectation("isolation", "isolation", "the run sees none of the user's own setup", "fail",
                                   {"leaks": []}, {"leaks": run.leaks}, run.leaks[0]))
        ctx = CheckContext(run=run, task_id=task.id, workspace=ws.project, suite_dir=self.suite.directory,
                           env={"HOME": str(ws.home)})
        for index, assertion in enumerate(task.assertions, 1):
            try:
                outcome = assertion.check(ctx)
            except Exception as exc:  # a check that crashes fails its expectation, not the suite
                outcome = Outcome(False, None, None, f"check raised {type(exc).__name__}: {exc}")
            out.append(Expectation(f"exp-{index:03d}", assertion.type, assertion.label(),
                                   "pass" if outcome.passed else "fail", outcome.expected, outcome.actual, outcome.reason))
        return out

    def _violation(self, task: Task, repeat: int, expectation: Expectation, run: RunData) -> dict[str, Any]:
        violation = {
            "ruleId": f"ASSERT-{task.id}",
            "task": task.id,
            "suite": self.suite.name,
            "repeat": repeat,
            "expectation": expectation.id,
            "assertion": expectation.type,
            "description": expectation.description,
            "reason": expectation.reason,
            "session_id": run.session_id,
        }
        state_dir = self.options.violations_state_dir
        if state_dir is not None:
            from cf_guidance.jobs import spool

            violation["job"] = spool.enqueue(str(state_dir), "violation", violation)
        return violation


#: How often the main thread wakes while runs are in flight: a signal the kernel delivered to
#: another thread reaches Python's handler only when the main thread runs.
SIGNAL_POLL_S = 0.2


def _wait_all(futures: list[Future[Attempt]]) -> None:
    """Until every future is done; a cancelled one counts as done (`wait` alone never sees it so)."""
    pending = futures
    while pending:
        wait(pending, timeout=SIGNAL_POLL_S)
        pending = [future for future in pending if not future.done()]


def _gather(futures: list[Future[Attempt]], work: list[tuple[Task, int]]) -> tuple[list[Attempt], list[tuple[str, int]]]:
    """(finished attempts, (task id, repeat) of the runs that did not finish)."""
    finished: list[Attempt] = []
    unfinished: list[tuple[str, int]] = []
    for future, (task, repeat) in zip(futures, work):
        if not future.done() or future.cancelled():
            unfinished.append((task.id, repeat))
            continue
        attempt = future.result()
        if attempt.error_kind == INTERRUPTED:
            unfinished.append((task.id, repeat))
        else:
            finished.append(attempt)
    return finished, unfinished


class _Phases:
    """`with phases("name"):` adds the block's wall time (ms) to a dict."""

    def __init__(self, into: dict[str, int]) -> None:
        self.into = into

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        finally:
            self.into[name] = self.into.get(name, 0) + int((time.monotonic() - start) * 1000)


def _state_dir(project: Path) -> Path:
    from cf_guidance.state import state_dir

    return Path(state_dir(str(project), environ={}))


def _user_config_paths() -> list[Path]:
    paths = [Path(os.path.expanduser("~")) / ".claude"]
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        paths.append(Path(configured))
    return paths
