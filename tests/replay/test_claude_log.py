"""Claude Code transcripts: the project slug, and the calls of real transcripts with their outcomes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cf_guidance.headless.claude import claude_env, run_claude
from cf_guidance.modelserver import ModelServer
from cf_guidance.replay import claude_log
from cf_guidance.replay.calls import DENIED, FAILED, SUCCEEDED, LogStats, rule_in
from tests.replay.real_sessions import History, bash

# Slugs the real client (Claude Code 2.1.328) gave these paths; test_the_slug_is_the_clients
# below asks the client again.
SLUGS = [
    ("/tmp/rx/My_proj.v2 x", "-tmp-rx-My-proj-v2-x"),
    ("/tmp/rx/héllo wörld", "-tmp-rx-h-llo-w-rld"),
    ("/tmp/rx/emoji\U0001F600dir", "-tmp-rx-emoji--dir"),
    # Over 200 characters: cut at 200, then the client's hash of the path.
    (LONG := "/tmp/rx/" + "/".join(["abcdefghij_klmnop"] * 14), LONG.replace("/", "-").replace("_", "-")[:200] + "-w4kfgv"),
]


@pytest.mark.parametrize(("path", "slug"), SLUGS)
def test_project_slug(path: str, slug: str) -> None:
    assert claude_log.project_slug(path) == slug


@pytest.mark.e2e
def test_the_slug_is_the_clients(tmp_path: Path, claude_bin: Path) -> None:
    home = tmp_path / "home"
    names = ["My_proj.v2 x", "héllo wörld", "emoji\U0001F600dir", "/".join(["abcdefghij_klmnop"] * 14)]
    for name in names:
        project = tmp_path / "p" / name
        project.mkdir(parents=True)
        with ModelServer({"turns": [bash("true"), {"text": "done"}]}) as server:
            run = run_claude("go", project, claude_env(server.url, home), binary=claude_bin, timeout=60)
        assert run.exit_code == 0, run.stderr[-1000:]
        directory = claude_log.project_dir(str(project), {"CLAUDE_CONFIG_DIR": str(home / ".claude")})
        assert directory is not None and directory.name == claude_log.project_slug(str(project))
        assert len(claude_log.transcripts(directory)) == 1
    assert len(list((home / ".claude" / "projects").iterdir())) == len(names)


def outcomes(path: Path, stats: LogStats | None = None) -> list[tuple[str, str, str, str, str]]:
    calls = claude_log.read_session(path, stats or LogStats())
    return [(c.tool, c.brief(500), c.outcome, c.denied_by, rule_in(c.denial)) for c in calls]


def test_calls_of_a_real_transcript_in_order_with_their_outcomes(history: History) -> None:
    first, second = history.claude_sessions
    notes = f"Read {history.project}/notes.txt"
    deny = next(c for c in claude_log.read_session(first, LogStats()) if c.outcome == DENIED)
    assert outcomes(first) == [
        ("Bash", "echo hi", SUCCEEDED, "", ""),
        ("Bash", "make fail", FAILED, "", ""),
        ("Write", f"Write {history.project}/notes.txt", SUCCEEDED, "", ""),
        ("Read", notes, SUCCEEDED, "", ""),
        ("Bash", "ls", SUCCEEDED, "", ""),
        ("Bash", "make deploy", DENIED, "hook", rule_in(deny.denial)),
        ("Bash", "git add notes.txt && git commit -qm notes", SUCCEEDED, "", ""),
        ("Bash", "make test", SUCCEEDED, "", ""),
        ("Bash", "git commit --allow-empty -qm second", SUCCEEDED, "", ""),
    ]
    assert rule_in(deny.denial).startswith("S-") and "Not allowed: `make deploy`." in deny.denial
    assert [c[2] for c in outcomes(second)] == [SUCCEEDED] * 3


def test_each_call_links_to_its_own_line_and_shares_a_turn_with_its_siblings(history: History) -> None:
    path = history.claude_sessions[0]
    lines = path.read_text().splitlines()
    calls = claude_log.read_session(path, LogStats())
    for call in calls:
        line = json.loads(lines[call.line - 1])
        assert line["type"] == "assistant" and call.tool_use_id in json.dumps(line["message"]["content"])
        assert call.session == path.stem and call.cwd == str(history.project)
        assert call.timestamp == line["timestamp"] and call.link == f"{path}:{call.line}"
    read, ls = calls[3], calls[4]
    assert read.turn == ls.turn and len({c.turn for c in calls}) == len(calls) - 1
    assert [c.order for c in calls] == list(range(len(calls)))


def test_unknown_torn_and_foreign_lines_are_counted_never_a_crash(history: History, tmp_path: Path) -> None:
    real = history.claude_sessions[0]
    clean = LogStats()
    expected = outcomes(real, clean)
    assert clean.unknown == clean.unreadable == 0 and clean.other > 0  # the prompt snapshots
    assert clean.versions and all(v.startswith("claude 2.") for v in clean.versions)
    lines = real.read_text().splitlines()
    altered = tmp_path / real.name
    foreign = [
        json.dumps({"type": "hologram", "sessionId": "x"}),             # a kind from a newer client
        json.dumps({"type": "assistant", "message": "not an object"}),  # a known kind, another shape
        json.dumps({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": 7}]}}),
        "[1, 2, 3]", "not json at all", "",
    ]
    altered.write_text("\n".join(lines[:3] + foreign + lines[3:]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    stats = LogStats()
    assert outcomes(altered, stats) == expected
    assert stats.unknown == 3 and stats.unreadable == 3
    assert stats.unknown_kinds == {"claude:hologram": 1, "claude:assistant without message content": 1,
                                   "claude:tool_use of another shape": 1}


def test_transcripts_of_a_project_include_sub_agents(tmp_path: Path, history: History) -> None:
    directory = claude_log.project_dir(str(history.project), history.environ())
    assert directory is not None
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    sub = copy / history.claude_sessions[0].stem / "subagents"
    sub.mkdir(parents=True)
    shutil.copy(history.claude_sessions[1], sub / "agent-a1.jsonl")
    assert sub / "agent-a1.jsonl" in claude_log.transcripts(copy)
    assert len(claude_log.transcripts(copy)) == len(history.claude_sessions) + 1
