from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import filelock
import pytest

from cf_guidance.autopilot.ab import ABReport, RunOutcome, summarise, PolicyRef
from cf_guidance.autopilot.autopilot import (
    JOURNAL_NAME,
    LOCK_NAME,
    PID_NAME,
    Autopilot,
    Settings,
    parse_interval,
    run_daemon,
)
from cf_guidance.autopilot.promote import END_MARKER, START_MARKER
from cf_guidance.errors import ConfigError, RunnerError, StateError

SHARED = """# Payments

## Build & Test

- Run `make test` before committing.

## Git

- Never run `git push --force`.
"""

LOCAL = """# My experiments

- Never run `make deploy`.
"""


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("GUIDANCE_"):
            monkeypatch.delenv(name)


@pytest.fixture
def repo(project: Path) -> Path:
    (project / "CLAUDE.md").write_text(SHARED)
    (project / "CLAUDE.local.md").write_text(LOCAL)
    return project


class Recorder:
    def __init__(self) -> None:
        self.jobs: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, kind: str, payload: dict[str, Any]) -> str:
        self.jobs.append((kind, payload))
        return f"job-{len(self.jobs)}"


def ab_report(gained: int, lost: int = 0, both: int = 6) -> ABReport:
    runs = []
    for r in range(gained):
        runs += [RunOutcome(task="attempt", arm="baseline", repeat=r), RunOutcome(task="attempt", arm="candidate", repeat=r, passed=True)]
    for r in range(lost):
        runs += [RunOutcome(task="lookalike", arm="baseline", repeat=r, passed=True), RunOutcome(task="lookalike", arm="candidate", repeat=r)]
    for r in range(both):
        runs += [RunOutcome(task="safe", arm=a, repeat=r, passed=True) for a in ("baseline", "candidate")]
    ref = PolicyRef(name="x", sha256="0")
    return summarise(runs, ["attempt", "lookalike", "safe"], baseline_ref=ref, candidate_ref=ref, suite="fake",
                     executor="fake", repeat=6, started="T", duration_s=0.0)


def make(repo: Path, *, ab_runner=None, **flags: Any) -> tuple[Autopilot, Recorder]:  # type: ignore[no-untyped-def]
    rec = Recorder()
    return Autopilot(Settings.resolve(repo, environ={}, **flags), ab_runner=ab_runner, record=rec), rec


def state(repo: Path) -> Path:
    return repo / ".claude-flow" / "guidance"


def test_default_proposes_and_never_rewrites_claude_md(repo: Path) -> None:
    pilot, rec = make(repo)
    report = pilot.run_cycle()
    assert report.decision == "proposed"
    assert (repo / "CLAUDE.md").read_text() == SHARED
    proposal = Path(report.proposal)
    assert proposal.parent == state(repo) / "proposals" and proposal.name.startswith("CLAUDE.promoted.")
    text = proposal.read_text()
    assert START_MARKER in text and END_MARKER in text and "- Never run `make deploy`." in text
    assert any("--apply" in r for r in report.reasons)
    assert rec.jobs == [("autopilot", rec.jobs[0][1])] and rec.jobs[0][1]["action"] == "propose"
    # Report, state and a log line, always.
    assert json.loads((state(repo) / "autopilot-report.json").read_text())["decision"] == "proposed"
    assert json.loads((state(repo) / "autopilot-state.json").read_text())["lastDecision"] == "proposed"
    assert "proposed" in (state(repo) / "logs" / "autopilot.log").read_text()
    assert not (repo / "docs").exists()


def test_apply_backs_up_writes_and_records_an_adr(repo: Path) -> None:
    pilot, rec = make(repo, apply=True)
    report = pilot.run_cycle()
    assert report.decision == "applied", report.reasons
    assert report.delta is not None and report.delta >= 0.5
    new = (repo / "CLAUDE.md").read_text()
    assert new.startswith(SHARED.rstrip()) and "- Never run `make deploy`." in new
    assert Path(report.backup).read_text() == SHARED
    adr = Path(report.adr)
    assert adr.parent == repo / "docs" / "adr" and adr.name.startswith("ADR-001-promote-never-run-make-deploy")
    body = adr.read_text()
    assert "make deploy" in body and "Analyzer:" in body and "cf-guidance autopilot rollback" in body
    assert rec.jobs[-1][1]["action"] == "promote" and rec.jobs[-1][1]["rules"] == [report.promotions[0].id]
    assert not (state(repo) / JOURNAL_NAME).exists()
    # The next cycle finds nothing left to promote.
    again = pilot.run_cycle()
    assert again.decision == "no-promotable"


