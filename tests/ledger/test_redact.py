"""Redaction: secret values are replaced, the surrounding text stays."""

from __future__ import annotations

import pytest

from cf_guidance.ledger.redact import redact, redact_text


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        ("export GITHUB_TOKEN=ghp_" + "a" * 36, "export GITHUB_TOKEN=", "ghp_aaaa"),
        ("curl -H 'Authorization: Bearer abcdefghijklmnop123' https://x", "Authorization: Bearer ", "abcdefghijklmnop123"),
        ("psql postgres://bob:hunter22@db/app", "postgres://bob:", "hunter22"),
        ("mysql --password=hunter2secret db", "mysql --password=", "hunter2secret"),
        ('AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI/K7MDENG" aws s3 ls', "aws s3 ls", "wJalrXUtnFEMI"),
        ("key AKIAIOSFODNN7EXAMPLE here", "key ", "AKIAIOSFODNN7EXAMPLE"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "", "b3BlbnNzaC1rZXk"),
        ("echo sk-ant-api03-abcdefghijklmnopqrstuvwx", "echo ", "sk-ant-api03"),
        ("xoxb-1234567890-abcdefghij", "", "xoxb-1234567890"),
    ],
)
def test_secret_values_are_redacted(text: str, kept: str, gone: str) -> None:
    out = redact_text(text)
    assert gone not in out and kept in out and "[REDACTED:" in out


@pytest.mark.parametrize("text", ["git commit -m 'token refactor'", "make test", "ls -la ~/.ssh", "password reset flow", "a" * 64])
def test_ordinary_text_is_kept(text: str) -> None:
    assert redact_text(text) == text


def test_redact_walks_json_and_redacts_secret_members() -> None:
    value = {"tool_input": {"command": "TOKEN=abcdefgh1234 make", "password": "pw"}, "list": ["ghp_" + "b" * 36], "n": 3}
    out = redact(value)
    assert out["tool_input"]["command"] == "TOKEN=[REDACTED:assignment] make"
    assert out["tool_input"]["password"] == "[REDACTED:value]"
    assert out["list"] == ["[REDACTED:github-token]"] and out["n"] == 3
    assert value["tool_input"]["password"] == "pw"  # the input is not changed


def test_redaction_is_idempotent() -> None:
    once = redact_text("TOKEN=abcdefgh1234 and --password=hunter22")
    assert redact_text(once) == once


def test_pre_check_covers_every_secret_member_name() -> None:
    from cf_guidance.ledger.redact import _MARKERS, _SECRET_KEYS, maybe_secret

    assert all(any(marker in name for marker in _MARKERS) for name in _SECRET_KEYS)
    assert not maybe_secret({"tool_input": {"command": "make test"}, "n": [1, 2]})
    assert maybe_secret({"x": {"Authorization": "abc"}})
