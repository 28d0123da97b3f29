"""Rules about what commit messages and PR texts must not say (an AI attribution) or must say (a
disclosure), however the author words them, and on every way a message reaches git or GitHub:
`-m` (once or several times), a heredoc, a `printf` piped to `-F -`, a message file (`-F PATH`,
`--body-file PATH`), `gh pr create/comment/review --body`. Ordinary messages pass."""

from __future__ import annotations

import os

import pytest

from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, decide

#: one rule, worded as authors word it: verbs, word order, formatting, hedges
ATTRIBUTION_BANS = (
    "- Never add AI attribution to commits.\n",
    "- Commit messages must not contain any Claude Code branding.\n",
    "- No AI-generated footers in commits or pull requests.\n",
    "1. Do not include LLM credits in commit messages.\n",
    "> Never put bot signatures in commit messages.\n",
    "**Commits** - do not add assistant watermarks to commit messages.\n",
    "- Don't add Claude attribution lines to commits, please.\n",
    "- DO NOT add Claude Code branding to git commits.\n",
    "## Commits\n\n### Do NOT\n\n- Add AI-generated signatures\n",
    "- No self-promotion in commits or PR descriptions.\n",
    "- Commits must never include anthropic co-authors.\n",
)

ATTRIBUTED = (
    'git commit -m "feat: add the parser" -m "Co-Authored-By: Claude <noreply@anthropic.com>"',
    'git commit -m "fix: the loop\n\n\U0001f916 Generated with [Claude Code](https://claude.com/claude-code)"',
    'printf "feat: add the parser\\n\\nCo-Authored-By: Claude <noreply@anthropic.com>" | git commit -F -',
    'printf "fix: x\\n\\nCo-Authored-By: Claude <noreply@anthropic.com>" | timeout 5 git commit -S -F - >/dev/null',
    "git commit -F- <<'EOF'\nfix: the loop\n\nGenerated with Claude Code\nEOF",
    'git commit --amend -m "fix: the loop" -m "Co-Authored-By: Claude <noreply@anthropic.com>"',
)

ORDINARY = (
    'git commit -m "feat: add the parser"',
    'git commit -m "fix: the loop" -m "Co-Authored-By: Jane Roe <jane@example.com>"',
    'printf "fix: the loop\\n\\nNo more retries." | git commit -F -',
    'git commit -m "docs: mention CLAUDE.md in the readme"',
    "git commit",
)


@pytest.mark.parametrize("policy", ATTRIBUTION_BANS)
@pytest.mark.parametrize("command", ATTRIBUTED)
def test_an_attribution_ban_stops_every_carrier(policy: str, command: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(bash(command), checks=checks).verdict == "deny", (policy, command)


@pytest.mark.parametrize("policy", ATTRIBUTION_BANS)
@pytest.mark.parametrize("command", ORDINARY)
def test_an_attribution_ban_leaves_ordinary_messages(policy: str, command: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(bash(command), checks=checks).verdict == "allow", (policy, command)


#: PR texts: the body, a review, a comment
PR_BAN = "- Never add AI attribution to PRs.\n"
PR_CASES = [
    ('gh pr create --title "Fix the loop" --body "Fixes #4\n\nGenerated with Claude Code"', "deny"),
    ('gh pr comment 4 --body "Done. \U0001f916 Generated with Claude Code"', "deny"),
    ('gh pr review 4 --comment --body "Generated with Claude Code"', "deny"),
    ('gh pr create --title "Fix the loop" --body "Fixes #4"', "allow"),
    ('gh pr comment 4 --body "Fixed in the last push"', "allow"),
]


@pytest.mark.parametrize(("command", "verdict"), PR_CASES)
def test_pr_texts_are_carriers(command: str, verdict: str) -> None:
    checks = compile_sources(f"# Rules\n\n{PR_BAN}")["checks"]
    assert decide(bash(command), checks=checks).verdict == verdict


def test_a_message_file_is_read(tmp_path: "os.PathLike[str]") -> None:
    """`git commit -F PATH` and `gh pr create --body-file PATH`: the agent wrote the file first."""
    checks = compile_sources("# Rules\n\n- Never add AI attribution to commits or PRs.\n")["checks"]
    signed = os.path.join(tmp_path, "msg.txt")
    plain = os.path.join(tmp_path, "plain.txt")
    with open(signed, "w", encoding="utf-8") as handle:
        handle.write("fix: the loop\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n")
    with open(plain, "w", encoding="utf-8") as handle:
        handle.write("fix: the loop\n")
    assert decide(bash(f"git commit -F {signed}"), checks=checks).verdict == "deny"
    assert decide(bash(f"git commit --file={signed}"), checks=checks).verdict == "deny"
    assert decide(bash(f"gh pr create --title t --body-file {signed}"), checks=checks).verdict == "deny"
    assert decide(bash(f"git commit -F {plain}"), checks=checks).verdict == "allow"
    assert decide(bash(f"git commit -F {os.path.join(tmp_path, 'missing.txt')}"), checks=checks).verdict == "allow"


#: a disclosure the message must hold: warned when missing, however the message words it
DISCLOSURES = (
    "- Please always disclose the use of any AI tools in commit messages.\n",
    "- Always disclose AI assistance in PR descriptions and commit messages.\n",
)
DISCLOSURE_CASES = [
    ('git commit -m "Cap the fee"', "warn"),
    ('git commit -m "Cap the fee" -m "AI-assisted: drafted with Claude Code."', "allow"),
    ('git commit -m "Cap the fee" -m "Co-Authored-By: Claude <noreply@anthropic.com>"', "allow"),
]


@pytest.mark.parametrize("policy", DISCLOSURES)
@pytest.mark.parametrize(("command", "verdict"), DISCLOSURE_CASES)
def test_a_required_disclosure_warns_when_missing(policy: str, command: str, verdict: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(bash(command), checks=checks).verdict == verdict, (policy, command)


#: look-alikes: no message check at all (ordinary work must pass, a reviewer named is no text to write)
@pytest.mark.parametrize("policy", (
    "- Include the relevant commit message in replies to Gemini.\n",
    "- Always reply inside the review thread when addressing Copilot feedback.\n",
    "- Credit the original author when porting code.\n",
    "- Keep the license attribution notice in vendored files.\n",
    "- The branding assets live in `assets/brand/`.\n",
))
def test_look_alikes_make_no_message_check(policy: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert not [c for c in checks if c["kind"] == "message"], policy
