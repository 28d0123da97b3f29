"""Encoded payloads: literal text through decoders is read as the code it becomes
(guidance.shell.decoding), in pipes into shells and in command substitutions."""

from __future__ import annotations

import pytest

from cf_guidance.shell import Command, analyze
from cf_guidance.shell.decoding import decoder_of, piped_text

RM_HOME = ["rm", "-rf", "~/"]


def argvs(command: str) -> list[list[str]]:
    return [c.argv for c in analyze(command).commands]


DECODED = [
    "echo cm0gLXJmIH4v | base64 -d | sh",
    "echo cm0gLXJmIH4v | base64 --decode | bash",
    "printf %s cm0gLXJmIH4v | openssl base64 -d | sh",
    "echo OJWSALLSMYQH4LY= | base32 -d | sh",
    "echo 726d202d7266207e2f | xxd -r -p | sh",
    "echo /~ fr- mr | rev | sh",
    'eval "$(echo cm0gLXJmIH4v | base64 -d)"',
    'bash -c "$(echo cm0gLXJmIH4v | base64 -d)"',
    "eval \"$(printf '\\x72\\x6d\\x20\\x2d\\x72\\x66\\x20\\x7e\\x2f')\"",
    "eval `echo cm0gLXJmIH4v | base64 -d`",
    "source <(echo cm0gLXJmIH4v | base64 -d)",
    'bash <(printf "rm -rf ~/\\n")',
]


@pytest.mark.parametrize("command", DECODED)
def test_literal_payloads_are_decoded_and_analysed(command: str) -> None:
    assert RM_HOME in argvs(command)


def test_a_computed_program_name_is_also_seen_as_it_runs() -> None:
    commands = argvs("$(printf r)m -rf / && x$(echo y)z")
    assert ["$(printf r)m", "-rf", "/"] in commands  # as written: dynamic, SHL002
    assert ["rm", "-rf", "/"] in commands
    assert ["xyz"] in commands


NOT_DECODED = [
    "base64 -d payload.b64 | sh",  # a file: its content is not on the line
    'echo "$P" | base64 -d | sh',
    "cat blob | xxd -r -p | sh",
    'eval "$(base64 -d stage.b64)"',
    "source <(kubectl completion bash)",
]


@pytest.mark.parametrize("command", NOT_DECODED)
def test_payloads_not_on_the_line_are_not_guessed(command: str) -> None:
    assert RM_HOME not in argvs(command)
    assert not any(c.origin.endswith("| sh") for c in analyze(command).commands)


DECODERS = [
    (["base64", "-d"], "base64"),
    (["base64", "--decode", "in.b64"], "base64"),
    (["base64"], ""),
    (["base32", "-d"], "base32"),
    (["xxd", "-r", "-p"], "hex"),
    (["xxd", "-rp"], "hex"),
    (["xxd", "-r"], "?"),
    (["xxd", "file"], ""),
    (["openssl", "base64", "-d"], "base64"),
    (["openssl", "enc", "-d", "-aes-256-cbc"], "?"),
    (["uudecode"], "?"),
    (["rev"], "rev"),
    (["cat"], ""),
]


@pytest.mark.parametrize(("argv", "expected"), DECODERS)
def test_decoder_of(argv: list[str], expected: str) -> None:
    assert decoder_of(Command(argv)) == expected


def test_piped_text_needs_a_literal_producer_and_stdin_decoders() -> None:
    def stages(*argvs: list[str]) -> list[list[Command]]:
        return [[Command(a)] for a in argvs]

    assert piped_text(stages(["echo", "aGk="], ["base64", "-d"])) == "hi"
    assert piped_text(stages(["echo", "aGk="], ["base64", "-d", "other.b64"])) is None
    assert piped_text(stages(["cat", "x"], ["base64", "-d"])) is None
    assert piped_text(stages(["echo", "!!!"], ["xxd", "-r", "-p"])) is None  # not hex: unknown, never ""
