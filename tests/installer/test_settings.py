"""Merging our hook entries into a settings file keeps everything of the user's, and comes out again."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from cf_guidance.errors import InstallError
from cf_guidance.installer import settings
from cf_guidance.installer.wiring import CLAUDE, CODEX, LOCAL, TIMEOUT_S, WIRING, command_for, handler_for

USER = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh", "timeout": 5}]}],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
    },
}


@pytest.mark.parametrize("agent", [CLAUDE, CODEX])
def test_merge_adds_every_wire_and_keeps_the_users_hooks(agent: str) -> None:
    merged = settings.merge(USER, WIRING[agent], handler_for)
    assert merged["model"] == "opus" and merged["permissions"] == USER["permissions"]
    assert merged["hooks"]["PreToolUse"][0] == USER["hooks"]["PreToolUse"][0]
    assert merged["hooks"]["Notification"] == USER["hooks"]["Notification"]
    installed = settings.installed_names(merged)
    assert set(installed) == {(w.event, w.matcher, w.name) for w in WIRING[agent]}
    assert all(command == command_for(name) for (_, _, name), command in installed.items())
    for groups in merged["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                if handler["command"] in installed.values():
                    assert handler["timeout"] == TIMEOUT_S == 30  # seconds


def test_merge_is_idempotent_and_does_not_mutate_its_input() -> None:
    before = copy.deepcopy(USER)
    once = settings.merge(USER, WIRING[CLAUDE], handler_for)
    assert USER == before
    assert settings.merge(once, WIRING[CLAUDE], handler_for) == once
    assert settings.render(settings.merge(once, WIRING[CLAUDE], handler_for)) == settings.render(once)


def local(name: str) -> dict[str, object]:
    return handler_for(name, LOCAL)


def test_merge_updates_a_moved_installation_in_place_and_drops_stale_entries() -> None:
    once = settings.merge(USER, WIRING[CLAUDE], local)
    moved = copy.deepcopy(once)
    for groups in moved["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                handler["command"] = handler["command"].replace("/hooks/launcher.py", "/old/hooks/launcher.py")
                handler.setdefault("statusMessage", "kept")
    moved["hooks"]["PreToolUse"].append({"matcher": "Zzz", "hooks": [{"type": "command", "command": command_for("pre-tool", LOCAL)}]})
    again = settings.merge(moved, WIRING[CLAUDE], local)
    assert settings.installed_names(again) == settings.installed_names(once)
    assert [g.get("matcher") for g in again["hooks"]["PreToolUse"]] == [g.get("matcher") for g in once["hooks"]["PreToolUse"]]
    assert again["hooks"]["Stop"][0]["hooks"][0]["statusMessage"] == "kept"


def test_unmerge_gives_back_the_users_settings() -> None:
    assert settings.unmerge(settings.merge(USER, WIRING[CLAUDE], handler_for)) == USER
    assert settings.unmerge(settings.merge({}, WIRING[CODEX], handler_for)) == {}


def test_a_user_hook_that_looks_similar_is_not_ours() -> None:
    lookalikes = [{"type": "command", "command": "python launcher.py pre-bash"},
                  {"type": "command", "command": "/x/hooks/launcher.py not-a-command"},
                  {"type": "command", "command": "echo 'unterminated"},
                  {"type": "prompt", "prompt": "hooks/launcher.py pre-bash"}]
    user = {"hooks": {"PreToolUse": [{"hooks": lookalikes}]}}
    assert settings.unmerge(user) == user


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not valid JSON"),
        ("[]", "top level must be a JSON object"),
        ('{"hooks": []}', '"hooks" must be an object'),
        ('{"hooks": {"PreToolUse": {}}}', '"hooks.PreToolUse" must be a list'),
        ('{"hooks": {"PreToolUse": [{"matcher": "x"}]}}', '"hooks.PreToolUse[0]" must be an object with a "hooks" list'),
    ],
)
def test_a_malformed_file_is_refused_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(InstallError) as info:
        settings.load(str(path))
    assert message in str(info.value)
    assert "\n" not in str(info.value) and "nothing was changed" in str(info.value)


def test_load_missing_and_empty(tmp_path: Path) -> None:
    assert settings.load(str(tmp_path / "nope.json")) == ({}, None)
    (tmp_path / "empty.json").write_text("\n")
    assert settings.load(str(tmp_path / "empty.json")) == ({}, "\n")
