"""Commands an instruction of the policy prescribes: the effects gate warns on them instead of
asking (engine.ENDORSABLE), and nothing else changes. Imported files an instruction tells the
agent to keep up to date: the protected-paths gate warns on changing them instead of asking."""

from __future__ import annotations

from pathlib import Path

import pytest

from cf_guidance.engine import evaluate
from cf_guidance.event import normalise
from cf_guidance.policy.compiler import compile_project, compile_sources
from tests.gates.support import bash, decide, home

ENDORSED = [
    ("3. **Trigger the release.** Run `gh workflow run release.yml` with the version.", [["gh", "workflow", "run", "release.yml"]]),
    ("- Use `gh api` to create releases if `gh release create` fails, then `gh release upload` for assets.",
     [["gh", "api"], ["gh", "release", "create"], ["gh", "release", "upload"]]),
    ("Run `kubectl apply -f k8s/dev` to update the dev cluster.", [["kubectl", "apply", "-f", "k8s/dev"]]),
    # a verb the command itself names: that command, not the others of the sentence
    ("4. Merge the PR with `gh pr merge --squash` once CI passes.", [["gh", "pr", "merge", "--squash"]]),
    ("- Merge: `gh pr merge --squash --delete-branch`", [["gh", "pr", "merge", "--squash", "--delete-branch"]]),
]

NOT_ENDORSED = [
    "- Never run `gh workflow run` by hand.",  # a ban
    "- Do not use `gh release create`; the release job does it.",
    "- `gh release create` is run by CI.",  # a description, not an instruction
    "- Use `gh` for GitHub.",  # one word: a program, not a command
    "- Use `gh pr create --fill` instead of the web UI.",  # 'instead' turns it into a substitution
    "```bash\ngh workflow run release.yml\n```",  # code blocks are examples
    "## Run `gh workflow run`",  # a heading
    "- Merge only after `gh pr checks` passes.",  # the verb is not what the command does
    "- Open the PR page and check `gh pr view` output.",
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


# --- imported files the policy tells the agent to keep up to date ---------------------------

IMPORTING = "# Project\n\nSee @docs/OVERVIEW.md for the architecture.\n\n"

UPKEPT = [
    "- Keep OVERVIEW.md current when features change.",
    "- Update `docs/OVERVIEW.md` when you add a service.",
    "- Always keep docs/OVERVIEW.md up to date.",
    "1. Add each new service to `OVERVIEW.md`.",
    "Please keep `docs/OVERVIEW.md` in sync with the code.",
]

NOT_UPKEPT = [
    "- Keep OVERVIEW.md short.",  # "keep" without a state that asks for changes
    "- Never update OVERVIEW.md.",  # a ban
    "- Do not edit `docs/OVERVIEW.md`; the architects own it.",
    "- OVERVIEW.md is kept up to date by the docs team.",  # a description
    "- Update `docs/api.md` when the API changes.",  # another file, not imported
    "```\nupdate docs/OVERVIEW.md\n```",  # a code block is an example
]


def _project(tmp_path: Path, rules: str, overview: str = "# Overview\n\nThree services.\n") -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "OVERVIEW.md").write_text(overview, encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text(IMPORTING + rules + "\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("rules", UPKEPT)
def test_an_instruction_to_keep_an_imported_file_current_endorses_it(tmp_path: Path, rules: str) -> None:
    root = _project(tmp_path, rules)
    endorsed = compile_project(root)["settings"]["endorsed_files"]
    assert [(e["path"], e["source"]) for e in endorsed] == [(str(root / "docs" / "OVERVIEW.md"), "CLAUDE.md:5")]


@pytest.mark.parametrize("rules", NOT_UPKEPT)
def test_other_sentences_endorse_no_file(tmp_path: Path, rules: str) -> None:
    assert compile_project(_project(tmp_path, rules))["settings"]["endorsed_files"] == []


def test_an_imported_file_with_rules_of_its_own_is_never_endorsed(tmp_path: Path) -> None:
    root = _project(tmp_path, "- Keep OVERVIEW.md current.", overview="# Overview\n\n- Never run `make deploy`.\n")
    assert compile_project(root)["settings"]["endorsed_files"] == []


def test_a_policy_file_is_never_endorsed(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "AGENTS.md").write_text("# Agents\n\nContext only.\n", encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# Project\n\n@docs/AGENTS.md\n\n- Keep `docs/AGENTS.md` up to date.\n", encoding="utf-8")
    assert compile_project(tmp_path)["settings"]["endorsed_files"] == []


@pytest.mark.parametrize(
    ("call", "verdict"),
    [
        (("Edit", "docs/OVERVIEW.md"), "warn"),  # the documented upkeep: warned, naming the line
        (("Bash", "sed -i 's/three/four/' docs/OVERVIEW.md"), "warn"),
        (("Bash", "rm docs/OVERVIEW.md"), "ask"),  # keeping a file current is no leave to delete it
        (("Bash", "mv docs/OVERVIEW.md docs/old.md"), "ask"),
        (("Edit", "CLAUDE.md"), "ask"),  # the policy file itself still asks
    ],
)
def test_the_protected_paths_gate_warns_on_the_documented_upkeep(tmp_path: Path, call: tuple[str, str], verdict: str) -> None:
    root = _project(tmp_path, "- Keep OVERVIEW.md current when features change.")
    bundle = compile_project(root)
    tool_name, target = call
    payload = {"command": target} if tool_name == "Bash" else {"file_path": target, "old_string": "a", "new_string": "b"}
    event = normalise({"tool_name": tool_name, "tool_input": payload, "cwd": str(root)}, project_dir=str(root))
    with home():
        decision = evaluate(bundle, event)
    assert decision.verdict == verdict
    if verdict == "warn":
        assert "CLAUDE.md:5 says to keep it up to date" in decision.findings[0].message