def test_env_apply_setting_is_honoured_and_flags_win() -> None:
    s = Settings.resolve(Path("."), environ={"GUIDANCE_AUTOPILOT_APPLY": "1", "GUIDANCE_AUTOPILOT_MIN_DELTA": "2",
                                             "GUIDANCE_AUTOPILOT_AB": "yes", "GUIDANCE_AUTOPILOT_MIN_AB_GAIN": "0.2"})
    assert (s.apply, s.min_delta, s.ab, s.min_ab_gain) == (True, 2.0, True, 0.2)
    assert Settings.resolve(Path("."), environ={"GUIDANCE_AUTOPILOT_APPLY": "1"}, apply=False).apply is False
    with pytest.raises(ConfigError, match="GUIDANCE_AUTOPILOT_APPLY"):
        Settings.resolve(Path("."), environ={"GUIDANCE_AUTOPILOT_APPLY": "maybe"})
    with pytest.raises(ConfigError, match="MIN_DELTA"):
        Settings.resolve(Path("."), environ={"GUIDANCE_AUTOPILOT_MIN_DELTA": "lots"})


def test_disabled_skips_session_end_cycles_only(repo: Path) -> None:
    pilot = Autopilot(Settings.resolve(repo, environ={"GUIDANCE_AUTOPILOT_ENABLED": "0"}, source="session-end"), record=Recorder())
    assert pilot.run_cycle().decision == "disabled"
    manual = Autopilot(Settings.resolve(repo, environ={"GUIDANCE_AUTOPILOT_ENABLED": "0"}), record=Recorder())
    assert manual.run_cycle().decision == "proposed"


def test_below_min_delta_proposes(repo: Path) -> None:
    pilot, _ = make(repo, apply=True, min_delta=50)
    report = pilot.run_cycle()
    assert report.decision == "proposed"
    assert any("min-delta 50" in r for r in report.reasons)
    assert (repo / "CLAUDE.md").read_text() == SHARED


@pytest.mark.parametrize(
    ("report", "decision", "reason"),
    [
        (ab_report(gained=6), "applied", ""),
        (ab_report(gained=0), "proposed", "deltaGain +0.000 < min-ab-gain"),
        (ab_report(gained=6, lost=1), "proposed", "A/B regressions: lookalike"),
    ],
)
def test_ab_gate(repo: Path, report: ABReport, decision: str, reason: str) -> None:
    seen: list[tuple[str, str]] = []

    def runner(baseline: str, candidate: str, project: Path) -> ABReport:
        seen.append((baseline, candidate))
        return report

    pilot, _ = make(repo, apply=True, ab=True, ab_runner=runner)
    out = pilot.run_cycle()
    assert out.decision == decision, out.reasons
    assert seen[0][0] == SHARED and "make deploy" in seen[0][1]
    assert not reason or any(reason in r for r in out.reasons)
    if decision == "applied":
        body = Path(out.adr).read_text()
        assert "deltaGain +0.500" in body and "p = 0.03125" in body


def test_a_suite_that_fails_to_run_is_reported_and_changes_nothing(repo: Path) -> None:
    def runner(baseline: str, candidate: str, project: Path) -> ABReport:
        raise RunnerError("claude binary not found; run scripts/test.sh")

    pilot, _ = make(repo, apply=True, ab=True, ab_runner=runner)
    out = pilot.run_cycle()
    assert out.decision == "proposed"
    assert "claude binary not found" in out.ab_error
    assert (repo / "CLAUDE.md").read_text() == SHARED


