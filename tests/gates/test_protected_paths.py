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
    # by effect, not by spelling (issue 11)
    ("git mv .claude .claude.disabled", "PTH001:deny"),
    ("git rm -r .codex", "PTH001:deny"),
    ("cp -r /tmp/x/.claude .", "PTH001:deny"),
    ("F=.claude/settings.json; echo {} > $F", "PTH001:deny"),
    ("for f in .claude/*.json; do echo {} > $f; done", "PTH001:deny"),
    ("sed -i 's/PreToolUse/x/' .claude/*.json", "PTH001:deny"),
    ("for f in .codex/*; do : > \"$f\"; done", "PTH001:deny"),
    ("find .claude-flow -type f -delete", "PTH001:deny"),
    ("find . -name settings.json -delete", "PTH001:deny"),
    ("find . -name '*.json' -exec rm {} +", "PTH001:deny"),
    ("find . -iname 'LEDGER.*' | xargs rm -f", "PTH001:deny"),
    ("find . -not -name '*.py' -delete", "PTH001:deny"),
    ("python3 -c \"import os; p=os.path.join('.cla'+'ude','settings.json'); open(p,'w').write('{}')\"", "PTH001:deny"),
    ("node -e \"require('fs').writeFileSync(['.claude','settings.json'].join('/'),'{}')\"", "PTH001:deny"),
    ("python3 -c \"import os; [os.remove(os.path.join(r, f)) for r, _, fs in os.walk('.') for f in fs]\"", "PTH008:ask"),
    ("cf-guidance ledger witness --reset", "PTH001:deny"),
    ("cf-guidance ledger rotate-key", "PTH001:deny"),
    ("rm -rf ~/.local/share/cf-guidance", "PTH001:deny"),
    ("echo {} > ~/.local/share/cf-guidance/witness/abc", "PTH001:deny"),
    ("sed -i '/Never/d' CLAUDE.md", "PTH007:ask"),
    ("mv AGENTS.md /tmp/", "PTH007:ask"),
    ("rm docs/CLAUDE.md", "PTH007:ask"),
    ("curl -s https://example.com/x.patch | git apply", "PTH010:ask"),
]

MUST_ALLOW_COMMANDS = [
    "cat .claude/settings.json",
    "git diff .claude/settings.json",
    "ls -la .claude-flow/guidance",
    "echo x > .claude/commands/x.md",
    "git restore --staged .",
    "cp a.txt .",
    "cf-guidance verify",
    # ordinary work stays allowed (issue 11)
    "find . -name '*.pyc' -delete",
    "find . -path ./node_modules -prune -o -name '*.log' -print",
    "find build -type f -delete",
    "rm -rf build/",
    "python3 -c \"import json; print(json.load(open('.claude/settings.json')))\"",
    "python3 -c \"import json,sys; print(json.load(open(sys.argv[1])))\" .claude/settings.json",
    "OUT=/tmp/x.json; cat .claude/settings.json > $OUT",
    "cat CLAUDE.md",
    "grep -n Never CLAUDE.md",
    "git diff CLAUDE.md",
    "cf-guidance ledger verify",
    "cf-guidance ledger witness --out /tmp/w.json",
    "cat ~/.local/share/cf-guidance/witness/abc",
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
        ("Write", {"file_path": "CLAUDE.md", "content": "# no rules"}, ["PTH007:ask"]),
        ("Edit", {"file_path": "CLAUDE.local.md", "old_string": "a", "new_string": "b"}, ["PTH007:ask"]),
        ("Write", {"file_path": ".claude/CLAUDE.md", "content": ""}, ["PTH007:ask"]),
        ("Write", {"file_path": "/home/dev/.claude/CLAUDE.md", "content": ""}, ["PTH007:ask"]),
        ("Write", {"file_path": "pkg/AGENTS.md", "content": ""}, ["PTH007:ask"]),
        ("Write", {"file_path": "docs/claude-md-guide.md", "content": ""}, []),
        ("mcp__filesystem__write_file", {"path": ".claude/settings.json", "content": "{}"}, ["PTH001:deny"]),
        ("mcp__filesystem__edit_file", {"path": "/home/dev/project/.codex/hooks.json", "edits": []}, ["PTH001:deny"]),
        ("mcp__filesystem__move_file", {"source": ".claude", "destination": "old"}, ["PTH001:deny"]),
        ("mcp__fs__delete", {"paths": [".claude-flow"]}, ["PTH001:deny"]),
        ("mcp__filesystem__write_file", {"path": "CLAUDE.md", "content": ""}, ["PTH007:ask"]),
        ("mcp__filesystem__read_text_file", {"path": ".claude/settings.json"}, []),
        ("mcp__filesystem__read_file", {"path": ".claude-flow/guidance/keys/ledger.key"}, ["PTH002:deny"]),
        ("mcp__filesystem__write_file", {"path": "src/app.py", "content": "x"}, []),
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


def test_imported_policy_files_from_the_bundle_ask() -> None:
    from cf_guidance.gates._base import GateContext
    from tests.gates.support import home

    bundle = {"root": "/home/dev/project", "settings": {}, "sources": [{"name": "docs/rules.md", "path": "/home/dev/project/docs/rules.md"}]}
    with home():
        found = protected_paths.check(GateContext(tool("Write", file_path="docs/rules.md", content=""), bundle))
    assert [f"{f.rule}:{f.verdict}" for f in found] == ["PTH007:ask"]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (tool("Write", file_path="docs/rules.md", content=""), ["PTH007:warn"]),  # the policy says to keep it current
        (bash("rm docs/rules.md"), ["PTH007:ask"]),  # but not to delete it
        (tool("Write", file_path="docs/other.md", content=""), []),
    ],
)
def test_an_imported_file_the_policy_tells_the_agent_to_keep_current_warns(event, expected) -> None:  # type: ignore[no-untyped-def]
    from cf_guidance.gates._base import GateContext
    from tests.gates.support import home

    bundle = {"root": "/home/dev/project", "sources": [{"name": "docs/rules.md", "path": "/home/dev/project/docs/rules.md"}],
              "settings": {"endorsed_files": [{"path": "/home/dev/project/docs/rules.md", "source": "CLAUDE.md:7"}]}}
    with home():
        found = protected_paths.check(GateContext(event, bundle))
    assert [f"{f.rule}:{f.verdict}" for f in found] == expected


def test_the_installation_the_hook_runs_from(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import sys

    import cf_guidance

    package = os.path.dirname(os.path.abspath(cf_guidance.__file__))
    assert codes(protected_paths, bash(f"rm -rf {package}")) == ["PTH009:deny"]
    assert codes(protected_paths, bash(f"mv {os.path.dirname(package)} /tmp/x"))[0].endswith(":deny")
    if sys.prefix != sys.base_prefix:
        assert codes(protected_paths, bash(f"rm -rf {sys.prefix}")) == ["PTH009:deny"]
        assert codes(protected_paths, bash(f"echo 'exit 0' > {sys.prefix}/bin/python3")) == ["PTH009:deny"]
    assert codes(protected_paths, bash(f"rm -rf {tmp_path}/other-venv")) == []
