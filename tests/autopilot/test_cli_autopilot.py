from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cf_guidance.cli import cli

SHARED = "# Payments\n\n## Git\n\n- Never run `git push --force`.\n"
LOCAL = "- Never run `make deploy`.\n"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("GUIDANCE_"):
            monkeypatch.delenv(name)
    # The ledger record goes through the spool; keep the detached worker out of unit tests.
    monkeypatch.setattr("cf_guidance.jobs.spool.spawn_worker", lambda *a, **k: False)


@pytest.fixture
def repo(project: Path) -> Path:
    (project / "CLAUDE.md").write_text(SHARED)
    (project / "CLAUDE.local.md").write_text(LOCAL)
    return project


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_analyze_a_file_prints_the_score_and_deductions(repo: Path) -> None:
    code, out = run("analyze", str(repo / "CLAUDE.md"))
    assert code == 0
    assert out.splitlines()[0].startswith(f"{repo / 'CLAUDE.md'}: ") and "grade" in out
    assert "enforceability" in out and "Deductions (largest first):" in out


def test_analyze_target_json_includes_the_local_overlay(repo: Path) -> None:
    code, out = run("analyze", "--target", str(repo), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["metrics"]["enforced_rules"] == 2  # the shared ban and the local one
    assert [d["name"] for d in data["dimensions"]][:2] == ["structure", "coverage"]


def test_analyze_without_a_policy_is_a_one_line_error(project: Path) -> None:
    result = CliRunner().invoke(cli, ["analyze", "--target", str(project)])
    assert result.exit_code != 0
    assert "no CLAUDE.md" in str(result.exception) or "no CLAUDE.md" in result.output


def test_autopilot_group_runs_once_and_proposes_by_default(repo: Path) -> None:
    code, out = run("autopilot", "--target", str(repo))
    assert code == 0, out
    assert " proposed " in out and "proposal: " in out
    assert (repo / "CLAUDE.md").read_text() == SHARED


def test_autopilot_apply_then_rollback_subcommand(repo: Path) -> None:
    code, out = run("autopilot", "--target", str(repo), "--once", "--apply")
    assert code == 0 and " applied " in out and "adr: " in out
    assert "make deploy" in (repo / "CLAUDE.md").read_text()
    code, out = run("autopilot", "--target", str(repo), "rollback")
    assert code == 0 and "rolled-back" in out
    assert (repo / "CLAUDE.md").read_text() == SHARED
    # Both reached the spool the detached worker chains into the ledger.
    from cf_guidance.jobs import spool

    jobs = [spool.read_job(p) for p in spool.pending(str(repo / ".claude-flow" / "guidance"))]
    assert [(j["kind"], j["event"]["action"]) for j in jobs] == [("autopilot", "promote"), ("autopilot", "rollback")]
    assert jobs[0]["event"]["sha256_before"] == jobs[1]["event"]["sha256_after"]


def test_autopilot_apply_from_the_environment(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUIDANCE_AUTOPILOT_APPLY", "1")
    code, out = run("autopilot", "--target", str(repo), "--json")
    assert code == 0
    assert json.loads(out)["decision"] == "applied"


def test_autopilot_min_delta_flag(repo: Path) -> None:
    code, out = run("autopilot", "--target", str(repo), "--apply", "--min-delta", "99")
    assert code == 0 and " proposed " in out and "min-delta 99" in out


def test_ab_writes_both_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from cf_guidance.autopilot import ab

    def fake(baseline: str, candidate: str, **kw):  # type: ignore[no-untyped-def]
        table = {("attempt", "baseline"): False, ("attempt", "candidate"): True}
        execute = lambda policy, task, arm, r: ab.RunOutcome(task=task.id, arm=arm, repeat=r, passed=table[(task.id, arm)])  # noqa: E731
        return ab.run_ab(baseline, candidate, [SimpleNamespace(id="attempt")], execute, repeat=kw["repeat"], suite="fake")

    monkeypatch.setattr(ab, "run_policy_ab", fake)
    (tmp_path / "a.md").write_text(SHARED)
    (tmp_path / "b.md").write_text(SHARED + LOCAL)
    out_dir = tmp_path / "reports"
    code, out = run("ab", "--baseline", str(tmp_path / "a.md"), "--candidate", str(tmp_path / "b.md"),
                    "--repeat", "6", "--report-dir", str(out_dir))
    assert code == 0, out
    assert "deltaGain +1.000" in out and "p=0.0312" in out
    assert (out_dir / "ab-report.json").exists() and (out_dir / "ab-report.html").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--executor", "claude"], "--executor claude runs the real model and costs money; add --live and --budget-usd N"),
        (["--executor", "claude", "--live"], "a live A/B needs --budget-usd N"),
        (["--live", "--budget-usd", "5"], "--live and --budget-usd are for --executor claude"),
        (["--repeat", "6"], "--repeat 6: a scripted run is deterministic, so a repeat is the same run again, not a sample"),
    ],
)
def test_ab_options_that_do_not_fit_the_executor_are_one_line_errors(tmp_path: Path, args: list[str], message: str) -> None:
    import subprocess

    from tests.e2e.e2e_harness import cf_guidance

    (tmp_path / "a.md").write_text(SHARED)
    (tmp_path / "b.md").write_text(SHARED + LOCAL)
    done = subprocess.run(cf_guidance("ab", "--baseline", str(tmp_path / "a.md"), "--candidate", str(tmp_path / "b.md"),
                                      "--report-dir", str(tmp_path / "r"), *args),
                          capture_output=True, text=True, timeout=60, env={**os.environ, "ANTHROPIC_API_KEY": "x"})
    assert done.returncode == 2 and done.stderr.startswith("cf-guidance: " + message), done.stderr
    assert done.stderr.count("\n") == 1 and not (tmp_path / "r").exists()


def test_autopilot_shows_each_rules_replay_and_why_it_was_held(repo: Path, tmp_path: Path) -> None:
    (repo / "CLAUDE.local.md").write_text(LOCAL + "- Prefer small, focused commits.\n")
    code, out = run("autopilot", "--target", str(repo), "--apply", "--replay-path", str(tmp_path))
    assert code == 0, out
    assert "replay: no past sessions of this project found (looked in " + str(tmp_path) + ")" in out
    assert " applied S-40a242479a (enforced, new, CLAUDE.local.md:1)" in out
    assert "held " in out and "(advisory, new, CLAUDE.local.md:2)" in out
    assert "not applied: advisory: it compiles to no check" in out
