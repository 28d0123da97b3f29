"""What a rule stops and what it leaves alone, decided by the whole guard on the compiled text.

A rule about a task ("ask before adding dependencies", "never create tags") stops the commands
that do the task, and not their look-alikes that do something else (`npm install` installs the
lockfile, `git tag -l` lists tags, `pip install -e .` installs the project itself). A rule about
the branch pull requests are opened against warns on another base, stops a base the text rules
out, and leaves `gh pr create` without `--base` (the repository's default) alone. A branch form
made only of placeholders still says how many parts a name has."""

from __future__ import annotations

import pytest

from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, decide, tool

DEPENDENCIES = "- Ask before adding new dependencies.\n"
#: installing named by its effect, however worded: the project's packages (any ecosystem's
#: manager) or the machine's; restoring the lockfile and the project itself pass
INSTALL_WORDINGS = (
    "- **NEVER** pull in third-party libraries unless the user says so.\n",
    "1. Do not add external packages without asking first.\n",
    "> Additional dependencies must not be installed without approval.\n",
    "- No new third-party dependencies without approval.\n",
    "- **Dependencies** - ask before installing new libraries.\n",
    "## Dependencies\n\nNever install new packages unless explicitly asked.\n",
)
SYSTEM_WORDINGS = (
    "- **Do not install system packages**; the container is thrown away.\n",
    "- System dependencies must never be installed on the host.\n",
    "Installing OS packages is not allowed.\n",
    "> Never add system libraries.\n",
)
TAGS = "- Do not create or push tags manually: the release job does.\n"
TARGET = "- **All PRs target `develop`** (NOT `master`)\n"
NEVER = "- Never open pull requests against `main`.\n"
MERGE_INTO = "- Never merge directly into `master`.\n"
UPSTREAM = "- Never push to the upstream remote: it is the original project.\n"
DURING = "- Do not use `./gradlew build` during development: it is slow.\n"
BRANCH_SHAPE = "- Branches should be prefixed `<user>/<scope>/<desc>`.\n"
#: a tool as the subject: the project does not use it, it is missing here, it must not be used
UNUSED = "- Poetry is not used in this project.\n"
MISSING = "- Docker is not available in this environment.\n"
NOT_TO_USE = "- yarn must not be used.\n"
#: virtual environments as a noun: the commands that make one, not the project's own sync
VENVS = "- Don't create ad-hoc virtual environments.\n"
#: changes confined to some paths: any other path asks; the allowed ones, reads and scratch files pass
ONLY_SRC = "- Only edit files in `src/`.\n"
OUTSIDE_FOO = "- Do not touch anything outside `packages/foo`.\n"
#: paths to leave out of reading and searching: a warning, never a stop
IGNORE = "- Ignore the `legacy/` directory.\n"
CONVENTIONAL = "- Commit messages and PR titles must follow Conventional Commits.\n"
SCOPED = "- Commit format: `<type>(<scope>): <summary>`\n"
SHORT = "- Commit subject lines must be at most 50 characters.\n"
PLAIN = "- No emoji in commit messages or PR titles.\n"
SIGNED = "- All commits must be signed off.\n"
#: a signature (not a sign-off line), a pull that always rebases, the project's own commit types
GPG = "- Commits must be GPG signed (`git commit -S`).\n"
REBASE_PULL = "- Always use `git pull --rebase`.\n"
OWN_TYPES = "- Use conventional commits. Types: feat, fix, docs, deps.\n"
#: a PR title's prefix said of the title as the verb's subject, and a form an example shows
PR_PREFIX = "- PR titles must start with one of `feat:`, `fix:` or `docs:`.\n"
PR_AREA = "- PR titles begin with the component in brackets, e.g. `[cli] Add a flag`.\n"
NO_EMOJI_ANYWHERE = "- Never use emoji in commit messages, PR descriptions or issue comments.\n"
MOOD = "- Use the imperative mood in commit subjects.\n"
#: tool preferences: the preferred form is never what the rule discourages, even when the
#: discouraged command's equivalents cover it, nor when the preferred tool runs the program
COMPOSE_V2 = "- Use `docker compose` instead of `docker-compose`.\n"
PYTHON3 = "- Use `python3`, not `python`.\n"
BUN_FOR_VITE = "- Use `bun` instead of npm or vite.\n"
#: the project's one tool of a job: "only" rules the others out, a command the text prescribes passes
PNPM_ONLY = "- pnpm only.\n- Install pnpm with `npm install -g pnpm`.\n"
USES_PNPM = "This project uses pnpm.\n"
RAW_TOOLS = "- Prefer `task` over raw kubectl/talosctl.\n"
TWO_PAIRS = "- Use `uv pip` (not `pip`) and `uv run` (not `python`).\n"
#: a banned command reached through a runner or a container: the same command runs
DB_DROP = "- Never run `rake db:drop`.\n"
NO_VITEST = "- Never run `vitest` directly; use `pnpm test`.\n"
#: a runner banned on the host: run in a container, what it runs is not on the host either
ON_HOST_NPX = "- Never run `npx` directly on the host machine.\n"
#: the program in backticks, its subcommand a word after it: only that subcommand
HG_PUSH = "- Never use the `hg` push command.\n"
#: "it" after a code span: the code span, not "an escape hatch" nor "Docker volumes" said in passing
PRONOUN_CODE = ("- `useMemo` is an escape hatch: use it for costly values (Docker volumes, npm caches). "
                "Do NOT use it to sync state.\n")
#: the hook (a program's name as a noun) runs the code span; "it" is the code span, said with a rate
HOOK_PRONOUN = "- The pre-commit hook runs `ruff check` on staged files; don't run it separately per file.\n"
NOTE_LABEL = ("> **Note on label cleanup**: Acme intentionally does not remove labels from closed issues or merged PRs "
              "(harmless). Do not add cleanup code.\n")
#: a rule's option written short covers the long spelling, and the other way round
NO_VERIFY_SHORT = "- Never use `git commit -n`.\n"
SCRIPT_RUN = "- Never run `pnpm run typecheck`.\n"
#: a required runner: the bare program warns, the wrapped form passes
VIA_BUNDLE = "- Always use `bundle exec` for rake tasks.\n"
#: a required runner said in other words: a language's commands, a container named in words, a
#: prefix tool, no program at all (those the text runs under it), the program inside the runner's span
PHP_IN_COMPOSE = "**All PHP/Composer commands MUST run through Docker Compose.**\n"
ARTISAN_INSIDE = "- Only run artisan commands inside the `app` container.\n"
NODE_GO_THROUGH = "- All npm commands go through `docker compose exec web`.\n"
FVM_PREFIX = "- Prefix `flutter` and `dart` with `fvm`.\n"
FVM_INTRO = "**Always prefix commands with `fvm`:**\n\n```bash\nfvm flutter pub get\nfvm dart format .\n```\n"
UV_ALONE = "- Always prioritize `uv run` for reproducible environments.\n"
UV_SPAN = "- Always run tests with `uv run pytest`.\n"
DIRECT_THEN_RUNNER = "- Don't run python directly - always go through `uv run`.\n"
POETRY_FOR = "> Use `poetry run` for every Python command.\n"
#: the runner named beside a ban of the bare program, with or without a rule of its own; the bare run
#: banned after the runner ("never directly"); the runner's span with its program and a purpose; the
#: bare commands the document lists are the shorthand of a runner rule, not exceptions to it
BARE_BESIDE_RUNNER = "- Scripts go through `poetry run`, never bare `python`.\n"
NEVER_DIRECTLY = "- Run `pytest` via `uv run`, never directly.\n"
SPAN_PURPOSE = "- Always use `bundle exec rspec` to run the specs.\n"
LISTED_SOFT = "- Remember to prefix commands with `fvm`.\n\n## Commands\n\n```bash\nflutter test\n```\n"
LISTED_BARE = ("- Only run artisan commands inside the `app` container.\n\n## Commands\n\n"
               "```bash\nphp artisan migrate\nphp artisan tinker\n```\n")
