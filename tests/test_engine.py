from __future__ import annotations

import os
from typing import Any

import pytest

from cf_guidance.decision import Finding, Trace
from cf_guidance.engine import evaluate, resolve_level
from cf_guidance.event import Event
from cf_guidance.gates import registry

ROOT = "/home/dev/project"


def bash(command: str) -> Event:
    return Event(tool="Bash", tool_input={"command": command}, command=command, cwd=ROOT)


def bundle(**settings: Any) -> dict[str, Any]:
    return {"root": ROOT, "settings": settings, "checks": []}


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/dev")


def test_most_severe_finding_decides() -> None:
    checks = [{"id": "R1#1", "rule": "R1", "kind": "command", "verdict": "warn", "pattern": ["git", "push"], "message": "m"}]
    decision = evaluate({"root": ROOT, "settings": {}, "checks": checks}, bash("git push && git push --force"))
    assert decision.verdict == "deny" and decision.rule == "DST012"
    assert {f.rule for f in decision.findings} == {"DST012", "R1"}


def test_no_findings_is_allow() -> None:
    decision = evaluate(bundle(), bash("ls -la"))
    assert decision.verdict == "allow" and decision.findings == [] and decision.reason == ""


def test_catastrophe_finding_comes_first() -> None:
    decision = evaluate(bundle(), bash("rm -rf ~ && rm -rf ../x"))
    assert decision.findings[0].rule == "CAT001"


class _Boom:
    GATE = "boom"
    RULES = ()

    @staticmethod
    def check(ctx: object) -> list[Finding]:
        raise RuntimeError("kaput\nsecond line")


@pytest.mark.parametrize(("fail_closed", "verdict"), [(False, "warn"), (True, "deny")])
def test_gate_error_never_propagates(monkeypatch: pytest.MonkeyPatch, fail_closed: bool, verdict: str) -> None:
    monkeypatch.setattr("cf_guidance.engine.GATES", registry.GATES + (_Boom,))
    decision = evaluate(bundle(), bash("ls"), fail_closed=fail_closed)
    (error,) = [f for f in decision.findings if f.rule == "GATE-ERROR"]
    assert error.verdict == verdict
    assert "boom" in error.message and "RuntimeError: kaput" in error.message and "second" not in error.message
    assert decision.verdict == verdict


def test_shell_analysis_failure_is_a_gate_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(command: str) -> object:
        raise ValueError("parser bug")

    monkeypatch.setattr("cf_guidance.shell.analyze", broken)
    decision = evaluate(bundle(), bash("ls"), fail_closed=True, level="strict")
    rules = [f.rule for f in decision.findings]
    assert rules.count("GATE-ERROR") == 1 and "SHL001" in rules
    assert decision.verdict == "deny"


def test_tracer_records_segments_gates_and_rules() -> None:
    trace = Trace()
    decision = evaluate(bundle(), bash("cd x && git push -f"), tracer=trace)
    assert decision.trace is trace
    kinds = [step["type"] for step in trace.steps]
    assert kinds[0] == "note" and "segment" in kinds and "gate" in kinds and "rule" in kinds
    segments = [s["text"] for s in trace.steps if s["type"] == "segment"]
    assert segments == ["cd x", "git push -f"]
    gates = [s["gate"] for s in trace.steps if s["type"] == "gate"]
    assert gates == [g.GATE for g in registry.GATES]
    (rule,) = [s for s in trace.steps if s["type"] == "rule"]
    assert rule["rule"] == "DST012" and rule["segment"] == "git push -f"
    assert "trace" in decision.to_dict()


def test_no_tracer_no_trace() -> None:
    assert evaluate(bundle(), bash("git push -f")).trace is None


@pytest.mark.parametrize(
    ("given", "in_bundle", "expected"),
    [(None, None, "standard"), (None, "paranoid", "paranoid"), ("strict", "paranoid", "strict"), (None, "bogus", "strict")],
)
def test_level_resolution(given: str | None, in_bundle: str | None, expected: str) -> None:
    settings = {"level": in_bundle} if in_bundle else {}
    assert resolve_level({"settings": settings}, given) == expected


def test_allowlist_never_covers_catastrophe_or_protected_paths() -> None:
    allow = [["rm", "-rf", "/"], ["rm", "-rf", ".claude"]]
    assert evaluate(bundle(allow_commands=allow), bash("rm -rf /")).verdict == "deny"
    assert evaluate(bundle(allow_commands=allow), bash("rm -rf .claude")).rule == "PTH001"


