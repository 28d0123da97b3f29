"""A/B benchmark: the same tasks under two policies, and a report that says what it measured.

The anchor's A/B (`abBenchmark` with `SyntheticContentAwareExecutor`) scores text that only
depends on whether a file contains NEVER/ALWAYS/MUST, so a candidate with one more rule gains
exactly 0.000. Here every task is run by an executor that drives the agent with the policy
installed, and pass/fail comes from the task's assertions on what happened. What the result
means depends on the executor, and the report says which it is:

- **deterministic** (the scripted executor: the real `claude`, the real hooks, a scripted
  model). A run is a fixed sequence of tool calls, so a task's outcome is known once it ran
  once; a repeat would be the same run again, not a sample, so each task runs once per policy.
  The report is a check of enforcement: the probes the candidate stops that the baseline
  allows, the look-alikes that still run, the other tasks that changed. No p-value, no
  interval: there is no chance in it to test against.
- **stochastic** (the real model, `--executor claude --live`). Independent runs, paired by
  (task, repeat) and interleaved (each pair back to back, alternating which arm goes first, so
  drift hits both arms alike); the exact McNemar test on the discordant pairs and Newcombe's
  interval on the difference of pass rates. The run stops when `--budget-usd` is spent.

Cost is reported only when it was real (the live executor); a scripted run's dollar figure is
the client's price for tokens no model produced. A pair with an infrastructure error on either
side is left out and reported.
"""

from __future__ import annotations

import hashlib
import html
import json
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from cf_guidance.autopilot.live import Calibration, LivePreflight
from cf_guidance.autopilot.stats import mcnemar_exact, paired_difference_interval

REPORT_VERSION = 2
#: Significance level of the paired test.
ALPHA = 0.05

Arm = Literal["baseline", "candidate"]
ARMS: tuple[Arm, Arm] = ("baseline", "candidate")
Mode = Literal["deterministic", "stochastic"]
#: Executors whose runs are a fixed script: one run per task and policy says it all.
DETERMINISTIC_EXECUTORS = frozenset({"scripted", "fake"})
#: Runs per task and policy of a stochastic A/B unless --repeat says otherwise (six pairs all
#: one way are the fewest that reach p < 0.05).
STOCHASTIC_REPEAT = 6
PROBE_TAG = "rule:"


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
    cost_usd: float = Field(default=0.0, description="what the run cost; 0 unless it ran against the real model")
    blocked_by: list[str] = Field(default_factory=list, description="rule codes of the hook denials in the run")
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
    cost_usd: float | None = Field(description="None unless the runs cost real money")
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


class Enforcement(BaseModel):
    """What a deterministic A/B shows, task by task (each ran once per policy)."""

    stopped: list[str] = Field(description="attempts the candidate blocks by the probe's rule and the baseline allows")
    already_stopped: list[str] = Field(description="attempts the baseline blocks as well")
    stopped_by_another: list[str] = Field(description="attempts the candidate blocks by another rule than the probe's")
    not_stopped: list[str] = Field(description="attempts the candidate does not block")
    lookalikes_run: list[str]
    lookalikes_blocked: list[str]
    unchanged: int = Field(description="other tasks with the same result under both policies")
    changed: list[str] = Field(description="other tasks whose result differs")


class RuleResult(BaseModel):
    """The probes derived from one rule, and what they showed."""

    rule: str
    attempts: int = 0
    stopped: int = Field(default=0, description="attempt runs blocked under the candidate and allowed under the baseline")
    lookalikes: int = 0
    lookalikes_run: int = Field(default=0, description="look-alike runs that ran under the candidate")
    gained: int = Field(default=0, description="pairs of this rule's probes passing under the candidate only")
    lost: int = Field(default=0, description="pairs passing under the baseline only")
    pairs: int = 0


class Budget(BaseModel):
    limit_usd: float
    spent_usd: float
    runs: int
    skipped_pairs: int = Field(description="pairs never started because the budget was spent")


class PolicyRef(BaseModel):
    name: str
    sha256: str


