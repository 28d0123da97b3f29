from __future__ import annotations

import pytest

from cf_guidance.gates import catastrophe
from tests.gates.support import bash, codes

MUST_BLOCK = [
    ("rm -rf /", "CAT001"),
    ("rm -fr ~/", "CAT001"),
    ("rm -r -f $HOME", "CAT001"),
    ("rm -rf /tmp/../etc", "CAT001"),
    ("rm -rf ..", "CAT001"),
    ("rm -rf /*", "CAT001"),
    ("find / -delete", "CAT001"),
    ("rm --no-preserve-root -r /", "CAT002"),
    ("dd if=/dev/zero of=/dev/sda", "CAT003"),
    ("mkfs.ext4 /dev/nvme0n1p1", "CAT003"),
    ("echo x > /dev/sdb", "CAT003"),
    (":(){ :|:& };:", "CAT004"),
    ("f() { f | f & }; f", "CAT004"),
    ("chmod -R 777 /", "CAT005"),
    ("chown -R me /etc", "CAT005"),
    ("mv ~ /tmp/x", "CAT006"),
]

MUST_ALLOW = [
    "rm -rf ./build",
    "rm -rf /tmp/x",
    "rm -rf /home/dev/project/dist",
    "dd if=/dev/zero of=./disk.img count=1",
    "echo hi > /dev/null",
    "chmod -R u+w ./build",
    "mv ./a ./b",
    "find . -name '*.pyc' -delete",
    "echo ':(){ :|:& };:' is a fork bomb",
]


@pytest.mark.parametrize(("command", "code"), MUST_BLOCK)
def test_blocks(command: str, code: str) -> None:
    assert f"{code}:deny" in codes(catastrophe, bash(command))


@pytest.mark.parametrize("command", MUST_ALLOW)
def test_allows(command: str) -> None:
    assert codes(catastrophe, bash(command)) == []


def test_cannot_be_disabled_by_the_allowlist_or_level() -> None:
    from tests.gates.support import decide

    for level in ("standard", "strict", "paranoid"):
        decision = decide(bash("rm -rf /"), level=level, allow_commands=[["rm", "-rf", "/"]])
        assert decision.verdict == "deny" and decision.rule == "CAT001"


def test_symlink_to_a_system_dir_is_followed(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from cf_guidance.engine import evaluate
    from cf_guidance.event import normalise

    project = tmp_path / "p"
    project.mkdir()
    (project / "link").symlink_to("/etc")
    event = normalise({"tool_name": "Bash", "tool_input": {"command": "rm -rf link/"}, "cwd": str(project)}, project_dir=str(project))
    decision = evaluate({"root": str(project), "settings": {}}, event)
    assert decision.rule == "CAT001"
