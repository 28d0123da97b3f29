from __future__ import annotations

import os
from pathlib import Path

import pytest

from cf_guidance.gates import policy_rules
from cf_guidance.event import normalise
from cf_guidance.gates._base import STANDARD, GateContext
from tests.gates.support import bash, codes, home, run_gate, tool

CHECKS = [
    {"id": "R1#1", "rule": "R1", "kind": "command", "verdict": "deny", "pattern": ["git", "push", "--force"], "message": "no force", "source": "CLAUDE.md:3"},
    {"id": "R2#1", "rule": "R2", "kind": "command", "verdict": "ask", "pattern": ["terraform", "apply"], "message": "ask", "source": "CLAUDE.md:4"},
    {"id": "R3#1", "rule": "R3", "kind": "command", "verdict": "warn", "pattern": ["npm", "install", "*"], "message": "warn", "source": "CLAUDE.md:5"},
    {"id": "R4#1", "rule": "R4", "kind": "write", "verdict": "deny", "pattern": "migrations/**", "message": "m", "source": "CLAUDE.md:6"},
    {"id": "R5#1", "rule": "R5", "kind": "read", "verdict": "deny", "pattern": "private/**", "message": "p", "source": "CLAUDE.md:7"},
    {"id": "R6#1", "rule": "R6", "kind": "tool", "verdict": "deny", "pattern": "mcp__jira__*", "message": "t", "source": "CLAUDE.md:8"},
    {"id": "R7#1", "rule": "R7", "kind": "command", "verdict": "bogus", "pattern": ["make", "nuke"], "message": "x", "source": "CLAUDE.md:9"},
    {"id": "R8#1", "rule": "R8", "kind": "sequence", "verdict": "deny", "before": ["make", "test"], "then": ["git", "commit"], "message": "s"},
    {"id": "R9#1", "rule": "R9", "kind": "command", "verdict": "deny", "pattern": ["npx"], "message": "no npx", "source": "CLAUDE.md:10"},
    {"id": "R10#1", "rule": "R10", "kind": "command", "verdict": "deny", "pattern": ["sudo"], "message": "no sudo", "source": "CLAUDE.md:11"},
    {"id": "R11#1", "rule": "R11", "kind": "command", "verdict": "deny", "pattern": ["poetry", "run"], "message": "no", "source": "CLAUDE.md:12"},
    {"id": "R12#1", "rule": "R12", "kind": "command", "verdict": "deny", "pattern": ["rails"], "except": [["bin/rails", "*"]],
     "message": "use bin/rails", "source": "CLAUDE.md:13"},
]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (bash("git push --force origin main"), ["R1:deny"]),
        (bash("git push origin main --force"), ["R1:deny"]),
        (bash("bash -c 'git push --force'"), ["R1:deny"]),
        (bash("git push --force-with-lease"), []),
        (bash("echo 'git push --force'"), []),
        (bash("terraform apply -auto-approve"), ["R2:ask"]),
        (bash("npm install"), ["R3:warn"]),
        (bash("echo x > migrations/1.sql"), ["R4:deny"]),
        (tool("Edit", file_path="migrations/2.py", old_string="a", new_string="b"), ["R4:deny"]),
        (tool("Read", file_path="private/a.md"), ["R5:deny"]),
        (bash("cat private/a.md"), ["R5:deny"]),
        (tool("mcp__jira__create", summary="x"), ["R6:deny"]),
        (bash("make nuke"), ["R7:deny"]),
        (bash("git commit -m x"), []),
        # a ban on a wrapper holds for what it runs: `npx tsc` runs tsc, but under npx
        (bash("npx tsc --noEmit"), ["R9:deny"]),
        (bash("npx -y prettier --write ."), ["R9:deny"]),
        (bash("sudo apt-get install jq"), ["R10:deny"]),
        (bash("poetry run pytest"), ["R11:deny"]),
        (bash("poetry install"), []),
        (bash("npm exec tsc"), []),
        (bash("echo npx tsc"), []),
        # an exception whose first word is a path: the program run by that path (the project's launcher)
        (bash("rails server"), ["R12:deny"]),
        (bash("bin/rails server"), []),
        (bash("./bin/rails db:migrate"), []),
        (bash("other/bin/rails server"), ["R12:deny"]),
    ],
)
def test_checks(event, expected) -> None:  # type: ignore[no-untyped-def]
    assert codes(policy_rules, event, checks=CHECKS) == expected


