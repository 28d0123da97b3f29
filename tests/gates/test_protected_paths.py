from __future__ import annotations

import pytest

from cf_guidance.gates import protected_paths
from tests.gates.support import bash, codes, tool

MUST_BLOCK_COMMANDS = [
    ("echo {} > .claude/settings.json", "PTH001:deny"),
    ("rm -rf .claude-flow", "PTH001:deny"),
    ("mv .codex/hooks.json /tmp", "PTH001:deny"),
    ("sed -i s/a/b/ .codex/config.toml", "PTH001:deny"),
    ("ln -sf /dev/null .claude/settings.local.json", "PTH001:deny"),
    ("python3 -c \"open('.claude/settings.json','w')\"", "PTH001:deny"),
    ("./scripts/reset.sh .claude/settings.json", "PTH001:deny"),
    ("cf-guidance uninstall", "PTH001:deny"),
    ("cat .claude-flow/guidance/keys/ledger.key", "PTH002:deny"),
    ("echo x > .git/hooks/pre-commit", "PTH005:ask"),
]

MUST_ALLOW_COMMANDS = [
    "cat .claude/settings.json",
    "git diff .claude/settings.json",
    "ls -la .claude-flow/guidance",
    "echo x > .claude/commands/x.md",
    "git restore --staged .",
    "cp a.txt .",
    "cf-guidance verify",
]


@pytest.mark.parametrize(("command", "expected"), MUST_BLOCK_COMMANDS)
def test_blocks_commands(command: str, expected: str) -> None:
    assert expected in codes(protected_paths, bash(command))


@pytest.mark.parametrize("command", MUST_ALLOW_COMMANDS)
def test_allows_commands(command: str) -> None:
    assert codes(protected_paths, bash(command)) == []


@pytest.mark.parametrize(
    ("name", "fields", "expected"),
    [
        ("Write", {"file_path": ".claude/settings.json", "content": ""}, ["PTH001:deny"]),
        ("Edit", {"file_path": "/home/dev/.claude/settings.json", "old_string": "a", "new_string": "b"}, ["PTH001:deny"]),
        ("Write", {"file_path": ".claude-flow/guidance/spool/x.json", "content": ""}, ["PTH001:deny"]),
        ("Read", {"file_path": ".claude-flow/guidance/keys/ledger.key"}, ["PTH002:deny"]),
        ("Write", {"file_path": ".git/config", "content": ""}, ["PTH005:ask"]),
        ("Read", {"file_path": ".claude/settings.json"}, []),
        ("Write", {"file_path": "src/app.py", "content": ""}, []),
    ],
)
def test_file_tools(name: str, fields: dict[str, str], expected: list[str]) -> None:
    assert codes(protected_paths, tool(name, **fields)) == expected


def test_symlink_into_the_guard_is_followed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from cf_guidance.engine import evaluate
    from cf_guidance.event import normalise

    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text("{}")
    (project / "innocent.json").symlink_to(project / ".claude" / "settings.json")
    payload = {"tool_name": "Write", "tool_input": {"file_path": "innocent.json", "content": "{}"}, "cwd": str(project)}
    decision = evaluate({"root": str(project), "settings": {}}, normalise(payload, project_dir=str(project)))
    assert decision.rule == "PTH001"


def test_a_link_to_a_guard_directory_is_followed_after_other_gates_resolved_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The catastrophe and destructive gates follow the delete target's links first; what they
    # learnt (a link, or none) must lead protected-paths to the same answer as asking afresh.
    from cf_guidance.engine import evaluate
    from cf_guidance.event import normalise

    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    (project / "build").mkdir()
    (project / "cfg").symlink_to(project / ".claude")
    policy = {"root": str(project), "settings": {}}
    for command, rule in (("rm -rf cfg", "PTH001"), ("rm -rf build", "")):
        payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(project)}
        assert evaluate(policy, normalise(payload, project_dir=str(project))).rule == rule, command


def test_project_globs() -> None:
    settings = {"protect_write": ["vendor/**"], "protect_read": ["~/.config/private/**"]}
    assert codes(protected_paths, tool("Write", file_path="vendor/x.js", content=""), **settings) == ["PTH003:deny"]
    assert codes(protected_paths, bash("cat ~/.config/private/a"), **settings) == ["PTH004:deny"]
    assert codes(protected_paths, tool("Write", file_path="src/vendor.js", content=""), **settings) == []


@pytest.mark.parametrize(("level", "expected"), [("standard", []), ("strict", ["PTH006:ask"]), ("paranoid", ["PTH006:deny"])])
def test_writes_outside_the_project_by_level(level: str, expected: list[str]) -> None:
    assert codes(protected_paths, tool("Write", file_path="/home/dev/.profile", content=""), level=level) == expected