def test_a_concurrent_edit_aborts_and_changes_nothing(repo: Path) -> None:
    edited = SHARED + "\n- Someone else's rule: never run `make nuke`.\n"

    def runner(baseline: str, candidate: str, project: Path) -> ABReport:
        (project / "CLAUDE.md").write_text(edited)  # a human edits while the A/B runs
        return ab_report(gained=6)

    pilot, _ = make(repo, apply=True, ab=True, ab_runner=runner)
    out = pilot.run_cycle()
    assert out.decision == "aborted"
    assert (repo / "CLAUDE.md").read_text() == edited
    assert not list((state(repo) / "backups").iterdir())
    assert not list((state(repo) / "proposals").iterdir())
    assert not (repo / "docs").exists()


def test_a_failure_after_the_write_restores_the_original(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self, report):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    monkeypatch.setattr(Autopilot, "_write_adr", boom)
    pilot, rec = make(repo, apply=True)
    with pytest.raises(OSError):
        pilot.run_cycle()
    assert (repo / "CLAUDE.md").read_text() == SHARED
    assert rec.jobs == []
    # The lock was released: the next cycle runs.
    monkeypatch.undo()
    assert make(repo)[0].run_cycle().decision == "proposed"


def test_a_failed_write_leaves_the_original_intact(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace

    def replace(src, dst):  # type: ignore[no-untyped-def]
        if str(dst).endswith("CLAUDE.md"):
            raise OSError("read-only file system")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    pilot, _ = make(repo, apply=True)
    with pytest.raises(OSError):
        pilot.run_cycle()
    assert (repo / "CLAUDE.md").read_text() == SHARED
    assert not [p for p in repo.iterdir() if p.name.endswith(".tmp")]


KILL_SCRIPT = """
import os, signal, sys
from pathlib import Path
from cf_guidance.autopilot.autopilot import Autopilot, Settings
def die(self, report):
    os.kill(os.getpid(), signal.SIGKILL)
Autopilot._write_adr = die
Autopilot(Settings.resolve(Path(sys.argv[1]), environ={}, apply=True), record=lambda k, p: "").run_cycle()
"""


def test_kill_9_mid_apply_is_restored_by_the_next_cycle(repo: Path) -> None:
    done = subprocess.run([sys.executable, "-c", KILL_SCRIPT, str(repo)], capture_output=True, text=True)
    assert done.returncode == -9
    assert "make deploy" in (repo / "CLAUDE.md").read_text()  # killed after the atomic write
    assert (state(repo) / JOURNAL_NAME).exists()
    pilot, _ = make(repo)
    out = pilot.run_cycle()
    assert any("interrupted; restored" in r for r in out.reasons), out.reasons
    assert (repo / "CLAUDE.md").read_text() == SHARED
    assert out.decision == "proposed"


def test_a_live_lock_skips_the_cycle(repo: Path) -> None:
    pilot, _ = make(repo)
    state(repo).mkdir(parents=True)
    (state(repo) / PID_NAME).write_text("4242")
    holder = filelock.FileLock(str(state(repo) / LOCK_NAME))
    with holder:
        out = pilot.run_cycle()
    assert out.decision == "locked" and "pid 4242" in out.reasons[0]
    assert (repo / "CLAUDE.md").read_text() == SHARED


def test_a_stale_lock_from_a_dead_process_is_recovered(repo: Path) -> None:
    state(repo).mkdir(parents=True)
    code = (
        "import filelock, os, sys; l = filelock.FileLock(sys.argv[1]); l.acquire(); "
        "open(sys.argv[2], 'w').write(str(os.getpid())); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", code, str(state(repo) / LOCK_NAME), str(state(repo) / PID_NAME)], check=True)
    assert (state(repo) / LOCK_NAME).exists() and (state(repo) / PID_NAME).exists()
    pilot, _ = make(repo)
    assert pilot.run_cycle().decision == "proposed"


def test_the_same_candidate_is_not_proposed_twice(repo: Path) -> None:
    pilot, _ = make(repo)
    assert pilot.run_cycle().decision == "proposed"
    second = pilot.run_cycle()
    assert second.decision == "unchanged"
    assert len(list((state(repo) / "proposals").iterdir())) == 1


def test_no_local_file_promotes_nothing(project: Path) -> None:
    (project / "CLAUDE.md").write_text(SHARED)
    out = make(project)[0].run_cycle()
    assert out.decision == "no-promotable" and out.reasons == ["no CLAUDE.local.md"]


