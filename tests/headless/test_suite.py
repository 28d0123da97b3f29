from __future__ import annotations

import re
from pathlib import Path

import pytest

from cf_guidance.errors import SuiteError
from cf_guidance.headless.assertions import HookBlocked, OutputContains
from cf_guidance.headless.suite import load_suite

GOOD = """\
version: 1
name: demo
defaults:
  executor: fake
  timeout: 30
  tags: [base]
tasks:
  - id: first
    prompt: do it
    assertions:
      - {type: output-contains, expected: done}
  - id: second
    prompt: push
    timeout: 5
    tags: [git]
    script: {turns: [{text: ok}]}
    assertions:
      - {type: hook-blocked, tool: Bash, rule: "DST*"}
"""


def write(tmp_path: Path, text: str, name: str = "suite.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_good_suite_merges_defaults(tmp_path: Path) -> None:
    suite = load_suite(write(tmp_path, GOOD))
    first, second = suite.tasks
    assert (first.executor, first.timeout, first.tags) == ("fake", 30.0, ["base"])
    assert (second.timeout, second.tags) == (5.0, ["git"])
    assert isinstance(first.assertions[0], OutputContains)
    assert isinstance(second.assertions[0], HookBlocked)
    assert second.script is not None and second.script.turns[0].text == "ok"
    assert suite.directory == tmp_path.resolve()
    assert [t.id for t in suite.select(tags=["git"])] == ["second"]
    assert [t.id for t in suite.select(ids=["first"])] == ["first"]


BAD = [
    # (suite text, line, message fragment)
    ("name: x\ntasks: []\n", 2, "`tasks` must be a non-empty list"),
    ("- a\n- b\n", 1, "a suite is a mapping"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n      - type: hook-blokced\n", 7,
     "unknown assertion type 'hook-blokced'; known: "),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n      - type: max-turns\n        max: -1\n",
     8, "assertion 'max-turns': max: Input should be greater than or equal to 0"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n      - type: output-contains\n        expectd: x\n",
     8, "expectd"),
    ("name: x\ndefaults:\n  timeout: -1\n  executor: fake\ntasks:\n  - id: a\n    prompt: p\n", 3,
     "task 'a': timeout: Input should be greater than 0"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n", 3, "the scripted executor needs a `script`"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n  - id: a\n    prompt: q\n    executor: fake\n", 6,
     "duplicate task id 'a'"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    policy: missing.md\n", 6, "policy file"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    workspace: {copy: nodir}\n", 6, "directory"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: robot\n", 5, "executor: Input should be"),
    ("name: x\ndefaults:\n  id: nope\ntasks:\n  - {id: a, prompt: p, executor: fake}\n", 3, "`id` cannot be a default"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    workspace: {files: {../up.txt: x}}\n", 6,
     "relative path inside the workspace"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    script_file: nope.yaml\n", 6, "suite file not found"),
    ("name: [unclosed\n", 2, "invalid YAML"),
    # a key given twice: YAML would keep the second value without a word
    ("name: x\nname: y\ntasks:\n  - {id: a, prompt: p, executor: fake}\n", 2,
     "duplicate key 'name' (first at line 1); keep one"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    prompt: q\n", 6,
     "duplicate key 'prompt' (first at line 4)"),
    # a regex that does not compile is a broken suite, not a failing task
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n"
     "      - type: no-forbidden-commands\n        patterns: ['ok', '[z-a]']\n", 8,
     "assertion 'no-forbidden-commands': patterns: invalid regex '[z-a]': bad character range z-a"),
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n"
     "      - {type: tool-called, tool: Bash, input: {command: '*rm'}}\n", 7, "invalid regex '*rm'"),
    # so is a custom check whose module or function is missing
    ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n"
     "      - type: custom\n        function: nomodule_q7:check\n", 8,
     "custom check 'nomodule_q7:check': module 'nomodule_q7' not found"),
]


@pytest.mark.parametrize(("text", "line", "fragment"), BAD)
def test_bad_suite_is_one_line_naming_file_and_line(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SuiteError) as info:
        load_suite(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path.resolve()}:{line}") or message.startswith(f"{path}:{line}"), message
    assert fragment in message


def test_a_custom_check_must_name_a_function_of_an_importable_module(tmp_path: Path) -> None:
    write(tmp_path, "def present(ctx):\n    return True\n", "suitechecks_a1.py")
    write(tmp_path, "raise RuntimeError('broken at import')\n", "suitechecks_b2.py")
    head = "name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n      - type: custom\n"
    assert load_suite(write(tmp_path, head + "        function: suitechecks_a1:present\n")).tasks[0].assertions
    for function, fragment in (("suitechecks_a1:absent", "module 'suitechecks_a1' has no function 'absent'"),
                               ("suitechecks_b2:f", "cannot be imported (RuntimeError: broken at import)")):
        with pytest.raises(SuiteError, match=f":8: custom check '{function}': .*{re.escape(fragment)}"):
            load_suite(write(tmp_path, head + f"        function: {function}\n"))


def test_script_file_and_policy_resolve_against_the_suite(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    write(tmp_path, "turns:\n  - text: hello\n", "scripts/one.yaml")
    write(tmp_path, "# Policy\n\n- Never run `rm -rf build`.\n", "CLAUDE.md")
    suite = load_suite(write(tmp_path, "name: x\ntasks:\n  - id: a\n    prompt: p\n    policy: CLAUDE.md\n"
                                       "    script_file: scripts/one.yaml\n"))
    task = suite.tasks[0]
    assert task.script is not None and task.script.turns[0].text == "hello"
    assert task.policy is not None
    assert "rm -rf build" in task.policy.sources(suite.directory)["CLAUDE.md"]


def test_inline_policy_text_and_local_text(tmp_path: Path) -> None:
    suite = load_suite(write(tmp_path, "name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n"
                                       "    policy: {text: '# P', local_text: '# L', install: false}\n"))
    policy = suite.tasks[0].policy
    assert policy is not None and not policy.install
    assert policy.sources(tmp_path) == {"CLAUDE.md": "# P", "CLAUDE.local.md": "# L"}


def test_tags_match_globs(tmp_path: Path) -> None:
    suite = load_suite(write(tmp_path, GOOD))
    assert [t.id for t in suite.select(tags=["ba*"])] == ["first"]
    assert suite.select(tags=["none"]) == []