def test_finding_names_rule_and_source() -> None:
    from tests.gates.support import run_gate

    (found,) = run_gate(policy_rules, bash("git push -f --force"), checks=CHECKS)
    assert found.rule == "R1" and found.message == "no force (CLAUDE.md:3)" and found.segment == "git push -f --force"


# Many checks on one program, filed under different words: a command meets each check whose
# words it holds, and findings come in bundle order whatever word filed them.
MANY = [
    {"id": "G1#1", "rule": "G1", "kind": "command", "verdict": "warn", "pattern": ["git", "push", "origin", "main"], "message": "a"},
    {"id": "G2#1", "rule": "G2", "kind": "command", "verdict": "deny", "pattern": ["git", "push", "*"], "message": "b"},
    {"id": "G3#1", "rule": "G3", "kind": "command", "verdict": "ask", "pattern": ["git", "push", "origin", "release"], "message": "c"},
    {"id": "G4#1", "rule": "G4", "kind": "command", "verdict": "deny", "pattern": ["git", "--force"], "message": "d"},
    {"id": "G5#1", "rule": "G5", "kind": "command", "verdict": "warn", "pattern": ["git", "push", "origin", "main"], "message": "e"},
    {"id": "G6#1", "rule": "G6", "kind": "command", "verdict": "deny", "pattern": ["g*", "clean"], "message": "f"},
]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git push origin main --force", ["G1:warn", "G2:deny", "G4:deny", "G5:warn"]),
        ("git push origin release", ["G2:deny", "G3:ask"]),
        ("git main origin push", ["G2:deny"]),  # positional order still matters once filed
        ("git status", []),
        ("git clean -fd", ["G6:deny"]),
        ("git --force clean", ["G4:deny", "G6:deny"]),
    ],
)
def test_many_checks_on_one_program(command: str, expected: list[str]) -> None:
    assert codes(policy_rules, bash(command), checks=MANY) == expected


# --- check kinds the prose extractor writes (docs/policy-grammar.md, "The bundle") -------------

def _check(n: int, kind: str, verdict: str = "deny", **fields):  # type: ignore[no-untyped-def]
    return {"id": f"K{n}#1", "rule": f"K{n}", "kind": kind, "verdict": verdict, "message": "m", "source": f"CLAUDE.md:{n}", **fields}


