"""Orderings whose step is a tool use: a file to read or to update before an action.

The wordings are those counted over real files (the corpus, the study sets and 40 public files):
a read "at the start" or "first" (the session's first edit), before edits ("before changing
`core/`", "when working on `crates/cli`"), before a git action; an update before a git action, or
after a change of named files. The look-alikes are sentences of the same files that mention a
file and a moment without ordering a step: a reference, a command step, a ban, an aside."""

from __future__ import annotations

import pytest

from cf_guidance.policy.checkform import short
from cf_guidance.policy.compiler import compile_sources


def shorts(markdown: str) -> list[str]:
    return list(dict.fromkeys(short(check) for check in compile_sources(markdown)["checks"]))


@pytest.mark.parametrize(
    ("text", "checks"),
    [
        # a read step warns however strongly said (a read the session cannot see may have happened)
        # a read at the start of the work: the session's first edit
        ("- At the beginning of every conversation, read `notes/STATUS.md` to see where we are.\n",
         ["warn sequence read notes/STATUS.md -> edit **"]),
        ("- You MUST read `docs/RULES.md` first.\n", ["warn sequence read docs/RULES.md -> edit **"]),
        ("Always read these at the start of each session:\n\n- `plan/ROADMAP.md` — where we go\n- `plan/queue.yaml` — what is next\n",
         ["warn sequence read plan/ROADMAP.md -> edit **", "warn sequence read plan/queue.yaml -> edit **"]),
        ("**Read first (every session):**\n\n1. `docs/intro.md` — how we work\n",
         ["warn sequence read docs/intro.md -> edit **"]),
        ("- Read these first: `lib/README.md`, `tools/README.md`\n",
         ["warn sequence read lib/README.md tools/README.md -> edit **"]),
        # a directory's own instructions are for the work in it
        ("- Working in `mobile/`: read `mobile/AGENTS.md` first\n", ["warn sequence read mobile/AGENTS.md -> edit mobile/**"]),
        # before edits: of the paths that follow, or of any file
        ("- Before starting any code change, read `.claude/skills/tdd.md` and follow its steps.\n",
         ["warn sequence read .claude/skills/tdd.md -> edit **"]),
        ("- Always review `docs/db.md` before touching `migrations/`\n", ["warn sequence read docs/db.md -> edit migrations/**"]),
        ("- Before writing shared logic (caching, retries), read `lib/base.py`.\n", ["warn sequence read lib/base.py -> edit **"]),
        ("- **You must** read `ANALYTICS.md` before adding product analytics.\n",
         ["warn sequence read ANALYTICS.md -> edit **"]),  # a kind of change no edit shows: a warning
        ("- `docs/render.md` — Read before touching the renderer.\n", ["warn sequence read docs/render.md -> edit **"]),
        # before a git action or a command
        ("- Read `CONTRIBUTING.md` before opening a pull request.\n", ["warn sequence read CONTRIBUTING.md -> gh pr create"]),
        # an update before a git action, again after each one
        ("- Update `CHANGELOG.md` before every commit.\n", ["warn sequence edit CHANGELOG.md -> git commit"]),
        ("- Always record the results in `RESULTS.md` before committing.\n", ["warn sequence edit RESULTS.md -> git commit"]),
        ("- You must update STATUS.md before committing.\n", ["deny sequence edit STATUS.md -> git commit"]),
        ("- Summarize the scores (model, metric, params) in `RESULTS.md` before pushing.\n",
         ["warn sequence edit RESULTS.md -> git push"]),
        ("1. **CHANGELOG updates** are required before every commit\n", ["deny sequence edit CHANGELOG* -> git commit"]),
        # an update after a change of named files
        ("- When adding or modifying options in `src/config.py`, update `docs/config.md` to match.\n",
         ["warn sequence edit docs/config.md -> git commit after src/config.py"]),
        ("- Update `docs/cli.md` whenever `src/cli.py` changes.\n", ["warn sequence edit docs/cli.md -> git commit after src/cli.py"]),
    ],
)
def test_steps_read_from_real_wordings(text: str, checks: list[str]) -> None:
    assert shorts("# Project\n\n" + text) == checks


@pytest.mark.parametrize(
    "text",
    [
        "- Read `docs/architecture.md` for background.\n",  # no moment: a reference
        "- See `docs/SPEC.md` for the full specification.\n",
        "- Review the diff before committing.\n",  # no file
        "- Read the relevant docs first.\n",
        "- Update `CHANGELOG.md` when you cut a release.\n",  # no moment a tool call shows
        "- Never update `CHANGELOG.md` by hand.\n",  # a ban
        "- Do not read `secrets/` before asking.\n",
        "- The CLI reads `config.toml` first.\n",  # a description
        "- We update `CHANGELOG.md` before each release.\n",
        "- ALWAYS update `TODO.md` right after finishing a task (not only before committing).\n",  # the moment is an aside
        "- Update the status log first.\n",  # an update at the start: no edit shows which work it is for
        "- Plans are written to `plans/` and reviewed before implementing.\n",
        "- Read the Next.js docs before changing routing code.\n",  # a product's name is no file
        "- Always review the features/tasks list before editing.\n",  # a slash in prose is no path
    ],
)
def test_look_alikes_order_no_step(text: str) -> None:
    assert [c for c in shorts("# Project\n\n" + text) if c.split()[1:3] in (["sequence", "read"], ["sequence", "edit"])] == []


def test_a_command_step_stays_a_command_step() -> None:
    found = shorts("# Project\n\n- Run `tools/check.sh` before committing.\n")
    assert len(found) == 1 and found[0].split()[1:] == ["sequence", "check.sh", "->", "git", "commit"]
