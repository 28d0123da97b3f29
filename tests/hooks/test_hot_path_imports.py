"""On a cache hit the wired hook imports only the standard library modules it needs.

Runs the interpreter and launcher of the absolute command `cf-guidance init --scope local` wrote
into settings.local.json, under `python -X importtime`. (The portable command of the project
scope runs the same code through `cf-guidance-hook` of a regular install:
tests/installer/test_packaging.py checks that one.)
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from cf_guidance.installer import install
from cf_guidance.installer.wiring import parse

from .conftest import POLICY, bash

BANNED = {"typing", "re", "json", "pydantic", "click", "markdown_it", "cryptography", "yaml", "pathlib",
          "dataclasses", "enum", "subprocess", "hashlib", "inspect", "fnmatch", "glob", "site"}


def _imported(argv: list[str], event: dict[str, object], root: Path, hookd: str) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    env["CLAUDE_PROJECT_DIR"] = str(root)
    env["GUIDANCE_HOOKD"] = hookd
    python, rest = argv[0], argv[1:]
    result = subprocess.run([python, "-X", "importtime", *rest], input=json.dumps(event).encode(), capture_output=True,
                            env=env, cwd=str(root), timeout=60, check=True)
    modules = set()
    for line in result.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line and "imported package" not in line:
            modules.add(line.rsplit("|", 1)[1].strip())
    return modules


@pytest.fixture(scope="module")
def wired(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    root = tmp_path_factory.mktemp("hot path") / "repo"  # a space in the path: quoting
    root.mkdir()
    (root / "CLAUDE.md").write_text(POLICY)
    install(str(root), verify=False, scope="local")  # also writes the CLAUDE.local.md stub
    old = time.time() - 3600  # sources older than the cache's racy window: a hit is a stat, not a hash
    for name in ("CLAUDE.md", "CLAUDE.local.md"):
        os.utime(root / name, (old, old))
    settings = json.loads((root / ".claude" / "settings.local.json").read_text())
    commands = {}
    for event in ("PreToolUse", "PostToolUse"):
        for group in settings["hooks"][event]:
            if group.get("matcher") == "Bash":
                parsed = parse(group["hooks"][0]["command"])
                assert parsed is not None and parsed.form == "absolute"
                commands[event] = [parsed.python, "-S", parsed.launcher, parsed.name]
    return root, commands


@pytest.mark.parametrize("hookd", ["0", "1"], ids=["in-process", "through-the-server"])
@pytest.mark.parametrize(
    ("event_name", "event"),
    [
        ("PreToolUse", bash("git status && npm test")),
        ("PreToolUse", bash("rm -rf /")),
        ("PostToolUse", {**bash("make test"), "hook_event_name": "PostToolUse", "tool_response": {"stdout": "ok"}}),
    ],
)
def test_cache_hit_imports_nothing_heavy(wired: tuple[Path, dict[str, list[str]]], event_name: str, event: dict[str, object],
                                         hookd: str) -> None:
    root, commands = wired
    argv = commands[event_name]
    assert argv[1] == "-S"
    _imported(argv, event, root, hookd)  # the first call may compile the policy (a miss) and start the server
    deadline = time.monotonic() + 20
    while hookd == "1" and not list((root / ".claude-flow/guidance").glob("hookd-*.sock")) and time.monotonic() < deadline:
        time.sleep(0.05)  # the server binds its socket just after the first hook returned
    modules = _imported(argv, event, root, hookd)
    if hookd == "0":
        assert "cf_guidance.hooks.dispatch" in modules
    else:  # the warm server answered: the hook process decided nothing itself
        assert "cf_guidance.hooks.hookd" in modules and "cf_guidance.hooks.dispatch" not in modules
    assert not modules & BANNED, sorted(modules & BANNED)
    assert not any(name.startswith(("pydantic", "click", "markdown_it", "cryptography", "yaml")) for name in modules)