class ABReport(BaseModel):
    version: int = REPORT_VERSION
    mode: Mode
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
    deltaGain: float = Field(description="candidate pass rate minus baseline pass rate, over the valid pairs")
    test: PairedTest | None = Field(description="stochastic runs only")
    significant: bool | None = Field(description="stochastic runs only: p < 0.05 and more gained than lost")
    enforcement: Enforcement | None = Field(description="deterministic runs only")
    rules: list[RuleResult]
    unprobed: list[str] = []
    regressions: list[str] = Field(description="tasks with a pair that passed under the baseline only")
    flipped: list[Flip]
    tasks: list[TaskDelta]
    errors: list[str]
    budget: Budget | None = None
    preflight: LivePreflight | None = None
    runs: list[RunOutcome]

    def summary_line(self) -> str:
        errors = f", {len(self.errors)} left out" if self.errors else ""
        if self.enforcement is not None:
            e = self.enforcement
            attempts = len(e.stopped) + len(e.already_stopped) + len(e.stopped_by_another) + len(e.not_stopped)
            looks = len(e.lookalikes_run) + len(e.lookalikes_blocked)
            parts = [f"the candidate stops {len(e.stopped)} of {attempts} probes the baseline allows"]
            if e.already_stopped:
                parts.append(f"{len(e.already_stopped)} already stopped by the baseline")
            if e.stopped_by_another:
                parts.append("stopped by another rule: " + ", ".join(e.stopped_by_another))
            if e.not_stopped:
                parts.append("not stopped: " + ", ".join(e.not_stopped))
            parts.append(f"{len(e.lookalikes_run)} of {looks} look-alikes still run")
            parts.append(f"{e.unchanged} other tasks unchanged" + (", changed: " + ", ".join(e.changed) if e.changed else ""))
            return (f"A/B {self.suite}: deterministic check of enforcement ({self.executor} model, each task once per "
                    f"policy; no statistics): " + "; ".join(parts) + errors)
        t = self.test
        assert t is not None
        cost = f", cost ${(self.baseline.cost_usd or 0) + (self.candidate.cost_usd or 0):.2f}" if self.baseline.cost_usd is not None else ""
        budget = (f", budget spent after {self.budget.runs} runs ({self.budget.skipped_pairs} pairs not run)"
                  if self.budget is not None and self.budget.skipped_pairs else "")
        return (
            f"A/B {self.suite} ({self.executor}, {t.pairs} independent pairs): pass {self.baseline.pass_rate:.0%} -> "
            f"{self.candidate.pass_rate:.0%}, deltaGain {self.deltaGain:+.3f}, 95% CI [{t.interval[0]:+.3f}, {t.interval[1]:+.3f}], "
            f"McNemar p={t.p_value:.4f} ({t.gained} gained, {t.lost} lost){cost}{budget}{errors}"
        )


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def probe_kinds(tasks: Sequence[Any]) -> dict[str, tuple[str, str]]:
    """task id -> ("attempt" | "lookalike", rule) for derived probes (by their tags)."""
    out: dict[str, tuple[str, str]] = {}
    for task in tasks:
        tags = list(getattr(task, "tags", []) or [])
        rule = next((t[len(PROBE_TAG):] for t in tags if t.startswith(PROBE_TAG)), "")
        kind = "attempt" if "attempt" in tags else "lookalike" if "lookalike" in tags else ""
        if rule and kind:
            out[str(task.id)] = (kind, rule)
    return out


def run_ab(
    baseline: str,
    candidate: str,
    tasks: Sequence[Any],
    execute: Executor,
    *,
    mode: Mode = "stochastic",
    repeat: int = 1,
    jobs: int = 1,
    suite: str = "suite",
    executor_name: str = "injected",
    names: tuple[str, str] = ("baseline", "candidate"),
    progress: Callable[[RunOutcome], None] | None = None,
    budget_usd: float | None = None,
    cost_real: bool = False,
    unprobed: Sequence[str] = (),
) -> ABReport:
    """Run every task under both policies, paired and interleaved, `repeat` times (once when
    `mode` is deterministic). With `jobs` > 1 pairs run concurrently; the two runs of one pair
    stay back to back. With `budget_usd`, no pair starts once the runs so far cost that much."""
    from concurrent.futures import ThreadPoolExecutor

    if mode == "deterministic" and repeat != 1:
        raise ValueError("a deterministic A/B runs each task once per policy; repeats are the same run again")
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    clock = time.monotonic()
    policies = {"baseline": baseline, "candidate": candidate}
    spent = [0.0, 0, 0]  # dollars, runs, skipped pairs
    lock = threading.Lock()

    def pair(r: int, index: int, task: Any) -> list[RunOutcome]:
        with lock:
            if budget_usd is not None and spent[0] >= budget_usd:
                spent[2] += 1
                return []
        out = []
        for arm in ARMS if (r + index) % 2 == 0 else ARMS[::-1]:
            try:
                outcome = execute(policies[arm], task, arm, r)
            except Exception as exc:  # an executor bug or crash must not lose the other runs
                outcome = RunOutcome(task=str(task.id), arm=arm, repeat=r, error=f"{type(exc).__name__}: {exc}")
            with lock:
                spent[0] += outcome.cost_usd
                spent[1] += 1
            if progress is not None:
                progress(outcome)
            out.append(outcome)
        return out

    work = [(r, index, task) for r in range(repeat) for index, task in enumerate(tasks)]
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="ab") as pool:
        runs = [outcome for outcomes in pool.map(lambda w: pair(*w), work) for outcome in outcomes]
    report = summarise(
        runs,
        [str(t.id) for t in tasks],
        baseline_ref=PolicyRef(name=names[0], sha256=_sha(baseline)),
        candidate_ref=PolicyRef(name=names[1], sha256=_sha(candidate)),
        suite=suite,
        executor=executor_name,
        repeat=repeat,
        started=started,
        duration_s=round(time.monotonic() - clock, 3),
        mode=mode,
        probes=probe_kinds(tasks),
        cost_real=cost_real,
        unprobed=unprobed,
    )
    if budget_usd is not None:
        report.budget = Budget(limit_usd=budget_usd, spent_usd=round(float(spent[0]), 6), runs=int(spent[1]),
                               skipped_pairs=int(spent[2]))
    return report