KINDS = [
    _check(1, "command", pattern=["bun", "test"], anchor=True, values=["--cwd"], **{"except": [["USE_SYSTEM_BUN=1", "bun", "test", "*"]]}),
    _check(2, "command", pattern=["pip", "install", "spin"], anchor=True, also=[["python", "-m", "pip", "install", "spin"]],
           values=["-r", "-e"]),
    _check(3, "command", pattern=["bun", "bd"], anchor=True, wrapped="timeout"),
    _check(4, "message", pattern=["git", "commit"], anchor=True, also=[["gh", "pr", "create"]], phrases=["co-authored-by", "generated with claude code"]),
    _check(5, "arguments", verdict="warn", pattern=["git", "commit"], anchor=True, requires=[["-S", "--gpg-sign"], ["--signoff", "-s"]],
           values=["-m", "-c"]),
    _check(6, "branch", pattern="claude/*"),
    _check(7, "target", pattern="main", action="push"),
    _check(8, "target", verdict="ask", pattern="main", action="merge"),
    _check(9, "stage", pattern=[".env", ".env.local"]),
    _check(10, "create", verdict="ask", pattern="*.md"),
    _check(11, "variable", pattern=["NPM_TOKEN"]),
    _check(12, "command", verdict="warn", pattern=["reset-db.sh"], anchor=True),
    _check(13, "message", verdict="warn", pattern=["gh", "pr", "create"], anchor=True, phrases=["claude"], absent=True),
    _check(14, "command", pattern=["pytest"], anchor=True, via=["uv"]),
    _check(15, "message", pattern=["git", "commit"], anchor=True, phrases=["copilot"]),
]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        # anchored: the positional words are the leading ones; a prescribed instance is exempt
        (bash("bun test test/a.test.ts"), ["K1:deny"]),
        (bash("cd test && bun test a.test.ts"), ["K1:deny"]),
        (bash("bun bd test test/a.test.ts"), []),
        (bash("USE_SYSTEM_BUN=1 bun test test/a.test.ts"), []),
        (bash("bun --cwd x test"), ["K1:deny"]),
        # equivalents; an option's value is not a package
        (bash("python -m pip install spin"), ["K2:deny"]),
        (bash("pip install -r spin"), []),
        # the timeout wrapper or the tool's timeout parameter
        (bash("timeout 600 bun bd"), ["K3:deny"]),
        (tool("Bash", command="bun bd", timeout=600000), ["K3:deny"]),
        (bash("bun bd"), []),
        # message text, heredocs and markdown links included
        (bash('git commit -m "fix" -m "Co-Authored-By: Claude <noreply@anthropic.com>"'), ["K4:deny", "K5:warn"]),
        (bash('gh pr create --title t --body "x\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)"'), ["K4:deny"]),
        (bash("gh pr view 12"), []),
        (bash('gh pr create --title t --body "plain"'), ["K13:warn"]),  # a required text missing
        (bash('gh pr create --title t --body "Written with Claude."'), []),
        # a phrase is words of their own: a file named after it (`COPILOT.md`, `docs/copilot`) is no mention
        (bash('git commit -s -S -m "Refactor with Copilot\'s help"'), ["K15:deny"]),
        (bash('git commit -s -S -m "copilot: drop the old hook"'), ["K15:deny"]),
        (bash('git add COPILOT.md && git commit -s -S -m "Document setup in COPILOT.md"'), []),
        (bash('git commit -s -S -m "Move docs/copilot/setup"'), []),
        (bash('git commit -s -S -m "Rename copilotless mode"'), []),
        # required options (any spelling, short clusters)
        (bash("git commit -S --signoff -m x"), []),
        (bash("git commit -sS -m x"), []),
        (bash("git commit --signoff -m x"), ["K5:warn"]),
        # new branch names
        (bash("git checkout -b fix-leak"), ["K6:deny"]),
        (bash("git switch -c claude/fix-leak"), []),
        (bash("git branch -D old"), []),
        (bash("git checkout main"), []),
        # pushes and merges to a branch (a push that sets it from another branch merges into it;
        # a push of the local main sends what was merged there, where the merge was the call to stop)
        (bash("git push origin main"), ["K7:deny"]),
        (bash("git push origin HEAD:main"), ["K7:deny", "K8:ask"]),
        (bash("git push -u origin feat/x"), []),
        (bash("git checkout main && git merge feat/x"), ["K8:ask"]),
        (bash("git merge feat/x"), []),
        # staging files
        (bash("git add -f .env.local"), ["K9:deny"]),
        (bash("git add src/app.py"), []),
        # creating files (README.md does not exist under the test root)
        (tool("Write", file_path="NOTES.md", content="x"), ["K10:ask"]),
        (tool("Edit", file_path="NOTES.md", old_string="a", new_string="b"), []),
        (bash("echo x > NOTES.md"), ["K10:ask"]),
        # printing a variable
        (bash("echo $NPM_TOKEN"), ["K11:deny"]),
        (bash("echo ${NPM_TOKEN:-x}"), ["K11:deny"]),
        (bash("npm config get registry"), []),
        # a script run through an interpreter is the script
        (bash("bash scripts/reset-db.sh --yes"), ["K12:warn"]),
        (bash("./scripts/reset-db.sh"), ["K12:warn"]),
        (bash("cat scripts/reset-db.sh"), []),
        # a program banned bare, run under the runner the document prescribes
        (bash("pytest tests/"), ["K14:deny"]),
        (bash("uv run --project core pytest tests/"), []),
        (bash("poetry run pytest"), ["K14:deny"]),
    ],
)
def test_extracted_check_kinds(event, expected) -> None:  # type: ignore[no-untyped-def]
    assert sorted(codes(policy_rules, event, checks=KINDS)) == sorted(expected)


#: a naming rule that lists several forms allows any of them ("`feat/`, `fix/`, `chore/`")
BRANCH_FORMS = [_check(1, "branch", pattern=["feat/*", "fix/*", "chore/*"])]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git checkout -b fix/leak", []),
        ("git switch -c chore/deps", []),
        ("git worktree add ../x -b feat/parser", []),
        ("git checkout -b wip-parser", ["K1:deny"]),
        ("git branch docs/readme", ["K1:deny"]),
        ("git checkout fix/leak", []),
    ],
)
def test_branch_names_may_match_any_listed_form(command: str, expected: list[str]) -> None:
    assert codes(policy_rules, bash(command), checks=BRANCH_FORMS) == expected


