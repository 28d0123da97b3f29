from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cf_guidance.cli.policy import check_cmd, compile_cmd, explain_cmd, rules_cmd
from cf_guidance.limits import MAX_EVENT_BYTES

POLICY = """# Rules

## Safety

- [R001] Never run `npm publish`.
- [R002] Never edit `migrations/**`.
"""


@pytest.fixture
def target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", "/home/dev")
    root = tmp_path / "project"
    root.mkdir()
    (root / "CLAUDE.md").write_text(POLICY)
    return root


def run(cmd, args, input=None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cmd, args, input=input, catch_exceptions=False)


def test_compile_text_and_json(target: Path) -> None:
    text = run(compile_cmd, ["--target", str(target)])
    assert text.exit_code == 0 and "[R001]" in text.output and "deny command npm publish" in text.output
    data = json.loads(run(compile_cmd, ["--target", str(target), "--json"]).output)
    assert {c["rule"] for c in data["checks"]} == {"R001", "R002"}


def test_compile_errors_exit_non_zero(target: Path) -> None:
    (target / "CLAUDE.md").write_text("```guidance\nfrobnicate everything\n```\n")
    result = run(compile_cmd, ["--target", str(target)])
    assert result.exit_code == 1 and "CLAUDE.md:2" in result.output


def test_compile_explain_shows_what_a_line_produced_and_why(target: Path) -> None:
    (target / "CLAUDE.md").write_text("# Rules\n\n- Use `yarn` not `npm`\n- Keep functions small\n\nNever run `make nuke`.\n")
    out = run(compile_cmd, ["--target", str(target), "--explain", "3"]).output
    assert "CLAUDE.md:3-3 bullet: Use `yarn` not `npm`" in out and "substitution" in out
    assert "→ warn command npm" in out and "reason: Discouraged: `npm`. Use `yarn` instead." in out
    out = run(compile_cmd, ["--target", str(target), "--explain", "CLAUDE.md:4"]).output
    assert "→ no check: the rule stays advisory" in out
    out = run(compile_cmd, ["--target", str(target), "--explain", "6"]).output  # a paragraph states a rule too
    assert "→ deny command make nuke" in out
    out = run(compile_cmd, ["--target", str(target), "--explain", "2"]).output
    assert out.startswith("line 2: no rule-bearing text")


def test_compile_explain_bad_line_is_one_line_error(target: Path) -> None:
    from cf_guidance.errors import PolicyError

    for where in ("zero:0", "CLAUDE.md:x", "NOPE.md:3"):
        with pytest.raises(PolicyError, match="--explain"):
            run(compile_cmd, ["--target", str(target), "--explain", where])


def test_explain_prints_decision_segment_gate_and_rule(target: Path) -> None:
    result = run(explain_cmd, ["--target", str(target), "cd pkg && npm publish"])
    assert result.exit_code == 0
    out = result.output
    assert "decision: deny" in out and "rule: R001" in out
    assert "npm publish    [npm, top level]" in out
    assert "policy: 1 finding(s)" in out and "R001 deny on `npm publish`" in out


def test_explain_a_path_for_a_file_tool(target: Path) -> None:
    out = run(explain_cmd, ["--target", str(target), "--tool", "Edit", "migrations/1.sql"]).output
    assert "decision: deny" in out and "R002" in out
    out = run(explain_cmd, ["--target", str(target), "--tool", "Read", ".env"]).output
    assert "SEC001" in out


def test_explain_json_and_level(target: Path) -> None:
    data = json.loads(run(explain_cmd, ["--target", str(target), "--json", "--level", "paranoid", "$X -rf a"]).output)
    assert data["decision"] == "deny" and data["rule"] == "SHL002" and data["trace"]


def _event(command: str) -> str:
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}})


def test_check_one_line_per_event(target: Path) -> None:
    lines = "\n".join([_event("ls"), _event("rm -rf /"), "", _event("npm publish")]) + "\n"
    result = run(check_cmd, ["--target", str(target), "-"], input=lines)
    assert result.exit_code == 0
    out = [json.loads(line) for line in result.output.splitlines()]
    assert [o["decision"] for o in out] == ["allow", "deny", "deny"]
    assert [o["rule"] for o in out] == ["", "CAT001", "R001"]
    assert set(out[1]) == {"decision", "rule", "reason", "findings"}


