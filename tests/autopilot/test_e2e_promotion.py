"""The promotion gate end to end, with the real `claude` (and `codex`, when installed) against the
scripted model server.

- Replay first: a project's own past sessions, written by the real clients, decide each rule
  alone. A ban on a command that only ever failed is applied; a sequence rule that would have
  stopped commits that were kept is held with its examples; an advisory rule is only proposed.
- The honest A/B: with the scripted executor a derived probe is a deterministic check of
  enforcement (no statistics), each rule judged by its own probes, and the promoted rule is
  enforced in a fresh session.
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


def test_replay_decides_each_rule_on_the_projects_own_history(
    claude_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.e2e.e2e_harness import find_codex
    from tests.replay.real_sessions import ADVISORY, BAN_FAILING, SEQUENCE, standard_history

    history = standard_history(tmp_path / "h", claude=claude_bin, codex=find_codex())
    for key, value in history.environ().items():
        monkeypatch.setenv(key, value)
    project = history.project
    shared = (project / "CLAUDE.md").read_text()
    (project / "CLAUDE.local.md").write_text("\n".join([BAN_FAILING, SEQUENCE, ADVISORY]) + "\n")
    report = Autopilot(Settings.resolve(project, environ={}, apply=True, min_delta=-100)).run_cycle()

    codex = len(history.codex_sessions)
    assert report.replay is not None and report.replay.sessions == 2 + codex
    assert report.replay.calls == 12 + 6 * codex and report.replay.skipped_unknown == 0
    ban, sequence, advisory = report.rules
    assert ban.text == BAN_FAILING[2:] and sequence.text == SEQUENCE[2:]
    # The ban would have stopped `make fail` in each session that ran it: it failed every time.
    assert ban.apply and ban.replay is not None
    assert (ban.replay.stopped, ban.replay.failed, ban.replay.kept) == (1 + codex, 1 + codex, 0)
    assert ban.replay.false_positive_rate == 0.0
    assert all(e.call == "make fail" and e.outcome == "failed" for e in ban.replay.examples)
    # The sequence rule, alone, would have stopped three commits: two were kept, one was reset.
    assert not sequence.apply and sequence.replay is not None
    assert (sequence.replay.stopped, sequence.replay.kept, sequence.replay.undone) == (3, 2, 1)
    kept = [e for e in sequence.replay.examples if e.outcome == "succeeded, kept"]
    assert [e.call for e in kept] == ["git add notes.txt && git commit -qm notes", "git commit --allow-empty -qm third"]
    assert kept[0].link.startswith(str(history.claude_sessions[0]) + ":")
    undone = next(e for e in sequence.replay.examples if e.outcome.startswith("succeeded, undone at "))
    assert undone.call == "git commit --allow-empty -qm wip" and str(history.claude_sessions[1]) in undone.outcome
    assert "67% likely false positives > max 20%" in sequence.reasons[0] and kept[0].link in sequence.reasons[0]
    assert advisory.enforcement == "advisory" and not advisory.apply and advisory.replay is None

    assert report.decision == "applied" and report.applied == [ban.id]
    claude_md = (project / "CLAUDE.md").read_text()
    assert claude_md.startswith(shared.rstrip()) and BAN_FAILING in claude_md
    assert "make test" not in claude_md and "focused commits" not in claude_md
    body = Path(report.adr).read_text()
    assert f"`{ban.id}`: analyzer delta" in body and f"would have stopped {1 + codex} past actions: 0 succeeded" in body
    assert f"- `{sequence.id}`: replay: would have stopped 3 past actions" in body
    assert "enforced for everyone" not in body and advisory.id not in body.split("## Consequences")[1]
    proposal = Path(report.proposal).read_text()
    assert SEQUENCE in proposal and ADVISORY in proposal and BAN_FAILING in proposal


def test_a_local_ban_is_promoted_on_its_own_deterministic_probe_and_enforced_in_a_fresh_session(
    project: Path, claude_bin: Path, tmp_path: Path
) -> None:
    (project / "CLAUDE.md").write_text(SHARED)
    (project / "CLAUDE.local.md").write_text("# Trying out\n\n- Never run `make deploy`.\n")
    settings = Settings.resolve(project, environ={}, apply=True, ab=True, ab_suite="derived", replay_paths=[str(tmp_path)])
    report = Autopilot(settings).run_cycle()

    ab = report.ab
    assert ab is not None, report.reasons
    assert report.decision == "applied", report.reasons
    print("\nA/B:", ab.summary_line(), f"({ab.duration_s:.0f} s)")
    assert ab.mode == "deterministic" and ab.test is None and ab.significant is None and ab.repeat == 1
    assert ab.enforcement is not None and len(ab.enforcement.stopped) == 1 and ab.enforcement.stopped[0].endswith("-attempt")
    assert len(ab.enforcement.lookalikes_run) == 1 and ab.errors == []
    assert len(ab.runs) == 4  # two tasks, once per policy: a repeat of a script is not a sample
    assert ab.baseline.cost_usd is None and "cost" not in ab.summary_line()
    assert "the candidate stops 1 of 1 probes the baseline allows" in ab.summary_line()
    (rule,) = ab.rules
    assert (rule.rule, rule.stopped, rule.attempts, rule.lookalikes_run) == (report.promotions[0].id, 1, 1, 1)
    # The baseline let the attempt through: it ran the shim, never `make`.
    (work,) = (project / ".claude-flow" / "guidance" / "ab").glob("*/work")
    assert (work / "shims" / "calls.log").read_text() == "make deploy\n"

    claude_md = (project / "CLAUDE.md").read_text()
    assert "- Never run `make deploy`." in claude_md
    body = Path(report.adr).read_text()
    assert "deterministic check of enforcement" in body and "stops 1 of 1 probes the baseline allows" in body
    assert "McNemar" not in body and "p =" not in body
    state_dir = project / ".claude-flow" / "guidance"
    assert list((state_dir / "ab").glob("*/ab-report.html"))
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


def test_a_rule_the_baseline_already_enforces_gains_nothing_and_is_proposed(project: Path, claude_bin: Path, tmp_path: Path) -> None:
    # The local rule asks about what a shared rule bans: a new check (ask), but its probe is
    # blocked by the shared ban under both policies, so the A/B shows it adds nothing.
    (project / "CLAUDE.md").write_text(SHARED)
    (project / "CLAUDE.local.md").write_text("- Ask before running `git push --force`.\n")
    settings = Settings.resolve(project, environ={}, apply=True, ab=True, ab_suite="derived", min_delta=0,
                                replay_paths=[str(tmp_path)])
    report = Autopilot(settings).run_cycle()

    ab = report.ab
    assert ab is not None and ab.enforcement is not None, report.reasons
    print("\nA/B (no gain):", ab.summary_line())
    assert ab.errors == []
    assert ab.enforcement.stopped == [] and len(ab.enforcement.already_stopped) == 1
    assert "1 already stopped by the baseline" in ab.summary_line()
    assert report.decision == "proposed"
    assert any("A/B: the candidate stops 0 of its 1 probes that the baseline allows" in r for r in report.reasons)
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
    report = ab.run_policy_ab(SHARED, SHARED + "\n- Never run `make deploy`.\n", suite_path="derived", jobs=1,
                              work_dir=tmp_path / "ab")
    assert report.enforcement is not None and report.enforcement.stopped == [] and report.rules == []
    assert report.errors and all("guard could not decide" in e for e in report.errors)