#: "never amend pushed commits": held once this session pushed with no commit since, warned before
PUBLISHED = [_check(1, "command", pattern=["git", "commit", "--amend"], anchor=True, published=True),
             _check(2, "command", pattern=["git", "rebase"], anchor=True, published=True)]


def _entry(command: str, ok: bool = True) -> dict[str, object]:
    return {"command": command, "ok": ok, "seq": None, "ts": ""}


@pytest.mark.parametrize(
    ("command", "history", "expected"),
    [
        ("git commit --amend --no-edit", [_entry("git commit -m a"), _entry("git push -u origin feat/x")], ["K1:deny"]),
        ("git commit --amend --no-edit", [_entry("git add a && git commit -m a && git push")], ["K1:deny"]),
        ("git rebase -i HEAD~3", [_entry("git push origin feat/x")], ["K2:deny"]),
        # a commit after the push is not on the remote yet; a failed or dry-run push published nothing
        ("git commit --amend --no-edit", [_entry("git push"), _entry("git commit -m b")], ["K1:warn"]),
        ("git commit --amend --no-edit", [_entry("git push", ok=False)], ["K1:warn"]),
        ("git commit --amend --no-edit", [_entry("git push --dry-run")], ["K1:warn"]),
        ("git commit --amend --no-edit", [], ["K1:warn"]),
        ("git commit -m c", [_entry("git push")], []),
    ],
)
def test_rewrites_of_published_commits_hold_after_a_push(command: str, history: list[dict[str, object]],
                                                         expected: list[str]) -> None:
    from cf_guidance.event import Event
    from cf_guidance.gates._base import GateContext
    from tests.gates.support import bundle, home

    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    with home():
        found = policy_rules.check(GateContext(event, bundle(checks=PUBLISHED), extras={"history": history}))
    assert [f"{f.rule}:{f.verdict}" for f in found] == expected


#: "never modify files outside this repository": `../**` is any path outside the project root,
#: but scratch space (temporary directories) and devices are not what such a rule is about
OUTSIDE = [_check(1, "write", pattern="../**")]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (tool("Edit", file_path="../other/x.go", old_string="a", new_string="b"), ["K1:deny"]),
        (tool("Write", file_path="/home/dev/.bashrc", content="x"), ["K1:deny"]),
        (bash("sed -i s/a/b/ ../lib/x.c"), ["K1:deny"]),
        (bash("cp notes.txt /home/dev/notes.txt"), ["K1:deny"]),
        (tool("Edit", file_path="src/a.py", old_string="a", new_string="b"), []),
        (tool("Write", file_path="/tmp/scratch.txt", content="x"), []),
        (bash("make test > /dev/null 2>&1"), []),
        (bash("echo x > out.txt"), []),
        (bash("cat ../other/x.go"), []),
    ],
)
def test_outside_the_project(event, expected) -> None:  # type: ignore[no-untyped-def]
    assert codes(policy_rules, event, checks=OUTSIDE) == expected


#: a project that itself sits in a temporary directory (a scratch clone): its neighbours are
#: outside it, the rest of the temporary directory is still scratch space
TEMP_ROOT = "/tmp/work/project"


@pytest.mark.parametrize(
    ("tool_input", "expected"),
    [
        ({"command": "cp notes.txt ../other/notes.txt"}, ["K1:deny"]),
        ({"command": "sed -i s/a/b/ /tmp/work/other/x.c"}, ["K1:deny"]),
        ({"command": "echo x > /tmp/scratch.txt"}, []),
        ({"command": "echo x > out.txt"}, []),
    ],
)
def test_outside_a_project_in_a_temporary_directory(tool_input, expected) -> None:  # type: ignore[no-untyped-def]
    event = normalise({"tool_name": "Bash", "tool_input": tool_input, "cwd": TEMP_ROOT}, project_dir=TEMP_ROOT)
    context = GateContext(event, {"root": TEMP_ROOT, "settings": {"level": STANDARD}, "checks": OUTSIDE}, level=STANDARD)
    with home():
        assert [f"{f.rule}:{f.verdict}" for f in policy_rules.check(context)] == expected


def test_a_convention_of_emoji_is_met_by_one_emoji() -> None:
    checks = [_check(1, "message", verdict="warn", pattern=["git", "commit"], anchor=True, phrases=["\u2728", "\U0001f41b"],
                     absent=True)]
    assert codes(policy_rules, bash('git commit -m "\u2728 Add parser"'), checks=checks) == []
    assert codes(policy_rules, bash('git commit -m "Add parser"'), checks=checks) == ["K1:warn"]


