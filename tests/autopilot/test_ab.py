from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from cf_guidance.autopilot.ab import RunOutcome, run_ab, write_reports


def tasks(*ids: str) -> list[SimpleNamespace]:
    """Tasks named "attempt" and "lookalike" are the derived probes of rule R1."""
    return [SimpleNamespace(id=i, tags=[i, "rule:R1"] if i in ("attempt", "lookalike") else []) for i in ids]


def executor(table: dict[tuple[str, str], bool], calls: list | None = None, fail: set | None = None):  # type: ignore[no-untyped-def]
    def run(policy: str, task, arm, repeat):  # type: ignore[no-untyped-def]
        if calls is not None:
            calls.append((task.id, arm, repeat))
        if fail and (task.id, arm, repeat) in fail:
            raise RuntimeError("server died")
        passed = table[(task.id, arm)]
        return RunOutcome(task=task.id, arm=arm, repeat=repeat, passed=passed,
                          denials=1 if arm == "candidate" and task.id == "attempt" else 0, turns=2, duration_s=0.5)
    return run


TABLE = {
    ("attempt", "baseline"): False, ("attempt", "candidate"): True,
    ("lookalike", "baseline"): True, ("lookalike", "candidate"): True,
}


def test_runs_are_paired_and_interleaved() -> None:
    calls: list = []
    run_ab("A", "B", tasks("attempt", "lookalike"), executor(TABLE, calls), repeat=2)
    assert calls == [
        ("attempt", "baseline", 0), ("attempt", "candidate", 0),
        ("lookalike", "candidate", 0), ("lookalike", "baseline", 0),
        ("attempt", "candidate", 1), ("attempt", "baseline", 1),
        ("lookalike", "baseline", 1), ("lookalike", "candidate", 1),
    ]


def test_a_blocking_candidate_gains_significantly_with_enough_independent_runs() -> None:
    report = run_ab("A", "B", tasks("attempt", "lookalike"), executor(TABLE), repeat=6)
    assert report.mode == "stochastic" and report.enforcement is None
    assert report.deltaGain == pytest.approx(0.5)
    assert (report.test.gained, report.test.lost, report.test.both, report.test.neither) == (6, 0, 6, 0)
    assert report.test is not None and report.test.p_value == pytest.approx(2 / 64)
    assert report.significant
    assert report.test.interval[0] > 0
    assert report.regressions == []
    assert report.flipped[0].task == "attempt" and report.flipped[0].repeat == 0
    assert report.delta["denials"] == 6
    by_task = {t.task: t for t in report.tasks}
    assert by_task["attempt"].delta == 1.0 and by_task["lookalike"].delta == 0.0
    (rule,) = report.rules
    assert (rule.rule, rule.attempts, rule.stopped, rule.lookalikes, rule.lookalikes_run) == ("R1", 6, 6, 6, 6)
    assert (rule.gained, rule.lost, rule.pairs) == (6, 0, 12)


def test_a_deterministic_run_is_a_check_of_enforcement_without_statistics() -> None:
    calls: list = []
    report = run_ab("A", "B", tasks("attempt", "lookalike", "safe"), executor({**TABLE, ("safe", "baseline"): True,
                    ("safe", "candidate"): True}, calls), mode="deterministic")
    assert len(calls) == 6  # each task once per policy
    assert report.mode == "deterministic" and report.test is None and report.significant is None
    assert report.enforcement is not None
    assert report.enforcement.stopped == ["attempt"] and report.enforcement.lookalikes_run == ["lookalike"]
    assert report.enforcement.unchanged == 1 and report.enforcement.changed == []
    line = report.summary_line()
    assert "deterministic check of enforcement" in line and "the candidate stops 1 of 1 probes the baseline allows" in line
    assert "p=" not in line and "CI" not in line and "McNemar" not in line
    with pytest.raises(ValueError, match="once per policy"):
        run_ab("A", "B", tasks("attempt"), executor(TABLE), mode="deterministic", repeat=6)


def test_cost_is_shown_only_when_it_was_real() -> None:
    def costly(policy, task, arm, repeat):  # type: ignore[no-untyped-def]
        return RunOutcome(task=task.id, arm=arm, repeat=repeat, passed=True, cost_usd=0.5)

    scripted = run_ab("A", "B", tasks("safe"), costly, mode="deterministic")
    assert scripted.baseline.cost_usd is None and "cost_usd" not in scripted.delta and "cost" not in scripted.summary_line()
    live = run_ab("A", "B", tasks("safe"), costly, repeat=2, cost_real=True)
    assert live.baseline.cost_usd == 1.0 and "cost $2.00" in live.summary_line()