def _arm_summary(runs: list[RunOutcome], cost_real: bool) -> ArmSummary:
    n = len(runs)
    passed = sum(1 for r in runs if r.passed)
    return ArmSummary(
        runs=n,
        passed=passed,
        pass_rate=round(passed / n, 4) if n else 0.0,
        violations=sum(r.violations for r in runs),
        denials=sum(r.denials for r in runs),
        mean_turns=round(sum(r.turns for r in runs) / n, 3) if n else 0.0,
        cost_usd=round(sum(r.cost_usd for r in runs), 6) if cost_real else None,
        duration_s=round(sum(r.duration_s for r in runs), 3),
    )


def _attempt(b: RunOutcome, c: RunOutcome) -> Literal["stopped", "already", "another", "not"]:
    """What an attempt pair shows: the candidate stops it by the probe's rule and the baseline
    lets it through; the baseline stops it too; the candidate stops it by another rule; or not."""
    if b.passed or b.blocked_by:
        return "already"
    if c.passed:
        return "stopped"
    return "another" if c.blocked_by else "not"


def _enforcement(pairs: list[tuple[RunOutcome, RunOutcome]], probes: dict[str, tuple[str, str]]) -> Enforcement:
    e = Enforcement(stopped=[], already_stopped=[], stopped_by_another=[], not_stopped=[], lookalikes_run=[],
                    lookalikes_blocked=[], unchanged=0, changed=[])
    for b, c in pairs:
        kind = probes.get(b.task, ("", ""))[0]
        if kind == "attempt":
            state = _attempt(b, c)
            if state == "another":
                e.stopped_by_another.append(f"{b.task} ({', '.join(c.blocked_by)})")
            else:
                {"stopped": e.stopped, "already": e.already_stopped, "not": e.not_stopped}[state].append(b.task)
        elif kind == "lookalike":
            (e.lookalikes_run if c.passed else e.lookalikes_blocked).append(b.task)
        elif b.passed == c.passed:
            e.unchanged += 1
        else:
            e.changed.append(f"{b.task} ({'gained' if c.passed else 'lost'})")
    return e


