"""The wiring table agrees with the hook's command table, and its commands survive any path."""

from __future__ import annotations

import os
import sys

from cf_guidance.hooks import dispatch, hookd, settings
from cf_guidance.installer.wiring import (
    CLAUDE_OTHER_TOOLS,
    TIMEOUT_S,
    WIRING,
    absolute_command,
    our_command_name,
    parse,
    portable_command,
)


def test_every_wired_command_exists_and_handles_the_event_it_is_wired_to() -> None:
    for wires in WIRING.values():
        for wire in wires:
            assert dispatch.COMMANDS[wire.name].hook_event == wire.event, wire


def test_every_claude_tool_event_reaches_exactly_one_pre_command() -> None:
    pre = [w for w in WIRING["claude"] if w.event == "PreToolUse"]
    named = [m for w in pre if w.matcher != CLAUDE_OTHER_TOOLS for m in (w.matcher or "").split("|")]
    assert len(named) == len(set(named))
    assert CLAUDE_OTHER_TOOLS.startswith("^(?!(?:") and all(name in CLAUDE_OTHER_TOOLS for name in named)


def test_absolute_commands_are_quoted_and_skip_site() -> None:
    command = absolute_command("pre-bash", python="/opt/my env/bin/python", launcher="/srv/a b/hooks/launcher.py")
    parsed = parse(command)
    assert parsed is not None and (parsed.name, parsed.form, parsed.if_missing) == ("pre-bash", "absolute", "deny")
    assert (parsed.python, parsed.launcher) == ("/opt/my env/bin/python", "/srv/a b/hooks/launcher.py")
    assert "'/opt/my env/bin/python' -S '/srv/a b/hooks/launcher.py' pre-bash;" in command
    assert our_command_name({"type": "command", "command": command}) == "pre-bash"
    assert our_command_name({"command": command}) == "pre-bash"  # type defaults to command


def test_portable_commands_name_no_path_of_this_machine() -> None:
    for name in ("pre-bash", "post-bash", "session-restore"):
        for if_missing in ("deny", "warn"):
            command = portable_command(name, if_missing)
            assert os.path.expanduser("~") not in command and sys.prefix not in command and "/hooks/" not in command
            parsed = parse(command)
            assert parsed is not None and (parsed.name, parsed.form) == (name, "portable")
    assert parse(portable_command("pre-bash", "warn")).if_missing == "warn"  # type: ignore[union-attr]


def test_commands_of_an_older_init_are_ours_but_unguarded() -> None:
    parsed = parse("'/v env/bin/python' -S '/x/hooks/launcher.py' pre-bash")
    assert parsed is not None and (parsed.name, parsed.form, parsed.python) == ("pre-bash", "unguarded", "/v env/bin/python")
    for lookalike in ("echo hooks/launcher.py", "python launcher.py pre-bash", "cf-guidance-hook pre-bash",
                      "/x/hooks/launcher.py not-a-command", "echo 'unterminated"):
        assert parse(lookalike) is None, lookalike


def test_our_own_deadline_answers_before_the_client_kills_the_hook() -> None:
    """The client's kill lets the tool run unchecked; our deadline answers by the fail mode and
    keeps the built-in guard's deny. The longest path: a warm server that does not answer
    (hookd.wait_s, at most 1.5 s), then the in-process fallback within what is left of the
    deadline, with seconds to spare for the interpreter's start on a loaded machine."""
    deadline_s = settings.DEFAULT_TIMEOUT_MS / 1000
    assert hookd.wait_s({}) <= hookd.WAIT_BOUNDS_S[1] and deadline_s + hookd.WAIT_BOUNDS_S[1] + 3 <= TIMEOUT_S