#: "never skip the git hooks": the hook managers' off switches, set for the command or exported before it
HOOK_SWITCHES = [_check(1, "command", pattern=["git", "commit"], anchor=True, also=[["git", "push"]],
                        assigned=["HUSKY=0", "SKIP=*"])]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (bash("HUSKY=0 git commit -m x"), ["K1:deny"]),
        (bash("SKIP=eslint,prettier git commit -m x"), ["K1:deny"]),
        (bash("env HUSKY=0 git push origin feat"), ["K1:deny"]),
        (bash("export HUSKY=0 && git commit -m x"), ["K1:deny"]),
        (bash("git commit -m a && HUSKY=0 git commit -m b"), ["K1:deny"]),
        (bash("git commit -m x"), []),
        (bash("HUSKY=1 git commit -m x"), []),
        (bash("export FOO=1 && git commit -m x"), []),
        (bash("HUSKY=0 npm test"), []),
    ],
)
def test_hook_switches(event, expected) -> None:  # type: ignore[no-untyped-def]
    assert codes(policy_rules, event, checks=HOOK_SWITCHES) == expected


#: "only edit files in `src/`": a change to any other path of the project; reads, the allowed
#: paths and scratch space (temporary directories, devices) are left alone
CONFINED = [_check(1, "write", pattern="**", only=["src/**", "docs/api.md"], verdict="ask")]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (tool("Edit", file_path="src/a.py", old_string="a", new_string="b"), []),
        (tool("Write", file_path="src/deep/new.py", content="x"), []),
        (tool("Edit", file_path="docs/api.md", old_string="a", new_string="b"), []),
        (tool("Edit", file_path="docs/guide.md", old_string="a", new_string="b"), ["K1:ask"]),
        (tool("Write", file_path="README.md", content="x"), ["K1:ask"]),
        (bash("sed -i s/a/b/ lib/x.c"), ["K1:ask"]),
        (bash("echo x > notes.txt"), ["K1:ask"]),
        (bash("echo x > src/notes.txt"), []),
        (tool("Write", file_path="/tmp/scratch.txt", content="x"), []),
        (bash("make test > /dev/null 2>&1"), []),
        (bash("cat lib/x.c"), []),
        (tool("Read", file_path="lib/x.c"), []),
    ],
)
def test_confined_changes(event, expected) -> None:  # type: ignore[no-untyped-def]
    assert codes(policy_rules, event, checks=CONFINED) == expected


#: the shape of commit messages and PR titles (kind `shape`): judged on the text the line holds
SHAPES = [
    _check(1, "shape", verdict="warn", pattern=["git", "commit"], anchor=True, form="starts", starts=["[*] *(*):", "[*] *(*)!:"]),
    _check(2, "shape", pattern=["gh", "pr", "create"], anchor=True, also=[["gh", "pr", "edit"]], form="starts",
           starts=["feat:", "fix:", "feat(*):", "fix(*):"]),
    _check(3, "shape", verdict="warn", pattern=["git", "commit"], anchor=True, form="length", max=50),
    _check(4, "shape", pattern=["git", "commit"], anchor=True, form="emoji"),
    _check(5, "shape", verdict="warn", pattern=["git", "commit"], anchor=True, form="period"),
]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # must block: a subject without the form, too long, with an emoji (in the body too)
        ('git commit -m "add the parser"', ["K1:warn"]),
        ('git commit -m "[core] fix: add the parser"', ["K1:warn"]),
        ('git commit -m "fix(core): add the parser"', ["K1:warn"]),
        ("git commit -m '[core] fix(parser): handle empty input in the lexer'", ["K3:warn"]),
        ('git commit -m "[core] fix(api): done" -m "Ship it \U0001f680"', ["K4:deny"]),
        ('git commit -am "[core] fix(api): \u2728 sparkle"', ["K4:deny"]),
        ('git commit -m "[core] fix(api): handle it." -m "The body may end with one."', ["K5:warn"]),
        ('gh pr create --title "Add the parser" --body "x"', ["K2:deny"]),
        ("gh pr edit 12 --title=docs", ["K2:deny"]),
        # must allow: the form kept (case aside, a breaking-change mark, a multi-line heredoc)
        ('git commit -m "[core] fix(api): handle empty input"', []),
        ('git commit -m "[core] Feat(API)!: drop the v1 routes"', []),
        ("git commit -m \"$(cat <<'EOF'\n[cli] fix(args): accept -h\n\nThe help flag was ignored \u2192 now shown.\nEOF\n)\"", []),
        ('gh pr create --title "feat(parser): accept tabs" --body "x"', []),
        # must allow: what the line does not hold cannot be judged
        ("git commit", []),
        ("git commit -F /tmp/msg.txt", []),
        ("git commit --amend --no-edit", []),
        ('git commit -m "$MSG"', []),
        ("git commit -C HEAD~1", []),
        ("gh pr create --fill", []),
        # must allow: subjects git writes itself
        ("git commit -m \"Merge branch 'main' into feat/x\"", []),
        ('git commit -m "Revert \\"[core] fix(api): x\\""', []),
        ('git commit -m "fixup! [core] fix(api): x"', []),
        # not a commit at all
        ('git log --grep "add the parser"', []),
        ('echo "git commit -m bad"', []),
    ],
)
def test_message_shapes(command: str, expected: list[str]) -> None:
    assert sorted(codes(policy_rules, bash(command), checks=SHAPES)) == sorted(expected)


