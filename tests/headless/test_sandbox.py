"""--sandbox: the real client under bubblewrap writes only inside its run; without it, the writes
outside the workspace are reported as side effects and can be asserted on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cf_guidance.headless import sandbox
from cf_guidance.headless.compliance import STARTER_DIR, write_starter
from cf_guidance.headless.report import build_report
from cf_guidance.headless.runner import RunOptions, Runner
from cf_guidance.headless.suite import load_suite
from cf_guidance.headless.workspace import Workspace


def test_an_install_under_tmp_is_bound_back_read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox.shutil, "which", lambda program: "/tmp/checkout/.tools/bin/claude")
    assert "/tmp/checkout" in sandbox.installs_under_tmp("claude")
    monkeypatch.setattr(sandbox.shutil, "which", lambda program: "/usr/local/bin/claude")
    assert "/tmp/checkout" not in sandbox.installs_under_tmp("claude")


def test_bwrap_argv_binds_only_the_run_and_hides_the_users_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "user"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude.json").write_text("{}")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: "/usr/bin/bwrap")
    ws = Workspace(tmp_path / "run")
    argv = sandbox.bwrap_argv(ws, ["claude", "-p"])
    root = str(ws.root)
    # what the run executes from under /tmp (a checkout there) comes back read-only over the private /tmp
    shown_again = [word for top in sandbox.installs_under_tmp("claude") for word in ("--ro-bind", top, top)]
    assert argv[:argv.index("--bind")] == ["/usr/bin/bwrap", "--die-with-parent", "--unshare-pid", *sandbox.BASE_MOUNTS,
                                           *shown_again]
    assert argv[argv.index("--bind"):argv.index("--bind") + 3] == ["--bind", root, root]
    assert ["--tmpfs", str(home / ".claude")] == argv[argv.index(str(home / ".claude")) - 1:argv.index(str(home / ".claude")) + 1]
    assert ["--ro-bind", "/dev/null", str(home / ".claude.json")] == argv[argv.index(str(home / ".claude.json")) - 2:
                                                                           argv.index(str(home / ".claude.json")) + 1]
    assert argv[-5:] == ["--chdir", str(ws.project), "--", "claude", "-p"]
    assert argv.count("--bind") == 1  # nothing else is writable


def test_a_missing_bwrap_is_one_line_saying_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(Exception, match=r"--sandbox needs bubblewrap \(bwrap\) on PATH; install it \(Debian/Ubuntu: "
                                        r"apt-get install -y bubblewrap\) or run without --sandbox"):
        sandbox.check_bwrap()


OUTSIDE_TASK = """\
  - id: writes-outside
    prompt: set things up
    policy: {policy}
    script:
      turns:
        - tool_uses:
            - {{name: Bash, input: {{command: "echo leak > {outside}/bash.txt; mkdir -p ~/cache && echo ok > ~/cache/x"}}}}
            - {{name: Write, input: {{file_path: "{outside}/write.txt", content: leak}}}}
            - {{name: Write, input: {{file_path: "${{WORKSPACE}}/inside.txt", content: fine}}}}
            - {{name: Read, input: {{file_path: "{user_home}/.claude/CLAUDE.md"}}}}
        - text: done
    assertions:
      - {{type: file-created, path: inside.txt}}
      - {{type: no-outside-writes}}
"""


def outside_suite(tmp_path: Path, *, with_starter: bool) -> Path:
    outside, user_home = tmp_path / "outside", tmp_path / "user"
    outside.mkdir()
    (user_home / ".claude").mkdir(parents=True)
    (user_home / ".claude" / "CLAUDE.md").write_text("the user's own instructions\n")
    task = OUTSIDE_TASK.format(outside=outside, user_home=user_home, policy=STARTER_DIR / "CLAUDE.md")
    if with_starter:
        write_starter(tmp_path / "suite")
        path = tmp_path / "suite" / "compliance.yaml"
        path.write_text(path.read_text() + task)
    else:
        path = tmp_path / "suite.yaml"
        path.write_text("version: 1\nname: outside\ndefaults: {executor: scripted, timeout: 90}\ntasks:\n" + task)
    return path


def run_suite(path: Path, tmp_path: Path, *, with_sandbox: bool) -> dict[str, Any]:
    base = tmp_path / "runs"
    base.mkdir(exist_ok=True)
    result = Runner(load_suite(path), RunOptions(jobs=2, base_dir=base, retries=1, sandbox=with_sandbox)).run()
    return {t["meta"]["test_id"]: t for t in build_report(result)["tasks"]}


@pytest.mark.e2e
def test_without_the_sandbox_writes_outside_are_reported(claude: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "user"))  # the user's own config, as the runner sees it
    tasks = run_suite(outside_suite(tmp_path, with_starter=False), tmp_path, with_sandbox=False)
    attempt = tasks["writes-outside"]["attempts"][0]
    assert (tmp_path / "outside" / "bash.txt").exists() and (tmp_path / "outside" / "write.txt").exists()
    writes = {(w["path"], w["scope"], w["ran"], w["sandboxed"]) for w in attempt["side_effects"]["outside_workspace"]}
    assert {(str(tmp_path / "outside" / "bash.txt"), "machine", True, False),
            (str(tmp_path / "outside" / "write.txt"), "machine", True, False)} <= writes
    assert any(path.endswith("/home/cache/x") and scope == "run" for path, scope, _, _ in writes)
    failed = {e["type"]: e["reason"] for e in attempt["expectations"] if e["status"] == "fail"}
    assert failed["no-outside-writes"].startswith(f"Bash wrote {tmp_path / 'outside' / 'bash.txt'}")
    assert "reaches the user's own config at" in failed["isolation"]  # it read ~/.claude/CLAUDE.md
    assert tasks["writes-outside"]["meta"]["status"] == "fail"


@pytest.mark.e2e
def test_under_the_sandbox_only_the_run_is_writable_and_the_guard_still_works(
        claude: Path, bwrap: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    tasks = run_suite(outside_suite(tmp_path, with_starter=True), tmp_path, with_sandbox=True)
    problems = {task_id: [f"{e['description']}: {e['reason']}" for a in t["attempts"] for e in a["expectations"]
                          if e["status"] == "fail"] + [a["error"] for a in t["attempts"] if a["error"]]
                + [f"hook error {h['hook']}: {h['stderr_tail']}" for a in t["attempts"] for h in a["hook_failures"]]
                for task_id, t in tasks.items() if t["meta"]["status"] != "pass"}
    assert problems == {}  # the starter suite passes in the sandbox: hooks, state dir and worker work there
    assert list((tmp_path / "outside").iterdir()) == []  # nothing landed outside the run
    attempt = tasks["writes-outside"]["attempts"][0]
    assert attempt["execution"]["sandbox"] and not attempt["debug"]["leaks"]
    outside = [w for w in attempt["side_effects"]["outside_workspace"] if w["scope"] == "machine"]
    assert outside and all(w["sandboxed"] for w in outside)  # attempted, reported, and could not land
    read = next(c for c in attempt["tool_calls"] if c["tool"] == "Read")
    assert "the user's own instructions" not in read["output_preview"]  # ~/.claude is hidden


def test_the_ci_script_installs_bubblewrap() -> None:
    script = (Path(__file__).resolve().parents[2] / "scripts" / "test.sh").read_text()
    ci_block = script[script.index('if [ "${CI:-}" = "true" ] && command -v apt-get'):]
    assert 'command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"' in ci_block
    assert "apt-get install -y -qq $missing" in ci_block