#: a whole tool banned, one command of it prescribed all the same
ONE_OFF = "- Never use npm in this repo; use pnpm.\n- Install the CLI once with `npm i -g @acme/cli`.\n"
#: a program banned on the host, which the document runs in its container: that way passes
ON_HOST = "- Never run `npm` directly on the host.\n\nRun it in the container:\n\n```bash\ndocker compose exec app npm test\n```\n"
#: where to run: the command run below the root (after a `cd`) is warned, at the root it passes
FROM_ROOT = "- Run make from the repository root.\n"
#: a git action named as what not to do instead of another: a warning on it, whole, not narrowed
NO_AMEND = "- Always create a new commit rather than amending.\n"
IN_PLACE_OF_AMEND = "- Always make a fresh commit in place of amending.\n"
OVER_REBASE = "- Prefer merge commits over rebasing existing ones.\n"
NARROWED_INSTEAD = "- Write tests rather than committing untested code.\n"
LINKED = "- Every PR must link to an issue.\n"
#: the system's package manager named: its install and remove of that package, whatever the suffix
SYSTEM_SDK = "- Never install or remove the system dotnet SDK (apt-get/snap).\n"
#: the whole suite: a test command with nothing that narrows it is warned
WHOLE_SUITE = "- Don't run the full test suite, run the affected package's tests.\n"
#: conditional permissions: the agent asks first, on the named actions only
PUSH_PULL = "- Never push or pull unless the user requests it.\n"
APPROVAL_BEFORE = "- Always ask for explicit user approval before committing any changes or pushing to remote.\n"
AUTO_GIT = "- Do not automatically perform Git operations (add, commit, push, pull, etc.)\n"
ASK_AFTER = "- Install packages (npm install/uninstall) - ASK FIRST\n- Run database migrations (prisma migrate) - ASK FIRST\n"
TOOLCHAIN = "- Never change the package manager or Node version (volta pin, corepack, yarn set version) without approval.\n"
#: every file of the project, with a person's yes first: writes ask, reads and scratch files pass
ANY_CHANGE = "- Do not make any file changes without my approval.\n"
DELETE_FILES = "- Never delete files unless explicitly instructed.\n"
NO_DASHES = "- No em dashes in commit messages or PR descriptions.\n"
NO_WIP = '- Commit messages must not begin with "WIP".\n'
#: names not to write: where they go is the heading's; a bare name asks, a file named after it is no mention
NAMES_BY_SECTION = "## Pull requests and commits\n\n- Never mention Copilot/Gemini.\n"
CREDIT_OR_MENTION = "- Never credit Gemini or mention AI assistance in commit messages.\n"
TWO_TEXTS = "- Do not mention Gemini in commit messages or PR descriptions.\n"
#: a prefix for some commits only: which ones, no command line says (advisory)
SOME_COMMITS = "- When working on the mobile app, prefix commit messages with `[mobile]`.\n"
#: git actions done on the agent's own: asked, each way of doing them; reading the repository passes
BRANCH_OR_COMMIT = "- Never create branches or make commits autonomously.\n"
RERUN = "- Do not re-run `make bench` without explicitly asking.\n"
#: two conventions named together: either opening passes
EMOJI_CONVENTIONAL = "- Write conventional commits with an emoji in front.\n"
#: an intro with the texts and the force: its items' forms are said as strongly
COMMITS_MUST = "Commits MUST:\n\n- stay within 60 characters\n- not end with a period\n"
#: German, French, Spanish and Portuguese rules, read like the English ones (a German verb that ends its clause too)
GERMAN = "- Niemals `make nuke` ausführen.\n"
GERMAN_V2 = "- Führe `make nuke` niemals aus.\n"
SPANISH_UNLESS = "- NUNCA usar `git rebase` sin que el usuario lo pida explícitamente.\n"
FRENCH = "- Ne pas utiliser npm ou yarn.\n"
PORTUGUESE = "- Não rode `make nuke`.\n"
GERMAN_ORDER = "- Vor jedem Commit `make lint` ausführen.\n"
#: declarations: what the project uses, what is already running
USES_BUN = "## Package manager\n\nUses **bun**.\n"
DEV_RUNNING = "- Assume the dev server is always running.\n"
PREFERRED = "- `ruff` should be preferred to `black`.\n"
#: commands written as plain words: the command named, never the whole program nor what an aside says
COMPOSE_DOWN_V = "- don't run docker compose down -v\n"
NPM_INSTALL_ASIDE = "## Don'ts\n\n- npm install (use pnpm)\n"
BARE_LIST = "- Never: npm install, yarn add\n"
#: the project's launcher instead of the bare program, in a list under an intro
BINSTUBS = "**Always use the binstubs:**\n\n- `bin/rails` instead of `rails`\n- `bin/bundle` instead of `bundle`\n"
#: "only ... to build" names a program alone: it does the job with any arguments
MAKE_TO_BUILD = "Only use `make` targets to build; never call `go build` directly.\n"
#: "the only ... package manager": the others ruled out when the words permit only it, warned when it is the one in use
ONLY_ALLOWED = "- pnpm is the only allowed package manager.\n"
ONLY_IN_USE = "- The only package manager we use is bun.\n"
#: the project's tool stated however the sentence is built: the job's other tools warn, the tool itself
#: and other jobs' tools pass
STATED_TOOLS = [
    "Dependencies are managed with Poetry.\n",
    "- This repository is managed via **poetry** (v2).\n",
    "> Python packages are handled by `poetry`.\n",
    "1. Poetry is used for dependency management.\n",
    "Poetry is our package manager.\n",
    "- **Package manager**: poetry\n",
    "| Concern | Tool |\n|---|---|\n| Package manager | poetry |\n",
    "The package manager is Poetry.\n",
    "- Uses poetry for all Python dependencies\n",
    "- It is a Python service and we use Poetry as the package manager.\n",
]
#: statements that name a tool but not the project's one for its job
NOT_STATED = [
    "The docs image is built with pip.\n",
    "pip is used by the base image to install wheels.\n",
    "- Uses pip to fetch the fixtures.\n",
    "- Dependencies are managed with pip or poetry.\n",
    "- Releases are managed with changesets.\n",
]
#: a project's own launcher named as the build's tool: the system copy and the other build tool warn
MVNW = "- All builds use `./mvnw`.\n"
#: two jobs, a tool each, in one sentence
TWO_JOBS = "- Use pnpm for Node and uv for Python to install dependencies.\n"
#: a package manager's runner is that manager: a preference for another covers it, the preferred one's passes
BUN_NOT_NPM = "- Use bun instead of npm.\n"
NEVER_NPM = "- Never use npm.\n- Generate the client with `npx openapi-ts`.\n"
#: the rival's runner the document itself runs a program with: that program, any arguments, passes
PNPM_WITH_BUNX = "- We use pnpm as the package manager.\n- Run one test file with `bunx vitest run src/a.test.ts`.\n"
#: the interpreter's module form is the same tool; the wrapped form the text prescribes passes
BARE_PYTEST = "- Always run tests with `uv run python -m pytest`; never bare `python -m pytest`.\n"
#: a program's commands that change something: reading stays allowed
KUBECTL_CHANGES = "- Never run kubectl commands that modify state (apply, delete, scale).\n"
AWS_CHANGES = "- Never use `aws` CLI commands that create, modify, or delete resources without explicit user approval.\n"
AZ_DESTRUCTIVE = "- NEVER destructive az CLI — only read-only (list, show, get)\n"

PUSH_ONLY = "- Only push to branches matching `claude/*`.\n"
PUSH_EXCEPT = "- Never push to any branch other than `dev`.\n"
ENDINGS = "- Never commit design assets (PSD, MOV, ZIP).\n"
DOTTED = "- Do not add .env or .pem files to git.\n"
#: lead-ins that name the action and leave its objects to what follows
NEVER_COMMIT_LIST = "**Never commit:**\n\n- `config/local.json`\n- \u274c `.env.local` (real keys)\n- Session files\n"
TWO_VERBS_LIST = "Never commit or push:\n\n- `out/`\n"
AFTER_COLON = "**Never commit:** `data/cache.db`, `data/tmp.db` (both ignored).\n"
MARK_LINES = ("**Forbidden commands:**\n\n\u274c `git reset --hard`\n\u274c `npm publish`\n\u2705 `git push`\n"
              "\u2705 `npm test`\n")
HEADING_OVER_PATHS = "## Never commit\n\n- `keys/dev.pem`\n- `local.db`\n"
HEADING_OVER_PROSE = "## Never commit\n\nThe maintainers commit after review.\n"

#: one rule in many shapes: an aside between the cue and the verb, a neutral word before the
#: command, the passive, a label before "no", a gerund after it; each reads as the plain rule
SHAPES = [
    "- Do not, under any circumstances, run `make nuke`.\n",
    "- You must never, for any reason, run `make nuke`.\n",
    "Never, ever run `make nuke`.\n",
    "1. `make nuke` must not be run.\n",
    "> `make nuke` should never be executed.\n",
    "- `make nuke` is not to be run\n",
    "- No running `make nuke`.\n",
    "- **Danger:** no `make nuke`.\n",
    "- Absolutely no `make nuke`\n",
    "| Rule |\n|---|\n| `make nuke` must never be invoked |\n",
]
BARE = "- NEVER bare `python -m pytest`; use `uv run python -m pytest`.\n"
BRANCH_LABEL = "3. **Main branch** - never commit directly\n"
NO_PUSH_LABEL = "- **The main branch:** no direct pushes\n"
JUST_COMMIT = "- Don't push, just commit.\n"

