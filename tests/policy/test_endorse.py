"""Commands an instruction of the policy prescribes: the effects gate warns on them instead of
asking (engine.ENDORSABLE), and nothing else changes."""

from __future__ import annotations

import pytest

from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, decide

ENDORSED = [
    ("3. **Trigger the release.** Run `gh workflow run release.yml` with the version.", [["gh", "workflow", "run", "release.yml"]]),
    ("- Use `gh api` to create releases if `gh release create` fails, then `gh release upload` for assets.",
     [["gh", "api"], ["gh", "release", "create"], ["gh", "release", "upload"]]),
    ("Run `kubectl apply -f k8s/dev` to update the dev cluster.", [["kubectl", "apply", "-f", "k8s/dev"]]),
]

NOT_ENDORSED = [
    "- Never run `gh workflow run` by hand.",  # a ban
    "- Do not use `gh release create`; the release job does it.",
    "- `gh release create` is run by CI.",  # a description, not an instruction
    "- Use `gh` for GitHub.",  # one word: a program, not a command
    "- Use `gh pr create --fill` instead of the web UI.",  # 'instead' turns it into a substitution
    "```bash\ngh workflow run release.yml\n```",  # code blocks are examples
    "## Run `gh workflow run`",  # a heading
]


@pytest.mark.parametrize(("markdown", "expected"), ENDORSED, ids=[e[0][:40] for e in ENDORSED])
def test_an_instruction_endorses_its_commands(markdown: str, expected: list[list[str]]) -> None:
    settings = compile_sources(f"# Release\n\n{markdown}\n")["settings"]
    assert [e["words"] for e in settings["endorsed_commands"]] == expected
    assert all(e["source"].startswith("CLAUDE.md:") for e in settings["endorsed_commands"])


@pytest.mark.parametrize("markdown", NOT_ENDORSED)
def test_other_sentences_endorse_nothing(markdown: str) -> None:
    assert compile_sources(f"# Release\n\n{markdown}\n")["settings"]["endorsed_commands"] == []


def test_a_command_the_policy_bans_is_never_endorsed() -> None:
    text = "# Release\n\n- Run `gh release create` for releases.\n- Never run `gh release create` yourself.\n"
    assert compile_sources(text)["settings"]["endorsed_commands"] == []


PROCEDURE = "# Release\n\n1. Run `gh workflow run release.yml` with the version.\n"


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("gh workflow run release.yml -f version=1.2.0", "warn"),  # prescribed: warned, not asked
        ("gh workflow run deploy.yml", "ask"),  # another workflow: the gate asks as before
        ("gh pr merge 12", "ask"),
        ("gh repo delete acme/app --yes", "deny"),  # a deny is never lowered
    ],
)
def test_the_effects_gate_warns_on_a_prescribed_command(command: str, verdict: str) -> None:
    bundle = compile_sources(PROCEDURE)
    decision = decide(bash(command), checks=bundle["checks"], endorsed_commands=bundle["settings"]["endorsed_commands"])
    assert decision.verdict == verdict
    if verdict == "warn":
        assert "CLAUDE.md:3 says to run `gh workflow run release.yml`" in decision.findings[0].message
