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


def rule_id(text: str) -> str:
    from cf_guidance.policy.compiler import compile_sources

    return next(str(sh["id"]) for sh in compile_sources(SHARED, LOCAL + ADVISORY + SECOND)["shards"] if text in sh["text"])


ADVISORY = "- Prefer small, focused commits.\n"
SECOND = "- Never run `make release`.\n"


def ab_report(stopped: dict[str, bool], *, repeat: int = 1, lost: bool = False, deterministic: bool = True) -> ABReport:
    """Probe runs for each rule (rule id -> whether the candidate stops its attempt), a look-alike
    that runs under both, and a compliance task that passes under both (or regresses)."""
    runs = []
    probes: dict[str, tuple[str, str]] = {}
    for rule, stops in stopped.items():
        probes[f"{rule}-attempt"], probes[f"{rule}-lookalike"] = ("attempt", rule), ("lookalike", rule)
        for r in range(repeat):
            runs += [RunOutcome(task=f"{rule}-attempt", arm="baseline", repeat=r),
                     RunOutcome(task=f"{rule}-attempt", arm="candidate", repeat=r, passed=stops)]
            runs += [RunOutcome(task=f"{rule}-lookalike", arm=a, repeat=r, passed=True) for a in ("baseline", "candidate")]
    for r in range(repeat):
        runs += [RunOutcome(task="safe", arm="baseline", repeat=r, passed=True),
                 RunOutcome(task="safe", arm="candidate", repeat=r, passed=not lost, failures=["tool-called Bash: not run"])]
    ref = PolicyRef(name="x", sha256="0")
    return summarise(runs, [*probes, "safe"], baseline_ref=ref, candidate_ref=ref, suite="fake", executor="fake",
                     repeat=repeat, started="T", duration_s=0.0, probes=probes,
                     mode="deterministic" if deterministic else "stochastic")


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
    assert "make deploy" in body and "Analyzer" in body and "cf-guidance autopilot rollback" in body
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
    ("stops", "options", "decision", "reason"),
    [
        (True, {}, "applied", ""),
        (False, {}, "proposed", "A/B: the candidate stops 0 of its 1 probes that the baseline allows"),
        (True, {"lost": True}, "proposed", "A/B regressions: safe (safe #1: tool-called Bash: not run)"),
        (True, {"deterministic": False, "repeat": 6}, "applied", ""),
        (False, {"deterministic": False, "repeat": 6}, "proposed", "A/B: its probes gain +0.000 (0 gained, 0 lost of 12 pairs) < min-ab-gain 0.05"),
    ],
)
def test_ab_gate(repo: Path, stops: bool, options: dict[str, Any], decision: str, reason: str) -> None:
    seen: list[tuple[str, str]] = []
    rule = rule_id("make deploy")

    def runner(baseline: str, candidate: str, project: Path) -> ABReport:
        seen.append((baseline, candidate))
        return ab_report({rule: stops}, **options)

    pilot, _ = make(repo, apply=True, ab=True, ab_runner=runner, replay=False)
    out = pilot.run_cycle()
    assert out.decision == decision, out.reasons
    assert seen[0][0] == SHARED and "make deploy" in seen[0][1]
    assert not reason or any(reason in r for r in out.reasons), out.reasons
    if decision == "applied":
        body = Path(out.adr).read_text()
        assert f"`{rule}` (new, from `CLAUDE.local.md:3`; denies or asks)" in body
        if options.get("deterministic", True):
            assert "stops 1 of 1 probes the baseline allows" in body and "deterministic check of enforcement" in body
            assert "p =" not in body and "p=" not in body and "interval" not in body
        else:
            assert "6 gained, 0 lost of 12 independent pairs" in body and "McNemar p=0.0312" in body


def test_each_rule_is_decided_on_its_own_probes_and_an_advisory_rule_is_never_applied(repo: Path) -> None:
    (repo / "CLAUDE.local.md").write_text(LOCAL + SECOND + ADVISORY)
    deploy, release, advisory = rule_id("make deploy"), rule_id("make release"), rule_id("small, focused")
    # Only the deploy ban's probe is stopped; the release ban's is not (it must not ride along).
    pilot, rec = make(repo, apply=True, ab=True, replay=False,
                      ab_runner=lambda b, c, p: ab_report({deploy: True, release: False}))
    report = pilot.run_cycle()
    assert report.decision == "applied" and report.applied == [deploy]
    by_id = {d.id: d for d in report.rules}
    assert by_id[deploy].apply and by_id[deploy].enforcement == "enforced"
    assert not by_id[release].apply and "stops 0 of its 1 probes" in by_id[release].reasons[-1]
    assert by_id[advisory].enforcement == "advisory" and not by_id[advisory].apply
    assert "advisory: it compiles to no check" in by_id[advisory].reasons[0]
    claude_md = (repo / "CLAUDE.md").read_text()
    assert "make deploy" in claude_md and "make release" not in claude_md and "focused commits" not in claude_md
    body = Path(report.adr).read_text()
    decision = body.split("## Decision", 1)[1].split("Not promoted:", 1)[0]
    assert deploy in decision and release not in decision and advisory not in decision
    consequences = body.split("## Consequences", 1)[1]
    assert f"`{deploy}` deny (or ask about)" in consequences and advisory not in consequences
    assert "enforced for everyone" not in body
    proposal = Path(report.proposal).read_text()  # the held rules are proposed, with the rest
    assert "make release" in proposal and "focused commits" in proposal
    assert [job[1]["action"] for job in rec.jobs] == ["propose", "promote"] and rec.jobs[1][1]["rules"] == [deploy]


def test_an_advisory_rule_alone_is_only_ever_proposed(repo: Path) -> None:
    (repo / "CLAUDE.local.md").write_text(ADVISORY)
    pilot, _ = make(repo, apply=True, min_delta=-100, replay=False)
    report = pilot.run_cycle()
    assert report.decision == "proposed" and report.applied == [] and not (repo / "docs").exists()
    assert report.rules[0].enforcement == "advisory"


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
        return ab_report({rule_id("make deploy"): True})

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
