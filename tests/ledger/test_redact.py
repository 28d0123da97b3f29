"""Redaction: every credential form redacts its must-redact examples and keeps its must-keep ones."""

from __future__ import annotations

import pytest

from tests.conftest import package_path

from cf_guidance.ledger.redact import FORMS, SECRET_MEMBERS, Form, maybe_secret_text, redact, redact_text

REDACTS = [(form.kind, text, secret) for form in FORMS for text, secret in form.redacts]
KEEPS = [(form.kind, text) for form in FORMS for text in form.keeps]


def test_every_form_has_examples_both_ways() -> None:
    for form in FORMS:
        assert form.redacts and form.keeps, form.kind
        assert all(marker == marker.lower() for marker in form.markers), form.kind
    assert len({form.kind for form in FORMS}) == len(FORMS)


@pytest.mark.parametrize(("kind", "text", "secret"), REDACTS, ids=[f"{k}:{t[:30]}" for k, t, _ in REDACTS])
def test_must_redact(kind: str, text: str, secret: str) -> None:
    out = redact_text(text)
    assert secret not in out and "[REDACTED:" in out, out
    assert maybe_secret_text(text)  # the pre-check never hides a form's match


@pytest.mark.parametrize(("kind", "text", "secret"), REDACTS, ids=[f"{k}:{t[:30]}" for k, t, _ in REDACTS])
def test_each_form_matches_its_own_examples(kind: str, text: str, secret: str) -> None:
    """The example is caught by its own form, not only by a neighbour (each row earns its place)."""
    form = next(f for f in FORMS if f.kind == kind)
    assert any(marker in text.lower() for marker in form.markers)
    assert form.pattern().search(text), f"{kind} does not match its example {text!r}"


@pytest.mark.parametrize(("kind", "text"), KEEPS, ids=[f"{k}:{t[:30]}" for k, t in KEEPS])
def test_must_keep(kind: str, text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("text", ["git commit -m 'token refactor'", "make test", "ls -la ~/.ssh", "npm run build", "a" * 64,
                                  "git clone git@github.com:org/repo.git", "mkdir -p build && cd build"])
def test_ordinary_text_is_kept(text: str) -> None:
    assert redact_text(text) == text


def test_the_surrounding_text_stays() -> None:
    assert redact_text("mysql -u root -phunter22 app") == "mysql -u root -p[REDACTED:mysql-password] app"
    assert redact_text("export DB_PASS=hunter22 && make") == "export DB_PASS=[REDACTED:assignment] && make"


def test_redact_walks_json_and_redacts_secret_members() -> None:
    value = {"tool_input": {"command": "TOKEN=abcdefgh1234 make", "password": "pw"}, "list": ["ghp_" + "b" * 36], "n": 3}
    out = redact(value)
    assert out["tool_input"]["command"] == "TOKEN=[REDACTED:assignment] make"
    assert out["tool_input"]["password"] == "[REDACTED:value]"
    assert out["list"] == ["[REDACTED:github-token]"] and out["n"] == 3
    assert value["tool_input"]["password"] == "pw"  # the input is not changed


def test_tool_output_fields_are_redacted() -> None:
    response = {"stdout": '{"user": "bob", "password": "hunter22", "token": "abc123xyz"}\n', "stderr": ""}
    out = redact(response)
    assert "hunter22" not in out["stdout"] and "abc123xyz" not in out["stdout"] and '"user": "bob"' in out["stdout"]


def test_redaction_is_idempotent() -> None:
    for _, text, _ in REDACTS:
        once = redact_text(text)
        assert redact_text(once) == once


def test_pre_check_covers_every_secret_member_name() -> None:
    assert all(maybe_secret_text(f'{{"{name}": "x"}}') for name in SECRET_MEMBERS)
    assert not maybe_secret_text('{"tool_input": {"command": "make test"}, "n": [1, 2]}')


def test_ordinary_text_does_not_import_re() -> None:
    """The spool redacts on the hot path: a command with no marker costs no `re` import."""
    import subprocess
    import sys

    code = ("import sys; from cf_guidance.ledger.redact import redact; "
            "redact({'tool_input': {'command': 'git status && npm test'}, 'cwd': '/w'}); print('re' in sys.modules)")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin", "PYTHONPATH": package_path()})
    assert out.stdout.strip() == "False", out