def test_a_budget_stops_the_run_once_spent() -> None:
    def costly(policy, task, arm, repeat):  # type: ignore[no-untyped-def]
        return RunOutcome(task=task.id, arm=arm, repeat=repeat, passed=True, cost_usd=0.3)

    report = run_ab("A", "B", tasks("attempt", "lookalike"), costly, repeat=6, budget_usd=1.0, cost_real=True)
    assert report.budget is not None
    assert (report.budget.runs, report.budget.skipped_pairs, report.budget.spent_usd) == (4, 10, 1.2)
    assert report.test is not None and report.test.pairs == 2
    assert "budget spent after 4 runs (10 pairs not run)" in report.summary_line()


def test_identical_policies_gain_nothing() -> None:
    same = {k: v for k, v in TABLE.items()}
    same[("attempt", "candidate")] = False
    report = run_ab("A", "A", tasks("attempt", "lookalike"), executor(same), repeat=3)
    assert report.test is not None
    assert report.deltaGain == 0 and not report.significant and report.test.p_value == 1.0
    assert report.flipped == []


def test_a_crashing_run_leaves_its_pair_out_and_says_so() -> None:
    report = run_ab("A", "B", tasks("attempt"), executor(TABLE, fail={("attempt", "candidate", 1)}), repeat=3)
    assert report.test is not None and report.test.pairs == 2
    assert len(report.errors) == 1 and "attempt #2" in report.errors[0] and "server died" in report.errors[0]


def test_a_regression_is_named() -> None:
    table = dict(TABLE)
    table[("lookalike", "candidate")] = False
    report = run_ab("A", "B", tasks("attempt", "lookalike"), executor(table), repeat=2)
    assert report.regressions == ["lookalike"]
    assert report.deltaGain == 0.0


def test_reports_are_written_and_self_contained(tmp_path: Path) -> None:
    report = run_ab("A", "B", tasks("attempt", "lookalike"), executor(TABLE), repeat=6, suite="derived")
    json_path, html_path = write_reports(report, tmp_path)
    assert '"deltaGain": 0.5' in json_path.read_text()
    page = html_path.read_text()
    assert "candidate is significantly better" in page and "cost (USD)" not in page
    assert "<script src" not in page and "<link" not in page
    assert page.index("Flipped pairs") < page.index("Per task")
    assert "summary_line" not in page
    assert "deltaGain +0.500" in report.summary_line()
    deterministic = run_ab("A", "B", tasks("attempt", "lookalike"), executor(TABLE), mode="deterministic")
    page = write_reports(deterministic, tmp_path / "d")[1].read_text()
    assert "deterministic check of enforcement" in page and "McNemar" not in page and "interval" not in page


def test_a_run_where_the_guard_failed_open_is_not_evidence() -> None:
    from cf_guidance.autopilot.ab import guard_failure

    call = SimpleNamespace(recorded={})
    hook = SimpleNamespace(stdout="", stderr="cf-guidance: could not check this call (timed out after 3000 ms); allowed", reason="")
    assert "timed out" in guard_failure(SimpleNamespace(tool_calls=[call], hook_events=[hook]))
    recorded = SimpleNamespace(recorded={"rule": "fail-open", "reason": "internal error"})
    assert guard_failure(SimpleNamespace(tool_calls=[recorded], hook_events=[])) == "guard fail-open: internal error"
    clean = SimpleNamespace(stdout="", stderr="", reason="[S-1] Never run make deploy")
    assert guard_failure(SimpleNamespace(tool_calls=[call], hook_events=[clean])) == ""
    assert guard_failure(None) == ""


def test_an_attempt_blocked_by_another_rule_or_by_the_baseline_is_no_credit_to_the_probes_rule() -> None:
    def run(blocked: dict[str, list[str]]):  # type: ignore[no-untyped-def]
        def execute(policy, task, arm, repeat):  # type: ignore[no-untyped-def]
            codes = blocked.get(arm, [])
            return RunOutcome(task=task.id, arm=arm, repeat=repeat, passed="R1" in codes, blocked_by=codes)
        return run_ab("A", "B", tasks("attempt"), execute, mode="deterministic")

    other = run({"candidate": ["R7"]})
    assert other.enforcement is not None and other.enforcement.stopped_by_another == ["attempt (R7)"]
    assert other.rules[0].stopped == 0 and "stopped by another rule: attempt (R7)" in other.summary_line()
    already = run({"baseline": ["R7"], "candidate": ["R1"]})
    assert already.enforcement is not None and already.enforcement.already_stopped == ["attempt"]
    assert already.rules[0].stopped == 0
    own = run({"candidate": ["R1"]})
    assert own.enforcement is not None and own.enforcement.stopped == ["attempt"] and own.rules[0].stopped == 1
