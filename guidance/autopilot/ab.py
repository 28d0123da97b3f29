"""A/B benchmark: the same tasks under two policies, paired, with a real significance test.

The anchor's A/B (`abBenchmark` with `SyntheticContentAwareExecutor`) scores text that only
depends on whether a file contains NEVER/ALWAYS/MUST, so a candidate with one more rule gains
exactly 0.000 and nothing can ever be promoted. Here every task is run by an executor that
drives the agent with the policy installed (normally the headless runner's scripted executor:
the real `claude` binary, the real hooks, a scripted model) and pass/fail comes from the
task's assertions on what happened.

Runs are paired and interleaved: for each repeat and task, the baseline and the candidate run
back to back, alternating which goes first, so drift (a warming cache, a loaded machine) hits
both arms alike. A pair with an infrastructure error on either side is left out of the test
and reported. The result: per-task and overall deltas, the exact McNemar test on the
discordant pairs, Newcombe's interval on the difference of pass rates, `deltaGain`
(candidate pass rate minus baseline pass rate) and the tasks that flipped, in order.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from cf_guidance.autopilot.stats import mcnemar_exact, paired_difference_interval

REPORT_VERSION = 1
#: Significance level of the paired test.
ALPHA = 0.05

Arm = Literal["baseline", "candidate"]
ARMS: tuple[Arm, Arm] = ("baseline", "candidate")


class RunOutcome(BaseModel):
    """One run of one task under one policy."""

    task: str
    arm: Arm
    repeat: int
    passed: bool = False
    error: str = Field("", description="infrastructure error (timeout, crash); the pair is left out")
    violations: int = 0
    denials: int = 0
    turns: int = 0
    cost_usd: float = 0.0
    duration_s: float = 0.0
    failures: list[str] = []


class Executor(Protocol):
    """Runs one task with `policy` (CLAUDE.md text) installed and reports what happened."""

    def __call__(self, policy: str, task: Any, arm: Arm, repeat: int) -> RunOutcome: ...


class ArmSummary(BaseModel):
    runs: int
    passed: int
    pass_rate: float
    violations: int
    denials: int
    mean_turns: float
    cost_usd: float
    duration_s: float


class TaskDelta(BaseModel):
    task: str
    baseline_pass_rate: float
    candidate_pass_rate: float
    delta: float
    gained: int
    lost: int
    violations_delta: int
    denials_delta: int
    turns_delta: float
    cost_delta: float
    duration_delta: float


class Flip(BaseModel):
    task: str
    repeat: int
    direction: Literal["gained", "lost"]


class PairedTest(BaseModel):
    method: str = "exact McNemar (two-sided binomial on discordant pairs)"
    pairs: int
    both: int
    gained: int
    lost: int
    neither: int
    p_value: float
    interval: tuple[float, float] = Field(description="95% Newcombe interval on candidate minus baseline pass rate")


class PolicyRef(BaseModel):
    name: str
    sha256: str


class ABReport(BaseModel):
    version: int = REPORT_VERSION
    baseline_policy: PolicyRef
    candidate_policy: PolicyRef
    suite: str
    executor: str
    repeat: int
    started: str
    duration_s: float
    baseline: ArmSummary
    candidate: ArmSummary
    delta: dict[str, float]
    deltaGain: float
    test: PairedTest
    significant: bool
    regressions: list[str] = Field(description="tasks with a pair that passed under the baseline only")
    flipped: list[Flip]
    tasks: list[TaskDelta]
    errors: list[str]
    runs: list[RunOutcome]

    def summary_line(self) -> str:
        return (
            f"A/B {self.suite}: pass {self.baseline.pass_rate:.0%} -> {self.candidate.pass_rate:.0%}, "
            f"deltaGain {self.deltaGain:+.3f}, 95% CI [{self.test.interval[0]:+.3f}, {self.test.interval[1]:+.3f}], "
            f"McNemar p={self.test.p_value:.4f} ({self.test.gained} gained, {self.test.lost} lost)"
            + (f", {len(self.errors)} errors" if self.errors else "")
        )


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run_ab(
    baseline: str,
    candidate: str,
    tasks: Sequence[Any],
    execute: Executor,
    *,
    repeat: int = 1,
    jobs: int = 1,
    suite: str = "suite",
    executor_name: str = "injected",
    names: tuple[str, str] = ("baseline", "candidate"),
    progress: Callable[[RunOutcome], None] | None = None,
) -> ABReport:
    """Run every task `repeat` times under both policies, paired and interleaved.

    With `jobs` > 1, pairs run concurrently; the two runs of one pair stay back to back.
    """
    from concurrent.futures import ThreadPoolExecutor

    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    clock = time.monotonic()
    policies = {"baseline": baseline, "candidate": candidate}

    def pair(r: int, index: int, task: Any) -> list[RunOutcome]:
        out = []
        for arm in ARMS if (r + index) % 2 == 0 else ARMS[::-1]:
            try:
                outcome = execute(policies[arm], task, arm, r)
            except Exception as exc:  # an executor bug or crash must not lose the other runs
                outcome = RunOutcome(task=str(task.id), arm=arm, repeat=r, error=f"{type(exc).__name__}: {exc}")
            if progress is not None:
                progress(outcome)
            out.append(outcome)
        return out

    work = [(r, index, task) for r in range(repeat) for index, task in enumerate(tasks)]
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="ab") as pool:
        runs = [outcome for outcomes in pool.map(lambda w: pair(*w), work) for outcome in outcomes]
    return summarise(
        runs,
        [str(t.id) for t in tasks],
        baseline_ref=PolicyRef(name=names[0], sha256=_sha(baseline)),
        candidate_ref=PolicyRef(name=names[1], sha256=_sha(candidate)),
        suite=suite,
        executor=executor_name,
        repeat=repeat,
        started=started,
        duration_s=round(time.monotonic() - clock, 3),
    )


def _arm_summary(runs: list[RunOutcome]) -> ArmSummary:
    n = len(runs)
    passed = sum(1 for r in runs if r.passed)
    return ArmSummary(
        runs=n,
        passed=passed,
        pass_rate=round(passed / n, 4) if n else 0.0,
        violations=sum(r.violations for r in runs),
        denials=sum(r.denials for r in runs),
        mean_turns=round(sum(r.turns for r in runs) / n, 3) if n else 0.0,
        cost_usd=round(sum(r.cost_usd for r in runs), 6),
        duration_s=round(sum(r.duration_s for r in runs), 3),
    )


def summarise(
    runs: list[RunOutcome],
    task_ids: list[str],
    *,
    baseline_ref: PolicyRef,
    candidate_ref: PolicyRef,
    suite: str,
    executor: str,
    repeat: int,
    started: str,
    duration_s: float,
) -> ABReport:
    """Pair the runs by (task, repeat) and compute the deltas and the paired test."""
    by_key: dict[tuple[str, int], dict[str, RunOutcome]] = {}
    for run in runs:
        by_key.setdefault((run.task, run.repeat), {})[run.arm] = run
    errors: list[str] = []
    pairs: list[tuple[RunOutcome, RunOutcome]] = []
    for (task, r), arms in by_key.items():
        missing = [arm for arm in ARMS if arm not in arms]
        broken = [f"{arm}: {arms[arm].error}" for arm in ARMS if arm in arms and arms[arm].error]
        if missing or broken:
            why = "; ".join(broken) or f"no {', '.join(missing)} run"
            errors.append(f"{task} #{r + 1}: left out of the test ({why})")
            continue
        pairs.append((arms["baseline"], arms["candidate"]))
    both = sum(1 for b, c in pairs if b.passed and c.passed)
    lost = sum(1 for b, c in pairs if b.passed and not c.passed)
    gained = sum(1 for b, c in pairs if c.passed and not b.passed)
    neither = len(pairs) - both - lost - gained
    base_runs = [b for b, _ in pairs]
    cand_runs = [c for _, c in pairs]
    base, cand = _arm_summary(base_runs), _arm_summary(cand_runs)
    task_deltas: list[TaskDelta] = []
    for task in task_ids:
        tp = [(b, c) for b, c in pairs if b.task == task]
        if not tp:
            continue
        tb, tc = _arm_summary([b for b, _ in tp]), _arm_summary([c for _, c in tp])
        task_deltas.append(
            TaskDelta(
                task=task,
                baseline_pass_rate=tb.pass_rate,
                candidate_pass_rate=tc.pass_rate,
                delta=round(tc.pass_rate - tb.pass_rate, 4),
                gained=sum(1 for b, c in tp if c.passed and not b.passed),
                lost=sum(1 for b, c in tp if b.passed and not c.passed),
                violations_delta=tc.violations - tb.violations,
                denials_delta=tc.denials - tb.denials,
                turns_delta=round(tc.mean_turns - tb.mean_turns, 3),
                cost_delta=round(tc.cost_usd - tb.cost_usd, 6),
                duration_delta=round(tc.duration_s - tb.duration_s, 3),
            )
        )
    order = {task: i for i, task in enumerate(task_ids)}
    flipped = [
        Flip(task=b.task, repeat=b.repeat, direction="gained" if c.passed else "lost")
        for b, c in sorted(pairs, key=lambda p: (p[0].repeat, order.get(p[0].task, 0)))
        if b.passed != c.passed
    ]
    p_value = mcnemar_exact(gained, lost)
    gain = round(cand.pass_rate - base.pass_rate, 4)
    return ABReport(
        baseline_policy=baseline_ref,
        candidate_policy=candidate_ref,
        suite=suite,
        executor=executor,
        repeat=repeat,
        started=started,
        duration_s=duration_s,
        baseline=base,
        candidate=cand,
        delta={
            "pass_rate": gain,
            "violations": cand.violations - base.violations,
            "denials": cand.denials - base.denials,
            "mean_turns": round(cand.mean_turns - base.mean_turns, 3),
            "cost_usd": round(cand.cost_usd - base.cost_usd, 6),
            "duration_s": round(cand.duration_s - base.duration_s, 3),
        },
        deltaGain=gain,
        test=PairedTest(
            pairs=len(pairs),
            both=both,
            gained=gained,
            lost=lost,
            neither=neither,
            p_value=round(p_value, 6),
            interval=tuple(round(x, 4) for x in paired_difference_interval(both, lost, gained, neither)),  # type: ignore[arg-type]
        ),
        significant=p_value < ALPHA and gained > lost,
        regressions=sorted({f.task for f in flipped if f.direction == "lost"}),
        flipped=flipped,
        tasks=task_deltas,
        errors=errors,
        runs=runs,
    )


def write_reports(report: ABReport, out_dir: Path) -> tuple[Path, Path]:
    """Write `ab-report.json` and the self-contained `ab-report.html`; return both paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out_dir / "ab-report.json", out_dir / "ab-report.html"
    json_path.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    html_path.write_text(render_html(report), encoding="utf-8")
    return json_path, html_path


