"""Rate limits and trust through the real hook and worker: honest work is never locked out,
a runaway loop is told to stop (issue 12)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.jobs import worker

from .conftest import HookRunner, bash

_IDS = iter(range(1_000_000))


def verdict(answer: Any) -> str:
    if not answer.stdout:
        return "allow"
    out = json.loads(answer.stdout)
    return str(out.get("hookSpecificOutput", {}).get("permissionDecision") or ("warn" if "systemMessage" in out else "allow"))


def call(hook: HookRunner, command: str, session: str = "s1", agent: str = "", tool: str = "Bash") -> str:
    payload = bash(command, session_id=session, tool_use_id=f"toolu_{next(_IDS)}")
    if agent:
        payload["agent_id"] = agent
    if tool == "Read":
        payload.update(tool_name="Read", tool_input={"file_path": command})
    return verdict(hook("pre-read" if tool == "Read" else "pre-bash", payload))


def test_one_sessions_denials_do_not_lock_out_another(policy_hook: HookRunner) -> None:
    """Before: 40 denied calls in one session, then a new session got 12 calls and every later one was denied."""
    for _ in range(40):
        assert call(policy_hook, "git push --force", session="noisy") == "deny"
    worker.drain(policy_hook.state_dir)
    verdicts = []
    for i in range(160):
        verdicts.append(call(policy_hook, f"cat notes-{i}.txt", session="honest"))
        if i % 40 == 39:
            worker.drain(policy_hook.state_dir)
    assert verdicts.count("allow") == 160, verdicts


def test_a_swarm_of_eight_sub_agents_and_thirty_parallel_reads(policy_hook: HookRunner) -> None:
    verdicts = [call(policy_hook, f"src/file{i}.py", tool="Read") for i in range(30)]  # one turn
    for round_ in range(25):
        for agent in range(8):
            verdicts.append(call(policy_hook, f"cat part-{round_}-{agent}.txt", agent=f"sub-{agent}"))
    assert set(verdicts) == {"allow"}, [v for v in verdicts if v != "allow"][:3]


def test_a_runaway_loop_is_told_to_stop_and_other_work_goes_on(policy_hook: HookRunner) -> None:
    reasons = []
    for _ in range(4):
        answer = policy_hook("pre-bash", bash("git push --force", tool_use_id=f"toolu_{next(_IDS)}"))
        reasons.append(json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecisionReason"])
    assert not any("RAT003" in r for r in reasons[:3])
    assert reasons[3].startswith("[RAT003]") and "stop retrying" in reasons[3] and "DST" in reasons[3]
    assert call(policy_hook, "git status") == "allow"  # its other work is untouched
    worker.drain(policy_hook.state_dir)
    assert call(policy_hook, "npm test") == "allow"


def test_the_limiters_own_denials_do_not_prolong_a_lockout(policy_hook: HookRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: RAT001 denials counted toward the rate, so the lockout never ended while the agent worked."""
    monkeypatch.setenv("GUIDANCE_RATE_LIMIT_PER_MIN", "20")
    answers = [call(policy_hook, f"echo {i}") for i in range(40)]
    assert answers[:16] == ["allow"] * 16 and answers[16:20] == ["warn"] * 4 and answers[20:] == ["deny"] * 20
    worker.drain(policy_hook.state_dir)
    # 20 counted calls in the window, however many denials followed: still 20, never more
    assert call(policy_hook, "echo again") == "deny"
    summary = json.loads((Path(policy_hook.state_dir) / "sessions" / "s1.json").read_text())
    assert summary["agents"]["main"]["deny"] == 0  # and the denials did not cost it trust
