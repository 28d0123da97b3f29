"""The human-readable bundle listing used by `cf-guidance compile`."""

from __future__ import annotations

from cf_guidance.policy.compiler import compile_sources
from cf_guidance.policy.report import render_bundle_text


def test_lists_rules_checks_settings_and_diagnostics() -> None:
    bundle = compile_sources(
        "## Safety\n- [R1] Never run `git push --force`\n- Always run `make test` before committing\n"
        "- Keep it simple\n```guidance\nallow tool Read\nbogus\n```\n",
        None,
    )
    text = render_bundle_text(bundle)
    assert "3 rules: 2 enforced, 1 advisory; 3 in the constitution" in text
    assert "[R1] Never run `git push --force`\n    enforced, high, constitution · CLAUDE.md:2 · Safety\n" in text
    assert "    → deny command git push --force\n" in text
    assert "    → deny git commit unless make test ran first\n" in text
    assert "  tools allow: Read\n" in text
    assert "  CLAUDE.md:7: error: invalid guidance rule: unknown verb 'bogus'" in text


def test_empty_policy() -> None:
    assert render_bundle_text(compile_sources(None)) == (
        "Policy of (in memory) from no policy files\n0 rules: 0 enforced, 0 advisory; 0 in the constitution\n\n"
        "Settings: level standard, max diff lines 300\n"
    )