def _rule_results(pairs: list[tuple[RunOutcome, RunOutcome]], probes: dict[str, tuple[str, str]]) -> list[RuleResult]:
    results: dict[str, RuleResult] = {}
    for b, c in pairs:
        if b.task not in probes:
            continue
        kind, rule = probes[b.task]
        result = results.setdefault(rule, RuleResult(rule=rule))
        result.pairs += 1
        result.gained += c.passed and not b.passed
        result.lost += b.passed and not c.passed
        if kind == "attempt":
            result.attempts += 1
            result.stopped += _attempt(b, c) == "stopped"
        else:
            result.lookalikes += 1
            result.lookalikes_run += c.passed
    return sorted(results.values(), key=lambda r: r.rule)


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
    mode: Mode = "stochastic",
    probes: dict[str, tuple[str, str]] | None = None,
    cost_real: bool = False,
    unprobed: Sequence[str] = (),
) -> ABReport:
    """Pair the runs by (task, repeat); the deltas, and the paired test (stochastic) or the
    enforcement check (deterministic)."""
    probes = probes or {}
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
            errors.append(f"{task} #{r + 1}: left out ({why})")
            continue
        pairs.append((arms["baseline"], arms["candidate"]))
    both = sum(1 for b, c in pairs if b.passed and c.passed)
    lost = sum(1 for b, c in pairs if b.passed and not c.passed)
    gained = sum(1 for b, c in pairs if c.passed and not b.passed)
    neither = len(pairs) - both - lost - gained
    base = _arm_summary([b for b, _ in pairs], cost_real)
    cand = _arm_summary([c for _, c in pairs], cost_real)
    task_deltas: list[TaskDelta] = []
    for task in task_ids:
        tp = [(b, c) for b, c in pairs if b.task == task]
        if not tp:
            continue
        tb, tc = _arm_summary([b for b, _ in tp], cost_real), _arm_summary([c for _, c in tp], cost_real)
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
                duration_delta=round(tc.duration_s - tb.duration_s, 3),
            )
        )
    order = {task: i for i, task in enumerate(task_ids)}
    flipped = [
        Flip(task=b.task, repeat=b.repeat, direction="gained" if c.passed else "lost")
        for b, c in sorted(pairs, key=lambda p: (p[0].repeat, order.get(p[0].task, 0)))
        if b.passed != c.passed
    ]
    gain = round(cand.pass_rate - base.pass_rate, 4)
    test: PairedTest | None = None
    significant: bool | None = None
    if mode == "stochastic":
        p_value = mcnemar_exact(gained, lost)
        low, high = paired_difference_interval(both, lost, gained, neither)
        test = PairedTest(pairs=len(pairs), both=both, gained=gained, lost=lost, neither=neither,
                          p_value=round(p_value, 6), interval=(round(low, 4), round(high, 4)))
        significant = p_value < ALPHA and gained > lost
    delta = {
        "pass_rate": gain,
        "violations": cand.violations - base.violations,
        "denials": cand.denials - base.denials,
        "mean_turns": round(cand.mean_turns - base.mean_turns, 3),
        "duration_s": round(cand.duration_s - base.duration_s, 3),
    }
    if cost_real:
        delta["cost_usd"] = round((cand.cost_usd or 0.0) - (base.cost_usd or 0.0), 6)
    return ABReport(
        mode=mode,
        baseline_policy=baseline_ref,
        candidate_policy=candidate_ref,
        suite=suite,
        executor=executor,
        repeat=repeat,
        started=started,
        duration_s=duration_s,
        baseline=base,
        candidate=cand,
        delta=delta,
        deltaGain=gain,
        test=test,
        significant=significant,
        enforcement=_enforcement(pairs, probes) if mode == "deterministic" else None,
        rules=_rule_results(pairs, probes),
        unprobed=list(unprobed),
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


def _verdict_html(report: ABReport) -> str:
    e = html.escape
    if report.enforcement is not None:
        return (f"<p class=verdict><b>deterministic check of enforcement</b>: {e(report.summary_line().split(': ', 1)[1])}</p>"
                "<p>The scripted executor replays the same tool calls every run, so each task ran once per policy and "
                "no statistic is given: there is no chance in it to test against.</p>")
    t = report.test
    assert t is not None
    verdict = (
        "candidate is significantly better" if report.significant
        else "no significant difference" if t.gained == t.lost or t.p_value >= ALPHA
        else "candidate is significantly worse"
    )
    return (f"<p class=verdict><b>{e(verdict)}</b>: deltaGain {report.deltaGain:+.3f}, 95% interval "
            f"[{t.interval[0]:+.3f}, {t.interval[1]:+.3f}], {e(t.method)} p = {t.p_value:.4g} ({t.gained} gained, "
            f"{t.lost} lost of {t.pairs} independent pairs)</p>")


def render_html(report: ABReport) -> str:
    """One self-contained HTML page: what was measured, the overall table, flips, per-task results."""
    e = html.escape

    def pct(x: float) -> str:
        return f"{x:.0%}"

    rows: list[tuple[str, Any, Any, str]] = [
        ("pass rate", pct(report.baseline.pass_rate), pct(report.candidate.pass_rate), f"{report.delta['pass_rate']:+.3f}"),
        ("violations", report.baseline.violations, report.candidate.violations, f"{report.delta['violations']:+g}"),
        ("denials", report.baseline.denials, report.candidate.denials, f"{report.delta['denials']:+g}"),
        ("mean turns", report.baseline.mean_turns, report.candidate.mean_turns, f"{report.delta['mean_turns']:+g}"),
        ("time (s)", report.baseline.duration_s, report.candidate.duration_s, f"{report.delta['duration_s']:+g}"),
    ]
    if report.baseline.cost_usd is not None:
        rows.append(("cost (USD)", report.baseline.cost_usd, report.candidate.cost_usd, f"{report.delta['cost_usd']:+g}"))
    overall = "".join(f"<tr><th class=l>{e(str(a))}</th><td>{e(str(b))}</td><td>{e(str(c))}</td><td>{e(str(d))}</td></tr>" for a, b, c, d in rows)
    flips = "".join(
        f"<tr><td class=l>{e(f.task)}</td><td>{f.repeat + 1}</td><td class={'gain' if f.direction == 'gained' else 'loss'}>{f.direction}</td></tr>"
        for f in report.flipped
    ) or "<tr><td class=l colspan=3>no task flipped</td></tr>"
    rules = "".join(
        f"<tr><td class=l>{e(r.rule)}</td><td>{r.stopped} of {r.attempts}</td><td>{r.lookalikes_run} of {r.lookalikes}</td></tr>"
        for r in report.rules
    ) or "<tr><td class=l colspan=3>no derived probe</td></tr>"
    tasks = "".join(
        f"<tr><td class=l>{e(d.task)}</td><td>{pct(d.baseline_pass_rate)}</td><td>{pct(d.candidate_pass_rate)}</td>"
        f"<td class={'gain' if d.delta > 0 else 'loss' if d.delta < 0 else ''}>{d.delta:+.2f}</td><td>{d.gained}</td><td>{d.lost}</td>"
        f"<td>{d.violations_delta:+d}</td><td>{d.denials_delta:+d}</td><td>{d.turns_delta:+g}</td><td>{d.duration_delta:+g}</td></tr>"
        for d in sorted(report.tasks, key=lambda d: (d.delta == 0, d.delta, d.task))
    )
    errors = "".join(f"<li>{e(x)}</li>" for x in report.errors)
    unprobed = "".join(f"<li>{e(x)}</li>" for x in report.unprobed)
    summary: dict[str, Any] = {"mode": report.mode, "deltaGain": report.deltaGain}
    if report.test is not None:
        summary.update(p_value=report.test.p_value, interval=list(report.test.interval))
    live = f"<p>{e(report.preflight.line())}</p>" if report.preflight is not None else ""
    return f"""<!doctype html>
<html lang=en><head><meta charset=utf-8><title>A/B: {e(report.suite)}</title><style>{_CSS}</style></head>
<body data-summary="{e(json.dumps(summary))}">
<h1>A/B benchmark: {e(report.baseline_policy.name)} vs {e(report.candidate_policy.name)}</h1>
{_verdict_html(report)}
<p>Suite <code>{e(report.suite)}</code>, executor <code>{e(report.executor)}</code> ({e(report.mode)}), repeat {report.repeat},
started {e(report.started)}, {report.duration_s:g} s.</p>{live}
<h2>Overall</h2>
<table><tr><th class=l></th><th>baseline</th><th>candidate</th><th>delta</th></tr>{overall}</table>
<h2>Probes by rule</h2>
<table><tr><th class=l>rule</th><th>attempts stopped (baseline allows)</th><th>look-alikes that run</th></tr>{rules}</table>
{"<h3>Rules without a probe</h3><ul>" + unprobed + "</ul>" if unprobed else ""}
<h2>Flipped pairs (in run order)</h2>
<table><tr><th class=l>task</th><th>repeat</th><th>direction</th></tr>{flips}</table>
<h2>Per task</h2>
<table><tr><th class=l>task</th><th>baseline</th><th>candidate</th><th>delta</th><th>gained</th><th>lost</th>
<th>violations</th><th>denials</th><th>turns</th><th>time (s)</th></tr>{tasks}</table>
{"<h2>Left out</h2><ul>" + errors + "</ul>" if errors else ""}
</body></html>
"""


# -- the headless runner as the executor --------------------------------------------------------

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


def headless_executor(suite: Any, executor: str, *, base_dir: Path | None = None) -> Executor:
    """An `Executor` that runs each task through the headless runner with the arm's policy."""
    from cf_guidance.headless.runner import INFRA_KINDS, Runner, RunOptions
    from cf_guidance.headless.suite import PolicySpec

    runner = Runner(suite, RunOptions(executor=executor, base_dir=base_dir))
    live = executor not in DETERMINISTIC_EXECUTORS

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
            cost_usd=run.cost_usd if run is not None and live else 0.0,
            blocked_by=sorted({c.rule or "(no code)" for c in run.tool_calls if c.denied_by == "hook"}) if run is not None else [],
            duration_s=round(attempt.duration_ms / 1000, 3),
            failures=[f"{e.description}: {e.reason}" for e in attempt.expectations if e.status == "fail"],
        )

    return execute


