"""Everyday work the compiled rules must leave alone, beside what they must still stop.

Each family is a way real files write rules whose structure the extractor once read too broadly:
a list's lead-in line compiled as a rule of its own ("**Forbidden npm operations:**" over
`npm publish`: all of npm stopped), a parent bullet's situation dropped ("If a migration failed:"
over "don't push again": every push stopped), a server to keep running read as a step before the
commit, an aside naming the alternative ("(use `.env.example`)") read as one more banned path, and
a ban whose object or situation could not be read that fell back to its bare verb ("never commit
binaries (DLLs, EXEs)": every commit stopped). A false positive on ordinary work teaches users to
switch the guard off, so each case comes with what it must stop and what it must let through."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance.event import Event
from cf_guidance.gates import sequence
from cf_guidance.gates._base import GateContext
from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, decide

FORBIDDEN_NPM = "**Forbidden npm commands:**\n\n- `npm publish`\n- `npm unpublish`\n"
FORBIDDEN_GIT = "Forbidden git operations:\n\n- `git push --force`\n- `git reset --hard`\n"
THESE_GIT = "NEVER run these git commands:\n\n- `git reset --hard`\n- `git clean -fdx`\n"
INLINE = "- **Forbidden npm commands:** `npm publish`, `npm unpublish`.\n"
SUCH_AS = "Never run destructive git operations such as:\n\n- `git push --force`\n"
PROHIBITED_HEADING = "## Prohibited git operations\n\n- `git push --force`\n- `git rebase -i`\n"
#: a ban verb whose colon hands it a list that opens with words the reader does not know
NEVER_COMMIT_LIST = "- **NEVER commit**: ROM files, build artifacts, `.wasm` files\n"
#: a lead-in whose items name nothing a check holds: its own check only warns
VAGUE_ITEMS = "Never run these npm commands:\n\n- the ones that publish\n- the ones that deprecate\n"
MIGRATION = "## Database\n\nIf a migration failed:\n\n- don't just fix the file and push again\n- roll back first\n"
SECRETS = "- If secrets were committed by accident:\n  - never simply delete them and commit again\n  - rotate the key\n"
WHEN_COMMITTING = "When committing:\n\n- never use `--no-verify`\n"
ENV_ASIDE = "## Never commit these files\n\n- `secrets.yaml` (commit `secrets.sample.yaml` instead)\n" \
            "- `.env` (use `.env.example` for defaults)\n"
BINARIES = "- Never commit binaries (DLLs, EXEs, etc.)\n"
ARTIFACTS = "- Never commit build artifacts (DLLs, EXEs, etc.)\n"
IMAGES = "- Do not commit images or archives.\n"
LOCAL_PATH = "- Never push with configs that reference a local path.\n"
LARGE = "- Never commit large files.\n"
WHOLE = "- Never push your changes.\n"

CASES = [
    # (A) a list's lead-in gives its items its force; it bans nothing more of its own
    (FORBIDDEN_NPM, "npm publish", "deny"),
    (FORBIDDEN_NPM, "npm unpublish", "deny"),
    (FORBIDDEN_NPM, "npm install", "allow"),
    (FORBIDDEN_NPM, "npm run build", "allow"),
    (FORBIDDEN_GIT, "git push --force origin feat", "deny"),
    (FORBIDDEN_GIT, "git reset --hard HEAD~1", "deny"),
    (FORBIDDEN_GIT, "git commit -m 'fix: x'", "allow"),
    (THESE_GIT, "git clean -fdx", "deny"),
    (THESE_GIT, "git pull --rebase", "allow"),
    (THESE_GIT, "git commit -m 'fix: x'", "allow"),
    (INLINE, "npm publish", "deny"),
    (INLINE, "npm ci", "allow"),
    (SUCH_AS, "git push --force origin feat", "deny"),
    (SUCH_AS, "git merge feat", "allow"),
    (PROHIBITED_HEADING, "git rebase -i HEAD~3", "deny"),
    (PROHIBITED_HEADING, "git push origin feat", "allow"),
    (PROHIBITED_HEADING, "git status", "allow"),
    (VAGUE_ITEMS, "npm install", "warn"),
    # (K) a parent's situation holds for its children: no stop on every push or commit
    (MIGRATION, "git push origin feat", "warn"),
    (SECRETS, "git commit -m 'fix: x'", "allow"),
    (WHEN_COMMITTING, "git commit --no-verify -m x", "deny"),
    (WHEN_COMMITTING, "git commit -m x", "allow"),
    # (I) an aside that names the alternative: never a banned object
    (ENV_ASIDE, "git add secrets.yaml", "deny"),
    (ENV_ASIDE, "git add secrets.sample.yaml", "allow"),
    (ENV_ASIDE, "git add .env", "deny"),
    (ENV_ASIDE, "git add .env.example", "allow"),
    (ENV_ASIDE, "git commit -m 'fix: x'", "allow"),
    # (B) kinds of files are staged paths; an unread object or situation never bans the bare verb
    (BINARIES, "git add out/app.dll", "deny"),
    (BINARIES, "git add tools/setup.exe", "deny"),
    (BINARIES, "git add src/app.cs", "allow"),
    (BINARIES, "git commit -m 'fix: x'", "allow"),
    (ARTIFACTS, "git add out/app.dll", "ask"),
    (ARTIFACTS, "git commit -m 'fix: x'", "allow"),
    (IMAGES, "git add docs/shot.png", "deny"),
    (IMAGES, "git add release.zip", "deny"),
    (IMAGES, "git add docs/guide.md", "allow"),
    (LOCAL_PATH, "git push origin feat", "warn"),
    (LARGE, "git commit -m 'fix: x'", "allow"),
    (WHOLE, "git push origin feat", "deny"),
    # (M) the colon after the ban's verb hands it its objects: the list, never the bare verb
    (NEVER_COMMIT_LIST, "git add dist/gameboy.wasm", "deny"),
    (NEVER_COMMIT_LIST, "git add src/cpu.c", "allow"),
    (NEVER_COMMIT_LIST, "git commit -m 'fix: x'", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "verdict"), CASES, ids=[f"{c[1]}->{c[2]}" for c in CASES])
def test_everyday_decision(policy: str, command: str, verdict: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(bash(command), checks=checks).verdict == verdict


#: (G) a checklist's server to keep running is no step before the commit; the real steps still are
CHECKLIST = "Before any commit:\n\n- run `bundle exec rspec`\n  - (keep `rails server` running)\n" \
            "- make sure `npm run dev` is running\n"


def _h(command: str) -> dict[str, Any]:
    return {"command": command, "ok": True, "seq": None, "ts": ""}


@pytest.mark.parametrize(("history", "expected"), [([], ["warn"]), (["bundle exec rspec"], [])])
def test_servers_are_no_steps(history: list[str], expected: list[str]) -> None:
    bundle = {"root": "/p", "checks": compile_sources(f"# Rules\n\n{CHECKLIST}")["checks"]}
    event = Event(tool="Bash", command="git commit -m x", session_id="s", cwd="/p")
    found = sequence.check(GateContext(event, bundle, extras={"history": [_h(c) for c in history]}))
    assert sorted({f.verdict for f in found}) == expected


#: (L) an ordering takes its text's strength: the first commit of a session, nothing run yet, is
#: warned by a reminder ("always", a plain imperative, "make sure", the work declared done) and
#: stopped only where the text says the step is hard ("must", "mandatory", "only after", "never
#: ... without")
STRENGTHS = [
    ("- Always run `make test` before committing", "git commit -m x", ["warn"]),
    ("- Run `make lint` before pushing", "git push origin feat", ["warn"]),
    ("- Make sure to run `make check` before committing", "git commit -m x", ["warn"]),
    ("Before committing, run:\n\n```bash\nmake fmt\n```\n", "git commit -m x", ["warn"]),
    ("- Never mark a task complete without running `make test`", "git commit -m x", ["warn"]),
    ("- `make test` must pass before committing", "git commit -m x", ["deny"]),
    ("- Running `make check` is mandatory before every commit", "git commit -m x", ["deny"]),
    ("- Only push after running `make e2e`", "git push origin feat", ["deny"]),
    ("- Never commit without running `make fmt`", "git commit -m x", ["deny"]),
    # a ban that says what goes wrong otherwise is no force of the ordering
    ("- Before committing: run `make fmt` (else the linter can't parse the files)", "git commit -m x", ["warn"]),
    # the step done: nothing to say, whatever the strength
    ("- Always run `make test` before committing", "make test && git commit -m x", []),
    ("- `make test` must pass before committing", "make test && git commit -m x", []),
]


@pytest.mark.parametrize(("policy", "command", "expected"), STRENGTHS, ids=[f"{p[:40]}->{e}" for p, _, e in STRENGTHS])
def test_ordering_takes_the_texts_strength(policy: str, command: str, expected: list[str]) -> None:
    bundle = {"root": "/p", "checks": compile_sources(f"# Rules\n\n{policy}\n")["checks"]}
    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    found = sequence.check(GateContext(event, bundle, extras={"history": []}))
    assert sorted({f.verdict for f in found}) == expected