#: commands listed in parentheses after words that name none are the objects; "`x` etc" is `x`
TOOLS_LISTED = "- Don't run the underlying tools (`tsc`, `eslint`) directly.\n"
ETC = "- Never run `bun run test` etc, it takes ten minutes.\n"
UNASKED = "- Never commit or push unasked.\n"
ON_OWN = "- Do not rebase on your own initiative.\n"
SOME_PUSHES = "- Never push large binaries.\n"
SECRETS = "- Never commit plaintext secrets.\n"

#: a verb phrase of the tables that starts with a program's name ("make commits") at a clause's end
MAKE_COMMITS = "- Do not make commits.\n"
NO_CHANGES_TO = ("Do not make changes to:\n\n- `dist/` - build output\n- Third-party code:\n"
                 "  - `lib/{zlib,json}`\n")

CASES = [
    (MAKE_COMMITS, 'git commit -m "wip"', "deny"),
    (MAKE_COMMITS, "make test", "allow"),
    (MAKE_COMMITS, "git status", "allow"),
    ("- Never make changes to `config/prod.yml` without review.\n", "make build", "allow"),
    ("- Don't make noise in the logs.\n", "make", "allow"),
    (TOOLS_LISTED, "tsc --noEmit", "deny"),
    (TOOLS_LISTED, "eslint src", "deny"),
    (TOOLS_LISTED, "npm run lint", "allow"),
    (ETC, "bun run test", "deny"),
    (ETC, "bun test src/a.test.ts", "allow"),
    *[(text, "pip install requests", "warn") for text in STATED_TOOLS],
    *[(text, "cd api && uv add requests", "warn") for text in STATED_TOOLS],
    *[(text, "poetry add requests", "allow") for text in STATED_TOOLS],
    *[(text, "npm install", "allow") for text in STATED_TOOLS],
    *[(text, "pip install requests", "allow") for text in NOT_STATED],
    *[(text, "poetry add requests", "allow") for text in NOT_STATED],
    (MVNW, "mvn install -pl core", "warn"),
    (MVNW, "gradle build", "warn"),
    (MVNW, "./mvnw install -pl core", "allow"),
    (TWO_JOBS, "npm install", "warn"),
    (TWO_JOBS, "cd sdk && pip install httpx", "warn"),
    (TWO_JOBS, "poetry add httpx", "warn"),
    (TWO_JOBS, "pnpm add zod", "allow"),
    (TWO_JOBS, "uv add httpx", "allow"),
    (TWO_JOBS, "uv sync", "allow"),
    (BUN_NOT_NPM, "npx tsc --noEmit", "warn"),
    (BUN_NOT_NPM, "npm exec tsc", "warn"),
    (BUN_NOT_NPM, "bunx tsc --noEmit", "allow"),
    (BUN_NOT_NPM, "bun x tsc --noEmit", "allow"),
    (NEVER_NPM, "npx tsc", "deny"),
    (NEVER_NPM, "npx openapi-ts", "allow"),
    (NEVER_NPM, "npx openapi-ts --input spec.yml", "allow"),
    (PNPM_WITH_BUNX, "bunx vitest run src/b.test.ts", "allow"),
    (PNPM_WITH_BUNX, "bunx eslint .", "warn"),
    (PNPM_WITH_BUNX, "bun add zod", "warn"),
    (BARE_PYTEST, "python -m pytest tests", "deny"),
    (BARE_PYTEST, "python3 -m pytest tests", "deny"),
    (BARE_PYTEST, "pytest tests", "deny"),
    (BARE_PYTEST, "uv run python -m pytest tests", "allow"),
    (BARE_PYTEST, "uv run pytest tests", "allow"),
    *[(shape, "make nuke", "deny") for shape in SHAPES],
    *[(shape, "make build", "allow") for shape in SHAPES],
    (BARE, "python -m pytest tests/", "deny"),
    (BARE, "uv run python -m pytest tests/", "allow"),
    (BARE, "uv run ruff check .", "allow"),
    (BRANCH_LABEL, "git checkout main && git commit -m wip", "deny"),
    (BRANCH_LABEL, "git checkout -b fix/x && git commit -m wip", "allow"),
    (NO_PUSH_LABEL, "git push origin main", "deny"),
    (NO_PUSH_LABEL, "git push origin fix/x", "allow"),
    (JUST_COMMIT, "git push origin fix/x", "deny"),
    (JUST_COMMIT, "git commit -m wip", "allow"),
    (GERMAN, "make nuke", "deny"),
    (GERMAN, "make test", "allow"),
    (GERMAN_V2, "make nuke", "deny"),
    (SPANISH_UNLESS, "git rebase -i HEAD~2", "ask"),
    (SPANISH_UNLESS, "git status", "allow"),
    (FRENCH, "npm install zod", "deny"),
    (FRENCH, "yarn add zod", "deny"),
    (FRENCH, "pnpm add zod", "allow"),
    (PORTUGUESE, "make nuke", "deny"),
    (GERMAN_ORDER, "git commit -m 'feat: x'", "warn"),  # no session history here: the ordering warns
    (USES_BUN, "npm install zod", "warn"),
    (USES_BUN, "bun add zod", "allow"),
    (DEV_RUNNING, "npm run dev", "warn"),
    (DEV_RUNNING, "npm run build", "allow"),
    (PREFERRED, "black .", "warn"),
    (PREFERRED, "ruff format .", "allow"),
    (NO_AMEND, "git commit --amend --no-edit", "warn"),
    (NO_AMEND, "git commit -m 'fix: x'", "allow"),
    (IN_PLACE_OF_AMEND, "git commit --amend --no-edit", "warn"),
    (OVER_REBASE, "git rebase origin/main", "warn"),
    (OVER_REBASE, "git merge origin/main", "allow"),
    (NARROWED_INSTEAD, "git commit -m 'fix: x'", "allow"),
    (DEPENDENCIES, "npm install left-pad", "ask"),
    (DEPENDENCIES, "npm install -D left-pad", "ask"),
    (DEPENDENCIES, "yarn add zod", "ask"),
    (DEPENDENCIES, "uv add httpx", "ask"),
    (DEPENDENCIES, "pip install requests", "ask"),
    (DEPENDENCIES, "cargo add serde", "ask"),
    (DEPENDENCIES, "npm install", "allow"),
    (DEPENDENCIES, "npm install --frozen-lockfile", "allow"),
    (DEPENDENCIES, "yarn", "allow"),
    (DEPENDENCIES, "uv sync", "allow"),
    (DEPENDENCIES, "pip install -r requirements.txt", "allow"),
    (DEPENDENCIES, "pip install -e '.[dev]'", "allow"),
    (DEPENDENCIES, "pip install .", "allow"),
    *[(text, command, verdict) for text in INSTALL_WORDINGS for command, verdict in (
        ("npm install left-pad", "ask"), ("pnpm add zod", "ask"), ("uv add httpx", "ask"), ("cargo add serde", "ask"),
        ("go get github.com/pkg/errors", "ask"), ("bundle add rack", "ask"),
        ("swift package add-dependency https://example.test/lib.git --from 1.0.0", "ask"),
        ("npm install", "allow"), ("npm ci", "allow"), ("pip install -r requirements.txt", "allow"),
        ("pip install -e .", "allow"), ("cargo build", "allow"), ("swift package show-dependencies", "allow"),
        ("apt-get install -y jq", "allow"))],
    *[(text, command, verdict) for text in SYSTEM_WORDINGS for command, verdict in (
        ("sudo apt-get install -y build-essential", "deny"), ("apt install jq", "deny"), ("brew install node", "deny"),
        ("dnf install gcc", "deny"), ("apk add curl", "deny"),
        ("apt-get update", "allow"), ("brew list", "allow"), ("npm install left-pad", "allow"), ("npm ci", "allow"),
        ("cargo add serde", "allow"))],
    (TAGS, "git tag v1.2.0", "deny"),
    (TAGS, "git tag -a v1.2.0 -m 'release'", "deny"),
    (TAGS, "git push --tags", "deny"),
    (TAGS, "git tag", "allow"),
    (TAGS, "git tag -l 'v1.*'", "allow"),
    (TAGS, "git tag --list", "allow"),
    (TAGS, "git tag --contains HEAD", "allow"),
    (TARGET, "gh pr create --base develop --title t --body b", "allow"),
    (TARGET, "gh pr create -B develop --fill", "allow"),
    (TARGET, "gh pr create --base=develop --fill", "allow"),
    (TARGET, "gh pr create --fill", "allow"),
    (TARGET, "gh pr create --base release/1.2 --fill", "warn"),
    (TARGET, "gh pr create --base master --fill", "deny"),
    (TARGET, "gh pr create -B master --fill", "deny"),
    (TARGET, "gh pr view 12", "allow"),
    (NEVER, "gh pr create --base main --fill", "deny"),
    (NEVER, "gh pr create --base develop --fill", "allow"),
    (NEVER, "git push origin main", "allow"),
    (MERGE_INTO, "git checkout master && git merge feat/x", "deny"),
    (MERGE_INTO, "git push origin HEAD:master", "deny"),
    (MERGE_INTO, "git push origin feat/x:master", "deny"),
    (MERGE_INTO, "git merge master", "allow"),
    (MERGE_INTO, "git push origin feat/x", "allow"),
    (MERGE_INTO, "git push origin master:feat/x", "allow"),
    (MERGE_INTO, "git push origin master", "allow"),
    (MERGE_INTO, "git push origin master:master", "allow"),
    (UPSTREAM, "git push upstream main", "deny"),
    (UPSTREAM, "git push -u upstream feat/x", "deny"),
    (UPSTREAM, "git push origin feat/x", "allow"),
    (UPSTREAM, "git push", "allow"),
    (UPSTREAM, "git fetch upstream", "allow"),
    (DURING, "./gradlew build", "deny"),
    (DURING, "./gradlew compileDebugKotlin", "allow"),
    (BRANCH_SHAPE, "git checkout -b alice/auth/fix-login", "allow"),
    (BRANCH_SHAPE, "git switch -c alice/auth/fix-login", "allow"),
    (BRANCH_SHAPE, "git checkout -b fix-login", "warn"),
    (BRANCH_SHAPE, "git switch -c alice/fix-login", "warn"),
    (UNUSED, "poetry install", "warn"),
    (UNUSED, "uv sync", "allow"),
    (MISSING, "docker compose up -d", "warn"),
    (MISSING, "make test", "allow"),
    (NOT_TO_USE, "yarn add zod", "deny"),
    (NOT_TO_USE, "npm install", "allow"),
    (VENVS, "python -m venv .venv", "deny"),
    (VENVS, "python3 -m venv /tmp/env", "deny"),
    (VENVS, "virtualenv env", "deny"),
    (VENVS, "uv venv", "deny"),
    (VENVS, "uv sync", "allow"),
    (VENVS, "poetry install", "allow"),
    (VENVS, "source .venv/bin/activate && pytest", "allow"),
    (VENVS, "python -m pytest", "allow"),
    (ONLY_SRC, "sed -i s/a/b/ docs/guide.md", "ask"),
    (ONLY_SRC, "sed -i s/a/b/ src/app.py", "allow"),
    (ONLY_SRC, "cat docs/guide.md", "allow"),
    (ONLY_SRC, "pytest -q > /tmp/out.txt", "allow"),
    (OUTSIDE_FOO, "sed -i s/a/b/ packages/foo/a.ts", "allow"),
    (OUTSIDE_FOO, "sed -i s/a/b/ packages/bar/a.ts", "ask"),
    (IGNORE, "cat legacy/old.py", "warn"),
    (IGNORE, "grep -rn TODO legacy/", "warn"),
    (IGNORE, "cat src/app.py", "allow"),
    # the shape of commit messages and PR titles: judged on the text the line holds, never on an editor's
    (CONVENTIONAL, 'git commit -m "Add the parser"', "deny"),
    (CONVENTIONAL, 'gh pr create --title "Add the parser" --body b', "deny"),
    (CONVENTIONAL, 'git commit -m "feat(parser): accept tabs"', "allow"),
    (CONVENTIONAL, 'git commit -m "fix!: drop the v1 flag"', "allow"),
    (CONVENTIONAL, "git commit -m \"$(cat <<'EOF'\ndocs: explain the cache\n\nWhy it exists.\nEOF\n)\"", "allow"),
    (CONVENTIONAL, 'gh pr create --title "chore: bump deps" --body b', "allow"),
    (CONVENTIONAL, "git commit", "allow"),
    (CONVENTIONAL, "git commit -F .git/MSG", "allow"),
    (CONVENTIONAL, "git commit --amend --no-edit", "allow"),
    (CONVENTIONAL, "gh pr create --fill", "allow"),
    (CONVENTIONAL, "git merge --no-ff feat/x", "allow"),
    (SCOPED, 'git commit -m "feat(api): add the endpoint"', "allow"),
    (SCOPED, 'git commit -m "feat: add the endpoint"', "warn"),  # a scope the template shows: maybe left out
    (SCOPED, 'git commit -m "Add the endpoint"', "warn"),
    (SHORT, 'git commit -m "fix(api): handle the empty body"', "allow"),
    (SHORT, 'git commit -m "fix(api): handle the empty body that the proxy sends on retries"', "deny"),
    (SHORT, 'git commit -m "fix(api): short" -m "A body line may be as long as it needs to be, the rule is about the subject."',
     "allow"),
    (PLAIN, 'git commit -m "Add dark mode \U0001f319"', "deny"),
    (PLAIN, 'gh pr create --title "\u2728 Dark mode" --body b', "deny"),
    (PLAIN, 'git commit -m "Add dark mode (light \u2192 dark)"', "allow"),
    (SIGNED, 'git commit -s -m "Add the parser"', "allow"),
    (SIGNED, 'git commit --amend --signoff --no-edit', "allow"),
    (SIGNED, 'git commit -m "Add the parser"', "deny"),
    (GPG, 'git commit -m "Add the parser"', "deny"),
    (GPG, 'git commit -S -m "Add the parser"', "allow"),
    (GPG, 'git commit --gpg-sign -m "Add the parser"', "allow"),
    (GPG, 'git commit -sS -m "Add the parser"', "allow"),
    (REBASE_PULL, "git pull origin main", "deny"),
    (REBASE_PULL, "git pull --rebase origin main", "allow"),
    (REBASE_PULL, "git pull -r", "allow"),
    (REBASE_PULL, "git push origin main", "allow"),
    (REBASE_PULL, "git fetch origin", "allow"),
    (OWN_TYPES, 'git commit -m "deps: bump the parser"', "allow"),
    (OWN_TYPES, 'git commit -m "deps(api): bump the parser"', "allow"),
    (OWN_TYPES, 'git commit -m "chore: tidy"', "allow"),
    (OWN_TYPES, 'git commit -m "bump the parser"', "warn"),
    (PR_PREFIX, 'gh pr create --title "Fix the crash" --body b', "warn"),
    (PR_PREFIX, 'gh pr create --title "fix: the crash" --body b', "allow"),
    (PR_PREFIX, 'git commit -m "Fix the crash"', "allow"),  # titles only
    (PR_AREA, 'gh pr create --title "Fix the crash" --body b', "warn"),
    (PR_AREA, 'gh pr create --title "[parser] Fix the crash" --body b', "allow"),
    # where messages go: jj's commits, and the bodies of PRs, reviews, issues and comments
    (PLAIN, 'jj describe -m "Add dark mode \U0001f319"', "deny"),
    (PLAIN, 'jj commit -m "Add dark mode" -m "\u2728"', "deny"),
    (PLAIN, 'jj new -m "Add dark mode"', "allow"),
    (PLAIN, 'jj ci -m "Add dark mode \u2728"', "deny"),
    (PLAIN, 'gt create -m "Add dark mode \u2728"', "deny"),  # Graphite's commits
    (PLAIN, 'gt m -m "Add dark mode"', "allow"),
    (PLAIN, "jj describe", "allow"),
    (PLAIN, 'gh pr create --title "Dark mode" --body "Adds it \U0001f389"', "allow"),  # titles only
    (NO_EMOJI_ANYWHERE, 'gh pr create --title "Dark mode" --body "Adds it \U0001f389"', "deny"),
    (NO_EMOJI_ANYWHERE, 'gh issue comment 4 --body "Fixed \u2705"', "deny"),
    (NO_EMOJI_ANYWHERE, 'gh pr review 4 --approve --body "LGTM \U0001f44d"', "deny"),
    (NO_EMOJI_ANYWHERE, 'gh pr comment 4 --body "Fixed in the last push"', "allow"),
    (NO_EMOJI_ANYWHERE, "gh pr create --fill", "allow"),
    (NO_EMOJI_ANYWHERE, "gh pr comment 4 --body-file notes.md", "allow"),
    (MOOD, 'git commit -m "Added the parser"', "warn"),
    (MOOD, 'git commit -m "fix(api): fixed the retry"', "warn"),
    (MOOD, 'jj describe -m "Rewrote the cache"', "warn"),
    (MOOD, 'git commit -m "Add the parser"', "allow"),
    (MOOD, 'git commit -m "Embed the font"', "allow"),
    (MOOD, 'git commit -m "Revert \"Added the parser\""', "allow"),
    (MOOD, "git commit", "allow"),
    (COMPOSE_V2, "docker compose up -d", "allow"),
    (COMPOSE_V2, "docker-compose up -d", "warn"),
    (PYTHON3, "python3 scripts/x.py", "allow"),
    (PYTHON3, "python scripts/x.py", "warn"),
    (BUN_FOR_VITE, "bunx vite build", "allow"),
    (BUN_FOR_VITE, "vite build", "warn"),
    (BUN_FOR_VITE, "npm install", "warn"),
    (BUN_FOR_VITE, "bun install", "allow"),
    (PNPM_ONLY, "npm install", "deny"),
    (PNPM_ONLY, "yarn add zod", "deny"),
    (PNPM_ONLY, "npm install -g pnpm", "allow"),
    (PNPM_ONLY, "pnpm install", "allow"),
    (PNPM_ONLY, "pnpm exec vitest run", "allow"),
    (USES_PNPM, "npm install", "warn"),
    (USES_PNPM, "pnpm install", "allow"),
    (RAW_TOOLS, "kubectl get pods", "warn"),
    (RAW_TOOLS, "talosctl health", "warn"),
    (RAW_TOOLS, "task deploy", "allow"),
    (TWO_PAIRS, "pip install httpx", "warn"),
    (TWO_PAIRS, "python scripts/x.py", "warn"),
    (TWO_PAIRS, "uv pip install httpx", "allow"),
    (TWO_PAIRS, "uv run python scripts/x.py", "allow"),
    (FROM_ROOT, "make build", "allow"),
    (FROM_ROOT, "make -C services/api build", "allow"),
    (FROM_ROOT, "cd services/api && make build", "warn"),
    (FROM_ROOT, "cd services/api && go test ./...", "allow"),
    (DB_DROP, "bundle exec rake db:drop", "deny"),
    (DB_DROP, "docker compose exec web bundle exec rake db:drop", "deny"),
    (DB_DROP, "docker-compose run --rm web rake db:drop", "deny"),
    (DB_DROP, "bundle exec rake db:migrate", "allow"),
    (DB_DROP, "docker compose up -d", "allow"),
    (NO_VITEST, "pnpm vitest run", "deny"),
    (NO_VITEST, "yarn run vitest", "deny"),
    (NO_VITEST, "pnpm test", "allow"),
    (NO_VITEST, "pnpm lint", "allow"),
    (HG_PUSH, "hg push", "deny"),
    (HG_PUSH, "hg status", "allow"),
    (NO_VERIFY_SHORT, "git commit --no-verify -m x", "deny"),
    (NO_VERIFY_SHORT, "git commit -m x", "allow"),
    (SCRIPT_RUN, "pnpm typecheck", "deny"),
    (SCRIPT_RUN, "pnpm lint", "allow"),
    (VIA_BUNDLE, "rake db:migrate", "warn"),
    (VIA_BUNDLE, "bundle exec rake db:migrate", "allow"),
    (ONE_OFF, "npm install -g @acme/cli", "allow"),
    (ONE_OFF, "npm install", "deny"),
    (ON_HOST, "npm install", "deny"),
    (ON_HOST, "docker compose exec app npm install", "allow"),
    (ON_HOST, "docker exec app npm test", "allow"),
    (ON_HOST_NPX, "npx tsc", "deny"),
    (ON_HOST_NPX, "docker compose exec -T app npx tsc", "allow"),
    (LINKED, 'gh pr create --title "Add limits" --body "Adds a rate limit"', "warn"),
    (LINKED, 'gh pr create --title "Add limits" --body "Closes #42"', "allow"),
    (LINKED, 'gh pr create --title "Add limits (#42)" --body "Adds a rate limit"', "allow"),
    (LINKED, 'gh pr create --title "Add limits" --body "See https://github.com/o/r/issues/42"', "allow"),
    (LINKED, 'gh pr create --title "PROJ-12 Add limits" --body "Adds it"', "allow"),
    (LINKED, "gh pr create --fill", "allow"),
    (LINKED, 'gh pr comment 4 --body "Done"', "allow"),
    (LINKED, 'git commit -m "Add limits"', "allow"),
    (SYSTEM_SDK, "sudo apt-get install -y dotnet-sdk-8.0", "deny"),
    (SYSTEM_SDK, "snap remove dotnet-sdk", "deny"),
    (SYSTEM_SDK, "dotnet build", "allow"),
    (SYSTEM_SDK, "sudo apt-get install -y jq", "allow"),
    (WHOLE_SUITE, "pnpm test", "warn"),
    (WHOLE_SUITE, "bun run test", "warn"),
    (WHOLE_SUITE, "pytest -q", "warn"),
    (WHOLE_SUITE, "pnpm --filter web test", "allow"),
    (WHOLE_SUITE, "pnpm test src/parser.test.ts", "allow"),
    (WHOLE_SUITE, "pytest tests/unit/test_parser.py", "allow"),
    (WHOLE_SUITE, "cargo test -p core", "allow"),
    (WHOLE_SUITE, "pnpm test:unit", "allow"),
    (PUSH_PULL, "git push origin main", "ask"),
    (PUSH_PULL, "git pull --rebase", "ask"),
    (PUSH_PULL, "git fetch origin", "allow"),
    (PUSH_PULL, "git status", "allow"),
    (APPROVAL_BEFORE, "git commit -m wip", "ask"),
    (APPROVAL_BEFORE, "git push -u origin feat/x", "ask"),
    (APPROVAL_BEFORE, "git diff --staged", "allow"),
    (AUTO_GIT, "git commit -m wip", "ask"),
    (AUTO_GIT, "git pull", "ask"),
    (AUTO_GIT, "git log --oneline -5", "allow"),
    (ASK_AFTER, "npm install zod", "ask"),
    (ASK_AFTER, "npm uninstall zod", "ask"),
    (ASK_AFTER, "npx prisma migrate dev", "ask"),
    (ASK_AFTER, "npm install", "allow"),
    (ASK_AFTER, "npx prisma generate", "allow"),
    (TOOLCHAIN, "volta pin node@20", "ask"),
    (TOOLCHAIN, "corepack enable", "ask"),
    (TOOLCHAIN, "yarn set version stable", "ask"),
    (TOOLCHAIN, "node -v", "allow"),
    (TOOLCHAIN, "nvm use", "allow"),
    (TOOLCHAIN, "yarn install", "allow"),
    (ANY_CHANGE, "sed -i s/a/b/ src/app.py", "ask"),
    (ANY_CHANGE, "cat src/app.py", "allow"),
    (ANY_CHANGE, "pytest -q > /tmp/out.txt", "allow"),
    (ANY_CHANGE, "git status", "allow"),
    (DELETE_FILES, "rm src/old.py", "ask"),
    (DELETE_FILES, "git rm src/old.py", "ask"),
    (DELETE_FILES, "sed -i s/a/b/ src/app.py", "allow"),
    (NO_DASHES, 'git commit -m "Add limits \u2014 per user"', "deny"),
    (NO_DASHES, 'gh pr create --title "Limits" --body "Per user \u2014 not global"', "deny"),
    (NO_DASHES, 'git commit -m "Add limits - per user"', "allow"),
    (NO_DASHES, 'gh pr create --title "Limits" --body "Per user, 1\u20132 calls"', "allow"),
    (NO_WIP, 'git commit -m "WIP: limits"', "deny"),
    (NO_WIP, 'git commit -m "wip limits"', "deny"),
    (NO_WIP, 'git commit -m "Wipe the cache"', "allow"),
    (NO_WIP, 'jj describe -m "WIP"', "deny"),
    (NAMES_BY_SECTION, 'git commit -m "Refactor the parser with Copilot"', "ask"),
    (NAMES_BY_SECTION, 'gh pr create --title t --body "Suggested by Gemini"', "ask"),
    (NAMES_BY_SECTION, 'git add COPILOT.md && git commit -m "Document the setup in COPILOT.md"', "allow"),
    (NAMES_BY_SECTION, 'git commit -m "Refactor the parser"', "allow"),
    (CREDIT_OR_MENTION, 'git commit -m "Fix the cache" -m "Generated with Gemini"', "deny"),
    (CREDIT_OR_MENTION, 'git commit -m "Fix the cache (thanks Gemini)"', "ask"),
    (CREDIT_OR_MENTION, 'git commit -m "Mention the flag in the help text"', "allow"),
    (TWO_TEXTS, 'gh pr create --title t --body "Drafted by Gemini"', "ask"),
    (TWO_TEXTS, 'git commit -m "Drafted by Gemini"', "ask"),
    (SOME_COMMITS, 'git commit -m "Fix the login page"', "allow"),
    (BRANCH_OR_COMMIT, 'git commit -m "Fix the cache"', "ask"),
    (BRANCH_OR_COMMIT, "git switch -c feat/cache", "ask"),
    (BRANCH_OR_COMMIT, "git checkout -b feat/cache", "ask"),
    (BRANCH_OR_COMMIT, "git branch feat/cache", "ask"),
    (BRANCH_OR_COMMIT, "git branch -a", "allow"),
    (BRANCH_OR_COMMIT, "git switch main", "allow"),
    (BRANCH_OR_COMMIT, "git log --oneline -5", "allow"),
    (RERUN, "make bench", "ask"),
    (RERUN, "make test", "allow"),
    (EMOJI_CONVENTIONAL, 'git commit -m "\u2728 feat: add the page"', "allow"),
    (EMOJI_CONVENTIONAL, 'git commit -m "feat: add the page"', "allow"),
    (EMOJI_CONVENTIONAL, 'git commit -m "add the page"', "warn"),
    (COMMITS_MUST, 'git commit -m "Add the page."', "deny"),
    (COMMITS_MUST, 'git commit -m "Add the page and the settings screen and the help overlay too"', "deny"),
    (COMMITS_MUST, 'git commit -m "Add the page"', "allow"),
    # a merge rule that names what is merged stops that merge, not every merge into the branch
    ("- Never merge `upstream/main` directly into `main`.\n", "git checkout main && git merge upstream/main", "deny"),
    ("- Never merge `upstream/main` directly into `main`.\n", "git checkout main && git pull upstream main", "deny"),
    ("- Never merge `upstream/main` directly into `main`.\n", "git checkout main && git merge feature/x", "allow"),
    ("- Never merge `upstream/main` directly into `main`.\n", "git checkout feat && git merge upstream/main", "allow"),
    # "..., never to `origin`": the verb of the clause's first part
    ("- Push to `fork`, never to `origin`.\n", "git push origin feat", "deny"),
    ("- Push to `fork`, never to `origin`.\n", "git push fork feat", "allow"),
    ("- Put tests in `tests/`, never in `src/`.\n", "touch src/util.test.ts", "deny"),
    ("- Put tests in `tests/`, never in `src/`.\n", "touch src/util.ts", "allow"),
    ("- Don't touch the migrations folder.\n", "sed -i s/a/b/ db/migrations/0001_init.sql", "deny"),
    ("- Don't touch the migrations folder.\n", "sed -i s/a/b/ db/models.py", "allow"),
    (COMPOSE_DOWN_V, "docker compose down -v", "deny"),
    (COMPOSE_DOWN_V, "docker-compose down --volumes", "deny"),
    (COMPOSE_DOWN_V, "docker compose down", "allow"),
    (COMPOSE_DOWN_V, "docker compose up -d", "allow"),
    (NPM_INSTALL_ASIDE, "npm install", "deny"),
    (NPM_INSTALL_ASIDE, "pnpm install", "allow"),
    (NPM_INSTALL_ASIDE, "pip install pnpm", "allow"),
    (BARE_LIST, "npm install", "deny"),
    (BARE_LIST, "yarn add zod", "deny"),
    (BARE_LIST, "yarn test", "allow"),
    (BINSTUBS, "rails server", "warn"),
    (BINSTUBS, "bin/rails server", "allow"),
    (BINSTUBS, "bundle install", "warn"),
    (BINSTUBS, "bin/bundle exec rspec", "allow"),
    (MAKE_TO_BUILD, "make build", "allow"),
    (MAKE_TO_BUILD, "make -j4 all", "allow"),
    (MAKE_TO_BUILD, "go build ./...", "deny"),
    (ONLY_ALLOWED, "npm install", "deny"),
    (ONLY_ALLOWED, "yarn add zod", "deny"),
    (ONLY_ALLOWED, "pnpm install", "allow"),
    (ONLY_IN_USE, "npm install", "warn"),
    (ONLY_IN_USE, "bun install", "allow"),
    (KUBECTL_CHANGES, "kubectl apply -f k8s/", "deny"),
    (KUBECTL_CHANGES, "kubectl delete pod web-1", "deny"),
    (KUBECTL_CHANGES, "kubectl get pods", "allow"),
    (KUBECTL_CHANGES, "kubectl logs web-1", "allow"),
    (AWS_CHANGES, "aws s3 rm s3://bucket/key", "ask"),
    (AWS_CHANGES, "aws ec2 terminate-instances --instance-ids i-1", "ask"),
    (AWS_CHANGES, "aws s3 ls", "allow"),
    (AWS_CHANGES, "aws ec2 describe-instances", "allow"),
    (AZ_DESTRUCTIVE, "az vm delete -n web", "deny"),
    (AZ_DESTRUCTIVE, "az vm list", "allow"),
    # pushes limited to some branches: any other branch a push names is stopped
    (PUSH_ONLY, "git push origin main", "deny"),
    (PUSH_ONLY, "git push origin HEAD:release", "deny"),
    (PUSH_ONLY, "git push -u origin claude/fix-1", "allow"),
    (PUSH_ONLY, "git push --tags", "allow"),
    (PUSH_EXCEPT, "git push origin dev", "allow"),
    (PUSH_EXCEPT, "git push origin main", "deny"),
    # kinds of files by their endings: staged paths ending so, not every commit
    (ENDINGS, "git add art/logo.psd", "deny"),
    (ENDINGS, "git add art/logo.png src/app.py", "allow"),
    (DOTTED, "git add certs/server.pem", "deny"),
    (DOTTED, "git add .env.example src/pem.py", "allow"),
    # a pronoun after code spans is one of them, not a program named in passing in the prose
    (PRONOUN_CODE, "npm run build", "allow"),
    (PRONOUN_CODE, "docker compose up -d", "allow"),
    (HOOK_PRONOUN, "pre-commit run --all-files", "allow"),
    (HOOK_PRONOUN, "ruff check src/app.py", "warn"),
    ("- Never use `ruff` or black. Do not run them on vendored code.\n", "black src/", "deny"),
    # a rate ("per file") narrows the ban to a way of running: warned
    ("- Do not run `mypy` per file.\n", "mypy src/app.py", "warn"),
    ("- Do not run `mypy`.\n", "mypy src/app.py", "deny"),
    # a label opening with a disclosure verb ("Note on ...:") is not a text the message must hold
    (NOTE_LABEL, "git commit -m 'Fix the reaper'", "allow"),
    ("- Mention Jira in every commit message.\n", "git commit -m 'Fix the reaper'", "warn"),
    # a lead-in whose verb stops at the colon: the list (or what follows the colon) is its object,
    # never the bare command; a check-marked line among the cross-marked ones is what is allowed
    (NEVER_COMMIT_LIST, "git commit -m x", "allow"),
    (NEVER_COMMIT_LIST, "git add config/local.json", "deny"),
    (NEVER_COMMIT_LIST, "git add .env.local", "deny"),
    (NEVER_COMMIT_LIST, "git add src/app.py", "allow"),
    (TWO_VERBS_LIST, "git commit -m x", "allow"),
    (TWO_VERBS_LIST, "git push", "allow"),
    (TWO_VERBS_LIST, "git add out/bundle.js", "deny"),
    (AFTER_COLON, "git commit -m x", "allow"),
    (AFTER_COLON, "git add data/cache.db", "deny"),
    (AFTER_COLON, "git add data/seed.sql", "allow"),
    (MARK_LINES, "git reset --hard", "deny"),
    (MARK_LINES, "npm publish", "deny"),
    (MARK_LINES, "git push", "allow"),
    (MARK_LINES, "npm test", "allow"),
    # a heading with a bare verb over a list of paths is its label; over prose it is the rule
    (HEADING_OVER_PATHS, "git commit -m x", "allow"),
    (HEADING_OVER_PATHS, "git add keys/dev.pem", "deny"),
    (HEADING_OVER_PROSE, "git commit -m x", "deny"),
    # verbless "no" fragments: the thing or the category is what the commands make or do; asked
    # with a condition, a warning without one, and a look-alike that reads or lists passes
    ("- No git worktrees unless the user asks.\n", "git worktree add ../wt -b feat/x", "ask"),
    ("- No worktrees without approval\n", "git worktree add ../wt", "ask"),
    ("- No git worktrees unless the user asks.\n", "git worktree list", "allow"),
    ("- No new branches.\n", "git checkout -b feat/x", "warn"),
    ("- No new branches.\n", "git checkout main", "allow"),
    ("- NO deploys unless asked\n", "git status", "allow"),
    ("- No pull requests without approval.\n", "gh pr create --fill", "ask"),
    ("- No pull requests without approval.\n", "gh pr view 12", "allow"),
    ("- No pull requests without approval.\n", "git pull", "allow"),
    ("- No worktrees exist in this checkout yet.\n", "git worktree add ../wt", "allow"),
    ("- No branch protection on forks.\n", "git checkout -b feat/x", "allow"),
    # signing stated as required, with or without "commit"
    ("- GPG signing mandatory\n", "git commit -m x", "deny"),
    ("- GPG signing mandatory\n", "git commit -S -m x", "allow"),
    ("- Commit signing is required.\n", "git commit -m x", "deny"),
    ("- GPG signing is configured on the build machine.\n", "git commit -m x", "allow"),
    # the ask cue at the end of its clause, over the list of what waits for a yes
    ("Before executing any of these, always ask for permission:\n\n- `make purge`\n", "make purge", "ask"),
    ("Before executing any of these, always ask for permission:\n\n- `make purge`\n", "make test", "allow"),
    ("- `make reset` will ask for confirmation.\n", "make reset", "allow"),
    # a listed command narrowed by a relative clause: some of its calls, which the call does not show
    ("Before running any of these, ask for confirmation:\n\n- `git checkout` that would discard changes\n",
     "git checkout -b feat/x", "warn"),
    # required runners: the bare program warns (denied when the text says must / only and names it);
    # the wrapped form, the same command in a container, and other commands pass
    (PHP_IN_COMPOSE, "php artisan test", "deny"),
    (PHP_IN_COMPOSE, "composer require acme/pkg", "deny"),
    (PHP_IN_COMPOSE, "docker compose exec app php artisan test", "allow"),
    (PHP_IN_COMPOSE, "docker-compose exec app composer install", "allow"),
    (PHP_IN_COMPOSE, "npm run build", "allow"),
    (ARTISAN_INSIDE, "php artisan migrate", "deny"),
    (ARTISAN_INSIDE, "docker exec -it app php artisan tinker", "allow"),
    (ARTISAN_INSIDE, "php -v", "allow"),
    (NODE_GO_THROUGH, "npm install", "warn"),
    (NODE_GO_THROUGH, "docker compose exec web npm install", "allow"),
    (FVM_PREFIX, "flutter pub get", "warn"),
    (FVM_PREFIX, "fvm flutter pub get", "allow"),
    (FVM_PREFIX, "git status", "allow"),
    (FVM_INTRO, "dart format .", "warn"),
    (FVM_INTRO, "fvm dart format .", "allow"),
    (FVM_INTRO, "ls", "allow"),
    (UV_ALONE, "python src/train.py", "warn"),
    (UV_ALONE, "uv run python src/train.py", "allow"),
    (UV_ALONE, "uv sync", "allow"),
    (UV_SPAN, "pytest -x", "warn"),
    (UV_SPAN, "uv run pytest -x", "allow"),
    (UV_SPAN, "npm test", "allow"),
    (DIRECT_THEN_RUNNER, "python x.py", "deny"),
    (DIRECT_THEN_RUNNER, "uv run python x.py", "allow"),
    (POETRY_FOR, "python app.py", "warn"),
    (POETRY_FOR, "poetry run python app.py", "allow"),
    (POETRY_FOR, "poetry add requests", "allow"),
    (BARE_BESIDE_RUNNER, "python tools/report.py", "deny"),
    (BARE_BESIDE_RUNNER, "poetry run python tools/report.py", "allow"),
    (BARE_BESIDE_RUNNER, "poetry install", "allow"),
    (NEVER_DIRECTLY, "pytest tests/unit", "deny"),
    (NEVER_DIRECTLY, "uv run pytest tests/unit", "allow"),
    (NEVER_DIRECTLY, "uv sync", "allow"),
    (SPAN_PURPOSE, "rspec spec/models", "warn"),
    (SPAN_PURPOSE, "bundle exec rspec spec/models", "allow"),
    (SPAN_PURPOSE, "bundle install", "allow"),
    (LISTED_BARE, "php artisan migrate", "deny"),
    (LISTED_BARE, "docker compose exec app php artisan migrate", "allow"),
    (LISTED_BARE, "composer install", "allow"),
    (LISTED_SOFT, "flutter test", "allow"),
    (LISTED_SOFT, "fvm flutter test", "allow"),
    # a script run by an interpreter in a container is in the container
    ("- Never run `manage.py` on the host; use the `web` container.\n", "python manage.py migrate", "deny"),
    ("- Never run `manage.py` on the host; use the `web` container.\n", "docker compose exec web python manage.py migrate", "allow"),
    # doing it on one's own is the rule's condition, for a push or a merge as for a commit: each asks
    (UNASKED, "git push", "ask"),
    (UNASKED, "git commit -m x", "ask"),
    (UNASKED, "git status", "allow"),
    (ON_OWN, "git rebase -i HEAD~3", "ask"),
    (ON_OWN, "git log --oneline", "allow"),
    # words that name some pushes stay a warning
    (SOME_PUSHES, "git push", "warn"),
    # a file of secrets as projects name it, in any folder and either case; its template, a sealed
    # secret and a page about secrets are committed
    (SECRETS, "git add k8s/apps/db/secret.yaml", "deny"),
    (SECRETS, "git add -f App/Support/Secrets.xcconfig", "deny"),
    (SECRETS, "git add config/secrets.json", "deny"),
    (SECRETS, "git add deploy/workers.secret.yml", "deny"),
    (SECRETS, "git add k8s/apps/db/sealed-secret.yaml k8s/apps/db/secret.template.yaml", "allow"),
    (SECRETS, "git add App/Support/Secrets.xcconfig.example", "allow"),
    (SECRETS, "git add config/secrets.example.json", "allow"),
    (SECRETS, "git add docs/secrets.md scripts/create_secrets.sh", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "verdict"), CASES, ids=[f"{c[1]}->{c[2]}" for c in CASES])