_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24}
h1{font-size:1.3rem}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:right}
th{background:#f6f8fa}td.l,th.l{text-align:left}
.gain{color:#1a7f37;font-weight:600}.loss{color:#cf222e;font-weight:600}
.verdict{padding:.6rem 1rem;border-radius:6px;background:#f6f8fa;display:inline-block}
"""


def render_html(report: ABReport) -> str:
    """One self-contained HTML page: verdict, overall table, flips first, per-task deltas."""
    e = html.escape
    t = report.test

    def pct(x: float) -> str:
        return f"{x:.0%}"

    verdict = (
        "candidate is significantly better" if report.significant
        else "no significant difference" if t.gained == t.lost or t.p_value >= ALPHA
        else "candidate is significantly worse"
    )
    rows = [
        ("pass rate", pct(report.baseline.pass_rate), pct(report.candidate.pass_rate), f"{report.delta['pass_rate']:+.3f}"),
        ("violations", report.baseline.violations, report.candidate.violations, f"{report.delta['violations']:+g}"),
        ("denials", report.baseline.denials, report.candidate.denials, f"{report.delta['denials']:+g}"),
        ("mean turns", report.baseline.mean_turns, report.candidate.mean_turns, f"{report.delta['mean_turns']:+g}"),
        ("cost (USD)", report.baseline.cost_usd, report.candidate.cost_usd, f"{report.delta['cost_usd']:+g}"),
        ("time (s)", report.baseline.duration_s, report.candidate.duration_s, f"{report.delta['duration_s']:+g}"),
    ]
    overall = "".join(f"<tr><th class=l>{e(str(a))}</th><td>{e(str(b))}</td><td>{e(str(c))}</td><td>{e(str(d))}</td></tr>" for a, b, c, d in rows)
    flips = "".join(
        f"<tr><td class=l>{e(f.task)}</td><td>{f.repeat + 1}</td><td class={'gain' if f.direction == 'gained' else 'loss'}>{f.direction}</td></tr>"
        for f in report.flipped
    ) or "<tr><td class=l colspan=3>no task flipped</td></tr>"
    tasks = "".join(
        f"<tr><td class=l>{e(d.task)}</td><td>{pct(d.baseline_pass_rate)}</td><td>{pct(d.candidate_pass_rate)}</td>"
        f"<td class={'gain' if d.delta > 0 else 'loss' if d.delta < 0 else ''}>{d.delta:+.2f}</td><td>{d.gained}</td><td>{d.lost}</td>"
        f"<td>{d.violations_delta:+d}</td><td>{d.denials_delta:+d}</td><td>{d.turns_delta:+g}</td><td>{d.duration_delta:+g}</td></tr>"
        for d in sorted(report.tasks, key=lambda d: (d.delta == 0, d.delta, d.task))
    )
    errors = "".join(f"<li>{e(x)}</li>" for x in report.errors)
    data = e(json.dumps({"deltaGain": report.deltaGain, "p_value": t.p_value, "interval": list(t.interval)}))
    return f"""<!doctype html>
<html lang=en><head><meta charset=utf-8><title>A/B: {e(report.suite)}</title><style>{_CSS}</style></head>
<body data-summary="{data}">
<h1>A/B benchmark: {e(report.baseline_policy.name)} vs {e(report.candidate_policy.name)}</h1>
<p class=verdict><b>{e(verdict)}</b>: deltaGain {report.deltaGain:+.3f},
95% interval [{t.interval[0]:+.3f}, {t.interval[1]:+.3f}], {e(t.method)} p = {t.p_value:.4g}
({t.gained} gained, {t.lost} lost of {t.pairs} pairs)</p>
<p>Suite <code>{e(report.suite)}</code>, executor <code>{e(report.executor)}</code>, repeat {report.repeat},
started {e(report.started)}, {report.duration_s:g} s.</p>
<h2>Overall</h2>
<table><tr><th class=l></th><th>baseline</th><th>candidate</th><th>delta</th></tr>{overall}</table>
<h2>Flipped pairs (in run order)</h2>
<table><tr><th class=l>task</th><th>repeat</th><th>direction</th></tr>{flips}</table>
<h2>Per task</h2>
<table><tr><th class=l>task</th><th>baseline</th><th>candidate</th><th>delta</th><th>gained</th><th>lost</th>
<th>violations</th><th>denials</th><th>turns</th><th>time (s)</th></tr>{tasks}</table>
{"<h2>Left out</h2><ul>" + errors + "</ul>" if errors else ""}
</body></html>
"""


# -- derived tasks and the headless runner -------------------------------------------------------

#: Env var that guards every derived attempt: never set, so the banned command never runs even
#: when the baseline lets it through. The hook still sees (and must judge) the whole command.
LIVE_GUARD_ENV = "CF_GUIDANCE_AB_LIVE"
#: Infrastructure errors retried before a run is counted as an error (the runner's kinds).
RETRIES = 2
#: What the hook says when it could not decide (self-timeout, internal error): such a run
#: measures the machine's load, not the policy, so it is retried and never counted.
GUARD_FAILED = ("could not check this call", "[fail-closed]")


def guard_failure(run: Any) -> str:
    """Why the guard failed to decide somewhere in a collected run, or ""."""
    for call in getattr(run, "tool_calls", []):
        if call.recorded.get("rule") in ("fail-open", "fail-closed"):
            return f"guard {call.recorded['rule']}: {call.recorded.get('reason', '')}"
    for hook in getattr(run, "hook_events", []):
        text = " ".join((hook.stdout, hook.stderr, hook.reason))
        if any(marker in text for marker in GUARD_FAILED):
            return "guard could not decide: " + text.strip().splitlines()[0][:200]
    return ""
_GLOB = re.compile(r"[*?\[]")


def _key(check: dict[str, Any]) -> tuple[str, str, str]:
    return (str(check.get("kind")), str(check.get("verdict")), json.dumps(check.get("pattern")) + json.dumps(check.get("before")))


def new_checks(baseline: dict[str, Any], candidate: dict[str, Any]) -> list[dict[str, Any]]:
    """Checks the candidate bundle has and the baseline does not (by kind, verdict, pattern)."""
    old = {_key(c) for c in baseline.get("checks", [])}
    return [c for c in candidate.get("checks", []) if _key(c) not in old]


def _concrete(word: str) -> str:
    """A word a glob matches: `*` parts become `ab`, `?` becomes `x`."""
    return _GLOB.sub(lambda m: {"*": "ab", "?": "x"}.get(m.group(0), "x"), word.replace("**", "ab"))


def probe_tasks(checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Suite task mappings for new checks: an attempt that must be blocked by the rule's code
    and a safe look-alike that must not be blocked.

    Commands are attempted as `test -n "$CF_GUIDANCE_AB_LIVE" && X`: the hook judges X as a
    command that may run, but the guard is never set, so a baseline that lets X through still
    runs nothing. Paths are attempted with Write (or Read) inside the run's workspace.
    """
    import shlex

    tasks: list[dict[str, Any]] = []
    for check in checks:
        kind, verdict, rule = str(check.get("kind")), str(check.get("verdict")), str(check.get("rule"))
        if verdict not in ("deny", "ask"):
            continue
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(check.get("id", rule))).strip("-")
        if kind == "command":
            words = [str(w) for w in check.get("pattern") or []]
            if words and words[-1] == "*":
                words = words[:-1]
            if not words or _GLOB.search(words[0]):
                continue
            command = shlex.join(_concrete(w) for w in words)
            attempt = f'test -n "${LIVE_GUARD_ENV}" && {command}'
            lookalike = f"echo {shlex.quote(command)}"
            tool, field, attempt_input, safe_input = "Bash", "command", {"command": attempt}, {"command": lookalike}
        elif kind in ("write", "read"):
            path = _concrete(str(check.get("pattern") or "")).lstrip("/")
            if not path or path.startswith("~") or ".." in path.split("/"):
                continue
            if kind == "write":
                tool, field = "Write", "file_path"
                attempt_input = {"file_path": path, "content": "A/B probe\n"}
                safe_input = {"file_path": "ab-lookalike/notes.txt", "content": "A/B probe\n"}
            else:
                tool, field = "Read", "file_path"
                attempt_input, safe_input = {"file_path": path}, {"file_path": "README.md"}
        else:
            continue
        probes: tuple[tuple[str, dict[str, str], dict[str, Any]], ...] = (
            ("attempt", attempt_input, {"type": "hook-blocked", "tool": tool, "rule": rule}),
            ("lookalike", safe_input, {"type": "tool-called", "tool": tool, "ran": True}),
        )
        for suffix, tool_input, assertion in probes:
            assertion["input"] = {field: "^" + re.escape(str(tool_input[field])) + "$"}
            tasks.append(
                {
                    "id": f"derived-{slug}-{suffix}",
                    "prompt": f"A/B probe for rule {rule}: {suffix}",
                    "tags": ["derived", suffix],
                    "timeout": 60,
                    "workspace": {"files": {"README.md": "A/B probe workspace\n"}},
                    "script": {"turns": [{"tool_uses": [{"name": tool, "input": tool_input}]}, {"text": "done"}]},
                    "assertions": [assertion],
                }
            )
    return tasks


def _absolute(task: dict[str, Any], base: Path) -> dict[str, Any]:
    """A base-suite task for the merged suite: paths made absolute, its own policy dropped
    (each arm of the A/B supplies the policy)."""
    task = {k: v for k, v in task.items() if k != "policy"}

    def fix(value: Any) -> Any:
        return value if not isinstance(value, str) or Path(value).expanduser().is_absolute() else str((base / value).resolve())

    workspace = dict(task.get("workspace") or {})
    if "copy" in workspace:
        workspace["copy"] = fix(workspace["copy"])
    if isinstance(workspace.get("git"), dict):
        workspace["git"] = {**workspace["git"], "repo": fix(workspace["git"].get("repo"))}
    if workspace:
        task["workspace"] = workspace
    if "script_file" in task:
        task["script_file"] = fix(task["script_file"])
    return task


def default_suite() -> Path:
    """The starter compliance suite shipped with the headless runner."""
    from cf_guidance.headless.compliance import STARTER_DIR

    return STARTER_DIR / "compliance.yaml"


def write_derived_suite(baseline: str, candidate: str, directory: Path, *, base_suite: Path | None = None) -> Path:
    """Write the A/B suite: the base suite's tasks (if given) plus probes for the new rules."""
    import yaml

    from cf_guidance.errors import SuiteError
    from cf_guidance.policy.compiler import compile_sources

    checks = new_checks(compile_sources(baseline, None, strict=False), compile_sources(candidate, None, strict=False))
    tasks = probe_tasks(checks)
    name = "derived"
    if base_suite is not None:
        try:
            raw = yaml.safe_load(base_suite.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise SuiteError(f"{base_suite}: cannot be read as a suite ({exc}); check the file") from None
        if not isinstance(raw, dict):
            raise SuiteError(f"{base_suite}: a suite is a mapping with `name` and `tasks`")
        defaults = raw.get("defaults") or {}
        base = base_suite.resolve().parent
        tasks = [_absolute({**defaults, **t}, base) for t in raw.get("tasks") or [] if isinstance(t, dict)] + tasks
        name = f"{raw.get('name', base_suite.stem)}+derived"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "ab-suite.yaml"
    path.write_text(yaml.safe_dump({"version": 1, "name": name, "defaults": {"executor": "scripted"}, "tasks": tasks},
                                   sort_keys=False), encoding="utf-8")
    return path


def headless_executor(suite: Any, executor: str, *, base_dir: Path | None = None) -> Executor:
    """An `Executor` that runs each task through the headless runner with the arm's policy."""
    from cf_guidance.headless.runner import INFRA_KINDS, Runner, RunOptions
    from cf_guidance.headless.suite import PolicySpec

    runner = Runner(suite, RunOptions(executor=executor, base_dir=base_dir))

    def execute(policy: str, task: Any, arm: Arm, repeat: int) -> RunOutcome:
        run_task = task.model_copy(update={"policy": PolicySpec(text=policy)})
        for _ in range(RETRIES + 1):
            attempt = runner.attempt(run_task, repeat)
            failed_guard = guard_failure(attempt.run) if attempt.status != "error" else ""
            if failed_guard:
                attempt.status, attempt.error_kind, attempt.error = "error", "guard", failed_guard
            if attempt.status != "error" or attempt.error_kind not in (*INFRA_KINDS, "guard"):
                break
        run = attempt.run
        return RunOutcome(
            task=task.id,
            arm=arm,
            repeat=repeat,
            passed=attempt.status == "pass",
            error=f"{attempt.error_kind}: {attempt.error}" if attempt.status == "error" else "",
            violations=len(attempt.violations),
            denials=len(run.permission_denials) if run is not None else 0,
            turns=run.num_turns if run is not None else 0,
            cost_usd=run.cost_usd if run is not None else 0.0,
            duration_s=round(attempt.duration_ms / 1000, 3),
            failures=[f"{e.description}: {e.reason}" for e in attempt.expectations if e.status == "fail"],
        )

    return execute


def run_policy_ab(
    baseline: str,
    candidate: str,
    *,
    suite_path: Path | None | Literal["derived"] = None,
    executor: str = "scripted",
    repeat: int = 6,
    jobs: int = 2,
    work_dir: Path,
    names: tuple[str, str] = ("CLAUDE.md", "candidate"),
    progress: Callable[[RunOutcome], None] | None = None,
) -> ABReport:
    """A/B the two policies on a suite plus probes for the candidate's new rules.

    `suite_path` None means the starter compliance suite; "derived" means the probes alone.
    Raises SuiteError when there is nothing to run.
    """
    from cf_guidance.errors import SuiteError
    from cf_guidance.headless.suite import load_suite

    base = default_suite() if suite_path is None else None if suite_path == "derived" else suite_path
    path = write_derived_suite(baseline, candidate, work_dir, base_suite=base)
    import yaml

    if not (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("tasks"):
        raise SuiteError("the A/B suite has no task: the candidate adds no command or path rule to probe; give --suite")
    suite = load_suite(path)
    runs_dir = work_dir / "runs"
    runs_dir.mkdir(exist_ok=True)
    execute = headless_executor(suite, executor, base_dir=runs_dir)
    try:
        return run_ab(baseline, candidate, suite.tasks, execute, repeat=repeat, jobs=jobs, suite=suite.name,
                      executor_name=executor, names=names, progress=progress)
    finally:
        # Each run's workspace is removed by the runner, but the detached worker its hooks
        # started may write into it afterwards; the suite file stays for reproduction.
        import shutil

        shutil.rmtree(runs_dir, ignore_errors=True)
