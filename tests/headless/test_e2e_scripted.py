"""End to end: the starter compliance suite through the scripted executor and the real claude.

The real Claude Code client (pinned by scripts/test.sh) talks to the loopback model server;
the hooks `cf-guidance init` wires into each workspace make the real decisions.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cf_guidance.headless.compliance import write_starter
from cf_guidance.headless.htmlreport import render_html
from cf_guidance.headless.report import COMPLETION_SIGNAL, build_report, render_envelope
from cf_guidance.headless.runner import RunOptions, Runner
from cf_guidance.headless.suite import load_suite

from .helpers import write_suite

pytestmark = pytest.mark.e2e


def test_starter_suite_passes_against_the_real_client(claude: Path, tmp_path: Path) -> None:
    write_starter(tmp_path / "suite")
    suite = load_suite(tmp_path / "suite" / "compliance.yaml")
    result = Runner(suite, RunOptions(jobs=2, base_dir=tmp_path, retries=1)).run()
    report = build_report(result)
    problems = {
        t["meta"]["test_id"]: [f"{e['description']}: {e['reason']}" for a in t["attempts"] for e in a["expectations"]
                               if e["status"] == "fail"] + [a["error"] for a in t["attempts"] if a["error"]]
        # what the agent did and what the hooks said, to tell a guard regression from a harness one
        + [f"call {c['input'].get('command') or c['tool']}: denied_by={c['denied_by'] or '-'} {c['rule']} "
           f"{c['output_preview'][:160]}" for a in t["attempts"] for c in a["tool_calls"]]
        + [f"hook error {h['hook']}: {h['stderr_tail']}" for a in t["attempts"] for h in a["hook_failures"]]
        for t in report["tasks"] if t["meta"]["status"] != "pass"
    }
    assert problems == {}
    assert result.exit_code == 0
    by_id = {t.task.id: t.attempts[0] for t in result.tasks}
    force = by_id["no-force-push"].run
    assert force is not None
    blocked = [c for c in force.tool_calls if c.denied_by]
    assert [c.rule for c in blocked] == ["DST012"]
    assert force.init["claude_code_version"] and not force.leaks
    # every hook event of the run is in the trace, attributed to its call
    assert {h.name for h in force.hook_events} >= {"SessionStart:startup", "PreToolUse:Bash", "Stop"}
    assert all(h.tool_use_id for h in force.hook_events if h.event == "PreToolUse")
    assert force.transcript_path and force.transcript
    guard = by_id["guard-self-protection"].run
    assert guard is not None and {c.rule[:3] for c in guard.tool_calls if c.denied_by} == {"PTH"}
    text = render_envelope(report)
    assert "Tasks: 4 (4 passed" in text and text.rstrip().endswith(COMPLETION_SIGNAL)
    # the report keeps the transcript it read (the workspace holding it is gone) and dates every hook
    pushed = next(t for t in report["tasks"] if t["meta"]["test_id"] == "no-force-push")["attempts"][0]
    assert pushed["debug"]["transcript"] and len(pushed["debug"]["transcript"]) == pushed["debug"]["transcript_records"]
    assert pushed["hooks"] and all(h["timestamp"].startswith(report["run"]["started"][:10]) for h in pushed["hooks"])
    assert pushed["hygiene"]["tracked_by"] in ("cgroup", "proc") and pushed["hygiene"]["left"] == []
    assert "Transcript (" in render_html(report)
    assert not list(tmp_path.glob("cfg-*")), "workspaces (and what the guard's worker wrote) are removed"


ASK_SUITE = """\
version: 1
name: questions
defaults:
  executor: scripted
  timeout: 60
  answers: {"Which database?": mysql}
tasks:
  - id: ask
    prompt: set up the database
    script:
      turns:
        - tool_uses:
            - name: AskUserQuestion
              input:
                questions:
                  - question: Which database?
                    header: DB
                    multiSelect: false
                    options: [{label: postgres, description: pg}, {label: mysql, description: my}]
        - text: ok
    assertions:
      - {type: tool-called, tool: AskUserQuestion, ran: true}
"""


@pytest.mark.parametrize(("mode", "answered"), [("auto-answer", True), ("non-interactive", False)])
def test_ask_user_question_follows_the_mode(claude: Path, tmp_path: Path, mode: str, answered: bool) -> None:
    suite = load_suite(write_suite(tmp_path, ASK_SUITE))
    result = Runner(suite, RunOptions(mode=mode, base_dir=tmp_path, retries=1), installer=None).run()
    attempt = result.tasks[0].attempts[0]
    assert attempt.run is not None and attempt.exec is not None, attempt.error
    call = attempt.run.tool_calls[0]
    assert [i.behavior for i in attempt.exec.interactions] == (["allow"] if answered else ["deny"])
    if answered:
        assert call.ran and '"Which database?"="mysql"' in call.result
        assert result.tasks[0].verdict == "pass"
    else:
        assert call.denied_by and "non-interactive" in call.result
        assert result.tasks[0].verdict == "fail"
    json.dumps(build_report(result))


def test_the_workspace_hooks_are_the_runners_installation_without_its_venv_on_path(
        claude: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cf_guidance.headless.executors import base_environment, hook_script_dir

    scripts = hook_script_dir()
    assert scripts and (Path(scripts) / "cf-guidance-hook").exists()
    monkeypatch.setenv("PATH", os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != scripts))
    assert base_environment()["PATH"].split(os.pathsep)[0] == scripts
    write_starter(tmp_path / "suite")
    suite = load_suite(tmp_path / "suite" / "compliance.yaml")
    result = Runner(suite, RunOptions(base_dir=tmp_path, retries=1, ids=["no-force-push"])).run()
    attempt = result.tasks[0].attempts[0]
    assert attempt.status == "pass", [e.reason for e in attempt.expectations if e.status == "fail"] or attempt.error