def test_rule_decision(policy: str, command: str, verdict: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(bash(command), checks=checks).verdict == verdict


THERE = "New tests go under `tests/`. `legacy/` is deprecated; do not add tests there.\n"
#: a kind of file and a place: the ban is about that kind there, not every file of the place
ROOT_DOCS = "- Don't add markdown files at the repository root.\n"
TESTS_PLACE = "- Put tests in `tests/`, never in `src/`.\n"
#: directories named in words, without backticks or slashes
NAMED_DIR = "- Don't touch the migrations folder.\n"
VENDOR_READ_ONLY = "- The vendor directory is read-only.\n"
#: "other X": the files the same text names are set apart from the ban
OTHER = "- Add strings only to `res/l10n/App_en.properties`; do not touch other `.properties` files.\n"

HEADING_PATH = "### `db/migrations/`\n\nNever edit existing files here.\n"
MANAGED = "- Files in `proto/out/` are managed by buf; never hand-edit.\n"
MADE_BY = "The markdown pages here are generated by the scripts in `tools/`. Do not edit them directly.\n"

#: things kept as files, placed by a directory: the files there, at full force, however worded;
#: a verb that makes something new, or a thing in the code, leaves the directory free
KEPT = ("- Never edit the specs in spec/ by hand.\n"
        "- The API definitions under `api/openapi/` must not be hand-edited.\n"
        "1. Don't modify the templates in /theme/layouts directly.\n"
        "> Never touch the fixtures under `tests/fixtures`, under any circumstances.\n"
        "- **Clients** - never edit the generated clients in `sdk/gen`.\n"
        "- Don't put templates in `src/`.\n"
        "- Don't change the public API in `lib/`.\n")
#: a place written from the root, as in a .gitignore, after a noun the tables know
ROOTED = "- Do not edit generated code under /backend/api/gen.\n"

#: a file edited by hand, named after "instead of": writes to it are warned
POETRY_ADD = "- Use `poetry add` instead of manually editing pyproject.toml\n"

#: a verb the tables do not know over a path written out: a change to it, asked (a guess); verbs
#: that leave the path as it is, a path that qualifies a noun or places the action, a description
GUESSED = ("- Never symlink `vendor/`.\n"
           "- Do not rewrite `CHANGELOG.md` by hand.\n"
           "1. Never regenerate `api/openapi.json` manually.\n")
NOT_GUESSED = ("- Never import from `src/internal/`.\n"
               "- Do not mock `src/db.ts` in integration tests.\n"
               "- Never forget `NEWS.md`.\n"
               "- Don't re-export in `__init__.py`.\n"
               "- No making `lib/` classes public.\n"
               "- The build script regenerates `dist/` on every run.\n"
               "- Never flatten `pkg/` into one module.\n")
#: verbs of change the table knows: the change is banned outright
CHANGE_VERBS = "- Do not reformat `vendored/`.\n- Never recreate `build/legacy/`.\n"
#: the paths a noun means written after its colon; a noun phrase after the verb's colon
NAMED_AFTER = "- Never edit generated files: `src/gen/`, `api/types.ts`.\n- Never access: environment files (`.env*`).\n"

PATH_CASES = [
    (GUESSED, "Edit", "vendor/lib/a.go", "ask"),
    (GUESSED, "Edit", "CHANGELOG.md", "ask"),
    (GUESSED, "Write", "api/openapi.json", "ask"),
    (GUESSED, "Read", "vendor/lib/a.go", "allow"),
    (GUESSED, "Edit", "src/app.go", "allow"),
    (NOT_GUESSED, "Edit", "src/internal/a.ts", "allow"),
    (NOT_GUESSED, "Edit", "src/db.ts", "allow"),
    (NOT_GUESSED, "Edit", "NEWS.md", "allow"),
    (NOT_GUESSED, "Edit", "pkg/__init__.py", "allow"),
    (NOT_GUESSED, "Edit", "lib/a.kt", "allow"),
    (NOT_GUESSED, "Edit", "dist/app.js", "allow"),
    (NOT_GUESSED, "Edit", "pkg/a.go", "allow"),
    (CHANGE_VERBS, "Edit", "vendored/zlib/inflate.c", "deny"),
    (CHANGE_VERBS, "Write", "build/legacy/index.html", "deny"),
    (CHANGE_VERBS, "Edit", "build/app.js", "allow"),
    (NAMED_AFTER, "Edit", "src/gen/client.ts", "deny"),
    (NAMED_AFTER, "Edit", "api/types.ts", "deny"),
    (NAMED_AFTER, "Edit", "web/generated/schema.ts", "allow"),
    (NAMED_AFTER, "Read", ".env.local", "deny"),
    (NAMED_AFTER, "Read", "src/env.ts", "allow"),
    (POETRY_ADD, "Edit", "pyproject.toml", "warn"),
    (POETRY_ADD, "Edit", "src/app.py", "allow"),
    (OTHER, "Edit", "res/l10n/App_en.properties", "allow"),
    (OTHER, "Edit", "res/l10n/App_de.properties", "deny"),
    (OTHER, "Write", "config/app.properties", "deny"),
    (THERE, "Write", "legacy/suite/NewTest.java", "deny"),
    (THERE, "Write", "tests/suite/NewTest.java", "allow"),
    (ANY_CHANGE, "Edit", "src/app.py", "ask"),
    (ANY_CHANGE, "Write", "src/new.py", "ask"),
    (ANY_CHANGE, "Read", "src/app.py", "allow"),
    (TOOLCHAIN, "Edit", ".nvmrc", "ask"),
    (TOOLCHAIN, "Edit", "src/app.ts", "allow"),
    (DELETE_FILES, "Edit", "src/app.py", "allow"),
    (ROOT_DOCS, "Write", "NOTES.md", "deny"),
    (ROOT_DOCS, "Write", "docs/notes.md", "allow"),
    (TESTS_PLACE, "Write", "src/util.test.ts", "deny"),
    (TESTS_PLACE, "Write", "src/util.ts", "allow"),
    (TESTS_PLACE, "Write", "tests/util.test.ts", "allow"),
    (NAMED_DIR, "Edit", "db/migrations/0001_init.sql", "deny"),
    (NAMED_DIR, "Edit", "db/models.py", "allow"),
    (VENDOR_READ_ONLY, "Edit", "vendor/lib/a.go", "ask"),
    (VENDOR_READ_ONLY, "Edit", "internal/a.go", "allow"),
    # where a kind of file goes: elsewhere warned, the place and other files free
    ("- Tests go in `tests/`.\n", "Write", "src/util.test.ts", "warn"),
    ("- Tests go in `tests/`.\n", "Write", "tests/util.test.ts", "allow"),
    ("- Tests go in `tests/`.\n", "Write", "src/util.ts", "allow"),
    # a heading that is a path is what "here" means under it
    (HEADING_PATH, "Edit", "db/migrations/0001_init.sql", "deny"),
    (HEADING_PATH, "Edit", "db/models.py", "allow"),
    # a ban with no object after a sentence naming one path: that path, asked
    (MANAGED, "Edit", "proto/out/a.pb.go", "ask"),
    (MANAGED, "Edit", "proto/src/a.proto", "allow"),
    # the maker of generated files is not what "them" means
    (MADE_BY, "Edit", "tools/gen.py", "allow"),
    (KEPT, "Edit", "spec/api.yaml", "deny"),
    (KEPT, "Edit", "api/openapi/users.yaml", "deny"),
    (KEPT, "Edit", "theme/layouts/base.html", "deny"),
    (KEPT, "Write", "tests/fixtures/user.json", "deny"),
    (KEPT, "Edit", "sdk/gen/client.ts", "deny"),
    (KEPT, "Write", "src/page.html", "allow"),
    (KEPT, "Edit", "lib/api.py", "allow"),
    (KEPT, "Edit", "tests/test_user.py", "allow"),
    (KEPT, "Edit", "theme/config.toml", "allow"),
    (ROOTED, "Edit", "backend/api/gen/server.go", "deny"),
    (ROOTED, "Edit", "backend/api/handlers.go", "allow"),
    (ROOTED, "Edit", "web/gen/x.ts", "allow"),
    # a noun for the action after "no": the action on the paths it names
    ("- No changes to `db/migrations/` without approval.\n", "Edit", "db/migrations/0002.sql", "ask"),
    ("- No changes to `db/migrations/` without approval.\n", "Edit", "db/models.py", "allow"),
    ("- NO edits to `third_party/`\n", "Write", "third_party/zlib/zlib.h", "deny"),
    ("- No modification of `src/gen/api.ts` by hand.\n", "Edit", "src/gen/api.ts", "deny"),
    ("- No changes to `settings.toml` are needed for local runs.\n", "Edit", "settings.toml", "allow"),
    ("- No changes to the public API without a deprecation note.\n", "Edit", "src/api.py", "allow"),
    # a statement of practice without a cue word: a warning
    ("- `vendor/` is not edited by hand.\n", "Edit", "vendor/lib/a.js", "warn"),
    ("- `vendor/` is not modified by the installer.\n", "Edit", "vendor/lib/a.js", "allow"),
    # "make changes to" at the end of an intro: the list's items are what is not changed, and an item
    # that only names a group passes the force down to its own items; brace groups name each path
    (NO_CHANGES_TO, "Edit", "dist/app.js", "deny"),
    (NO_CHANGES_TO, "Edit", "lib/zlib/inflate.c", "deny"),
    (NO_CHANGES_TO, "Write", "lib/json/json.h", "deny"),
    (NO_CHANGES_TO, "Edit", "lib/core/main.c", "allow"),
    (NO_CHANGES_TO, "Edit", "lib/jsonutil.c", "allow"),
    (NO_CHANGES_TO, "Edit", "src/app.c", "allow"),
    ("- Never edit `gen/{api,models}.ts` by hand.\n", "Edit", "gen/api.ts", "deny"),
    ("- Never edit `gen/{api,models}.ts` by hand.\n", "Edit", "gen/models.ts", "deny"),
    ("- Never edit `gen/{api,models}.ts` by hand.\n", "Edit", "gen/client.ts", "allow"),
    ("- Never edit `templates/{name}.html` by hand.\n", "Edit", "templates/home.html", "deny"),
]


@pytest.mark.parametrize(("policy", "name", "path", "verdict"), PATH_CASES, ids=[f"{c[1]} {c[2]}->{c[3]}" for c in PATH_CASES])
def test_path_rule_decision(policy: str, name: str, path: str, verdict: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(tool(name, file_path=path, content="x"), checks=checks).verdict == verdict
