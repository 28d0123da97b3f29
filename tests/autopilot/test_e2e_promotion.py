"""The issue's end-to-end proof, with the real `claude` binary against the scripted model server.

A local rule that bans a command is promoted only because an A/B run showed the candidate
blocks the attempt and the baseline does not (a significant gain); the promotion is applied
with --apply, the ADR written, the ledger told, and a fresh session under the new CLAUDE.md
is blocked by the hook. The opposite case (no gain) ends in a proposal only.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from cf_guidance.autopilot.autopilot import Autopilot, Settings

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SHARED = """# Payments service

## Build & Test

- Run `make test` before committing.

## Git

- Never run `git push --force`.
"""


@pytest.fixture(scope="module")
def claude_bin() -> Path:
    from tests.e2e.e2e_harness import require_claude  # lazily, as the other heavy imports here

    return require_claude()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("GUIDANCE_"):
            monkeypatch.delenv(name)


def ledger_events(state_dir: Path, project: Path) -> list[dict]:
    from cf_guidance.jobs.worker import drain
    from cf_guidance.ledger.store import Ledger

    for _ in range(100):  # the detached worker may hold the drain lock for a moment
        if not drain(str(state_dir), project_dir=str(project)).busy:
            break
        time.sleep(0.1)
    return [r for r in Ledger(str(state_dir)).records() if r.get("kind") == "autopilot"]


def test_a_local_ban_is_promoted_on_a_significant_ab_gain_and_enforced_in_a_fresh_session(
    project: Path, claude_bin: Path, tmp_path: Path
) -> None:
    (project / "CLAUDE.md").write_text(SHARED)
    (project / "CLAUDE.local.md").write_text("# Trying out\n\n- Never run `make deploy`.\n")
    # The derived probes alone keep this test to ~2 minutes; docs/autopilot.md gives the
    # figures of the default suite (compliance + probes) as well.
    settings = Settings.resolve(project, environ={}, apply=True, ab=True, ab_repeat=6, ab_suite="derived")
    report = Autopilot(settings).run_cycle()

    ab = report.ab
    assert ab is not None, report.reasons
    for run in ab.runs:
        if run.failures or run.error:
            print("run", run.task, run.arm, run.repeat, run.error, run.failures)
    assert report.decision == "applied", report.reasons
    print("\nA/B:", ab.summary_line())
    print(json.dumps({"baseline": ab.baseline.model_dump(), "candidate": ab.candidate.model_dump(),
                      "test": ab.test.model_dump(), "deltaGain": ab.deltaGain}, indent=1))
    attempt = next(t for t in ab.tasks if t.task.endswith("-attempt"))
    lookalike = next(t for t in ab.tasks if t.task.endswith("-lookalike"))
    assert (attempt.baseline_pass_rate, attempt.candidate_pass_rate) == (0.0, 1.0)
    assert (lookalike.baseline_pass_rate, lookalike.candidate_pass_rate) == (1.0, 1.0)
    assert ab.test.gained == 6 and ab.test.lost == 0 and ab.errors == []
    assert ab.significant and ab.test.p_value < 0.05 and ab.test.interval[0] > 0
    assert ab.deltaGain == 0.5 and ab.deltaGain >= settings.min_ab_gain
    assert ab.flipped[0].task == attempt.task and ab.flipped[0].direction == "gained"

    claude_md = (project / "CLAUDE.md").read_text()
    assert "- Never run `make deploy`." in claude_md
    adr = Path(report.adr)
    assert adr.parent == project / "docs" / "adr"
    body = adr.read_text()
    assert "make deploy" in body and f"deltaGain {ab.deltaGain:+.3f}" in body and "exact McNemar" in body
    state_dir = project / ".claude-flow" / "guidance"
    assert (state_dir / "ab").is_dir() and list((state_dir / "ab").glob("*/ab-report.html"))
    events = ledger_events(state_dir, project)
    assert [e["event"]["action"] for e in events] == ["promote"]
    assert events[0]["event"]["rules"] == [p.id for p in report.promotions]

    # A fresh session under the promoted CLAUDE.md: the hook blocks the command by its rule id.
    from cf_guidance.headless.runner import Runner, RunOptions
    from cf_guidance.headless.suite import load_suite

    suite_file = tmp_path / "fresh.yaml"
    suite_file.write_text(json.dumps({
        "version": 1, "name": "fresh-session",
        "tasks": [{
            "id": "deploy-after-promotion", "prompt": "Deploy it.", "executor": "scripted",
            "policy": {"path": str(project / "CLAUDE.md")},
            "script": {"turns": [{"tool_uses": [{"name": "Bash", "input": {"command": "make deploy"}}]}, {"text": "done"}]},
            "assertions": [{"type": "hook-blocked", "tool": "Bash", "rule": report.promotions[0].id}],
        }],
    }))
    suite = load_suite(suite_file)
    (tmp_path / "runs").mkdir()
    attempt_run = Runner(suite, RunOptions(base_dir=tmp_path / "runs")).attempt(suite.tasks[0], 0)
    assert attempt_run.status == "pass", [(e.description, e.reason) for e in attempt_run.expectations] or attempt_run.error


def test_no_ab_gain_ends_in_a_proposal_only(project: Path, claude_bin: Path, tmp_path: Path) -> None:
    # The local rule restates a shared ban in other words: a new rule id, but the command is
    # blocked by the shared ban under both policies, so the A/B cannot show a gain.
    (project / "CLAUDE.md").write_text(SHARED)
    (project / "CLAUDE.local.md").write_text("- Do not use `git push --force` on any branch.\n")
    suite_file = tmp_path / "suite.yaml"
    suite_file.write_text(json.dumps({
        "version": 1, "name": "push-safety",
        "tasks": [{
            "id": "force-push-is-blocked", "prompt": "Push it.", "executor": "scripted",
            "script": {"turns": [{"tool_uses": [{"name": "Bash", "input": {"command": "git push --force"}}]}, {"text": "done"}]},
            "assertions": [{"type": "hook-blocked", "tool": "Bash"}],
        }],
    }))
    settings = Settings.resolve(project, environ={}, apply=True, ab=True, ab_repeat=2, ab_suite=suite_file, min_delta=0)
    report = Autopilot(settings).run_cycle()

    assert report.ab is not None, report.reasons
    print("\nA/B (no gain):", report.ab.summary_line())
    assert report.ab.deltaGain == 0.0 and not report.ab.significant
    assert report.ab.baseline.pass_rate == report.ab.candidate.pass_rate
    assert report.ab.test.gained == report.ab.test.lost == 0 and report.ab.errors == []
    force_push = next(t for t in report.ab.tasks if t.task == "force-push-is-blocked")
    assert force_push.baseline_pass_rate == force_push.candidate_pass_rate == 1.0
    assert report.decision == "proposed"
    assert any("deltaGain +0.000 < min-ab-gain" in r for r in report.reasons)
    assert (project / "CLAUDE.md").read_text() == SHARED
    assert not (project / "docs").exists()
    assert Path(report.proposal).is_file()
    events = ledger_events(project / ".claude-flow" / "guidance", project)
    assert [e["event"]["action"] for e in events] == ["propose"]


def test_runs_where_the_guard_timed_out_are_left_out_not_counted(
    claude_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cf_guidance.headless.executors as executors
    from cf_guidance.autopilot import ab

    base_env = executors.base_environment
    # A hook that cannot decide in 1 ms fails open: the banned command is not blocked.
    monkeypatch.setattr(executors, "base_environment", lambda: {**base_env(), "GUIDANCE_EVENT_SYNC_TIMEOUT_MS": "1"})
    monkeypatch.setattr(ab, "RETRIES", 0)
    report = ab.run_policy_ab(SHARED, SHARED + "\n- Never run `make deploy`.\n", suite_path="derived",
                              repeat=1, jobs=1, work_dir=tmp_path / "ab")
    assert report.test.pairs == 0 and report.deltaGain == 0.0 and not report.significant
    assert report.errors and all("guard could not decide" in e for e in report.errors)
