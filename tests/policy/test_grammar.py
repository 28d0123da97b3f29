"""The prose and ```guidance grammars, as tables: text -> the checks it must (or must not) yield."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance.policy import grammar
from cf_guidance.policy.compiler import compile_sources
from cf_guidance.policy.lexicon.nouns import PATH_NOUNS


def simplified(check: dict[str, Any]) -> tuple[Any, ...]:
    if check["kind"] == "sequence":
        return ("sequence", check["verdict"], " ".join(check["before"]), " ".join(check["then"]))
    pattern = check["pattern"]
    return (check["kind"], check["verdict"], " ".join(pattern) if isinstance(pattern, list) else pattern)


def checks_of(markdown: str) -> list[tuple[Any, ...]]:
    bundle = compile_sources(markdown)
    return [simplified(c) for c in bundle["checks"]]


LOCK_FILES = next(noun.globs for noun in PATH_NOUNS if "lock files" in noun.words)
ENV_FAMILY = [".env", ".env.local", ".env.*.local", ".env.development", ".env.production", ".env.test", ".env.staging",
              ".env.prod", ".env.dev"]

ENFORCED = [
    ("Never run `git push --force`", [("command", "deny", "git push --force")]),
    ("NEVER run `npm publish` locally", [("command", "deny", "npm publish")]),
    ("Do not run `make clean`", [("command", "deny", "make clean")]),
    ("Do not use `git push --force` or `git push -f`",
     [("command", "deny", "git push --force"), ("command", "deny", "git push -f")]),
    ("Don't execute `./scripts/reset-db.sh`", [("command", "deny", "reset-db.sh")]),
    ("Don\u2019t run `make nuke`", [("command", "deny", "make nuke")]),
    ("Never `rm -rf data/`", [("command", "deny", "rm -rf data/")]),
    ("You must not run `kubectl delete namespace prod`", [("command", "deny", "kubectl delete namespace prod")]),
    ("Never run `a-tool x`, `b-tool y` or `c-tool z`",
     [("command", "deny", "a-tool x"), ("command", "deny", "b-tool y"), ("command", "deny", "c-tool z")]),
    ("**Git force push**: Never use `git push --force`.", [("command", "deny", "git push --force")]),
    ("❌ NEVER use `docker system prune`", [("command", "deny", "docker system prune")]),
    ("Never directly run `terraform destroy`", [("command", "deny", "terraform destroy")]),
    ("Never use `--no-verify`", [("command", "deny", "* --no-verify")]),
    ("Never run `npm publish <pkg>`", [("command", "deny", "npm publish *")]),
    ("Avoid `npm install`", [("command", "warn", "npm install")]),
    ("Prefer not to run `cargo update`", [("command", "warn", "cargo update")]),
    ("Try not to run `yarn upgrade`", [("command", "warn", "yarn upgrade")]),
    ("Avoid running `pytest -x` in CI", [("command", "warn", "pytest -x")]),
    ("Ask before `terraform apply`", [("command", "ask", "terraform apply")]),
    ("Ask before running `alembic upgrade head`", [("command", "ask", "alembic upgrade head")]),
    ("Confirm before running `helm upgrade`", [("command", "ask", "helm upgrade")]),
    ("Require approval before `aws s3 rm`", [("command", "ask", "aws s3 rm")]),
    ("Always ask the user before running `git rebase`", [("command", "ask", "git rebase")]),
    ("Never run `npm run dev` unless I tell you to", [("command", "ask", "npm run dev")]),
    ("Never run `db-migrate` without asking first", [("command", "ask", "db-migrate")]),
    ("Never run `git push --force` on main", [("command", "warn", "git push --force")]),
    ("Do not run `npm test` in watch mode", [("command", "warn", "npm test")]),
    ("Never run `psql` against production", [("command", "warn", "psql")]),
    ("Never edit `migrations/`", [("write", "deny", "migrations/**")]),
    # the file, and (asking: an inference about tools) the commands that rewrite it
    ("Do not modify `package-lock.json`", [("write", "deny", "package-lock.json"), ("command", "ask", "npm install")]),
    ("Never delete or modify files under `data`", [("write", "deny", "data/**")]),
    ("Never touch `infra/*.tf`", [("write", "deny", "infra/*.tf")]),
    ("Never write to `./vendor/`", [("write", "deny", "vendor/**")]),
    # `.env` stands for its family (`.env.local`, `.env.production`, ...)
    ("Never read `.env`", [("read", "deny", g) for g in ENV_FAMILY]),
    ("Never modify `migrations`", [("write", "deny", "migrations"), ("write", "deny", "migrations/**")]),
    # creating is not editing: existing files there stay editable
    ("Never create files in `src/legacy`", [("create", "deny", "src/legacy/**")]),
    ("Do not edit the plugin mirror at `plugins/<name>/SKILL.md`", [("write", "deny", "plugins/*/SKILL.md")]),
    # a kind of file known by its names, in a directory: those names there, not the whole directory
    ("Never modify generated lock files under `deps`", [("write", "deny", f"deps/**/{name}") for name in LOCK_FILES]),
    ("Never run destructive commands like `rm -rf` or `git reset --hard`",
     [("command", "deny", "rm -rf"), ("command", "deny", "git reset --hard")]),
    ("Do not run commands such as `docker system prune`", [("command", "deny", "docker system prune")]),
    ("Don't `git push` without asking", [("command", "ask", "git push")]),
    ("Do not `npm publish`", [("command", "deny", "npm publish")]),
    ("Get user approval before running `make release`", [("command", "ask", "make release")]),
    ("Ask the user for permission before running `git rebase -i`", [("command", "ask", "git rebase -i")]),
    ("Never open or print `secrets/**`", [("read", "deny", "secrets/**")]),
    ("Never read or edit `.env.production`",
     [("write", "deny", ".env.production"), ("read", "deny", ".env.production")]),
    ("Always run `make test` before committing", [("sequence", "warn", "make test", "git commit")]),
    ("Run `npm run lint` before pushing", [("sequence", "warn", "npm run lint", "git push")]),
    ("Always run `make test` before `git commit`", [("sequence", "warn", "make test", "git commit")]),
    ("Run `pytest` before every commit", [("sequence", "warn", "pytest", "git commit")]),
    ("Make sure to run `cargo fmt` before each push", [("sequence", "warn", "cargo fmt", "git push")]),
    ("Before committing, always run `ruff check .`", [("sequence", "warn", "ruff check .", "git commit")]),
    ("Always run `npm test` and `npm run lint` before committing",
     [("sequence", "warn", "npm test", "git commit"), ("sequence", "warn", "npm run lint", "git commit")]),
    # the ordering takes the text's strength: "must", "mandatory", "required" deny; "always", "make
    # sure" and a plain imperative state practice (a warning)
    ("`make test` must pass before committing", [("sequence", "deny", "make test", "git commit")]),
    ("You must run `npm run lint` before pushing", [("sequence", "deny", "npm run lint", "git push")]),
    ("Running `cargo fmt` is mandatory before every push", [("sequence", "deny", "cargo fmt", "git push")]),
    ("Before committing, you have to run `ruff check .`", [("sequence", "deny", "ruff check .", "git commit")]),
    # forms the first grammar missed (these were in MENTIONS, asserting the miss)
    ("Never commit without running `npm test`", [("sequence", "deny", "npm test", "git commit")]),
    # the work declared done is seen at the next commit after a change: a warning, as "before declaring it done"
    ("Never mark a task complete without running `npm test`", [("sequence", "warn", "npm test", "git commit")]),
    ("Never push directly to main; open a PR with `gh pr create`", [("target", "deny", "main")]),
    ("Never use `bun <file>` directly", [("command", "deny", "bun *.*")]),
    ("Never commit `.env` files", [("stage", "deny", " ".join(ENV_FAMILY))]),
    ("Do not set a timeout when running `bun bd`", [("command", "deny", "bun bd")]),
    # the runner's span with its program says how the program runs: bare, it is discouraged
    ("Always use `uv run pytest`", [("command", "warn", "pytest")]),
]


@pytest.mark.parametrize(("sentence", "expected"), ENFORCED, ids=[s for s, _ in ENFORCED])
def test_prose_compiles_to_checks(sentence: str, expected: list[tuple[Any, ...]]) -> None:
    assert checks_of(f"- {sentence}\n") == expected


# Mentions: commands and paths that appear in the text without an instruction about them.
MENTIONS = [
    # not prose at all
    "```bash\nrm -rf build\n```",
    "```\nNever run `git push --force`\n```",
    "    git push --force   # indented code block",
    "```guidance-example\ndeny command git push\n```",
    # descriptive bullets
    "- we use `git push` to deploy",
    "- `rm -rf build` cleans the build directory",
    "- Run `npm test` to run the tests",
    "- The CI never runs `git push --force`",
    "- `make clean` - removes artefacts (never needed locally)",
    "- Deploys happen with `kubectl apply -f k8s/`",
    "- The script never deletes `data/`",
    "- Use `git push --force-with-lease` when rebasing",
    "- `uv run pytest` runs the tests in the project's environment",
    "- Always run `make coverage` to evaluate coverage",
    # negations whose object is not the span
    "- Don't worry if `git status` shows untracked files",
    "- Never forget to run `make lint`",
    "- Never run tests without `--coverage`",
    "- Do not add `console.log` statements",
    "- If `npm install` fails, do not retry blindly",
    "- Don't rely on `git stash` in scripts",
    # spans that are not commands
    "- Never use `any` in TypeScript",
    "- Never use `as any`",
    "- Avoid `service` objects that do everything",
    "- Do not use `setTimeout` in tests",
    "- Do not use `tmpdirSync` or `fs.mkdtempSync` to create temporary directories",
    "- NEVER use `std::fs` or `tokio::fs` directly",
    "- Never use `print()` for logging",
    "- Always use `port: 0`",
    "- Avoid `eval` in JavaScript code",
    "- Don't use `find` or `grep` in tests; use the Glob API",
    "- Never run `curl https://x.sh | sh`",
    "- Never run `cd build && make`",
    "- Never use `$HOME` in paths",
    # sequences that are not instructions
    "- We run `make test` before every push",
    "- Don't run `make test` before committing, CI does it",
    "- The hook runs `ruff` before commits",
    # file verbs without a path
    "- Never edit `config loader` behaviour",
    "- Never read `$SECRET` aloud",
    "- Never edit unrelated files",  # "generated files" names where such files usually are: tests/policy/test_paths.py
    "- Never run tests like the ones in `tests/slow/`",
    "- Don't `cd` around needlessly in tests",
    "- Never write tests in `src/`",
]


# Paragraphs and quotes state rules too (the first grammar read only bullets).
OUTSIDE_BULLETS = [
    ("Never run `rm -rf build` (a paragraph, not a bullet)", [("command", "deny", "rm -rf build")]),
    ("> Never run `git push --force` (a quote is a paragraph)", [("command", "deny", "git push --force")]),
    # a row whose first cell names the thing reads its other cells like a list item's clauses
    ("| Command | Note |\n|---|---|\n| `make nuke` | never run it |\n", [("command", "deny", "make nuke")]),
    # a directory named in one sentence is "this directory" in the next; the notice is not about the policy file
    ("# Notes\n\nThe `gen/api/` directory is auto-generated. Do not edit files in this directory manually.",
     [("write", "deny", "gen/api/**")]),
    # "other destructive git commands" are some of git's commands (the destructive ones): git itself is not banned
    ("- Never run `git push` or any other destructive git command",
     [("command", "deny", "git push"), ("command", "deny", "git reset --hard")]),
    ("- Never run `git push` or any other remote git command", [("command", "deny", "git push")]),
    ("- Never use remote git operations", [("command", "warn", "git commit")]),  # some of them: a warning
    # an English sentence that quotes a Japanese word is read as English
    ('- 禁止 ("forbidden") lists with path bans (`a.js`, `b.json`) are common', []),
    # an ordering names a chain: each command of it must run first
    ("- Before pushing, run `pnpm lint && pnpm test`. CI runs exactly these.",
     [("sequence", "warn", "pnpm lint", "git push"), ("sequence", "warn", "pnpm test", "git push")]),
    # items that are only a command, under an intro that says when
    ("- Before pushing, run at least:\n  - `python3 -m py_compile app.py`\n  - `shellcheck build.sh`",
     [("sequence", "warn", "python3 -m py_compile app.py", "git push"), ("sequence", "warn", "shellcheck build.sh", "git push")]),
    # what comes after an option may be its value: the command is satisfied up to its first option
    ("- Before pushing, run `cargo clippy --tests -- -D warnings`", [("sequence", "warn", "cargo clippy", "git push")]),
    ("- `git push --force`는 금지입니다.", [("command", "deny", "git push --force")]),
    ("**Out of scope** (do NOT touch):\n\n- The two call sites (`src/q/a.ts`, `src/q/b.ts`). They need no change.\n"
     "- The real `.env` file — never read, edit, or print its values.",
     [("write", "deny", "src/q/a.ts"), ("write", "deny", "src/q/b.ts")] + [("write", "deny", g) for g in ENV_FAMILY]
     + [("read", "deny", g) for g in ENV_FAMILY]),
    ("- Always open a PR — no direct push to `develop`", [("target", "deny", "develop")]),
    # an item that labels an instruction of its own is not one more object of the intro's ban;
    # "to it" is the branch the intro named, not every push
    ("**Never make changes directly to the develop branch:**\n\n- Work on topic branches\n"
     "- Branch naming: use short names like `feat/login`\n- Never push to it without the user's permission",
     [("target", "deny", "develop"), ("target", "ask", "develop")]),
    ("**Never edit these by hand:**\n\n- Generated code: `src/gen/`", [("write", "deny", "src/gen/**")]),
    # an option the verb is used "with" narrows its command; a situation it is used in narrows to a warning
    ("- Never commit with `--no-verify`", [("command", "deny", "git commit --no-verify")]),
    ("- Never commit with --no-verify", [("command", "deny", "git commit --no-verify")]),
    # a ban on the action while a task fails: the task first, with the ban's force
    ("- No commits with failing tests", [("sequence", "deny", "pytest", "git commit")]),
    # "it" may be what the same sentence named before the clause
    ("- The develop branch is protected - never push to it without the user's permission",
     [("target", "ask", "develop")]),
    # after a comma, "use X" is what to do instead, never one more ban
    ("- Never edit `pyproject.toml`, use `uv add` instead", [("write", "deny", "pyproject.toml")]),
    # a heading that states a rule is one (a heading of rule words alone gives its section a force)
    ("# Never run `git push --force`", [("command", "deny", "git push --force")]),
    ("## Do not edit `migrations/`", [("write", "deny", "migrations/**")]),
    # a glob with no name in it protects nothing a rule could mean (`**/*` would also deny `npm install`)
    ("- Never edit `**/*` or `/`", []),
    # a list of nouns then a verb phrase under the same cue: the verb phrase is read too
    ("- Never rewrite history, force-push, or delete branches.",
     [("command", "deny", "git reset --hard"), ("command", "deny", "git push --force"), ("command", "deny", "git branch -d")]),
    # "build" asked about is the document's commands that name it, not a runner listed under "Build"
    ("## Build\n\n- Build: `pnpm build`\n- Scripts run with `uv run`\n- Do not run build automatically\n",
     [("command", "ask", "pnpm build")]),
    # some of a thing ("the old branches"): which ones a pattern cannot say, a warning
    ("- Never delete the old branches of `origin`", [("command", "warn", "git branch -d")]),
    # a ban limited to a situation a pattern cannot express asks
    ("- Never amend commits after hook failures - create new commits", [("command", "warn", "git commit --amend")]),
]


@pytest.mark.parametrize(("markdown", "expected"), OUTSIDE_BULLETS)
def test_rules_outside_bullets(markdown: str, expected: list[tuple[Any, ...]]) -> None:
    assert checks_of(markdown + "\n") == expected


def test_a_ban_in_parentheses_does_not_reach_the_list_the_intro_prescribes() -> None:
    # the list is what to update; the aside bans other files
    markdown = "- When you change the API, update these docs (do not modify the old `v1/` docs):\n  - `docs/api.md`\n"
    assert not [c for c in checks_of(markdown) if c[0] == "write" and c[2] == "docs/api.md"]


@pytest.mark.parametrize("markdown", MENTIONS)
def test_mentions_never_compile(markdown: str) -> None:
    assert checks_of(markdown + "\n") == []


def test_at_least_forty_mentions() -> None:
    assert len(MENTIONS) >= 40


IMPERATIVE = [
    ("Never commit secrets", True),
    ("Always use sentence case", True),
    ("Use `uv` for Python", True),
    ("Prefer composition over inheritance", True),
    ("Tests must pass before merge", True),
    ("**Branch naming:** Always prefix branch names", True),
    ("`yarn vitest` - Run all tests", True),
    ("Uses workspace references for fast builds", False),
    ("API surface validated with Microsoft API Extractor", False),
    ("`src/` - the source code", False),
    ("Python 3.11", False),
]


@pytest.mark.parametrize(("text", "expected"), IMPERATIVE)
def test_imperative_detection(text: str, expected: bool) -> None:
    bundle = compile_sources(f"- {text}\n")
    assert bool(bundle["shards"]) is expected


TAGS = [
    ("[R001] Never commit secrets", "R001", "", None, [], [], []),
    ("R002: Never commit secrets", "R002", "", None, [], [], []),
    ("[local-example-rule] keep it", "local-example-rule", "", None, [], [], []),
    ("Never commit secrets (critical)", "", "critical", None, [], [], []),
    ("Run tests (high-risk) priority: 80", "", "high", 80, [], [], []),
    ("Fix it priority:7 #bug-fix @debugging [bash] [edit]", "", "", 7, ["bug-fix"], ["debugging"], ["bash", "edit"]),
    ("[write] Keep diffs small", "", "", None, [], [], ["edit"]),
    ("Highlight information lowlights", "", "", None, [], [], []),
    ("Always follow the style guide", "", "", None, [], [], []),
    ("Use #implementation and @engineering tags", "", "", None, [], [], []),
    ("[WIP] Keep it", "", "", None, [], [], []),
]


@pytest.mark.parametrize(("text", "rule_id", "risk", "priority", "intents", "domains", "tools"), TAGS)
def test_tags(text: str, rule_id: str, risk: str, priority: int | None, intents: list[str],
              domains: list[str], tools: list[str]) -> None:
    _, tags = grammar.extract_tags(text)
    assert (tags.rule_id, tags.risk, tags.priority, tags.intents, tags.domains, tags.tools) == (
        rule_id, risk, priority, intents, domains, tools)


def test_tags_are_stripped_but_words_containing_them_are_not() -> None:
    text, _ = grammar.extract_tags("[R001] Always follow the highlight information (high) #security @testing [bash] priority: 9")
    assert text == "Always follow the highlight information"


MACHINE = [
    ("deny command git push --force", [("command", "deny", "git push --force")], None, ""),
    ("[R010] deny command git push --force -- force pushes rewrite history",
     [("command", "deny", "git push --force")], None, "force pushes rewrite history"),
    ("deny command git checkout -- .", [("command", "deny", "git checkout -- .")], None, ""),
    ("warn command npm install *   # comment", [("command", "warn", "npm install *")], None, ""),
    ("ask command /usr/bin/terraform apply", [("command", "ask", "terraform apply")], None, ""),
    ("deny write migrations/** db/schema.sql",
     [("write", "deny", "migrations/**"), ("write", "deny", "db/schema.sql")], None, ""),
    ("ask write infra/**", [("write", "ask", "infra/**")], None, ""),
    ("deny read secrets/**", [("read", "deny", "secrets/**")], None, ""),
    ("require make test before git commit", [("sequence", "deny", "make test", "git commit")], None, ""),
    ("deny tool WebFetch mcp__github__*",
     [("tool", "deny", "WebFetch"), ("tool", "deny", "mcp__github__*")], None, ""),
    ("allow tool Read Grep Glob", [], ("tools_allow", ["Read", "Grep", "Glob"]), ""),
    ("allow command rm -rf ./build", [], ("allow_commands", [["rm", "-rf", "./build"]]), ""),
    ("protect write deploy/** .github/**", [], ("protect_write", ["deploy/**", ".github/**"]), ""),
    ("protect read keys/*.pem", [], ("protect_read", ["keys/*.pem"]), ""),
    ("level paranoid", [], ("level", "paranoid"), ""),
    ("max-diff-lines 400", [], ("max_diff_lines", 400), ""),
]


@pytest.mark.parametrize(("line", "checks", "setting", "reason"), MACHINE, ids=[m[0] for m in MACHINE])
def test_guidance_lines(line: str, checks: list[tuple[Any, ...]], setting: Any, reason: str) -> None:
    parsed = grammar.parse_guidance_line(line)
    assert parsed is not None
    assert [simplified(dict(c, message="")) for c in parsed.checks] == checks
    assert parsed.setting == setting
    assert parsed.reason == reason


@pytest.mark.parametrize("line", ["", "   ", "# only a comment"])
def test_blank_guidance_lines(line: str) -> None:
    assert grammar.parse_guidance_line(line) is None


MALFORMED = [
    ("forbid command rm", "unknown verb 'forbid'"),
    ("deny", "needs a kind and a pattern"),
    ("deny command", "needs a kind and a pattern"),
    ("deny file x", "unknown kind 'file'"),
    ("deny write $(pwd)/x", "is not a path glob"),
    ("require make test", "expected 'require <command> before <command>'"),
    ("require before git commit", "expected 'require <command> before <command>'"),
    ("allow everything", "expected 'allow tool"),
    ("level lax", "expected 'level standard'"),
    ("max-diff-lines many", "expected 'max-diff-lines N'"),
    ("max-diff-lines 0", "expected 'max-diff-lines N'"),
    ("protect exec x", "expected 'protect write"),
    ("deny command echo 'unclosed", "check the quotes"),
    ("[R1]", "an id alone is not a rule"),
]


@pytest.mark.parametrize(("line", "message"), MALFORMED)
def test_malformed_guidance_lines(line: str, message: str) -> None:
    with pytest.raises(grammar.GrammarError, match=message.replace("(", r"\(").replace("$", r"\$")):
        grammar.parse_guidance_line(line)


def test_command_pattern_rejects_non_commands() -> None:
    assert grammar.command_pattern("ls | wc -l", lenient=True) is None
    assert grammar.command_pattern("Foo.bar", lenient=True) is None
    assert grammar.command_pattern("x=1", lenient=True) is None
    assert grammar.command_pattern("-f", lenient=False) is None
    assert grammar.command_pattern("terraform", lenient=False) == ["terraform"]
    assert grammar.command_pattern("frobnicate", lenient=False) is None
    assert grammar.command_pattern("frobnicate", lenient=True) == ["frobnicate"]
    assert grammar.command_pattern("npm publish ...", lenient=True) == ["npm", "publish", "*"]


def test_path_glob_forms() -> None:
    assert grammar.path_glob("./data/", directory=False) == "data/**"
    assert grammar.path_glob("data", directory=True) == "data/**"
    assert grammar.path_glob("config.yaml", directory=True) == "config.yaml"
    assert grammar.path_glob("a b", directory=False) is None
    assert grammar.path_glob("..", directory=False) is None
    assert grammar.path_glob("/", directory=True) is None  # no alphanumerics: no path a rule protects
    assert grammar.path_glob("{0}", directory=False) is None


def test_placeholder_words() -> None:
    # a name the reader fills in is any word; a real subcommand that looks like one (`npm version`) is kept
    assert grammar.placeholder_words(["pnpm", "add", "package-name"]) == ["pnpm", "add", "*"]
    assert grammar.placeholder_words(["git", "checkout", "branch-name", "--"]) == ["git", "checkout", "?*", "--"]
    assert grammar.placeholder_words(["npm", "version"]) == ["npm", "version"]
    assert grammar.placeholder_words(["npm", "install", "<pkg>"]) == ["npm", "install", "*"]
