"""Writes outside the workspace and reads of the user's own config, found in the tool calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cf_guidance.headless.collect import ToolCall
from cf_guidance.headless.outside import outside_writes, user_config_reads

PROJECT = Path("/runs/r1/project")
HOME = Path("/runs/r1/home")


def call(name: str, denied: bool = False, **tool_input: Any) -> ToolCall:
    return ToolCall(seq=1, id=f"toolu_{name}", name=name, input=tool_input, denied_by="hook" if denied else "")


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        # file tools: absolute paths outside, relative and inside paths are the workspace's
        ([call("Write", file_path="/etc/motd")], [("/etc/motd", "machine")]),
        ([call("Edit", file_path=str(PROJECT / "a.py")), call("Write", file_path="notes.md")], []),
        ([call("NotebookEdit", notebook_path="/srv/n.ipynb")], [("/srv/n.ipynb", "machine")]),
        ([call("Write", file_path=str(HOME / ".bashrc"))], [(str(HOME / ".bashrc"), "run")]),
        # shell: redirections, programs' targets, inline code, ~ and $HOME are the run's HOME
        ([call("Bash", command="echo x > /tmp/out.txt && ls")], [("/tmp/out.txt", "machine")]),
        ([call("Bash", command="rm -rf ~/cache $HOME/.npm")], [(str(HOME / "cache"), "run"), (str(HOME / ".npm"), "run")]),
        ([call("Bash", command="python3 -c \"open('/var/tmp/z', 'w').write('1')\"")], [("/var/tmp/z", "machine")]),
        ([call("Bash", command="cp a.txt ../elsewhere/b.txt")], [("/runs/r1/elsewhere/b.txt", "run")]),
        ([call("Bash", command="mv x ../../y")], [("/runs/y", "machine")]),
        # the working directory follows `cd`, within a line and across calls that ran
        ([call("Bash", command="cd /opt/app && touch built")], [("/opt/app/built", "machine")]),
        ([call("Bash", command="cd /opt"), call("Bash", command="touch x")], [("/opt/x", "machine")]),
        ([call("Bash", command="cd /opt", denied=True), call("Bash", command="touch x")], []),
        # not files, and targets the calls cannot tell
        ([call("Bash", command="make 2>/dev/null > /dev/stderr")], []),
        ([call("Bash", command="echo x > $OUT_DIR/y")], []),
        ([call("Read", file_path="/etc/passwd"), call("Bash", command="cat /etc/hosts")], []),
    ],
)
def test_outside_writes(calls: list[ToolCall], expected: list[tuple[str, str]]) -> None:
    found = outside_writes(calls, project=PROJECT, home=HOME)
    assert [(w["path"], w["scope"]) for w in found] == expected


def test_denied_and_sandboxed_writes_are_marked() -> None:
    found = outside_writes([call("Write", denied=True, file_path="/etc/motd"), call("Write", file_path=str(HOME / "x"))],
                           project=PROJECT, home=HOME, sandboxed=True)
    assert [(w["ran"], w["sandboxed"]) for w in found] == [(False, True), (True, False)]  # its own HOME is writable


def test_reads_of_the_users_own_config_are_leaks() -> None:
    user = [Path("/home/u/.claude")]
    calls = [call("Read", file_path="/home/u/.claude/CLAUDE.md"), call("Bash", command="cat /home/u/.claude.json"),
             call("Read", denied=True, file_path="/home/u/.claude/settings.json"),
             call("Read", file_path="/home/u/.claudette/x"), call("Read", file_path=str(HOME / ".claude" / "CLAUDE.md"))]
    leaks = user_config_reads(calls, user)
    assert leaks == ["Read call toolu_Read reaches the user's own config at /home/u/.claude",
                     "Bash call toolu_Bash reaches the user's own config at /home/u/.claude"]
