from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from cf_guidance.autopilot.ab import RunOutcome, run_ab, write_reports


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
    assert "candidate is significantly better" in page
    assert "<script src" not in page and "<link" not in page
    assert page.index("Flipped pairs") < page.index("Per task")
    assert "summary_line" not in page
    assert "deltaGain +0.500" in report.summary_line()


# --- probes derived from the candidate's new rules ------------------------------------------

from cf_guidance.autopilot.ab import LIVE_GUARD_ENV, new_checks, probe_tasks, write_derived_suite  # noqa: E402
from cf_guidance.policy.compiler import compile_sources  # noqa: E402

BASE = "# X\n\n## Git\n\n- Never run `git push --force`.\n"


def probes_for(added: str) -> list[dict]:
    checks = new_checks(compile_sources(BASE, None), compile_sources(BASE + added, None))
    return probe_tasks(checks)


def test_a_command_ban_gets_a_guarded_attempt_and_an_echo_lookalike() -> None:
    attempt, lookalike = probes_for("\n- Never run `make deploy`.\n")
    command = attempt["script"]["turns"][0]["tool_uses"][0]["input"]["command"]
    assert command == f'test -n "${LIVE_GUARD_ENV}" && make deploy'
    assert attempt["assertions"][0]["type"] == "hook-blocked"
    assert attempt["assertions"][0]["rule"].startswith("S-")
    assert lookalike["script"]["turns"][0]["tool_uses"][0]["input"]["command"] == "echo 'make deploy'"
    assert lookalike["assertions"][0] == {"type": "tool-called", "tool": "Bash", "ran": True,
                                          "input": {"command": "^echo\\ 'make\\ deploy'$"}}


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        ("\n```guidance\n[R050] deny command kubectl delete *\n```\n", "kubectl delete"),
        ("\n- Ask before `terraform apply`.\n", "terraform apply"),
        ("\n- Never run `rm -rf *.log`.\n", "rm -rf ab.log"),
    ],
)
def test_globs_become_concrete_words(added: str, expected: str) -> None:
    attempt = probes_for(added)[0]
    assert attempt["script"]["turns"][0]["tool_uses"][0]["input"]["command"].endswith("&& " + expected)


def test_warn_rules_and_unchanged_rules_get_no_probe() -> None:
    assert probes_for("\n- Avoid `npm install`.\n") == []
    assert probes_for("") == []


def test_a_path_ban_probes_with_write() -> None:
    attempt, lookalike = probes_for("\n- Never edit `migrations/**`.\n")
    use = attempt["script"]["turns"][0]["tool_uses"][0]
    assert use["name"] == "Write" and use["input"]["file_path"].startswith("migrations/")
    assert lookalike["script"]["turns"][0]["tool_uses"][0]["input"]["file_path"] == "ab-lookalike/notes.txt"


def test_the_derived_suite_loads_with_the_headless_loader(tmp_path: Path) -> None:
    from cf_guidance.headless.suite import load_suite

    path = write_derived_suite(BASE, BASE + "\n- Never run `make deploy`.\n", tmp_path)
    suite = load_suite(path)
    assert [t.id.rsplit("-", 1)[1] for t in suite.tasks] == ["attempt", "lookalike"]
    assert all(t.executor == "scripted" for t in suite.tasks)


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


def test_the_default_suite_is_the_compliance_suite_plus_the_probes(tmp_path: Path) -> None:
    from cf_guidance.autopilot.ab import default_suite
    from cf_guidance.headless.suite import load_suite

    path = write_derived_suite(BASE, BASE + "\n- Never run `make deploy`.\n", tmp_path / "w", base_suite=default_suite())
    suite = load_suite(path)
    ids = [t.id for t in suite.tasks]
    assert "no-force-push" in ids and ids[-2].endswith("-attempt") and ids[-1].endswith("-lookalike")
    assert suite.name == "compliance+derived"
    assert all(t.policy is None for t in suite.tasks)  # each arm brings its own policy


def test_a_base_suite_with_relative_paths_still_resolves(tmp_path: Path) -> None:
    from cf_guidance.headless.suite import load_suite

    base_dir = tmp_path / "suites"
    (base_dir / "fixture").mkdir(parents=True)
    (base_dir / "fixture" / "a.txt").write_text("a")
    (base_dir / "s.yaml").write_text(
        "version: 1\nname: mine\ndefaults: {policy: CLAUDE.md}\ntasks:\n"
        "  - id: t\n    prompt: p\n    workspace: {copy: fixture}\n    script: {turns: [{text: done}]}\n"
    )
    suite = load_suite(write_derived_suite(BASE, BASE, tmp_path / "w", base_suite=base_dir / "s.yaml"))
    assert suite.tasks[0].workspace.copy_from == str((base_dir / "fixture").resolve())
