from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.errors import ConfigError
from cf_guidance.headless.executors import ExecRequest, ExecResult, FakeExecutor, ScriptedExecutor, stream
from cf_guidance.headless.runner import RunOptions, Runner, classify, pass_at_k, pass_hat_k, verdict, wilson
from cf_guidance.headless.collect import collect
from cf_guidance.headless.suite import load_suite

from .helpers import write_suite

SUITE = """\
version: 1
name: unit
defaults: {executor: fake, timeout: 10}
tasks:
  - id: good
    prompt: say done
    tags: [a]
    assertions:
      - {type: output-contains, expected: done}
  - id: bad
    prompt: say done
    tags: [b]
    assertions:
      - {type: output-contains, expected: never said}
      - {type: output-contains, expected: done}
"""


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [(0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (5, 10, 0.2366, 0.7634), (1, 1, 0.2065, 1.0), (0, 0, 0.0, 1.0)],
)
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=1e-4)


@pytest.mark.parametrize(
    ("n", "c", "k", "at", "hat"),
    [(5, 5, 3, 1.0, 1.0), (5, 0, 3, 0.0, 0.0), (5, 2, 1, 0.4, 0.4), (5, 2, 2, 0.7, 0.1), (4, 3, 2, 1.0, 0.5)],
)
def test_pass_at_k_and_pass_hat_k(n: int, c: int, k: int, at: float, hat: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(at)
    assert pass_hat_k(n, c, k) == pytest.approx(hat)


@pytest.mark.parametrize(
    ("passes", "n", "threshold", "expected"),
    [
        (3, 3, 1.0, "pass"), (2, 3, 1.0, "fail"), (0, 0, 1.0, "error"),
        (20, 20, 0.8, "pass"),      # Wilson low 0.839 >= 0.8
        (8, 10, 0.8, "inconclusive"),  # [0.49, 0.94] straddles
        (1, 10, 0.8, "fail"),       # high 0.40 < 0.8
        (1, 1, 0.5, "inconclusive"),
    ],
)
def test_verdict(passes: int, n: int, threshold: float, expected: str) -> None:
    assert verdict(passes, n, threshold) == expected


@pytest.mark.parametrize(
    ("result", "run_extra", "kind"),
    [
        (ExecResult(stdout="", timed_out=True, duration_ms=5000), None, "timeout"),
        (ExecResult(stdout="", infra_error="model server at x stopped answering", infra_kind="model-server"), None,
         "model-server"),
        (ExecResult(stdout="", exit_code=1, stderr="boom\nSegfault"), None, "crash"),
        (ExecResult(stdout=""), {"terminal_reason": "api_error", "api_error_status": 529, "is_error": True,
                                  "result": "API Error: 529 overloaded"}, "api-error"),
        (ExecResult(stdout=""), {"terminal_reason": "api_error", "api_error_status": 400, "is_error": True,
                                  "result": "API Error: 400 bad request"}, ""),
        (ExecResult(stdout=""), {"subtype": "error_max_turns", "is_error": True, "terminal_reason": "max_turns"}, ""),
        (ExecResult(stdout=""), {}, ""),
    ],
)
def test_classify(result: ExecResult, run_extra: dict[str, Any] | None, kind: str) -> None:
    text = "" if run_extra is None else stream(extra_result=run_extra)
    assert classify(result, collect("p", text))[0] == kind


def runner(tmp_path: Path, text: str = SUITE, executors: dict[str, Any] | None = None, **options: Any) -> Runner:
    suite = load_suite(write_suite(tmp_path, text))
    lines: list[str] = []
    made = Runner(suite, RunOptions(base_dir=tmp_path, **options), executors=executors, installer=None, progress=lines.append)
    made.progress_lines = lines  # type: ignore[attr-defined]
    return made


def test_pass_fail_and_exit_code(tmp_path: Path) -> None:
    result = runner(tmp_path, jobs=2).run()
    by_id = {t.task.id: t for t in result.tasks}
    assert by_id["good"].verdict == "pass" and by_id["bad"].verdict == "fail"
    bad = by_id["bad"].attempts[0]
    assert [e.status for e in bad.expectations] == ["fail", "pass"]
    assert bad.violations[0]["ruleId"] == "ASSERT-bad" and bad.violations[0]["reason"]
    assert result.exit_code == 1
    assert not list(tmp_path.glob("cfg-*"))  # workspaces are removed


def test_tags_select_and_none_match(tmp_path: Path) -> None:
    assert [t.task.id for t in runner(tmp_path, tags=["a"]).run().tasks] == ["good"]
    with pytest.raises(ConfigError, match="no task"):
        runner(tmp_path, tags=["zzz"]).run()


def test_repeat_gives_stats(tmp_path: Path) -> None:
    calls = {"n": 0}

    def flaky(request: ExecRequest) -> str:
        calls["n"] += 1
        return stream(result_text="done" if calls["n"] % 2 else "nope")

    text = SUITE.replace("tasks:\n", "tasks:\n", 1).split("  - id: bad")[0]
    result = runner(tmp_path, text, executors={"fake": FakeExecutor(flaky)}, repeat=4).run()
    task = result.tasks[0]
    assert (len(task.runs), task.passes, task.verdict) == (4, 2, "fail")
    assert [a.repeat for a in task.attempts] == [0, 1, 2, 3]
    assert task.pass_at()[4] == 1.0 and task.pass_hat()[1] == 0.5


def test_infrastructure_errors_are_retried_failures_are_not(tmp_path: Path) -> None:
    seen: dict[str, int] = {}

    def responder(request: ExecRequest) -> ExecResult | str:
        count = seen[request.task.id] = seen.get(request.task.id, 0) + 1
        if request.task.id == "good" and count == 1:
            return ExecResult(stdout="", timed_out=True)
        return stream(result_text="done")

    made = runner(tmp_path, executors={"fake": FakeExecutor(responder)}, retries=2)
    result = made.run()
    by_id = {t.task.id: t for t in result.tasks}
    assert seen == {"good": 2, "bad": 1}
    assert by_id["good"].attempts[0].retries == 1 and by_id["good"].verdict == "pass"
    assert any(line.startswith("retry 1/2 good: timeout") for line in made.progress_lines)  # type: ignore[attr-defined]


def test_persistent_infrastructure_error_is_error_not_fail(tmp_path: Path) -> None:
    def crash(request: ExecRequest) -> ExecResult:
        return ExecResult(stdout="", exit_code=137, stderr="Killed")

    result = runner(tmp_path, executors={"fake": FakeExecutor(crash)}, retries=1).run()
    assert {t.verdict for t in result.tasks} == {"error"}
    attempt = result.tasks[0].attempts[0]
    assert (attempt.error_kind, attempt.retries) == ("crash", 1) and "Killed" in attempt.error
    assert result.exit_code == 2


def test_missing_binary_is_a_setup_error_and_other_tasks_still_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CF_GUIDANCE_CLAUDE_BIN", str(tmp_path / "missing-claude"))
    text = SUITE.replace("  - id: bad\n", "  - id: bad\n    executor: scripted\n    script: {turns: [{text: hi}]}\n")
    result = runner(tmp_path, text).run()
    by_id = {t.task.id: t for t in result.tasks}
    assert by_id["good"].verdict == "pass"
    bad = by_id["bad"].attempts[0]
    assert (by_id["bad"].verdict, bad.error_kind, bad.retries) == ("error", "setup", 0)
    assert "CF_GUIDANCE_CLAUDE_BIN" in bad.error and "\n" not in bad.error
    assert result.preflight_errors and result.exit_code == 2


def test_isolation_leak_fails_the_run(tmp_path: Path) -> None:
    def leaky(request: ExecRequest) -> str:
        lines = [json.loads(line) for line in stream(result_text="done").splitlines()]
        lines[0]["mcp_servers"] = [{"name": "users-own-server", "status": "connected"}]
        return "".join(json.dumps(m) + "\n" for m in lines)

    result = runner(tmp_path, executors={"fake": FakeExecutor(leaky)}, tags=["a"]).run()
    attempt = result.tasks[0].attempts[0]
    assert attempt.status == "fail" and attempt.expectations[0].type == "isolation"
    assert "users-own-server" in attempt.expectations[0].reason


def test_max_violations_tolerates_failures(tmp_path: Path) -> None:
    text = SUITE.replace("    tags: [b]\n", "    tags: [b]\n    max_violations: 1\n")
    result = runner(tmp_path, text, tags=["b"]).run()
    assert result.tasks[0].verdict == "pass" and len(result.tasks[0].attempts[0].violations) == 1


def test_violations_are_spooled_for_the_ledger(tmp_path: Path) -> None:
    from cf_guidance.jobs import spool

    state = tmp_path / "state"
    runner(tmp_path, violations_state_dir=state, tags=["b"]).run()
    jobs = [spool.read_job(path) for path in spool.pending(str(state))]
    assert [(j["kind"], j["event"]["ruleId"], j["event"]["assertion"]) for j in jobs] == [
        ("violation", "ASSERT-bad", "output-contains")]


def test_setup_error_from_the_installer(tmp_path: Path) -> None:
    from cf_guidance.errors import InstallError

    def broken(project: Path) -> None:
        raise InstallError("settings.json is not valid JSON; fix it")

    suite = load_suite(write_suite(tmp_path, SUITE.replace("defaults: {executor: fake, timeout: 10}",
                                                           "defaults: {executor: fake, timeout: 10, policy: {text: '# P'}}")))
    result = Runner(suite, RunOptions(base_dir=tmp_path), installer=broken).run()
    attempt = result.tasks[0].attempts[0]
    assert (attempt.status, attempt.error_kind, attempt.retries) == ("error", "setup", 0)
    assert "not valid JSON" in attempt.error


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"mode": "loud"}, "unknown mode"),
        ({"repeat": 0}, "at least 1"),
        ({"mode": "interactive", "jobs": 2}, "cannot run with --jobs > 1"),
    ],
)
def test_bad_options(tmp_path: Path, options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        runner(tmp_path, **options)


def test_scripted_executor_with_missing_binary_is_reported_per_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CF_GUIDANCE_CLAUDE_BIN", str(tmp_path / "missing-claude"))
    result = runner(tmp_path, executor="scripted", executors={"scripted": ScriptedExecutor()}).run()
    assert {t.verdict for t in result.tasks} == {"error"} and len(result.tasks) == 2


def test_scripted_override_without_a_script_is_a_setup_error(tmp_path: Path) -> None:
    result = runner(tmp_path, executor="scripted", executors={"scripted": FakeExecutor()}, tags=["a"]).run()
    attempt = result.tasks[0].attempts[0]
    assert (attempt.error_kind, attempt.retries) == ("setup", 0) and "no `script`" in attempt.error


def test_violations_reach_the_ledger_through_the_worker(tmp_path: Path) -> None:
    from cf_guidance.installer import install
    from cf_guidance.jobs import worker
    from cf_guidance.state import state_dir

    project = tmp_path / "project"
    project.mkdir()
    install(str(project), agent="claude", verify=False)
    state = Path(state_dir(str(project), environ={}))
    runner(tmp_path, violations_state_dir=state, tags=["b"]).run()
    worker.drain(str(state), project_dir=str(project))
    records = [json.loads(line) for line in (state / "ledger" / "ledger.jsonl").read_text().splitlines()]
    violations = [r for r in records if r["kind"] == "violation"]
    assert [(v["event"]["ruleId"], v["event"]["task"]) for v in violations] == [("ASSERT-bad", "bad")]


def test_an_unexpected_exception_is_reported_and_the_others_still_run(tmp_path: Path) -> None:
    def buggy(request: ExecRequest) -> str:
        if request.task.id == "bad":
            raise ZeroDivisionError("division by zero")
        return stream(result_text="done")

    result = runner(tmp_path, executors={"fake": FakeExecutor(buggy)}).run()
    by_id = {t.task.id: t for t in result.tasks}
    assert by_id["good"].verdict == "pass"
    attempt = by_id["bad"].attempts[0]
    assert (attempt.error_kind, attempt.error, attempt.retries) == ("internal", "ZeroDivisionError: division by zero", 0)


def test_default_installer_leaves_the_bundle_cache_warm_for_the_hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The run's first hook must find the compiled bundle, not compile CLAUDE.md in a cold process.
    from cf_guidance.headless.runner import default_installer
    from cf_guidance.policy import cache
    from cf_guidance.state import state_dir

    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("# Policy\n\n- Never force push.\n", encoding="utf-8")
    default_installer()(project)

    def no_compile(root: str) -> dict[str, Any]:
        raise AssertionError(f"the hook would have compiled {root}")

    monkeypatch.setattr(cache, "_MEMO", {})  # as in a fresh hook process
    monkeypatch.setattr(cache, "_compile", no_compile)
    bundle = cache.load_bundle(str(project), state_dir(str(project), environ={}), part=cache.DECIDE)
    assert bundle["root"] == str(project.resolve())