def test_a_shape_finding_shows_what_broke_the_form() -> None:
    findings = run_gate(policy_rules, bash('git commit -m "[core] fix(api): a subject that goes on and on for too long"'),
                        checks=SHAPES)
    assert [(f.rule, f.evidence) for f in findings] == [("K3", "59 characters: [core] fix(api): a subject that goes on and on "
                                                                "for too long")]


#: "Never commit secrets" in a real repository: what a broad `git add` or `git commit -a` takes is
#: git's answer (a `.env` it would sweep in is stopped; an ignored one, an example file, or a
#: commit of changes that hold no secret pass), paths named one by one as before.
SWEEPS = [
    ("git add .env", "deny"),
    ("git add -A", "deny"),
    ("git add .", "deny"),
    ("git add --all config/", "deny"),
    ("git add config/", "deny"),
    ("git add src/", "allow"),
    ("git add src/app.py", "allow"),
    ("git add .env.example", "allow"),
    ("git commit -am wip", "allow"),
    ("git commit -m wip", "allow"),
]


def _swept(root: Path, ignored: str) -> Path:
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                       env={**os.environ, "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
                            "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com"})

    (root / "src").mkdir(parents=True)
    (root / "config").mkdir()
    (root / "src" / "app.py").write_text("x = 1\n")
    (root / ".gitignore").write_text(ignored)
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "first")
    (root / "src" / "app.py").write_text("x = 2\n")
    (root / ".env.example").write_text("KEY=\n")
    (root / "config" / ".env").write_text("KEY=secret\n")
    return root


def _sweep_verdict(project: Path, command: str) -> str:
    from cf_guidance.engine import evaluate
    from cf_guidance.policy.compiler import compile_sources
    from tests.gates.support import bundle

    checks = compile_sources("# Rules\n\n- Never commit secrets, credentials or API keys.\n")["checks"]
    event = normalise({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(project)}, project_dir=str(project))
    with home():
        return evaluate({**bundle(checks=checks), "root": str(project)}, event).verdict


def test_a_broad_add_that_takes_a_secret_file_is_stopped(tmp_path: Path) -> None:
    project = _swept(tmp_path / "app", "")
    assert [(command, _sweep_verdict(project, command)) for command, _ in SWEEPS] == SWEEPS


def test_a_broad_add_leaves_what_git_ignores(tmp_path: Path) -> None:
    project = _swept(tmp_path / "app", ".env\n")
    assert [_sweep_verdict(project, command) for command in ("git add -A", "git add .", "git add config/")] == ["allow"] * 3


def test_commit_all_takes_a_changed_tracked_secret_file(tmp_path: Path) -> None:
    import subprocess

    project = _swept(tmp_path / "app", "")
    subprocess.run(["git", "-C", str(project), "add", "-f", "config/.env"], check=True)
    subprocess.run(["git", "-C", str(project), "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-qm", "env"],
                   check=True)
    (project / "config" / ".env").write_text("KEY=other\n")
    assert [_sweep_verdict(project, c) for c in ("git commit -am wip", "git add -u", "git commit -m wip")] == ["deny", "deny", "allow"]