def test_allowlist_is_matched_by_commands_as_they_run_never_by_guesses() -> None:
    """`rm -rf "$OUT"` after `source` may delete anything: the guess `rm -rf ./build` (from
    `OUT=./build`) does not make the allowed `rm -rf ./build` cover it; a value the analysis
    knows for certain does."""
    allow = [["rm", "-rf", "./build"]]
    assert evaluate(bundle(allow_commands=allow), bash('OUT=./build; source ./env.sh; rm -rf "$OUT"')).verdict == "ask"
    assert evaluate(bundle(allow_commands=allow), bash('OUT=./build; rm -rf "$OUT"')).verdict == "allow"
    assert evaluate(bundle(allow_commands=allow), bash("rm -rf ./build")).verdict == "allow"


def test_gates_runs_only_the_subset_given() -> None:
    checks = [{"id": "R1#1", "rule": "R1", "kind": "command", "verdict": "deny", "pattern": ["ls"], "message": "m"}]
    policy = {"root": ROOT, "settings": {}, "checks": checks}
    assert evaluate(policy, bash("ls")).rule == "R1"
    assert evaluate(policy, bash("ls"), gates=registry.BUILTIN).verdict == "allow"
    decision = evaluate({}, bash("ls && rm -rf ~"), gates=registry.BUILTIN)
    assert decision.rule == "CAT001" and {f.gate for f in decision.findings} <= {g.GATE for g in registry.BUILTIN}


def test_a_given_shell_analysis_is_used_instead_of_analysing_again() -> None:
    from cf_guidance.shell import analyze

    seen = analyze("rm -rf ~")  # what the caller analysed is what the gates judge
    assert evaluate(bundle(), bash("ls"), shell=seen).rule == "CAT001"


def test_non_bash_events_do_not_parse_shell() -> None:
    event = Event(tool="Read", tool_input={"file_path": "a.py"}, paths=[("a.py", "read")], cwd=ROOT)
    assert evaluate(bundle(), event).verdict == "allow"


def test_empty_bundle_and_missing_cwd() -> None:
    assert evaluate({}, Event(tool="Bash", command="rm -rf /")).verdict == "deny"
    assert os.environ["HOME"] == "/home/dev"


_SHELLISH = [
    "rm", "-rf", "-r", "/", "~", "..", "./x", "*", ".*", "$HOME", "$X", "$(", ")", "`", "'", '"', "|", "&&", ";", ">", "<",
    "2>&1", "git", "push", "-f", "find", "-delete", "-exec", "{}", "+", "xargs", "curl", "bash", "-c", "sudo", "env", "cd",
    "cat", ".env", "dd", "of=/dev/sda", "chmod", "777", "mv", "psql", "DROP TABLE x", "kubectl", "delete", "ns", "\n", "<<",
    "EOF", "python3", "import os; os.system('rm -rf /')", ".claude/settings.json", "ln", "-s", "tee", "file://x", "=",
]


def test_fuzzed_commands_never_raise_inside_a_gate() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(_SHELLISH) | st.text(max_size=8), max_size=14))
    def run(words: list[str]) -> None:
        decision = evaluate(bundle(), bash(" ".join(words)), fail_closed=True)
        assert not [f for f in decision.findings if f.rule == "GATE-ERROR"], " ".join(words)

    run()


def test_fuzzed_paths_never_raise_inside_a_gate() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from cf_guidance.event import normalise

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(["Read", "Write", "Edit", "Grep", "Glob"]), st.text(max_size=40), st.text(max_size=60))
    def run(tool: str, path: str, content: str) -> None:
        field = {"Grep": "path", "Glob": "pattern"}.get(tool, "file_path")
        payload = {"tool_name": tool, "tool_input": {field: path, "content": content, "new_string": content}, "cwd": ROOT}
        decision = evaluate(bundle(protect_write=["a/**"], protect_read=["~/x/*"]), normalise(payload, project_dir=ROOT), fail_closed=True)
        assert not [f for f in decision.findings if f.rule == "GATE-ERROR"]

    run()


def test_a_new_event_sees_a_changed_symlink(tmp_path: Any) -> None:
    # Gates share path answers within one event only: a link re-pointed between two tool calls
    # must be judged as it is now, even for the same command in the same project.
    project = tmp_path / "project"
    (project / "build").mkdir(parents=True)
    link = project / "out"
    link.symlink_to(project / "build")
    event = Event(tool="Bash", tool_input={"command": "rm -rf out/"}, command="rm -rf out/", cwd=str(project))
    policy = {"root": str(project), "settings": {}, "checks": []}
    assert evaluate(policy, event).verdict == "allow"
    link.unlink()
    link.symlink_to("/etc")
    decision = evaluate(policy, event)
    assert decision.verdict == "deny" and decision.rule == "CAT001"