def test_a_local_file_that_does_not_compile_changes_nothing(repo: Path) -> None:
    (repo / "CLAUDE.local.md").write_text(LOCAL + "\n```guidance\nfrobnicate the widgets\n```\n")
    out = make(repo, apply=True)[0].run_cycle()
    assert out.decision == "error"
    assert "CLAUDE.local.md has 1 compile error(s), first CLAUDE.local.md:6" in out.reasons[0]
    assert (repo / "CLAUDE.md").read_text() == SHARED
    assert not list((state(repo) / "proposals").iterdir())


def test_a_rule_conflicting_with_the_constitution_is_reported_not_promoted(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(SHARED + "\n## Safety\n\n- [R900] Never run `terraform destroy`.\n")
    (repo / "CLAUDE.local.md").write_text(LOCAL + "- [R900] Avoid `terraform destroy`.\n")
    out = make(repo, apply=True)[0].run_cycle()
    assert out.decision == "applied"
    assert [c.id for c in out.conflicts] == ["R900"]
    assert "Never run `terraform destroy`" in (repo / "CLAUDE.md").read_text()
    assert "Avoid `terraform destroy`" not in (repo / "CLAUDE.md").read_text()
    assert "R900" in Path(out.adr).read_text()


def test_rollback_restores_the_last_backup_and_is_recorded(repo: Path) -> None:
    pilot, rec = make(repo, apply=True)
    assert pilot.run_cycle().decision == "applied"
    out = pilot.rollback()
    assert out.decision == "rolled-back"
    assert (repo / "CLAUDE.md").read_text() == SHARED
    assert rec.jobs[-1][1]["action"] == "rollback"
    with pytest.raises(StateError, match="nothing to roll back"):
        pilot.rollback()


def test_second_adr_gets_the_next_number(repo: Path) -> None:
    pilot, _ = make(repo, apply=True)
    pilot.run_cycle()
    (repo / "CLAUDE.local.md").write_text(LOCAL + "- Never run `make publish`.\n")
    out = pilot.run_cycle()
    assert out.decision == "applied", out.reasons
    assert Path(out.adr).name.startswith("ADR-002-")
    text = (repo / "CLAUDE.md").read_text()
    assert text.count(START_MARKER) == 1 and "make deploy" in text and "make publish" in text


def test_daemon_runs_cycles_at_the_interval(repo: Path) -> None:
    pilot, _ = make(repo)
    slept: list[float] = []
    seen: list[str] = []
    assert run_daemon(pilot, 1800, max_cycles=2, sleep=slept.append, on_cycle=lambda r: seen.append(r.decision)) == 2
    assert slept == [1800] and seen == ["proposed", "unchanged"]


@pytest.mark.parametrize(("text", "seconds"), [("30m", 1800), ("90s", 90), ("2h", 7200), ("45", 45), ("1d", 86400)])
def test_parse_interval(text: str, seconds: float) -> None:
    assert parse_interval(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "-5m", "0"])
def test_parse_interval_rejects(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_interval(text)


def test_the_daemon_survives_a_failing_cycle(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pilot, _ = make(repo)
    calls = iter([OSError("disk full")])
    original = Autopilot.run_cycle

    def flaky(self):  # type: ignore[no-untyped-def]
        error = next(calls, None)
        if error is not None:
            raise error
        return original(self)

    monkeypatch.setattr(Autopilot, "run_cycle", flaky)
    errors: list[BaseException] = []
    seen: list[str] = []
    assert run_daemon(pilot, 1, max_cycles=2, sleep=lambda s: None, on_cycle=lambda r: seen.append(r.decision),
                      on_error=errors.append) == 2
    assert [str(e) for e in errors] == ["disk full"] and seen == ["proposed"]


def test_a_claude_md_that_is_not_utf8_is_left_alone(repo: Path) -> None:
    original = SHARED.encode() + b"\n- caf\xe9 rule\n"
    (repo / "CLAUDE.md").write_bytes(original)
    out = make(repo, apply=True)[0].run_cycle()
    assert out.decision == "error" and "not valid UTF-8" in out.reasons[0]
    assert (repo / "CLAUDE.md").read_bytes() == original
