from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from guidance.autopilot.ab import RunOutcome, run_ab, write_reports


def tasks(*ids: str) -> list[SimpleNamespace]:
    return [SimpleNamespace(id=i) for i in ids]


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


def test_a_blocking_candidate_gains_significantly_with_enough_repeats() -> None:
    report = run_ab("A", "B", tasks("attempt", "lookalike"), executor(TABLE), repeat=6)
    assert report.deltaGain == pytest.approx(0.5)
    assert (report.test.gained, report.test.lost, report.test.both, report.test.neither) == (6, 0, 6, 0)
    assert report.test.p_value == pytest.approx(2 / 64)
    assert report.significant
    assert report.test.interval[0] > 0
    assert report.regressions == []
    assert report.flipped[0].task == "attempt" and report.flipped[0].repeat == 0
    assert report.delta["denials"] == 6
    by_task = {t.task: t for t in report.tasks}
    assert by_task["attempt"].delta == 1.0 and by_task["lookalike"].delta == 0.0


def test_identical_policies_gain_nothing() -> None:
    same = {k: v for k, v in TABLE.items()}
    same[("attempt", "candidate")] = False
    report = run_ab("A", "A", tasks("attempt", "lookalike"), executor(same), repeat=3)
    assert report.deltaGain == 0 and not report.significant and report.test.p_value == 1.0
    assert report.flipped == []


def test_a_crashing_run_leaves_its_pair_out_and_says_so() -> None:
    report = run_ab("A", "B", tasks("attempt"), executor(TABLE, fail={("attempt", "candidate", 1)}), repeat=3)
    assert report.test.pairs == 2
    assert len(report.errors) == 1 and "attempt #1" in report.errors[0] and "server died" in report.errors[0]


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
    assert "candidate is significantly better" in page
    assert "<script src" not in page and "<link" not in page
    assert page.index("Flipped pairs") < page.index("Per task")
    assert "summary_line" not in page
    assert "deltaGain +0.500" in report.summary_line()
