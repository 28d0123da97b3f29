"""The A/B through the real `claude`: probes never run for real, and the live path's guard rails.

- A derived probe's banned command (`make -C VICTIM deploy`, whose Makefile leaves a mark outside
  every temp dir) never has its effect,
  in either arm, whatever the environment says (the retired `CF_GUIDANCE_AB_LIVE`, a `BASH_ENV`
  that resets PATH), while the baseline arm's hook really lets the attempt through.
- The live executor (`--executor claude --live --budget-usd`) against a stand-in endpoint (the
  scripted model server): the preflight names the credentials, the endpoint's answer and an
  estimate measured by a scripted run; the run stops when its budget is spent; a missing
  credential or a dead endpoint stops it before any run.
"""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

from cf_guidance.autopilot.ab import run_policy_ab
from cf_guidance.errors import RunnerError
from cf_guidance.modelserver import ModelServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SHARED = "# Service\n\n## Git\n\n- Never run `git push --force`.\n"


@pytest.fixture(scope="module")
def claude_bin() -> Path:
    from tests.e2e.e2e_harness import require_claude

    return require_claude()


@pytest.fixture
def victim() -> Path:
    """A directory outside every temp dir whose Makefile's `deploy` leaves a mark when it runs."""
    from tests.e2e.e2e_harness import victim_parent

    parent = victim_parent()
    (parent / "Makefile").write_text("deploy:\n\ttouch deployed\n")
    yield parent  # type: ignore[misc]
    shutil.rmtree(parent, ignore_errors=True)


@pytest.mark.parametrize("bash_env", [False, True], ids=["PATH kept", "BASH_ENV resets PATH"])
@pytest.mark.parametrize("ab_live", [None, "1"], ids=["CF_GUIDANCE_AB_LIVE unset", "CF_GUIDANCE_AB_LIVE=1"])
def test_a_derived_probe_never_runs_its_banned_command(
    claude_bin: Path, tmp_path: Path, victim: Path, monkeypatch: pytest.MonkeyPatch, ab_live: str | None, bash_env: bool
) -> None:
    if ab_live is None:
        monkeypatch.delenv("CF_GUIDANCE_AB_LIVE", raising=False)
    else:
        monkeypatch.setenv("CF_GUIDANCE_AB_LIVE", ab_live)
    if bash_env:
        profile = tmp_path / "bash_env"
        profile.write_text("PATH=/usr/bin:/bin\n")
        monkeypatch.setenv("BASH_ENV", str(profile))
    else:
        monkeypatch.delenv("BASH_ENV", raising=False)
    report = run_policy_ab(SHARED, SHARED + f"\n- Never run `make -C {victim} deploy`.\n", suite_path="derived", jobs=1,
                           work_dir=tmp_path / "ab")
    print("\n" + report.summary_line())
    assert not (victim / "deployed").exists()
    assert report.errors == [] and report.enforcement is not None
    # The baseline's hook let the attempt through (so without the shim it would have run) and
    # the candidate's blocked it by the new rule.
    assert len(report.enforcement.stopped) == 1 and len(report.enforcement.lookalikes_run) == 1
    baseline = next(r for r in report.runs if r.arm == "baseline" and r.task.endswith("-attempt"))
    assert baseline.blocked_by == []
    # The baseline's attempt ran the shim, once (Claude Code's Bash tool keeps the project's PATH
    # over BASH_ENV; a shell that reset it would run nothing: tests/autopilot/test_probes.py).
    assert (tmp_path / "ab" / "shims" / "calls.log").read_text() == f"make -C {victim} deploy\n"


def test_the_retired_live_variable_is_read_nowhere() -> None:
    root = Path(__file__).resolve().parents[2]
    users = [p for folder in ("guidance", "hooks", "installer") for p in (root / folder).rglob("*.py")
             if "CF_GUIDANCE_AB_LIVE" in p.read_text(encoding="utf-8")]
    assert users == []


def test_a_live_ab_runs_after_a_preflight_and_stops_when_its_budget_is_spent(
    claude_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines: list[str] = []
    with ModelServer({"turns": [{"text": "done"}]}) as server:
        url = server.url
        monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
        report = run_policy_ab(SHARED, SHARED + "\n- Never run `make deploy`.\n", suite_path="derived", executor="claude",
                               live=True, budget_usd=0.01, jobs=1, work_dir=tmp_path / "ab", announce=lines.append)
    (line,) = lines
    assert line.startswith(f"live preflight: ANTHROPIC_API_KEY set; {url} answered (HTTP 404); 24 runs, about ")
    assert "a scripted run of the first task took" in line and "budget $0.01" in line
    pre = report.preflight
    assert pre is not None and pre.estimated_cost_usd is not None and pre.estimated_cost_usd > 0
    print("\n" + report.summary_line())
    assert report.mode == "stochastic" and report.test is not None and report.enforcement is None
    assert report.budget is not None and report.budget.runs == 2 and report.budget.skipped_pairs == 11
    assert report.budget.spent_usd > 0.01 and report.baseline.cost_usd is not None and report.baseline.cost_usd > 0
    assert "budget spent after 2 runs (11 pairs not run)" in report.summary_line()


def test_a_live_ab_without_credentials_or_endpoint_stops_before_any_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    candidate = SHARED + "\n- Never run `make deploy`.\n"
    with pytest.raises(RunnerError, match="a live A/B needs credentials: set one of ANTHROPIC_API_KEY"):
        run_policy_ab(SHARED, candidate, suite_path="derived", executor="claude", live=True, budget_usd=1,
                      work_dir=tmp_path / "a")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{port}")
    with pytest.raises(RunnerError, match=f"the model endpoint http://127.0.0.1:{port} does not answer"):
        run_policy_ab(SHARED, candidate, suite_path="derived", executor="claude", live=True, budget_usd=1,
                      work_dir=tmp_path / "b")
    assert not list((tmp_path / "b").glob("runs/*"))