def test_check_reads_a_file(target: Path, tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    events.write_text(_event("git push --force") + "\n")
    out = json.loads(run(check_cmd, ["--target", str(target), str(events)]).output)
    assert out["rule"] == "DST012"


def test_check_replays_without_rate_limits(target: Path) -> None:
    """An accuracy tool: 300 events of one session, replayed at once, are decided on their own merits."""
    event = json.loads(_event("git status"))
    lines = "".join(json.dumps(dict(event, session_id="s1", tool_use_id=f"t{i}")) + "\n" for i in range(300))
    out = [json.loads(line) for line in run(check_cmd, ["--target", str(target), "-"], input=lines).output.splitlines()]
    assert len(out) == 300 and {o["decision"] for o in out} == {"allow"}


def test_headless_runs_switch_the_rate_limit_off() -> None:
    from cf_guidance.headless.executors import base_environment
    from cf_guidance.session import RATE_BASE_ENV, rate_base

    assert rate_base(base_environment()) == 0 and base_environment()[RATE_BASE_ENV] == "0"


BAD_LINES = [
    (b"not json", "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"tool_name": 5}', "tool_name"),
    (b'{"tool_name": "Bash", "tool_input": "rm -rf /"}', "tool_input"),
    (b'{"tool_name": "Bash", "tool_input": {"command": ["rm", 5]}}', None),
    (b'{"tool_name": "Read", "tool_input": {"file_path": null, "x": 1}}', None),
    (b'{"tool_name": "Bash", "tool_input": {"command": "ls\x00"}}', "not JSON"),
    (b'{"tool_name": "Bash", "tool_input": {"command": "\xff\xfe"}}', "not UTF-8"),
    (b'{"tool_name": "Bash", "tool_input": {"command": NaN}}', "not JSON"),
    (b"[" * 100_000, "not JSON"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_check_malformed_lines_get_one_line_errors(target: Path, line: bytes, message: str | None) -> None:
    result = CliRunner().invoke(check_cmd, ["--target", str(target), "-"], input=line + b"\n" + _event("ls").encode() + b"\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    out = [json.loads(x) for x in result.output.splitlines()]
    assert len(out) == 2 and out[1]["decision"] == "allow"
    if message is None:
        # well-formed enough to decide: a documented decision, never a traceback
        assert out[0]["decision"] in ("allow", "warn", "ask", "deny", "error")
    else:
        assert out[0]["decision"] == "error" and out[0]["reason"].startswith("line 1: ") and message in out[0]["reason"]
        assert result.exit_code == 1


def test_check_nul_inside_a_json_string_is_decided(target: Path) -> None:
    result = run(check_cmd, ["--target", str(target), "-"], input=_event("rm -rf /\u0000tmp") + "\n")
    assert json.loads(result.output)["decision"] in ("deny", "warn", "ask")


def test_check_enormous_command_is_decided_by_level(target: Path) -> None:
    from cf_guidance.limits import MAX_COMMAND_CHARS

    line = _event("echo " + "a" * (MAX_COMMAND_CHARS + 10))
    out = json.loads(run(check_cmd, ["--target", str(target), "--level", "paranoid", "-"], input=line + "\n").output)
    assert out["decision"] == "deny" and out["rule"] == "SHL001"


def test_check_event_over_max_event_bytes(target: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cf_guidance.cli.policy.MAX_EVENT_BYTES", 100)
    out = json.loads(run(check_cmd, ["--target", str(target), "-"], input=_event("x" * 200) + "\n").output)
    assert out["decision"] == "error" and "MAX_EVENT_BYTES" in out["reason"]
    assert MAX_EVENT_BYTES > 100


def test_rules_lists_json_and_markdown() -> None:
    text = run(rules_cmd, []).output
    assert text.startswith("CAT001")
    data = json.loads(run(rules_cmd, ["--json"]).output)
    assert {"CAT001", "GATE-ERROR", "POL"} <= {r["code"] for r in data}
    assert run(rules_cmd, ["--markdown"]).output.startswith("# Rule reference")


def test_missing_target_is_a_one_line_error(tmp_path: Path) -> None:
    from cf_guidance.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["explain", "--target", str(tmp_path / "nope"), "ls"])
    assert exc.value.code == 2
