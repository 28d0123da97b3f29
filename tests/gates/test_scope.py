"""Rules of a subdirectory's CLAUDE.md / AGENTS.md apply to work in that directory only.

Every case runs through the real hook command (`python -S hooks/launcher.py pre-...`, the
way `cf-guidance init` wires it; in-process, GUIDANCE_HOOKD=0, so no server outlives the
test) against one project with a root CLAUDE.md and two scoped files. The rule of when a
scoped check applies is cf_guidance.gates.scope's docstring.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.event import normalise
from cf_guidance.gates._base import GateContext
from cf_guidance.gates.scope import applies, touches
from cf_guidance.policy.compiler import compile_project

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "hooks" / "launcher.py"

LAYOUT = {
    "CLAUDE.md": "# Project\n\n- Never run `make deploy`\n",
    "src/gen/CLAUDE.md": (
        "# Generated code\n\n"
        "- Never edit `*.pb.go`\n"
        "- Don't edit files in `schema/`\n"
        "- Never run `make regen`\n"
        "- Never read `fixtures/private/`\n"
        "- `make check` must pass before `git commit`\n"
    ),
    "docs/AGENTS.md": "- Never run `npm run release`\n",
}

#: (tool, input, cwd relative to the project, expected decision)
BLOCK = [
    ("Edit", "src/gen/api.pb.go", "", "deny"),
    ("Write", "src/gen/deep/er/api.pb.go", "", "deny"),
    ("Write", "src/gen/schema/user.json", "", "deny"),
    ("Edit", "src/gen/schema/user.json", "src/gen", "deny"),
    ("Read", "src/gen/fixtures/private/key.txt", "", "deny"),
    ("Bash", "cat src/gen/fixtures/private/key.txt", "", "deny"),
    ("Bash", "sed -i s/a/b/ src/gen/schema/user.json", "", "deny"),
    ("Bash", "echo x > src/gen/api.pb.go", "", "deny"),
    ("Bash", "make regen", "src/gen", "deny"),
    ("Bash", "cd src/gen && make regen", "", "deny"),
    ("Bash", "make -C src/gen regen", "", "deny"),
    ("Bash", "git add src/gen/x.go && git commit -m gen", "", "deny"),
    ("Bash", "npm run release", "docs", "deny"),
    ("Bash", "make deploy", "src/gen", "deny"),  # the root's rule applies everywhere
]
ALLOW = [
    ("Edit", "pkg/api.pb.go", "", "allow"),
    ("Write", "schema/user.json", "", "allow"),
    ("Edit", "src/gen/main.go", "", "allow"),
    ("Read", "fixtures/private/key.txt", "", "allow"),
    ("Read", "src/gen/fixtures/public/a.txt", "", "allow"),
    ("Bash", "cat fixtures/private/key.txt", "", "allow"),
    ("Bash", "make regen", "", "allow"),
    ("Bash", "cd docs && make regen", "", "allow"),
    ("Bash", "make regen", "src", "allow"),  # the parent of the scope is not in it
    ("Bash", "git add docs/x.md && git commit -m docs", "", "allow"),
    ("Bash", "npm run release", "", "allow"),
    ("Bash", "npm run release", "src/gen", "allow"),
    ("Bash", "ls src/generated", "", "allow"),  # a sibling whose name starts like the scope
]

_COMMAND = {"Bash": "pre-bash", "Edit": "pre-edit", "Write": "pre-edit", "Read": "pre-read"}


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scoped") / "project"
    for rel, text in LAYOUT.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _event(tool: str, text: str, cwd: Path) -> dict[str, Any]:
    tool_input: dict[str, Any]
    if tool == "Bash":
        tool_input = {"command": text}
    elif tool == "Read":
        tool_input = {"file_path": text}
    elif tool == "Write":
        tool_input = {"file_path": text, "content": "x\n"}
    else:
        tool_input = {"file_path": text, "old_string": "a", "new_string": "b"}
    return {"session_id": "scope", "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_1"}


def _decision(project: Path, tool: str, text: str, cwd: str) -> str:
    where = project / cwd
    where.mkdir(parents=True, exist_ok=True)
    if tool != "Bash" and not text.startswith("/"):
        text = str(project / text)  # file tools get absolute paths from the client
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    env.update(CLAUDE_PROJECT_DIR=str(project), GUIDANCE_HOOKD="0")
    done = subprocess.run([sys.executable, "-S", str(LAUNCHER), _COMMAND[tool]], input=json.dumps(_event(tool, text, where)).encode(),
                          capture_output=True, env=env, cwd=str(where), timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    if not done.stdout.strip():
        return "allow"
    return str(json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"])


@pytest.mark.parametrize("tool,text,cwd,expected", BLOCK + ALLOW, ids=[f"{t}:{x}@{c or '.'}" for t, x, c, _ in BLOCK + ALLOW])
def test_scoped_rules_through_the_hook(layout: Path, tool: str, text: str, cwd: str, expected: str) -> None:
    assert _decision(layout, tool, text, cwd) == expected


def _context(project: Path, tool: str, text: str, cwd: str) -> GateContext:
    bundle = compile_project(project)
    path = text if tool == "Bash" or text.startswith("/") else str(project / text)
    event = normalise(_event(tool, path, project / cwd), project_dir=str(project))
    return GateContext(event, bundle)


@pytest.mark.parametrize("tool,text,cwd,inside", [
    ("Bash", "ls", "src/gen", True),
    ("Bash", "ls", "src/gen/deep", True),
    ("Bash", "ls", "src", False),
    ("Bash", "cd src && cd gen && ls", "", True),
    ("Bash", "ls ../src/gen", "docs", True),
    ("Bash", "cat < src/gen/in.txt", "", True),
    ("Bash", "rm -rf --no-preserve-root src/genx", "", False),
    ("Read", "src/gen", "", True),
    ("Read", "src/gen2/a", "", False),
    ("Edit", "/elsewhere/src/gen/a", "", False),
])
def test_touches(layout: Path, tool: str, text: str, cwd: str, inside: bool) -> None:
    ctx = _context(layout, tool, text, cwd)
    assert touches(ctx, "src/gen") is inside
    assert applies(ctx, {"scope": "src/gen"}) is inside
    assert applies(ctx, {}) is True  # an unscoped check applies everywhere


def test_the_answer_per_scope_is_kept_on_the_event(layout: Path) -> None:
    ctx = _context(layout, "Bash", "ls", "src/gen")
    assert touches(ctx, "src/gen") and ctx._scopes == {"src/gen": True}
    ctx._scopes["src/gen"] = False  # a second question reads the kept answer
    assert not touches(ctx, "src/gen")


def test_a_subdirectory_file_written_mid_session_applies_at_once(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src" / "gen").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("- Never run `make deploy`\n")
    assert _decision(project, "Bash", "make regen", "src/gen") == "allow"  # compiles and caches the policy
    assert _decision(project, "Bash", "make regen", "src/gen") == "allow"  # a cache hit
    (project / "src" / "gen" / "CLAUDE.md").write_text("- Never run `make regen`\n")
    assert _decision(project, "Bash", "make regen", "") == "allow"  # elsewhere: not in its scope
    assert _decision(project, "Bash", "make regen", "src/gen") == "deny"
    assert _decision(project, "Bash", "make -C src/gen regen", "") == "deny"