def _calibrate(suite: Any, policy: str, base_dir: Path) -> Calibration | None:
    """One run of the suite's first scripted task with the scripted executor (free): the model
    requests it took and the client's price for them."""
    from cf_guidance.headless.runner import Runner, RunOptions
    from cf_guidance.headless.suite import PolicySpec

    task = next((t for t in suite.tasks if t.script is not None), None)
    if task is None:
        return None
    attempt = Runner(suite, RunOptions(executor="scripted", base_dir=base_dir)).attempt(
        task.model_copy(update={"policy": PolicySpec(text=policy)}), 0)
    if attempt.run is None:
        return None
    return Calibration(requests=max(1, attempt.run.num_turns), cost_usd=attempt.run.cost_usd)


def run_policy_ab(
    baseline: str,
    candidate: str,
    *,
    suite_path: Path | None | Literal["derived"] = None,
    executor: str = "scripted",
    repeat: int | None = None,
    jobs: int = 2,
    work_dir: Path,
    names: tuple[str, str] = ("CLAUDE.md", "candidate"),
    progress: Callable[[RunOutcome], None] | None = None,
    live: bool = False,
    budget_usd: float | None = None,
    announce: Callable[[str], None] | None = None,
) -> ABReport:
    """A/B the two policies on a suite plus probes for the candidate's new rules.

    `suite_path` None means the starter compliance suite; "derived" means the probes alone.
    The scripted executor runs each task once per policy (`repeat` must be 1 or None); the
    live one (`executor="claude"`) needs `live` and `budget_usd`, runs a preflight (announced)
    and `repeat` (default 6) independent pairs per task. Raises SuiteError when there is
    nothing to run, ConfigError for a repeat or live option that does not fit the executor.
    """
    import shutil

    import yaml

    from cf_guidance.autopilot.live import preflight, require_live
    from cf_guidance.autopilot.probes import default_suite, write_derived_suite
    from cf_guidance.errors import ConfigError, SuiteError
    from cf_guidance.headless.suite import load_suite

    require_live(executor, live, budget_usd)
    mode: Mode = "deterministic" if executor in DETERMINISTIC_EXECUTORS else "stochastic"
    if mode == "deterministic" and repeat not in (None, 1):
        raise ConfigError(f"--repeat {repeat}: a {executor} run is deterministic, so a repeat is the same run again, not a "
                          "sample; repeats are for --executor claude --live")
    runs_per_task = 1 if mode == "deterministic" else repeat or STOCHASTIC_REPEAT
    base = default_suite() if suite_path is None else None if suite_path == "derived" else suite_path
    path, unprobed = write_derived_suite(baseline, candidate, work_dir, base_suite=base)
    if not (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("tasks"):
        raise SuiteError("the A/B suite has no task: the candidate adds no command or path rule to probe; give --suite")
    suite = load_suite(path)
    runs_dir = work_dir / "runs"
    runs_dir.mkdir(exist_ok=True)
    checked: LivePreflight | None = None
    try:
        if mode == "stochastic":
            assert budget_usd is not None
            checked = preflight(len(suite.tasks) * runs_per_task * 2, budget_usd,
                                calibrate=lambda: _calibrate(suite, baseline, runs_dir))
            if announce is not None:
                announce(checked.line())
        execute = headless_executor(suite, executor, base_dir=runs_dir)
        report = run_ab(baseline, candidate, suite.tasks, execute, mode=mode, repeat=runs_per_task, jobs=jobs,
                        suite=suite.name, executor_name=executor, names=names, progress=progress,
                        budget_usd=budget_usd, cost_real=mode == "stochastic", unprobed=unprobed)
        report.preflight = checked
        return report
    finally:
        # Each run's workspace is removed by the runner, but the detached worker its hooks
        # started may write into it afterwards; the suite file stays for reproduction.
        shutil.rmtree(runs_dir, ignore_errors=True)
