"""Git and workflow rules as authors write them: each form with the checks it must give, and the
look-alikes that must give none (an everyday commit, push or branch must stay free).

The sentences are generic wording of forms read in public CLAUDE.md files (issue 10); the lexicon
entries carry one example each, these tables the variants.
"""

from __future__ import annotations

import pytest

from cf_guidance.policy.checkform import short
from cf_guidance.policy.compiler import compile_sources
from cf_guidance.policy.lexicon.nouns import COMMIT_CONVENTIONS

GITMOJI = [g for names, marks in COMMIT_CONVENTIONS if "gitmoji" in names for g in marks]
ATTRIBUTION = ("deny message generated with | created with | \U0001f916 generated | claude.com/claude-code | claude.ai/code | "
               "co-authored-by: claude")


def shorts(markdown: str) -> list[str]:
    bundle = compile_sources(markdown if markdown.endswith("\n") else markdown + "\n")
    return list(dict.fromkeys(short(check) for check in bundle["checks"]))


#: what a ban on skipping the hooks gives besides --no-verify: the hook managers' off switches
HOOK_SWITCHES = "deny command HUSKY=0 | HUSKY_SKIP_HOOKS=1 | SKIP=* | LEFTHOOK=0 git commit"

FORMS = [
    # the git hooks run inside the commit: requiring them bans skipping them, it orders nothing
    ("- NEVER commit without running pre-commit checks", ["deny command git commit --no-verify", HOOK_SWITCHES]),
    ("- Never commit without running the pre-commit hooks", ["deny command git commit --no-verify", HOOK_SWITCHES]),
    ("- Never push without running the git hooks", ["deny command git commit --no-verify", HOOK_SWITCHES]),
    ("- Always run the pre-commit hooks before committing", ["deny command git commit --no-verify", HOOK_SWITCHES]),
    ("- Never commit without running `pre-commit run --all-files`", ["deny sequence pre-commit run -> git commit"]),
    # the state of the work: the task that shows it, first; a warning when one word names the state,
    # the ban's force when the state names the failing task ("with failing tests", "with lint errors")
    ("- Never commit untested code", ["warn sequence <test> -> git commit"]),
    ("- Don't push code that fails the tests", ["deny sequence <test> -> git push"]),
    ("- Never push changes with failing tests", ["deny sequence <test> -> git push"]),
    ("- Never commit code with lint errors", ["deny sequence <lint> -> git commit"]),
    ("- Never push unformatted code", ["warn sequence <format> -> git push"]),
    ("- Never commit code that doesn't compile", ["deny sequence <build> -> git commit"]),
    # "no" before a text for messages
    ("- No AI attribution in commits or PRs", [ATTRIBUTION]),
    ('- No "Co-Authored-By" lines', ["deny message co-authored-by"]),
    ("- No co-author lines in commit messages", ["deny message co-authored-by"]),
    # attribution named in words
    ("- Never include the Claude signature block in commits", [ATTRIBUTION]),
    ("- Do not mention AI assistance in commit messages", [ATTRIBUTION]),
    ("- Don't add Claude attribution to PR descriptions", [ATTRIBUTION]),
    # "X but do not Y"
    ("- Commit your work but do not push", ["deny command git push"]),
    ("- Commit locally but never push", ["deny command git push"]),
    ("- AI agents commit but do not push", ["deny command git push"]),
    # working on a branch is committing and pushing to it
    ("- Never work directly on main", ["deny target commit main", "deny target push main"]),
    ("- Do not make changes directly on `master`", ["deny target commit master", "deny target push master"]),
    ("- Never develop on the main branch", ["deny target commit main", "deny target push main"]),
    # a person's go-ahead after "when" / "until"
    ("- Only push when I tell you to", ["ask command git push"]),
    ("- Only commit when the user says so", ["ask command git commit"]),
    ("- Do not merge PRs until the user has reviewed them", ["ask command gh pr merge"]),
    # the options every commit needs
    ("- Always commit with `git commit -s`", ["warn arguments git commit needs -s"]),
    ("- Always use `git commit -S` for commits", ["warn arguments git commit needs -S"]),
    ("- Use `git commit --signoff` for every commit", ["warn arguments git commit needs --signoff"]),
    # rewriting published commits: held once the session pushed them (the gate reads the history)
    ("- Never amend commits that have been pushed", ["deny command git commit --amend once pushed"]),
    ("- Never rebase a shared branch", ["deny command git rebase once pushed"]),
    ("- Don't squash commits that were already pushed unless asked", ["ask command git rebase -i once pushed"]),
    ("- Never amend commits", ["deny command git commit --amend"]),
    # where text goes as the subject: the text the verb names there
    ("- Commits must not reference Claude", ["ask message claude"]),
    ("- Commit messages must never include AI attribution", [ATTRIBUTION]),
    ('- PR descriptions must not contain "Generated with Claude Code"', ["deny message generated with claude code"]),
    ("- Commit messages must not contain Co-Authored-By trailers", ["deny message co-authored-by"]),
    # remote branches are deleted by a push; local cleanup stays free
    ("- Never delete remote branches", ["deny command git push --delete"]),
    ("- Don't delete branches on the remote", ["deny command git push --delete"]),
    # a message convention named in words: warned when the message holds none of its marks
    ("- Use gitmoji in commit messages", ["warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts " + " | ".join(GITMOJI)]),
    # branch names: any of the forms listed
    ("- Branch naming: `feature/<name>` or `fix/<name>`", ["warn branch feature/* fix/*"]),
    ("- All branches must be prefixed: `feat/`, `fix/`, `chore/`, `docs/`", ["deny branch feat/* fix/* chore/* docs/*"]),
    ("- Branch names should follow `feat/<desc>` or `fix/<desc>`", ["warn branch feat/* fix/*"]),
    ("- Branch names must start with `claude/`", ["deny branch claude/*"]),
]


@pytest.mark.parametrize(("markdown", "expected"), FORMS, ids=[m for m, _ in FORMS])
def test_git_rule_forms(markdown: str, expected: list[str]) -> None:
    assert shorts(markdown) == expected


LOOK_ALIKES = [
    # work in a state only the agent can judge: advice, not a ban on every commit
    "- NEVER commit code you don't fully understand",
    "- Never commit broken code",
    "- Don't push half-finished work",
    # descriptions, and a "but" after a description
    "- The pre-commit hooks run before every commit",
    "- The release job tags builds but never pushes",
    "- CI runs the tests but does not deploy",
    # "no" before a text that is not a message's
    '- No "magic numbers" in the code',
    "- No tests exist for the legacy importer",
    # a situation after "when", not a person's go-ahead
    "- Only push when the build is green",
    # working on something other than a branch
    "- Never work on more than one issue at a time",
    # emoji in general, or banned
    "- Use a single emoji in the PR description body",
    "- No gitmoji in commit messages",
    # a subject that is not where text goes
    "- The tests must not contain hardcoded ports",
    "- Commit hooks must not print secrets",
    # a commit form without options of its own, examples of names
    "- Use `git commit -m` with a short message",
    "- Use descriptive branch names (e.g., `feature/add-auth`, `fix/webhook-error`)",
]


@pytest.mark.parametrize("markdown", LOOK_ALIKES)
def test_git_look_alikes_compile_to_nothing(markdown: str) -> None:
    assert shorts(markdown) == []


def test_work_state_next_to_a_path_keeps_the_path_ban() -> None:
    assert shorts("- Never commit `dist/` or broken code") == ["deny stage dist/**"]
