"""The human-readable bundle listing used by `cf-guidance compile`."""

from __future__ import annotations

from pathlib import Path

from cf_guidance.policy.compiler import compile_project, compile_sources
from cf_guidance.policy.report import render_bundle_text


def test_lists_rules_checks_settings_and_diagnostics() -> None:
    bundle = compile_sources(
        "## Safety\n- [R1] Never run `git push --force`\n- `make test` must pass before committing\n"
        "- Keep it simple\n```guidance\nallow tool Read\nbogus\n```\n",
        None,
    )
    text = render_bundle_text(bundle)
    assert "3 rules: 2 enforced, 1 advisory; 3 in the constitution" in text
    assert "[R1] Never run `git push --force`\n    enforced, high, constitution · CLAUDE.md:2 · Safety\n" in text
    assert "    → deny command git push --force  (CLAUDE.md:2)\n" in text
    assert "    → deny sequence make test -> git commit  (CLAUDE.md:3)\n" in text
    assert "[S-" in text and "Keep it simple\n" in text and "    advisory: " in text
    assert "  tools allow: Read\n" in text
    assert "  CLAUDE.md:7: error: invalid guidance rule: unknown verb 'bogus'" in text


def test_empty_policy() -> None:
    assert render_bundle_text(compile_sources(None)) == (
        "Policy of (in memory) from no policy files\n0 rules: 0 enforced, 0 advisory; 0 in the constitution\n\n"
        "Settings: level standard, max diff lines 300\n"
    )


def test_lists_every_source_found_and_why_it_was_not_compiled(project: Path) -> None:
    for rel, text in {"CLAUDE.md": "- Never run `make a`\n@docs/x.md\n@package.json\n@gone.md\n", "docs/x.md": "- b\n",
                      "package.json": "{}\n", "src/gen/CLAUDE.md": "- Never run `make regen`\n"}.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    (project / "AGENTS.md").symlink_to("CLAUDE.md")
    text = render_bundle_text(compile_project(project))
    assert text.startswith(f"Policy of {project} from CLAUDE.md, docs/x.md, src/gen/CLAUDE.md\n")
    assert (
        "Sources:\n"
        "  read      CLAUDE.md\n"
        "  read      docs/x.md (imported by CLAUDE.md:2)\n"
        "  reference package.json (imported by CLAUDE.md:3): not markdown: the agent sees it, no rules are compiled from it\n"
        "  absent    gone.md (imported by CLAUDE.md:4): no such file\n"
        "  duplicate AGENTS.md: the same file as CLAUDE.md\n"
        "  read      src/gen/CLAUDE.md (applies to src/gen/)\n\n"
    ) in text
    assert "    enforced, high · src/gen/CLAUDE.md:1 · applies to src/gen/\n" in text
    assert "  CLAUDE.md:4: warning: import of gone.md: no such file; nothing was read\n" in text


def test_uncertain_checks_are_listed_for_review_with_their_line() -> None:
    # "these tools" is resolved through the sentence before: inferred, so it is listed (and asks)
    bundle = compile_sources("# T\n\nIf a tool (pip, spin) is missing, stop. Never install these tools.\n"
                             "- Never read `.env`\n")
    text = render_bundle_text(bundle)
    review = text.split("Review (", 1)[1]
    assert "CLAUDE.md:3: " in review and "pip install spin" in review and "confidence 0.85" in review
    assert "CLAUDE.md:4" not in review  # a backticked path after "read": nothing to review
