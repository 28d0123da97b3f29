"""Each undo entry's own examples: what it catches and what it leaves alone."""

from __future__ import annotations

import pytest

from cf_guidance.replay.calls import SUCCEEDED, ToolCall
from cf_guidance.replay.reverts import FILE_EXAMPLES, UNDOS, undone_by

CWD = "/work/project"


def call(text: str, order: int) -> ToolCall:
    """`Write PATH` / `Edit PATH` as a file tool call, anything else as a Bash command."""
    tool, _, rest = text.partition(" ")
    if tool in ("Write", "Edit"):
        tool_input = {"file_path": rest, "content": "x"} if tool == "Write" else {"file_path": rest, "old_string": "a", "new_string": "b"}
    else:
        tool, tool_input = "Bash", {"command": text}
    made = ToolCall(agent="claude", session="s", file="f.jsonl", line=order + 1, order=order, timestamp="", tool=tool,
                    input=tool_input, cwd=CWD, tool_use_id=f"t{order}", turn=str(order))
    made.settle(SUCCEEDED, order + 1)
    return made


EXAMPLES = [(undo.name, *example) for undo in UNDOS for example in undo.examples] + [
    ("file written by a tool", *example) for example in FILE_EXAMPLES]


@pytest.mark.parametrize(("name", "action", "later", "undoes"), EXAMPLES, ids=[f"{e[0]}: {e[1]} / {e[2]}" for e in EXAMPLES])
def test_undo_examples(name: str, action: str, later: str, undoes: bool) -> None:
    first, second = call(action, 0), call(later, 1)
    assert (undone_by(first, [second]) is second) is undoes


def test_every_entry_has_examples_both_ways() -> None:
    for undo in UNDOS:
        assert {e[2] for e in undo.examples} == {True, False}, undo.name
    assert {e[2] for e in FILE_EXAMPLES} == {True, False}


def test_an_edit_swapped_back_is_undone_and_a_call_that_did_not_run_undoes_nothing() -> None:
    edit = call("Edit src/app.py", 0)
    back = ToolCall(agent="claude", session="s", file="f", line=3, order=1, timestamp="", tool="Edit",
                    input={"file_path": "src/app.py", "old_string": "b", "new_string": "a"}, cwd=CWD, tool_use_id="t1", turn="1")
    back.settle(SUCCEEDED, 4)
    assert undone_by(edit, [back]) is back
    reset = call("git checkout -- src/app.py", 2)
    reset.settle("denied", 5)
    assert undone_by(edit, [reset]) is None


def test_the_undo_is_seen_through_chains_and_wrappers() -> None:
    assert undone_by(call("npm install left-pad", 0), [call("cd web && sudo npm uninstall left-pad", 1)]) is not None
    assert undone_by(call("git -C repo commit -m x", 0), [call("git -C repo reset --hard HEAD~1", 1)]) is not None


def test_a_reset_reaches_only_as_many_commits_back_as_it_says() -> None:
    first, second = call("git commit -m a", 0), call("git commit -m b", 1)
    for reset, undone in (("git reset --soft HEAD~1", [False, True]), ("git reset --hard HEAD~2", [True, True]),
                          ("git reset HEAD^^", [True, True]), ("git revert HEAD", [False, True]),
                          ("git revert HEAD~1", [True, False])):
        later = call(reset, 2)
        assert [undone_by(first, [second, later]) is later, undone_by(second, [later]) is later] == undone, reset
