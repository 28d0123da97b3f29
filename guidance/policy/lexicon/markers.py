"""Markers: the small words around a rule's action that change what it means.

- `CONDITIONS`: "unless asked", "without approval" make a ban a question (ask); "unless
  necessary" leaves the call to the agent (warn). Chinese, Japanese and Korean forms are in
  lexicon/cjk.py.
- `SUBSTITUTIONS`: "use X instead of Y", "X, not Y", "prefer X over Y": Y is what the rule is
  against, X is what the reason tells the agent to do.
- `ORDERING`: "before", "after", "only after", "prior to": X must run before the action.
- `QUALIFIERS`: words after a banned command that narrow it beyond what a pattern can say
  ("on main", "against production", "in watch mode"): the ban becomes a warning (asking on
  every call the situation does not show would stop everyday work).
- `ADVERBS`: words between a cue and its verb or after the object that do not narrow a rule
  ("directly", "manually", "locally", "yourself", "proactively").
- `EXAMPLE_MARKERS`: "e.g.", "for example": what follows illustrates, it is never banned.
- `PRONOUNS`, `DEICTICS`: "them", "these tools" (the objects of the sentence before), "here"
  (the path a list item is about).
- `DESCRIPTIVE_SUBJECTS`: a subject before the cue makes a sentence a description ("the CI
  never runs `x`"), unless it is the agent ("you", "Claude", "agents").
- `ABBREVIATIONS`: words ending in a period that do not end a sentence.
- `PUBLISHED`: commits others may already have ("pushed commits", "commits that have been
  pushed"): a ban on rewriting them holds once the session pushed the branch (the gate reads the
  session's history) and warns otherwise.
- `CHANGE_WORDS`, `CHANGE_TRIGGERS`, `TASK_DONE`, `ANY_FILES`, `JUDGED_CHANGES`, `LANGUAGE_FILES`, `CHECK_WORDS`,
  `DONE_MOMENTS`: "after modifying
  SQL queries, run `make gen`", "whenever you touch `proto/`, run `buf generate`", "run the tests
  after completing a task": the command must run after the last change of those files (any file
  when the words name none) before the next commit (the gate reads the session's edits).
- `WORK_STATES`: the state of the work a ban on committing or pushing names ("never commit
  untested code", "don't push code that fails the tests"): the task that shows it, run before
  the action (a warning), or nothing a tool call shows ("code you don't understand").
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class Condition:
    phrases: tuple[str, ...]
    #: "permission": a human decides (ask); "judgment": the agent decides (warn)
    kind: str
    examples: tuple[Example, ...] = ()


CONDITIONS: tuple[Condition, ...] = (
    Condition(("unless asked", "unless explicitly asked", "unless told", "unless explicitly told", "unless instructed",
               "unless explicitly instructed", "unless requested", "unless explicitly requested", "unless approved",
               "unless i ask", "unless i tell you", "unless the user asks", "unless the user explicitly asks",
               "unless the user requests", "unless the user tells you", "unless you are asked", "unless you're asked",
               "unless you are told", "unless directed", "without asking", "without asking first", "without explicitly asking",
               "without asking the user", "without asking me", "without explicitly asking the user", "without checking with the user", "without approval",
               "without explicit approval", "without user approval", "without permission", "without explicit permission",
               "without consent", "without explicit consent", "with explicit user consent", "with explicit consent",
               "with user consent", "with explicit approval", "without an explicit instruction",
               "without explicit instruction", "without being asked", "without being told", "without instruction",
               "without confirmation", "without confirming", "without discussion", "without discussing",
               "without a confirmed plan", "only when asked", "only if asked", "only when instructed",
               "only when the user asks", "only if the user asks", "only if explicitly requested", "only when requested",
               "if explicitly requested", "until approved", "until the user approves", "unless the user says so",
               "only if the user explicitly says so", "unless specifically asked", "except when asked",
               "when explicitly requested", "when explicitly asked", "when requested", "when asked",
               "when the user asks", "when the user explicitly asks", "when the user requests", "when instructed", "when explicitly instructed",
               "if explicitly asked", "if asked", "when told", "when explicitly told", "silently", "quietly",
               "without showing the diff", "without telling the user", "without telling me", "without notifying the user",
               "without review", "without a review", "without code review", "without human review"),
              "permission",
              examples=(ex("- Never run `npm run dev` unless I tell you to", "ask command npm run dev"),
                        ex("- Create commits only when explicitly requested", "ask command git commit"),
                        ex("- Never change `deploy.yml`'s `jobs:` block silently; show the diff first", "ask write deploy.yml"),
                        ex("- Don't `git push` without asking", "ask command git push"),
                        ex("- Never add rules to this file unless explicitly instructed.", "ask write CLAUDE.md"),
                        ex("- Only push when I tell you to", "ask command git push"),
                        ex("- Do not commit changes until the user has reviewed them", "ask command git commit"),
                        ex("- Only push when the build is green"))),
    Condition(("unless necessary", "unless absolutely necessary", "unless needed", "unless required",
               "unless unavoidable", "unless completely unavoidable", "unless it is necessary", "unless they're absolutely necessary",
               "unless they are absolutely necessary", "if possible", "where possible", "when possible",
               "unless there is a good reason", "unless you have a good reason", "only when absolutely necessary",
               "only when necessary", "only if necessary", "when absolutely necessary"),
              "judgment",
              examples=(ex("- `yarn vitest` - Run all tests (slow, avoid unless necessary)", "warn command yarn vitest"),)),
)

#: the last word of a command that keeps running (a server, a watcher): it is never a step that
#: must have run before a commit or push ("keep `rails server` running", "make sure `npm run dev`
#: is up"); the session's history cannot hold it as done
LONG_RUNNING: tuple[str, ...] = ("server", "dev", "watch", "start", "serve", "--watch", "up", "runserver", "dev:server")

LONG_RUNNING_EXAMPLES: tuple[Example, ...] = (
    ex("Before any commit:\n\n- run `bundle exec rspec`\n- make sure `npm run dev` is running\n",
       "warn sequence rspec -> git commit"),
    ex("- Keep `rails server` running before you commit"),
    ex("- Always run `npm run build` before pushing", "warn sequence npm run build -> git push"),
)

#: words that narrow a ban on a program's commands to the ones that change something ("`aws`
#: commands that create, modify or delete resources", "mutating kubectl commands", "destructive
#: az CLI"): beside a program the effect model knows (cf_guidance.gates.commands.effects, the tables
#: EFF001 asks by), the check holds only for the commands the model counts as changes; reading
#: (`kubectl get`, `aws s3 ls`) passes. The word comes right before the program, or after it and a
#: word for its commands (STATE_CHANGING_NOUNS) within a few words.
STATE_CHANGING: tuple[str, ...] = ("modify", "modifies", "modifying", "mutate", "mutates", "mutating", "change", "changes",
                                   "changing", "alter", "alters", "create", "creates", "delete", "deletes", "destructive",
                                   "write", "writes", "state-changing", "non-read-only")
#: the words for a program's commands that a STATE_CHANGING word may follow ("kubectl commands that ...")
STATE_CHANGING_NOUNS: tuple[str, ...] = ("command", "commands", "cli", "operations", "operation", "calls", "subcommands")

STATE_CHANGING_EXAMPLES: tuple[Example, ...] = (
    ex("- Never run kubectl commands that modify state", "deny command kubectl when it changes something"),
    ex("- Never use `aws` CLI commands that create or delete resources without approval",
       "ask command aws when it changes something"),
    ex("- Never run mutating `gcloud` commands", "deny command gcloud when it changes something"),
    ex("- NEVER destructive az CLI", "deny command az when it changes something"),
    ex("- Never run `kubectl` commands", "deny command kubectl"),
    ex("- Never run `terraform destroy`, it deletes the state", "deny command terraform destroy"),
)

#: words opening a list's introduction that set a situation ("If a migration failed:", "When
#: secrets were committed by accident:"): the items' bans hold only then, which no tool call shows
#: (a warning), unless the situation is an action the hook sees ("When committing:") or names a path
SITUATION_INTROS: tuple[str, ...] = ("if", "when", "whenever", "in case", "in the event", "should", "once")

SITUATION_INTRO_EXAMPLES: tuple[Example, ...] = (
    ex("If a migration failed:\n\n- don't fix the file and push again\n", "warn command git push"),
    ex("- If a secret was committed by accident:\n  - never just delete it and commit again\n"),
    ex("When committing:\n\n- never use `--no-verify`\n", "deny command * --no-verify"),
    ex("If you touch `proto/`:\n\n- never edit `gen/`\n", "deny write gen/**", exact=False),
)

#: first words of an aside in parentheses that names what to use instead of the object before it
#: ("`secrets.yaml` (commit `secrets.sample.yaml` instead)", "`.env` (use `.env.example`)"); an
#: aside holding "instead" anywhere says the same: its paths and commands are the alternative the
#: reason names, never more objects of the ban
ALTERNATIVE_ASIDES: tuple[str, ...] = ("use", "instead", "prefer", "commit", "copy", "edit", "run", "try", "see", "put",
                                       "add", "update", "change", "modify", "keep")

ALTERNATIVE_ASIDE_EXAMPLES: tuple[Example, ...] = (
    ex("## Never commit these files\n\n- `secrets.yaml` (commit `secrets.sample.yaml` instead)\n", "deny stage secrets.yaml"),
    ex("- Never edit `config.local.json` (edit `config.default.json` instead)", "deny write config.local.json"),
    ex("- Do not read `.env.production` (use `.env.example` for the variable names)", "deny read .env.production"),
    ex("- Never run `npm audit fix --force` (try `npm audit fix` first)", "deny command npm audit fix --force"),
)

#: English words for doing it on one's own, wherever they stand in the clause: a person decides (ask)
ON_YOUR_OWN: tuple[str, ...] = ("automatically", "proactively", "autonomously", "on your own", "of your own accord",
                                "on your own initiative", "unprompted", "unasked", "without being prompted")

ON_YOUR_OWN_EXAMPLES: tuple[Example, ...] = (
    ex("- Do NOT run `git commit` automatically", "ask command git commit"),
    ex("- Never push proactively", "ask command git push"),
    ex("- Never commit or push unasked", "ask command git commit", "ask command git push"),
)

#: objects of a change that mean every file of the project ("don't modify files unless asked", "no
#: file changes without my approval"): asked for when a person must say yes first (a condition, "ask
#: before"): every change the call makes to the project's files asks (the Edit and Write tools,
#: shell commands that write there; reads, temporary files and paths outside the project stay
#: free); deleting them asks on the commands that delete. A plain ban ("never modify files") or
#: advice is no rule a call can be checked against (an agent that writes code changes files).
EVERY_FILE: tuple[str, ...] = ("files", "file", "any file", "any files", "file changes", "changes", "any changes",
                               "modifications", "code changes", "the code", "code", "the codebase", "codebase",
                               "source files", "source code", "existing files", "existing code", "anything",
                               "the repository", "the repo", "repository files", "project files")

EVERY_FILE_EXAMPLES: tuple[Example, ...] = (
    ex("- Do not make any file changes without my approval", "ask write **"),
    ex("- Claude must not modify files unless explicitly instructed", "ask write **"),
    ex("- Ask before editing any files", "ask write **"),
    ex("- Never delete files unless explicitly instructed", "ask command rm", "ask command git rm", "ask command unlink",
       "ask command rmdir"),
    ex("- Never modify files"),
    ex("- Avoid changing existing code without asking"),
    ex("- Don't modify files outside `src/` without approval", "ask write outside src/**"),
    ex("- Never overwrite existing files unless asked"),
    ex("## Ask before\n\n- Deleting or moving files\n", "ask command rm", "ask command git rm", "ask command unlink",
       "ask command rmdir", "ask command mv", "ask command git mv"),
    ex("NEVER do the following without explicit user confirmation:\n\n- Delete files or data (rm, truncate)\n",
       "ask command rm", "ask command git rm", "ask command unlink", "ask command rmdir"),
)

#: the commands that delete files: "never delete files unless told" asks on them
DELETE_COMMANDS: tuple[str, ...] = ("rm", "git rm", "unlink", "rmdir")
#: verbs of change that move a file, and the commands that do: "ask before moving files" asks on them
MOVE_VERBS: tuple[str, ...] = ("move", "moving", "rename", "renaming")
MOVE_COMMANDS: tuple[str, ...] = ("mv", "git mv")

#: (marker, which side is banned): "left" = the words before the marker are the alternative
SUBSTITUTIONS: tuple[tuple[str, str], ...] = (
    ("instead of", "right"), ("rather than", "right"), ("in place of", "right"), ("not", "right"),
    ("over", "right"), ("but not", "right"), ("never", "right"), ("and not", "right"), ("in lieu of", "right"),
)

#: verbs that name the preferred side before "over" ("prefer `rg` over `grep`", "favour `just` over `make`")
PREFER_WORDS: tuple[str, ...] = ("prefer", "favor", "favour")
#: words that may open the clause before them ("Strongly prefer X over Y", "Always favour X over Y")
PREFER_ADVERBS: tuple[str, ...] = ("always", "strongly", "generally", "usually", "please")
#: the preference said of the wanted side ("`ruff` should be preferred to `black`"): the side after is discouraged
PREFERRED_PASSIVE: tuple[str, ...] = ("should be preferred to", "should be preferred over", "is preferred to",
                                      "is preferred over", "are preferred to", "are preferred over", "is preferable to",
                                      "are preferable to", "preferred over", "preferred to")
#: after "prefer X", the word that names the other side ("Prefer `rg` to `grep`"), when a program follows it
PREFER_TO: tuple[str, ...] = ("to",)

SUBSTITUTION_EXAMPLES: tuple[Example, ...] = (
    ex("- `ruff` should be preferred to `black`", "warn command black"),
    ex("- `rg` is preferred over `grep` for searching", "warn command grep"),
    ex("- Prefer `rg` to `grep`", "warn command grep"),
    ex("- Prefer `rg` to search the code"),
    ex("- Composition is preferred over inheritance"),
    # a file edited by hand after the marker: writes to it are warned, the reason names the command
    ex("- Use `poetry add` instead of manually editing pyproject.toml", "warn write pyproject.toml"),
    ex("- Run `make gen` rather than editing `src/gen/api.ts` by hand", "warn write src/gen/api.ts"),
    ex("- Use the admin form instead of editing records by hand"),
    ex("- Use `cargo nextest run` in place of `cargo test`.", "warn command cargo test"),
    ex("- Always prefer `rg` over `grep`.", "warn command grep"),
    ex("- Strongly prefer `just` recipes over raw `cargo` commands.", "warn command cargo"),
    ex("- Always prefer composition over inheritance."),
    ex("- Prefer `task` recipes over raw kubectl/helm.", "warn command kubectl", "warn command helm"),
    ex("- Prefer `task` over raw talosctl.", "warn command talosctl"),
    ex("- Use `uv pip` (not `pip`) and `uv run` (not `python`).", "warn command pip via uv", "warn command python via uv"),
    ex("- Use the `api` client, not raw fetch calls."),
    ex("- Use `uv` instead of `pip`", "warn command pip via uv"),  # `uv pip install` is the way it names
    ex("- Use `yarn` not `npm` - packageManager field enforces this", "warn command npm"),
    ex("- Prefer `rg` over `grep -r`", "warn command grep -r"),
    # an imperative naming the command for a task: the task's other commands, as "always use" does
    ex("- Use `gofumpt` for formatting.", "warn command <format>"),
    ex("- Use `make fmt` to format Go code.", "warn command <format>"),
    ex("- Use the `Makefile` for builds."),
    # a use in one role is warned, not banned
    ex("- Never use `pytest` output as proof of a fix.", "warn command pytest"),
    ex("- Never use `pytest` directly.", "deny command pytest"),
    ex("- Use `pytest -k name` to run a single test."),
    ex("- Use `pnpm` - never use npm or yarn", "deny command npm", "deny command yarn"),
    ex("- `pnpm` for all package management — not npm or yarn.", "warn command npm", "warn command yarn"),
    ex("- `legacy/` — not maintained anymore"),
    ex("- use `npm run release:*` to create releases (not manual git tag commands)", "warn command <tag>"),
    ex("- Always use `git commit -S --signoff` (not `--signoff` alone)", "warn arguments git commit needs -S --signoff"),
    ex("- Always commit with `git commit -s`", "warn arguments git commit needs -s"),
    ex("- Use `git commit -S` for every commit", "warn arguments git commit needs -S"),
    ex("- Use `git commit -m` with a short message"),
    ex("- CRITICAL: this repo uses `pnpm`, NOT `npm`.", "warn command npm"),
    ex("- `(app)/x/page.tsx` maps to `/x`, not `/app/x`"),
)

ORDERING: tuple[str, ...] = ("before", "prior to", "after", "only after", "until", "before every", "before each",
                             "before any", "ahead of")

#: a task's verb, a preposition and a command: the command is how the task is done, so the clause
#: runs it ("lint with `rubocop -A` before any commit", "format using `black .` before pushing")
TASK_VERBS: tuple[str, ...] = ("lint", "format", "test", "typecheck", "type-check", "check", "validate", "verify", "build",
                               "compile", "regenerate", "generate", "rebuild")
TASK_PREPOSITIONS: tuple[str, ...] = ("with", "using", "via", "through")

#: a verb the tables do not know, over or through a program named in words ("never apply Terraform",
#: "don't read logs with kubectl"): the program's subcommand that does it, when the words name one
#: ("with kubectl get") or the document itself runs one of the verb's words (`terraform apply`,
#: `kubectl logs`); never the whole program, and asked, not denied: which run is meant is a reading
MEANS_EXAMPLES: tuple[Example, ...] = (
    ex("- Never apply Terraform in production.\n\nPlan with `terraform plan` and apply with `terraform apply plan.out`.\n",
       "ask command terraform apply"),
    ex("- Don't read pod logs with kubectl.\n\nInspect with `kubectl logs web-0` or `kubectl get pods`.\n",
       "ask command kubectl logs"),
    ex("- Don't check the rollout with kubectl get, ask the user.\n", "ask command kubectl get"),
    ex("- Never apply Terraform in production.\n"),
    ex("- Don't fix formatting with prettier, leave it to CI.\n\nRun `prettier --check .` to see it.\n"),
)

#: headings that name a checklist or workflow gone through before a git action, with that action
#: ("## Pre-commit checklist", "### Definition of Done"): the commands of their items, of code
#: blocks nested in the items and of a code block right under the heading must run first; a
#: warning, unless the heading or the intro says it strongly ("(all must pass)", "always run").
#: Items after the one that does the action ("3. Commit", "4. Push") are not steps before it.
WORKFLOW_TITLES: tuple[tuple[str, str], ...] = (
    ("pre-commit checklist", "commit"), ("precommit checklist", "commit"), ("pre-commit steps", "commit"),
    ("pre-commit workflow", "commit"), ("pre-commit requirements", "commit"), ("pre-commit routine", "commit"),
    ("commit checklist", "commit"), ("commit workflow", "commit"), ("commit process", "commit"),
    ("committing workflow", "commit"), ("definition of done", "commit"), ("quality gates", "commit"),
    ("quality gate", "commit"), ("done criteria", "commit"),
    ("pre-push checklist", "push"), ("pre-push steps", "push"), ("push checklist", "push"),
    ("pr checklist", "pr"), ("pull request checklist", "pr"), ("pre-pr checklist", "pr"), ("pre-pr checks", "pr"),
    ("pre-submission checklist", "pr"), ("submission checklist", "pr"), ("pr readiness", "pr"),
    ("pre-merge checklist", "merge"), ("merge checklist", "merge"),
    ("pre-commit checks", "commit"), ("pre-commit verification", "commit"), ("pre-push checks", "push"),
    ("pre-push requirements", "push"),
    # the end of the work (DONE_MOMENTS): the next commit after a change stands for it
    ("completion checklist", "done"), ("pre-completion checklist", "done"), ("pre-completion checks", "done"),
    ("completion checks", "done"), ("task completion", "done"),
)

WORKFLOW_TITLE_EXAMPLES: tuple[Example, ...] = (
    ex("## Pre-commit checklist\n\n- [ ] Linting passes: `make lint`\n- [ ] No debug print statements\n",
       "warn sequence make lint -> git commit"),
    ex("## Commit workflow\n\n1. Run `pnpm lint`\n2. Commit with a clear message\n3. Run `pnpm deploy`\n",
       "warn sequence pnpm lint -> git commit"),
    ex("## Definition of Done\n\n- `uv run pytest` passes\n- Docs updated\n", "warn sequence pytest -> git commit"),
    ex("## Pre-commit checklist (all must pass)\n\n```bash\ngo vet ./...\ngo test ./...\ngit commit -m msg\n```\n",
       "deny sequence go vet ./... -> git commit", "deny sequence go test ./... -> git commit"),
    ex("## Pre-commit checklist\n\n1. **Run tests**\n\n   ```bash\n   cargo test\n   ```\n", "warn sequence cargo test -> git commit"),
    ex("## PR checklist\n\n- [ ] `npm run build` succeeds\n", "warn sequence npm run build -> gh pr create"),
    ex("## Pre-commit hooks\n\n- Husky runs `lint-staged` on every commit\n"),
    ex("## Building\n\n1. Run `make build`\n2. Run `make dist`\n"),
    # numbered steps with no such title: the steps before the one that commits
    ex("1. Make your changes\n2. Run `make check`\n3. Commit and push\n", "warn sequence make check -> git commit"),
    ex("1. Commit your changes\n2. Run `make deploy`\n"),
    ex("## Commit messages\n\n- Use `feat:` for features\n"),
    ex("## Pre-commit checks\n\n```bash\nmake lint\n```\n", "warn sequence make lint -> git commit"),
    ex("## Task completion checklist\n\n1. `npm run lint`\n2. `npm test`\n",
       "warn sequence npm run lint -> git commit after any change", "warn sequence npm test -> git commit after any change"),
    ex("## Pre-commit checklist\n\n- Lint: `make lint`\n- Config: `config/settings.yaml`\n", "warn sequence make lint -> git commit"),
    ex("Always run these checks before creating a git commit:\n\n1. `cargo fmt --check` - formatting\n",
       "warn sequence cargo fmt -> git commit", exact=False),
    ex("Before creating any pull request, you MUST:\n\n1. Run `go fmt ./...`\n", "deny sequence go fmt ./... -> gh pr create"),
    ex("## Pre-push checklist\n\nAlways run these commands before pushing:\n\n```bash\nmake lint\n```\n",
       "warn sequence make lint -> git push"),
    ex("### Release process\n\n1. Run the release script:\n\n   ```bash\n   ./scripts/release.sh\n   ```\n\n"
       "2. Open PR: \"Bump version\"\n"),
)

#: what joins the steps of a workflow written on one line ("edit → `make test` → commit → push",
#: "1) `cargo fmt` 2) `cargo clippy` 3) commit"; a number and ")" join them too): the commands
#: of the steps before a git action run before it (a warning unless the line says must)
CHAIN_ARROWS: tuple[str, ...] = ("\u2192", "->", "=>", "\u21d2", "\u279c", "\u2794", "\u27f6", "\u27a1")

CHAIN_EXAMPLES: tuple[Example, ...] = (
    ex("- Workflow: edit \u2192 `make test` \u2192 commit \u2192 push", "warn sequence make test -> git commit"),
    ex("- Loop: `npm run lint` -> `npm test` -> commit", "warn sequence npm run lint -> git commit",
       "warn sequence npm test -> git commit"),
    ex("1) `cargo fmt` 2) `cargo clippy` 3) commit", "warn sequence cargo fmt -> git commit",
       "warn sequence cargo clippy -> git commit"),
    ex("- Always follow `make lint` \u2192 `make test` \u2192 `git commit`", "warn sequence make lint -> git commit",
       "warn sequence make test -> git commit"),
    ex("- Release: commit \u2192 `make e2e` \u2192 push", "warn sequence make e2e -> git push"),
    ex("- Release loop: `make dist-check` -> `git tag -a v1.2.0` -> push", "warn sequence make dist-check -> git tag -a",
       "warn sequence make dist-check -> git tag -s", "warn sequence make dist-check -> gh release create"),
    ex("- Flow: `npm test` \u2192 commit \u2192 (for big changes `npm run e2e`) \u2192 push", "warn sequence npm test -> git commit"),
    # no git action, or no command before one: a pipeline described, no ordering of the agent's steps
    ex("- Data flow: `fetch` \u2192 `parse` \u2192 `store`"),
    ex("- Daily job: `data-update` \u2192 `screen` \u2192 commit \u2192 publish"),
    ex("- `make enable` -> `go test ./...` -> `make disable`"),
    ex("- Steps: branch \u2192 edit \u2192 commit \u2192 push \u2192 PR"),
    ex("- Commit \u2192 `npm run deploy` \u2192 done"),
)

#: words that join two commands a document names as one ("`just format` or `just f` - format the
#: code", "`make fmt` (or `gofmt -w .`)", "`npm t` / `npm test`", "`make check` (alias `make c`)"):
#: either one done satisfies a step the document owes before an action (lexicon examples compile
#: the ordering; tests/policy/test_equivalent_steps.py runs the other command)
SAME_COMMAND_LINKS: tuple[str, ...] = ("or", "/", "alias", "aka", "shorthand", "short", "i.e.", "=")

SAME_COMMAND_EXAMPLES: tuple[Example, ...] = (
    ex("- `just fmt` or `just f` - format the sources\n- Run `just fmt` before committing\n", "warn sequence just fmt -> git commit"),
    ex("- Always run `make fmt` (or `gofmt -w .`) before committing.", "warn sequence make fmt -> git commit"),
    ex("- `npm run check` / `npm run c`: all checks\n- Run `npm run check` before pushing\n",
       "warn sequence npm run check -> git push"),
    # a list of several commands is no pair of spellings: each stays a step of its own
    ex("- Run `make lint`, `make test` or `make e2e` before committing", "warn sequence make lint -> git commit",
       "warn sequence make test -> git commit", "warn sequence make e2e -> git commit"),
)

ORDERING_EXAMPLES: tuple[Example, ...] = (
    ex("- Always run `make test` before committing", "warn sequence make test -> git commit"),
    # steps in verb phrases of their own, joined by a comma, "and" or "then"; a label before the clause
    ex("- After changing code: format with `ruff format`, then lint with `ruff check`.",
       "warn sequence ruff format -> git commit after any change", "warn sequence ruff check -> git commit after any change"),
    ex("Important: after any change, always validate with `make lint` and run `make test`.",
       "warn sequence make lint -> git commit after any change", "warn sequence make test -> git commit after any change"),
    ex("- Before each commit, check `git diff`, run `make test` and format with `make fmt`.",
       "warn sequence git diff -> git commit", "warn sequence make test -> git commit", "warn sequence make fmt -> git commit"),
    ex("- After changing code, run `make lint` to catch errors and update the docs.",
       "warn sequence make lint -> git commit after any change"),
    ex("- Before committing, make sure `tools/format.js` is run", "warn sequence format.js -> git commit"),
    ex("- **ONLY** push up changes after running `bun bd test <file>`", "deny sequence bun bd test -> git push"),
    ex("- Never commit without running `npm test`", "deny sequence npm test -> git commit"),
    # changes of a kind no tool call names: only some commits need the step (a warning)
    ex("- Test API changes with `make e2e` before committing", "warn sequence make e2e -> git commit"),
    ex("- Test your changes with `make test` before committing", "warn sequence make test -> git commit"),
    ex("- Don't run `make test` before committing, CI does it"),
    ex("Releases:\n\n- Run `pnpm changelog add` for each user-facing change\n- Open a PR only after changelog entries exist\n",
       "deny sequence pnpm changelog add -> gh pr create"),
    ex("- Run lint and typecheck after code changes", "warn sequence <lint> -> git commit after any change",
       "warn sequence <typecheck> -> git commit after any change"),
    ex("- After changing code, run `pnpm lint:fix`", "warn sequence pnpm lint:fix -> git commit after any change"),
    ex("- Run `cargo dev generate-all` after changes"),
    ex("- Always run `make check` after each major change", "warn sequence make check -> git commit after any change"),
    ex("## After every code change\n\n1. Run `pnpm lint`\n2. Fix what it reports\n",
       "warn sequence pnpm lint -> git commit after any change"),
    ex("### Regenerate the clients after template changes\n\n```bash\nmake clients\n```\n",
       "warn sequence make clients -> git commit after *template* **/*template*/**"),
    ex("- Run `npm test` before committing changes to `src/cli/` or `src/site/`",
       "warn sequence npm test -> git commit after src/cli/** src/site/**"),
    ex("- We run `make test` before every push"),
    ex("- Always inspect `git status` before committing", "warn sequence git status -> git commit"),
    ex("- Lint with `rubocop -A` before any git commit.", "warn sequence rubocop -> git commit"),
    ex("- Format using `black .` before pushing", "warn sequence black . -> git push"),
    ex("- Test with care before releasing"),
    ex("- Before pushing, confirm the branch name matches the issue."),
    # a release as the moment: an annotated or signed tag, or a GitHub release
    ex("- Before tagging a release, run `make dist-check`.", "warn sequence make dist-check -> git tag -a",
       "warn sequence make dist-check -> git tag -s", "warn sequence make dist-check -> gh release create"),
    ex("- Always run `cargo test` before cutting a release", "warn sequence cargo test -> gh release create", exact=False),
    ex("- Before release, update the docs"),
    ex("Before creating or updating any PR:\n\n1) Run the linters: `make lint`\n2) Run the tests: `make test`\n",
       "warn sequence make lint -> gh pr create", "warn sequence make test -> gh pr create"),
    ex("- Before pushing, confirm with the user.", "ask command git push"),
    ex("- Always get user confirmation before merging any PR", "ask command gh pr merge"),
    ex("- `make lint` before committing.", "warn sequence make lint -> git commit"),
    # alternatives: one rule that either satisfies
    ex("- Always run `make lint` or `make check` before committing", "warn sequence make lint -> git commit"),
    ex("- `pre-commit` hooks run before committing"),
    ex("Before pushing, rebase onto the latest `main`:\n\n```bash\ngit fetch origin main\ngit rebase origin/main\n```\n",
       "warn sequence git fetch origin main -> git push", "warn sequence git rebase origin/main -> git push"),
    ex("- Before running any remote command, run `git remote -v`", "warn sequence git remote -> git push",
       "warn sequence git remote -> git fetch", "warn sequence git remote -> git pull"),
    ex("- 每次 GitHub 操作前先切换账户：\n\n  ```bash\n  gh auth switch --user alice\n  ```\n",
       "warn sequence gh auth switch -> gh pr create", exact=False),
    ex("- 提交前必须运行 `make test`", "deny sequence make test -> git commit"),
    ex("- 発表前に資料を確認する"),
)

#: words that open a change phrase ("after modifying ...", "whenever you touch ...", "if you change ...")
CHANGE_TRIGGERS: tuple[str, ...] = ("after", "whenever", "when", "if", "once")
#: words that say files were changed; the change phrase must hold one within its first words
CHANGE_WORDS: tuple[str, ...] = ("change", "changes", "changing", "changed", "edit", "edits", "editing", "edited", "modify",
                                 "modifies", "modifying", "modified", "modification", "modifications", "touch", "touching",
                                 "touched", "alter", "altering", "altered", "update", "updating", "updated")
#: finishing a piece of work, which changed files ("run the tests after completing a task"): any change
TASK_DONE: tuple[str, ...] = ("completing a task", "completing the task", "completing any task", "completing each task",
                              "completing tasks", "finishing a task", "finishing the task", "finishing any task", "each task",
                              "every task", "implementing a feature", "implementing features", "implementing changes",
                              "implementing any change", "writing code", "writing new code", "implementation")
#: words of a change phrase that name no files in particular: a change of any file of the project
ANY_FILES: tuple[str, ...] = ("code", "files", "file", "anything", "something", "source", "sources", "codebase", "project",
                              "repo", "repository", "work", "implementation", "changes", "change", "it", "them", "things",
                              "logic", "functionality", "features", "feature", "bug", "bugs", "fixes", "fix")
#: nouns for a change that a word before them narrows to a kind ("API changes", "schema edits")
KIND_OF_CHANGE_NOUNS: tuple[str, ...] = ("change", "changes", "edits", "modifications", "updates")
#: how big or how important a change is ("after each major change", "after significant changes"): the
#: agent judges which changes those are, so the rule is about any change and only warns
JUDGED_CHANGES: tuple[str, ...] = ("major", "significant", "big", "bigger", "large", "larger", "substantial", "non-trivial",
                                   "nontrivial", "important", "meaningful", "relevant", "complex", "minor", "small",
                                   "structural", "notable", "risky")
#: the work declared done, which no tool call shows ("before declaring a task complete", "before
#: completion"): the next commit after the last change is where it can be checked, as a warning
DONE_MOMENTS: tuple[str, ...] = ("declaring a task complete", "declaring the task complete", "declaring the work complete",
                                 "declaring a task done", "declaring the task done", "declaring work done",
                                 "considering a task complete", "considering the task complete", "considering the work complete",
                                 "considering a task done", "considering the task done", "considering work done",
                                 "considering the work done", "marking a task complete", "marking the task complete",
                                 "marking tasks complete", "marking a task done", "marking the task done", "reporting completion",
                                 "completion", "finishing", "finishing up", "wrapping up", "handing off")
#: the end of the work said in other words than DONE_MOMENTS lists: a claim verb and, within a few
#: words, a state ("before marking the task as done", "before saying a task is complete"); an
#: ending of the work or of nothing ("before you finish", "before finishing a task"). Not "before
#: calling the API", "before completing the migration".
DONE_CLAIMS: tuple[str, ...] = ("considering", "consider", "marking", "mark", "declaring", "declare", "calling", "call",
                                "reporting", "report", "saying", "say", "claiming", "claim", "announcing", "treating",
                                "deeming", "signaling", "signalling", "telling")
DONE_STATES: tuple[str, ...] = ("complete", "completed", "done", "finished", "ready", "fixed")
DONE_ENDS: tuple[str, ...] = ("completing", "finishing", "finish", "complete")
DONE_WORK: tuple[str, ...] = ("task", "tasks", "work", "job", "feature", "features", "change", "changes", "implementation",
                              "it", "session", "turn", "todo", "todos", "story", "bug", "fix")
DONE_EXAMPLES: tuple[Example, ...] = (
    ex("- Run `npm test` before marking the task as done", "warn sequence npm test -> git commit after any change"),
    ex("- Before reporting a task as finished, run `make check`", "warn sequence make check -> git commit after any change"),
    ex("- You must run `cargo test` before you finish", "warn sequence cargo test -> git commit after any change"),
    ex("## Checks\n\nBefore considering any task complete, you MUST run the following commands:\n\n"
       "### 1. Lint\n\n```bash\npnpm lint:check\n```\n\n- If issues are found, run `pnpm lint`\n\n"
       "### 2. Tests\n\n```bash\npnpm test\n```\n",
       "warn sequence pnpm lint:check -> git commit after any change", "warn sequence pnpm test -> git commit after any change"),
    ex("### Always run before considering work complete:\n\n```bash\n./scripts/verify.sh\n```\n",
       "warn sequence verify.sh -> git commit after any change"),
    ex("### After task completion\n\n- Run the test suite with `./mvnw test`\n",
       "warn sequence mvnw test -> git commit after any change"),
    ex("## Workflow\n\n1. Make your changes\n2. Run `pnpm lint`\n3. Only mark the task as complete when all checks pass\n",
       "warn sequence pnpm lint -> git commit after any change"),
    ex("- Before completing the migration, back up the database"),
    ex("- Before calling the API, read its docs"),
)

#: a task's verb with nothing but the work as its object is the order to run that task ("always
#: lint code before committing", "run lint, format, and test before opening pull requests"): the
#: category's commands (the document's own first) satisfy it
TASK_VERB_CATEGORIES: dict[str, str] = {"lint": "lint", "test": "test", "format": "format", "typecheck": "typecheck",
                                        "type-check": "typecheck", "build": "build", "compile": "build"}
TASK_VERB_OBJECTS: tuple[str, ...] = ("code", "the", "your", "all", "my", "our", "changes", "change", "changed", "modified",
                                      "files", "file", "everything", "it", "them", "locally", "first", "always", "project",
                                      "codebase", "work", "properly", "thoroughly")
TASK_VERB_EXAMPLES: tuple[Example, ...] = (
    ex("- Always lint code before committing", "warn sequence <lint> -> git commit"),
    ex("- Format and lint your changes before pushing", "warn sequence <format> -> git push", "warn sequence <lint> -> git push"),
    ex("- You must run lint, format, and test before opening pull requests", "deny sequence <lint> -> gh pr create",
       "deny sequence <format> -> gh pr create", "deny sequence <test> -> gh pr create"),
    ex("- You must run `make test` before committing", "deny sequence make test -> git commit"),
    ex("- Write a test before committing a fix"),
    ex("- Test the migration on staging before committing"),
    ex("- We run `make test` before every push"),
)

#: what a command run after any change does when it is a check of the work ("run `make analyze`
#: after any change"), not a chore for some files only ("run `cargo dev generate-all` after changes":
#: which files it is for, the words do not say); a command's words name it
CHECK_WORDS: tuple[str, ...] = ("lint", "test", "check", "typecheck", "type-check", "tsc", "format", "fmt", "clippy", "mypy",
                                "pytest", "ruff", "eslint", "prettier", "vet", "analyze", "analyse", "analysis", "verify",
                                "validate", "ci", "precommit", "pre-commit", "quality", "spell", "audit", "biome", "golangci",
                                "pyright", "flake8", "pylint", "rubocop", "credo", "dialyzer", "phpstan", "psalm", "detekt",
                                "ktlint", "swiftlint", "shellcheck", "stylelint")
#: headings that say when a command is run ("## When to run `make proto`", then the command's code
#: span): each item under it is a moment of that command ("- after changing `proto/`", "- before
#: opening a PR"), read as "run `make proto` after ...", as advice (a warning)
WHEN_TO_RUN_TITLES: tuple[str, ...] = ("when to run", "when to use", "when to regenerate", "when to rebuild",
                                       "when to call", "when to execute")
WHEN_TO_RUN_EXAMPLES: tuple[Example, ...] = (
    ex("## When to run `make proto`\n\n- after changing files in `proto/`\n- before opening a PR\n",
       "warn sequence make proto -> git commit after proto/**", "warn sequence make proto -> gh pr create"),
    ex("## When to run evals\n\n- after changing prompts\n"),
    ex("## When to run `make bench`\n\n- Benchmarks take ten minutes\n"),
)
#: a language named as what changed: its files ("after any Python change": `*.py`)
LANGUAGE_FILES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("python", "py"), ("*.py", "*.pyi")),
    (("sql",), ("*.sql",)),
    (("rust",), ("*.rs",)),
    (("go", "golang"), ("*.go",)),
    (("typescript", "ts", "tsx"), ("*.ts", "*.tsx", "*.mts", "*.cts")),
    (("javascript", "js", "jsx"), ("*.js", "*.jsx", "*.mjs", "*.cjs")),
    (("proto", "protobuf", "protobufs", "protocol buffers"), ("*.proto",)),
    (("graphql",), ("*.graphql", "*.gql")),
    (("css", "scss", "sass", "styles", "stylesheets"), ("*.css", "*.scss", "*.sass", "*.less")),
    (("markdown", "docs", "documentation"), ("*.md", "*.mdx")),
    (("ruby",), ("*.rb",)),
    (("java",), ("*.java",)),
    (("kotlin",), ("*.kt", "*.kts")),
    (("swift",), ("*.swift",)),
    (("c#", "csharp"), ("*.cs",)),
    (("c++", "cpp"), ("*.cpp", "*.cc", "*.cxx", "*.h", "*.hpp")),
    (("php",), ("*.php",)),
    (("shell", "bash"), ("*.sh", "*.bash")),
    (("terraform",), ("*.tf",)),
    (("solidity",), ("*.sol",)),
    (("dart", "flutter"), ("*.dart",)),
    (("elixir",), ("*.ex", "*.exs")),
    (("vue",), ("*.vue",)),
    (("svelte",), ("*.svelte",)),
    (("yaml",), ("*.yaml", "*.yml")),
    (("prisma",), ("*.prisma",)),
)

CHANGE_EXAMPLES: tuple[Example, ...] = (
    ex("- After modifying `openapi.yaml`, regenerate the SDK with `npm run gen:sdk`.",
       "warn sequence npm run gen:sdk -> git commit after openapi.yaml"),
    ex("- After changing the templates, regenerate the clients: `make clients`",
       "warn sequence make clients -> git commit after *template* **/*template*/**"),
    ex("- After editing any `.go` file, run `gofmt -w` on it.", "warn sequence gofmt -> git commit after *.go"),
    ex("- Build the docs with `mkdocs build` to preview them"),
    ex("- After modifying SQL queries, run `make gen`", "warn sequence make gen -> git commit after *.sql"),
    ex("- Run `make ruff` after any Python change", "warn sequence make ruff -> git commit after *.py *.pyi"),
    ex("- Whenever you touch the grammar, regenerate with `just gen`",
       "warn sequence just gen -> git commit after *grammar* **/*grammar*/**"),
    ex("- After any change to `api/schema.graphql`, you must run `npm run codegen`",
       "deny sequence npm run codegen -> git commit after api/schema.graphql"),
    ex("- If you change files in `proto/`, run `buf generate` before pushing",
       "warn sequence buf generate -> git push after proto/**"),
    ex("- Run lint after making changes", "warn sequence <lint> -> git commit after any change"),
    ex("- Always run the tests after completing a task", "warn sequence <test> -> git commit after any change"),
    ex("- After editing code, run `pnpm lint:fix`", "warn sequence pnpm lint:fix -> git commit after any change"),
    ex("- Run `cargo dev generate-all` after changes"),
    ex("- After any code change, run: `make analyze`", "warn sequence make analyze -> git commit after any change"),
    ex("- After any change, run `npm run verify`", "warn sequence npm run verify -> git commit after any change"),
    ex("- After any change, run `npm run docs:sync`"),
    ex("- Always run quality checks (`npm run check`) before considering a task complete",
       "warn sequence npm run check -> git commit after any change"),
    ex("- After making code changes and before declaring a task complete, run `make ci`",
       "warn sequence make ci -> git commit after any change"),
    ex("- Read the design notes before considering a task complete"),
    ex("- When you change the config, tell the user"),
    ex("- After a release, run `make announce`"),
)

#: after a command or path: the ban holds only in a situation no pattern can express
#: a relative clause after a listed command that says which of its calls are meant ("- `git
#: checkout` that would discard changes" under "Always ask first:"): the call does not show it,
#: so the item warns
NARROWING_RELATIVES: tuple[str, ...] = tuple(f"{r} {m}" for r in ("that", "which")
                                             for m in ("would", "could", "might", "may", "can", "will"))

NARROWING_RELATIVE_EXAMPLES: tuple[Example, ...] = (
    ex("Before running any of these, always ask for permission:\n\n- `git checkout` that would discard changes\n"
       "- `make nuke`\n", "warn command git checkout", "ask command make nuke"),
    ex("Always ask first:\n\n- `make nuke` (wipes the cache)\n", "ask command make nuke"),
)

QUALIFIERS_EXAMPLES: tuple[Example, ...] = (
    ex("- Never rebase after a failed merge - start over", "warn command git rebase"),
    ex("- Never rebase after merge.", "warn command git rebase"),
    ex("- Do not run `pnpm build` in watch mode", "warn command pnpm build"),
    ex("- Do not use `git push --force` on any branch", "deny command git push --force", exact=False),
    ex("- Never run `git commit` when any test fails", "warn command git commit"),
    # a rate ("per file", "per iteration"): how often, which no pattern can say
    ex("- The hook runs `ruff check` on staged files; don't run it separately per file.", "warn command ruff check"),
)

#: qualifiers that name where the agent's commands run or act anyway ("directly on the host",
#: "outside Docker", "on GitHub"): they do not narrow the ban
#: words after "is not available" / "is not installed" that put the lack somewhere else than where the
#: agent works ("`make` is not installed on the CI image", "`sed -i` is not supported on macOS"): no check
ELSEWHERE: tuple[str, ...] = ("ci", "the ci image", "github actions", "windows", "macos", "mac", "linux", "production",
                              "prod", "staging", "the server", "older versions")

#: subjects that are the project itself: "This repository does not use npm" says how the project
#: works, as "We don't use Poetry" does (a warning, not a ban)
PROJECT_SUBJECTS: tuple[str, ...] = ("this project", "the project", "this repo", "the repo", "this repository",
                                     "the repository", "this codebase", "the codebase", "this monorepo", "the monorepo",
                                     "this workspace", "this package", "this app", "we")

#: words before "folder" / "directory" that say which directory, not its name ("the root folder",
#: "the same directory", "an output folder"): a directory named in words is any other word there
#: ("the migrations folder" is `**/migrations/**`)
NOT_DIRECTORY_NAMES: tuple[str, ...] = ("root", "project", "repo", "repository", "current", "same", "parent", "home",
                                        "working", "output", "source", "target", "destination", "temp", "temporary",
                                        "whole", "entire", "other", "correct", "right", "wrong", "appropriate", "relevant",
                                        "corresponding", "given", "specific", "new", "old", "top-level", "top", "base",
                                        "main", "separate", "dedicated", "proper", "designated", "single", "shared",
                                        "local", "remote", "user", "system", "installation", "install", "package",
                                        "module", "cache", "scratch", "following", "above", "below", "specified",
                                        "respective", "affected", "nearest", "containing", "enclosing", "git", "claude",
                                        "one", "own", "that", "which", "whichever", "any", "each", "every", "your", "a", "an")

NAMED_DIRECTORY_EXAMPLES: tuple[Example, ...] = (
    ex("- Don't touch the migrations folder", "deny write **/migrations/**"),
    ex("- Never edit anything in the proto directory", "deny write **/proto/**"),
    ex("- Do not read the fixtures folder unless asked", "ask read **/fixtures/**"),
    ex("- Never edit files in the root folder"),
    ex("- Put scratch files in a temp directory"),
    ex("- The vendor directory is read-only", "ask write **/vendor/**", "ask write **/vendored/**", exact=False),
    ex("- The migrations folder is off-limits", "deny write **/migrations/**"),
)

#: where a kind of file known by its names goes ("Put tests in `tests/`", "Docs must live under
#: `docs/`"): a new file of that kind elsewhere is warned (frames._placement); a kind no name
#: pattern tells ("components") stays advisory
PLACEMENT_EXAMPLES: tuple[Example, ...] = (
    ex("- Always put tests in `tests/`", "warn create *.test.* outside tests/**", exact=False),
    ex("- Tests go in `tests/`", "warn create *.test.* outside tests/**", exact=False),
    ex("5. Add tests in `crates/app/tests/`"),
    ex("- Test files belong in the `tests/` directory", "warn create test_*.py outside tests/**", exact=False),
    ex("- All documentation files (`*.md`) must live under `docs/`", "warn create *.md outside docs/**"),
    ex("- Markdown files should be placed in `docs/`", "warn create *.md outside docs/**"),
    ex("- New components belong in `src/components/`"),
    ex("- Tests are not placed in `src/`"),
)

#: a cue after a comma with a place and no verb of its own ("..., never to `origin`"): the verb
#: (and the kind of file) of the clause's first part
ELIDED_EXAMPLES: tuple[Example, ...] = (
    ex("- Push to `fork`, never to `origin`", "deny command git push origin"),
    ex("- Put tests in `tests/`, never in `src/`", "deny create src/**/test_*.py", exact=False),
    ex("- Work in `src/`, never in the generated code"),
)

#: the project's root as a place to run from ("Run make from the repository root"): a command
#: the rule names, run below the root (after a `cd` into a subdirectory), is warned
ROOT_PLACES: tuple[str, ...] = ("the repository root", "the repo root", "the project root", "the root directory",
                                "the root of the repository", "the root of the repo", "the root of the project",
                                "the workspace root", "the monorepo root", "the root folder", "the top-level directory",
                                "repository root", "repo root", "project root", "root directory", "the root", "root",
                                "monorepo root", "workspace root")
ROOT_PREPOSITIONS: tuple[str, ...] = ("from", "at", "in")

ROOT_EXAMPLES: tuple[Example, ...] = (
    ex("- Run make from the repository root.", "warn command make below the root"),
    ex("- Always run `pnpm test` from the repo root.", "warn command pnpm test below the root"),
    ex("- The CI runs `make` from the repository root."),
    ex("- Run `make` to build the root directory listing."),
    ex("- `pnpm install` must be run from root", "warn command pnpm install below the root"),
    ex("- The installer runs from root on the build host."),
)

#: words that make a task's noun its whole ("the full test suite", "all tests"): a ban on running
#: it is a warning on the task's commands run with nothing that narrows them
WHOLE_WORDS: tuple[str, ...] = ("full", "entire", "whole", "all", "complete")

WHOLE_EXAMPLES: tuple[Example, ...] = (
    ex("- Don't run the full test suite; run the tests of the package you changed.", "warn command <test>"),
    ex("- Avoid running all tests locally, they take an hour.", "warn command <test>"),
    ex("- Never run the tests in CI mode."),
    ex("- The full test suite runs nightly in CI."),
)

#: verbs by which the project says what it uses ("This project uses pnpm", "We use uv as the package manager")
PROJECT_USE_VERBS: tuple[str, ...] = ("uses", "use", "requires")
#: those that say it with no subject, a tool and nothing after it ("Uses **bun**.", under "## Package manager")
SUBJECTLESS_USE_VERBS: tuple[str, ...] = ("uses",)

#: what a thing the agent would start is said to be ("Assume the dev server is always running"): starting
#: it again is not the agent's work (a warning on the commands of its task, lexicon categories
#: ALREADY_RUNNING_TASKS); "is running" alone counts after "assume"
ALREADY_RUNNING: tuple[str, ...] = ("is already running", "is always running", "is running already", "are already running",
                                    "are always running", "is already up", "is always up", "is already started",
                                    "is kept running", "runs in the background", "is running in the background")
ASSUMED_RUNNING: tuple[str, ...] = ("is running", "are running", "is up", "is started")
ASSUME_WORDS: tuple[str, ...] = ("assume", "assume that", "expect", "expect that")
#: the tasks whose commands start what is running (the dev server, not the database it talks to)
ALREADY_RUNNING_TASKS: tuple[str, ...] = ("dev",)

ALREADY_RUNNING_EXAMPLES: tuple[Example, ...] = (
    ex("- Assume the dev server is always running.", "warn command <dev>"),
    ex("- The development server is already running on port 3000.", "warn command <dev>"),
    ex("Assume the dev server is running.", "warn command <dev>"),
    ex("- The dev server is running on port 3000."),
    ex("- The database is already running in Docker."),
    ex("- Check that the dev server is running before opening the browser"),
)

#: words that turn a clause around for the readers that look at its words, not at the cue tables:
#: "Run `make docs`" prescribes the command and "Do not run `make docs` by hand" does not; "Use
#: Conventional Commits" is the convention and "no conventional prefixes" drops it
NEGATIONS: tuple[str, ...] = ("no", "not", "never", "don't", "dont", "avoid", "without")



@dataclass(frozen=True)
class Nominal:
    """A noun naming an action on what follows it ("changes to `x`", "deletion of `y`"). Rules are
    often written as verbless fragments after "no" ("No changes to `db/schema.sql`", "No deletion of
    `fixtures/`"): the fragment bans the action of `verb` (a word of lexicon.actions) on the paths
    or commands it names, as "no" before a gerund does ("No editing `dist/`"). Only literal objects
    count ("No changes to the public API" names none), and a verb after the noun makes the sentence
    a statement ("No changes to `x` are needed")."""

    verb: str
    phrases: tuple[str, ...]
    examples: tuple[Example, ...] = ()


NOMINAL_ACTIONS: tuple[Nominal, ...] = (
    Nominal("edit", ("changes to", "change to", "changes in", "edits to", "edit to", "edits in", "modifications to",
                     "modification to", "modifications of", "modification of", "modifications in", "updates to",
                     "writes to", "tampering with"),
            examples=(ex("- No changes to `db/migrations/` without approval", "ask write db/migrations/**"),
                      ex("- No edits to `third_party/`.", "deny write third_party/**"),
                      ex("- No manual modification of `src/gen/api.ts` (run the generator)", "deny write src/gen/api.ts"),
                      ex("- No changes to the public API without a deprecation note"),
                      ex("- No changes to `settings.toml` are needed for local runs"),
                      ex("- No edits in `docs/` were required by this release"))),
    Nominal("delete", ("deletion of", "deletions of", "deletions in", "removal of", "removals of"),
            examples=(ex("- No deletion of files in `fixtures/golden/`", "deny write fixtures/golden/**"),
                      ex("- No removal of deprecated flags before the next major release"))),
)

#: categories (lexicon categories) a verbless "no" fragment bans ("No deploys without approval", "No
#: PRs unless asked"): acts on the world; not the checks of the work ("No tests." or "No linting."
#: in a list of what a job skips describes it)
MADE_CATEGORIES: tuple[str, ...] = ("pull-request", "tag", "deploy", "publish", "migrate", "create-venv", "git-write",
                                    "git-destructive", "global-install", "system-install")
#: a verbless "no" fragment naming a thing (lexicon things) or one of MADE_CATEGORIES, with the
#: look-alikes that stay descriptions
NO_FRAGMENT_EXAMPLES: tuple[Example, ...] = (
    ex("- No git worktrees unless the user asks.", "ask command git worktree add"),
    ex("- No pull requests without approval", "ask command <pull-request>"),
    ex("- No deploys unless asked", "ask command <deploy>"),
    ex("- No new branches.", "warn command git checkout -b", exact=False),
    ex("- No virtual environments", "warn command <create-venv>"),
    ex("- No branch protection on forks."),
    ex("- No worktrees exist yet."),
    ex("- No deploys happen on weekends."),
    ex("- No tests."),
)

#: words that give a "no" clause a verb of its own, making it a statement rather than a verbless
#: rule fragment ("No changes to `x` are needed", "No worktrees exist yet")
FINITE_AFTER_NO: tuple[str, ...] = ("is", "are", "was", "were", "be", "been", "will", "would", "can", "could", "should",
                                    "need", "needs", "needed", "exist", "exists", "existed", "remain", "remains", "has",
                                    "have", "had", "yet")
#: words after a tool that rule out the others of its job ("pnpm only", "use `uv` exclusively")
EXCLUSIVE_WORDS: tuple[str, ...] = ("only", "exclusively")

HOST_QUALIFIERS: tuple[str, ...] = ("on the host", "on host", "on the host machine", "on your machine", "on your local machine",
                                    "on the local machine", "in the terminal", "in your shell", "in the shell",
                                    "outside docker", "outside of docker", "outside the container", "outside of the container",
                                    "outside containers", "outside the venv", "outside the virtualenv", "outside the devcontainer",
                                    "outside docker compose", "outside the dev container", "on bare metal",
                                    "on github", "on gitlab", "in github", "to github", "to gitlab", "on the remote",
                                    "in this repo", "in this repository", "in the repo", "in the repository", "to the repo",
                                    "to the repository", "on the pr", "on prs", "on pull requests", "on the pull request",
                                    "on issues", "on the issue", "in the pr", "in prs", "in the project", "in this project",
                                    "in the codebase", "in this codebase",
                                    # where the agent itself works: every call it makes is there
                                    "in claude code", "in a claude code session", "in claude sessions", "in this session",
                                    "in your session", "in your sessions", "in agent sessions", "in this environment",
                                    "in your environment")

#: verbs of a purpose that says what the banned flag or command does, the misuse the ban is about
#: ("never use `--no-verify` to bypass hooks"): the purpose explains the ban, it does not narrow it
EVASION_PURPOSES: tuple[str, ...] = ("bypass", "circumvent", "skip", "evade", "get around", "work around", "sidestep",
                                     "silence", "suppress", "override", "disable", "defeat", "cheat", "force",
                                     "rewrite", "overwrite", "discard", "wipe", "nuke")

EVASION_PURPOSE_EXAMPLES: tuple[Example, ...] = (
    ex("- Never use `--no-verify` to bypass hooks", "deny command * --no-verify"),
    ex("- Do not use `git push --force` to overwrite shared history", "deny command git push --force"),
    ex("- Never pass `--no-verify` to skip failing checks", "deny command * --no-verify"),
    # a purpose that names one use among others still narrows the ban to a warning
    ex("- Do not use `make clean` to reset the database", "warn command make clean"),
)

@dataclass(frozen=True)
class Confinement:
    """Words that confine changes to the paths after them, with no rule word of their own
    ("Changes are limited to `src/`", "Keep changes within `packages/api`"): a change to any other
    path of the project asks ("only") or warns ("avoid"); reads and temporary files stay free."""

    phrases: tuple[str, ...]
    #: "only": the text sets a limit (asks); "avoid": it advises (warns)
    modality: str
    examples: tuple[Example, ...] = ()
    #: how the docs show `phrases` (every combination of a few parts)
    shown: str = ""


_CHANGE_NOUNS = ("changes", "all changes", "your changes", "edits", "your edits", "modifications", "code changes")
CONFINEMENTS: tuple[Confinement, ...] = (
    Confinement(tuple(f"{noun} {verb} {prep}" for noun in _CHANGE_NOUNS
                      for verb in ("are limited", "are restricted", "are confined", "are scoped", "must stay", "should stay",
                                   "stay")
                      for prep in (("to",) if verb.startswith("are") else ("in", "inside", "within", "under")))
                + tuple(f"{verb} {noun} to" for verb in ("limit", "restrict", "confine", "scope") for noun in _CHANGE_NOUNS),
                "only",
                shown="(changes / edits / modifications) are (limited / restricted / confined / scoped) to; (changes / ...) "
                      "(must stay / should stay / stay) (in / inside / within / under); (limit / restrict / confine / scope) "
                      "(your) changes to",
                examples=(ex("- Changes are limited to `services/api/`", "ask write outside services/api/**"),
                 ex("- Restrict your changes to `web/` and `shared/`", "ask write outside web/** shared/**"),
                 ex("- Changes are limited to what the task needs"))),
    Confinement(tuple(f"keep {noun} {prep}" for noun in _CHANGE_NOUNS for prep in ("in", "inside", "within", "under", "to")),
                "avoid",
                shown="keep (your / all) (changes / edits / modifications) (in / inside / within / under / to)",
                examples=(ex("- Keep changes inside `packages/cli`", "warn write outside packages/cli/**"),
                 ex("- Keep changes small and focused"))),
)

#: "Ignore `legacy/`", "Disregard `old/` and `archive/`": the paths are not to be read or searched.
#: A hint about where to look, not a ban: reads warn (the agent may still need the file), and only
#: paths count ("ignore the lint warnings in `legacy/`" is about warnings)
IGNORE_VERBS: tuple[str, ...] = ("ignore", "disregard")
#: "Skip `vendor/` when searching", "Exclude `dist/` from searches": the same, said of searches
SEARCH_SKIP_VERBS: tuple[str, ...] = ("skip", "exclude")
SEARCH_CONTEXTS: tuple[str, ...] = ("when searching", "while searching", "in searches", "from searches", "from search",
                                    "from search results", "in search results", "from your searches", "when grepping",
                                    "from grep", "when exploring", "when exploring the codebase", "when searching the codebase",
                                    "from code search", "from codebase searches", "in grep results")
#: titles over a list of paths not to read ("## Directories to ignore", "Ignored folders:")
IGNORE_TITLE_WORDS: tuple[str, ...] = ("to ignore", "ignored", "to skip", "skipped", "excluded", "to exclude")

IGNORE_EXAMPLES: tuple[Example, ...] = (
    ex("- Ignore the `legacy/` directory", "warn read legacy/**"),
    ex("- Ignore `AGENTS.old.md` and `notes-*.md` files", "warn read AGENTS.old.md", "warn read notes-*.md"),
    ex("- Skip `vendor/` when searching", "warn read vendor/**"),
    ex("- Exclude `dist/` and `coverage/` from searches", "warn read dist/**", "warn read coverage/**"),
    ex("## Directories to ignore\n\n- `archive/`\n- `tmp/old/`\n", "warn read archive/**", "warn read tmp/old/**"),
    ex("You should ignore these directories:\n\n- `public/`\n- `dist/`\n", "warn read public/**", "warn read dist/**"),
    ex("- Ignore this step if you already ran `make setup`"),
    ex("- Ignore the lint warnings in `legacy/`"),
    ex("- Ignore case when searching"),
    ex("- Skip `tests/slow/` when running the unit tests"),
    ex("- `dist/` is ignored by git"),
)

#: "only" with a change and the paths it may reach; "outside" before a path in a ban on changes
CONFINE_EXAMPLES: tuple[Example, ...] = (
    ex("- Only edit files in `src/`", "ask write outside src/**"),
    ex("- Only modify files under `apps/web`", "ask write outside apps/web/**"),
    ex("- Do not touch anything outside `packages/foo`", "ask write outside packages/foo/**"),
    ex("- Avoid editing files outside of `lib/`", "warn write outside lib/**"),
    ex("- You should only edit files in `src/`", "warn write outside src/**"),
    ex("- In `packages/web/`, only edit files in `src/`", "ask write packages/web/**/** outside packages/web/src/**"),
    ex("- Only edit files in `src/`, `scripts/` or test paths", "warn write outside src/** scripts/**"),
    ex("- Only edit files in your own folder"),
    ex("- Only modify files that the task needs"),
    ex("- Only modify `src/config.ts` to change the settings"),
    ex("- Only touch `package.json` if you add a dependency"),
    ex("- Don't read anything outside `docs/`"),
)

#: a ban in the passive: "`gen/` must not be edited", "These files are generated and should not be
#: modified by hand:" (the subject, or the list the intro names, is what the ban protects)
PASSIVE_PARTICIPLES: dict[str, str] = {
    "edited": "edit", "modified": "edit", "changed": "edit", "touched": "edit", "updated": "edit", "altered": "edit",
    "overwritten": "edit", "hand-edited": "edit", "rewritten": "edit", "deleted": "delete", "removed": "delete",
    "committed": "commit", "used": "use", "run": "run", "executed": "run", "invoked": "run", "launched": "run",
    # what is named by its effect ("New dependencies must not be added"): the subject is a kind of thing
    # the verb does (a category of commands: packages installed, releases published)
    "installed": "install", "added": "add", "introduced": "add", "upgraded": "update", "bumped": "update",
    "published": "publish", "deployed": "deploy",
}

#: participles (of PASSIVE_PARTICIPLES) that state, with no cue word, that a path is left alone
#: ("Generated files are NOT committed", "`dist/` is not edited by hand"): a warning on doing
#: it; not "run", "used", "installed" ("Tests are not run on Windows" says what the CI does)
STATED_NOT_DONE: tuple[str, ...] = ("edited", "modified", "changed", "touched", "hand-edited", "committed", "deleted",
                                    "removed")

STATED_NOT_DONE_EXAMPLES: tuple[Example, ...] = (
    ex("- Generated files are NOT committed to git.", "warn stage **/generated/**", exact=False),
    ex("- `src/vendor/` is not edited by hand", "warn write src/vendor/**"),
    ex("- `config/site.yml` is not modified by the installer"),
    ex("- Tests are not run on Windows"),
    ex("- The public API is not changed in patch releases"),
)

PASSIVE_EXAMPLES: tuple[Example, ...] = (
    ex("- `src/gen/` must not be edited", "deny write src/gen/**"),
    ex("- Compiled `.lock.yml` files are auto-generated and should not be edited manually", "warn write *.lock.yml"),
    ex("The following files are auto-generated and should not be edited manually:\n\n- `plugins.md`\n- `docs/install.md`\n",
       "warn write plugins.md", "warn write docs/install.md"),
    ex("- Tests must not be modified to make them pass"),
    ex("- Files are auto-generated and should not be edited manually"),
    ex("- `main` must never be force-pushed"),
    ex("- yarn must not be used in this repository", "deny command yarn"),
    ex("- Docker should not be used in this repository", "warn command docker"),
    ex("- `any` must not be used"),
    ex("- New dependencies must not be added without approval", "ask command <add-dependency>"),
    ex("System packages should never be installed on the host.", "deny command <system-install>"),
    ex("- Packages must not be published by hand", "deny command <publish>"),
    ex("- Packages must be installed with `uv`"),
    ex("- `make deploy` must not be run.", "deny command make deploy"),
    ex("- `./scripts/reset.sh` should never be executed without asking", "ask command reset.sh"),
    ex("- `npm audit fix --force` is not to be run", "deny command npm audit fix --force"),
    ex("- `left-pad` must not be installed", "deny command pip install left-pad", exact=False),
    ex("- `pnpm install` must be run from the repository root", "warn command pnpm install below the root"),
    ex("- Migrations must not be run against production"),
    ex("- The tests must not be run in parallel"),
    ex("- `make e2e` must be run before merging", exact=False),
    ex("- `.env` files must never be committed", "deny stage .env .env.local .env.*.local .env.development .env.production "
       ".env.test .env.staging .env.prod .env.dev"),
)

#: words that tie pull requests to the branch they are opened against ("PRs target `develop`",
#: "open pull requests against `main`"): a PR whose base is another branch is warned, and one whose
#: base the text rules out ("(not `master`)", "never against `main`") is stopped as the text says
PR_BASE_WORDS: tuple[str, ...] = ("target", "targets", "targeting", "against", "into", "onto", "to", "base", "based on")
PR_NOUNS: tuple[str, ...] = ("pr", "prs", "pull request", "pull requests", "merge request", "merge requests")

PR_BASE_EXAMPLES: tuple[Example, ...] = (
    ex("- PRs should target the `canary` branch", "warn command gh pr create --base"),
    ex("- **All PRs target `develop`** (NOT `master`)", "deny command gh pr create --base master",
       "warn command gh pr create --base"),
    ex("- Never open pull requests against `main`.", "deny command gh pr create --base main"),
    ex("- Open PRs to the `develop` branch.", "warn command gh pr create --base"),
    ex("- Never push to `main`; open a PR instead.", "deny target push main"),
    ex("- Link the issue in the PR description.", "warn shape gh pr create, glab mr create: reference an issue"),
    ex("- Never merge PRs into `main` yourself.", "deny command gh pr merge", "deny target merge main"),
)

#: words that move an install out of the project ("never install packages globally"): the
#: global-install category instead of every dependency install
#: categories of commands that install something: the project's packages, the user's global ones,
#: the machine's ("no new dependencies", "never install system packages")
INSTALLED_CATEGORIES: tuple[str, ...] = ("add-dependency", "global-install", "system-install")

GLOBAL_WORDS: tuple[str, ...] = ("globally", "global", "system-wide", "systemwide", "system wide", "user-wide")

#: remotes a push names ("never push to `upstream`", "the upstream remote"): a push to that remote
#: is the rule's call, not every push, and the name is not a branch
REMOTE_NAMES: tuple[str, ...] = ("origin", "upstream")

#: words after which a push ban names the branches it spares ("never push to any branch other
#: than `dev`"): the rule is a list of the branches pushes may update, like "only push to `dev`"
SPARING_WORDS: tuple[str, ...] = ("other than", "except", "except for", "apart from", "besides")

#: participles after which "by X" / "from X" names what makes the files ("generated by the scripts
#: in `scripts/`", "built from `schema.yaml`"): the maker, never what a later "them" means
MAKER_PARTICIPLES: tuple[str, ...] = ("generated", "auto-generated", "autogenerated", "regenerated", "created", "produced",
                                      "built", "compiled", "rendered", "managed", "maintained", "written", "synced",
                                      "copied", "exported", "emitted", "derived")

MAKER_EXAMPLES: tuple[Example, ...] = (
    ex("The pages in `site/` are generated by the scripts in `tools/`. Do not edit them directly.",
       "deny write site/**"),
    ex("Files in `api/` are generated from `schema.yaml`. Never edit them by hand.", "deny write api/**"),
    # a ban on changing with no object: the one path named just before (a guess, so it asks)
    ex("- Files in `proto/out/` are managed by buf; never hand-edit.", "ask write proto/out/**"),
    ex("- Run `make gen` after changes; never hand-edit."),
    # an object written in words is that thing, never the place the sentence sends the agent's files
    ex("- To customize the theme, add files under `theme/local/` (don't change the theme itself)"),
    ex("- Put your overrides in `styles/custom/`; never touch the vendor stylesheet"),
    # a heading that is a path is what "here" means below it
    ex("### `db/migrations/`\n\nNever edit existing files here.\n", "deny write db/migrations/**"),
)

#: where "add" puts files when it means staging them ("do not add `.env` to git", "never add build
#: outputs to version control"): a ban on adding there is a ban on staging those paths
VERSION_CONTROL_PLACES: tuple[str, ...] = ("git", "version control", "source control", "the repo", "the repository",
                                           "the git repository", "the git repo", "commits", "a commit", "the index",
                                           "the git index")

VERSION_CONTROL_EXAMPLES: tuple[Example, ...] = (
    ex("- Do not add `secrets.yaml` to git.", "deny stage secrets.yaml"),
    ex("- Never add `*.log` files to the repository.", "deny stage *.log"),
    ex("- Don't add `local.db` to commits", "deny stage local.db"),
    ex("- Never add `debug.ts` to the project", "deny create debug.ts"),
    # the files being there, and keeping them out of there, is the same ban
    ex("- No `*.log` files in commits.", "deny stage *.log"),
    ex("- Keep `.env.local` out of git.", "deny stage .env.local"),
    ex("- Keep build outputs out of version control.", "ask stage **/dist/**", "ask stage **/build/**", exact=False),
    ex("- No `console.log` calls in committed code."),
    ex("- Keep the API client out of `src/`."),
    ex("- Never add a `Co-Authored-By` trailer to commits", "deny message co-authored-by"),
)

#: pushes limited to some branches: a push that updates another one (named on the line, or the
#: branch checked out for a bare `git push`, which warns) is stopped; "always push to" warns
PUSH_SCOPE_EXAMPLES: tuple[Example, ...] = (
    ex("- Only push to branches matching `claude/*`.", "deny target push outside claude/*"),
    ex("- Push to `agent/*` branches only", "deny target push outside agent/*"),
    ex("- Only push to the `develop` branch.", "deny target push outside develop"),
    ex("- Never push to any branch other than `dev`.", "deny target push outside dev"),
    ex("- Do not push anywhere except `origin/feature-*`.", "deny target push outside feature-*"),
    ex("- Always push to `feature/*` branches.", "warn target push outside feature/*"),
    ex("- Push only to your own feature branch.", "warn target push main", "warn target push master"),
    ex("- Never push to `release/*` branches.", "deny target push release/*"),
    ex("- Do not push changes under `bot/*` branches", "deny target push bot/*"),
    # "only" with a moment or a condition is no list of branches
    ex("- Only push after running the tests.", "deny sequence <test> -> git push"),
    ex("- Only push when the user asks.", "ask command git push"),
)

REMOTE_EXAMPLES: tuple[Example, ...] = (
    ex("- Never push to `upstream`.", "deny command git push upstream"),
    ex("- Do not push to the upstream remote.", "deny command git push upstream"),
    ex("- Never push anything to the `mirror` remote.", "deny command git push mirror"),
    ex("- 不要向 `upstream` push 任何东西", "deny command git push upstream"),
    ex("- Never push to `main`.", "deny target push main"),
    # "to remote" without a name: any remote, every push
    ex("- Never push to remote without asking", "ask command git push"),
)

#: the host qualifiers that set the machine apart from a container (the others name a site, a repository)
MACHINE_QUALIFIERS: tuple[str, ...] = tuple(q for q in HOST_QUALIFIERS if any(
    w in q for w in ("host", "machine", "docker", "container", "bare metal")))

HOST_QUALIFIER_EXAMPLES: tuple[Example, ...] = (
    ex("- Never run `pytest` directly on the host - use `breeze`", "deny command pytest via docker docker-compose podman podman-compose"),
    ex("- Do not run `rails db:migrate` outside Docker", "deny command rails db:migrate"),
    ex("- Don't open issues on GitHub", "deny command gh issue create", exact=False),
    ex("- Do not run `make release` in Claude Code sessions", "deny command make release"),
    ex("- Never run `npm publish` in this environment", "deny command npm publish", exact=False),
)

#: qualifiers that open a situation: "when any test fails" narrows, where "on any branch" does not
#: objects of a git verb that mean the action itself ("never push your changes"): the ban is on the
#: verb's command. Any other object ("never merge both the old and the new versions") is some of
#: those calls, which no pattern tells apart: the agent is warned, never stopped.
WHOLE_ACTION_OBJECTS: frozenset[str] = frozenset(
    """anything everything something it them this that these those changes change code commits commit work
    stuff updates edits branch branches your my our any all the new local current latest own""".split())

WHOLE_ACTION_EXAMPLES: tuple[Example, ...] = (
    ex("- Never push your changes.", "deny command git push"),
    ex("- Do not merge anything.", "deny command git merge"),
    ex("- Never merge both the pre-rebase and the post-rebase versions.", "warn command git merge"),
    ex("- Do not push half-finished experiments.", "warn command git push"),
    ex("- Never push tags.", "deny command git push --tags", "deny command git push --follow-tags"),
    ex("- Never push secrets.", "deny stage .env .env.local .env.*.local .env.production .env.development *.pem *.key "
       "id_rsa id_ed25519 credentials.json *.p12 "
       "[Ss]ecrets.yaml [Ss]ecrets.yml [Ss]ecrets.json [Ss]ecrets.toml [Ss]ecrets.env "
       "[Ss]ecrets.xcconfig [Ss]ecret.yaml [Ss]ecret.yml [Ss]ecret.json [Ss]ecret.toml "
       "[Ss]ecret.env [Ss]ecret.xcconfig *.secret.yaml *.secret.yml *.secret.json *.secret.toml "
       "*.secret.env *.secret.xcconfig"),
    # a relative clause narrows the object to some cases: warned, not stopped
    ex("- Never push commits which other people have not reviewed.", "warn command git push"),
)

SITUATION_QUALIFIERS: tuple[str, ...] = ("when", "whenever", "if", "while", "after", "during", "unless")

QUALIFIERS: tuple[str, ...] = ("on", "in", "against", "with", "for", "from", "to", "inside", "into", "at", "over", "via",
                               "under", "during", "while", "when", "whenever", "if", "after", "per")

ADVERBS: tuple[str, ...] = ("ever", "directly", "manually", "locally", "yourself", "accidentally", "automatically",
                            "blindly", "just", "proactively", "casually", "unnecessarily", "arbitrarily", "explicitly",
                            "actually", "simply", "needlessly", "again", "individually", "separately", "by hand",
                            "on your own", "in any form", "under any circumstances", "at all", "try to", "attempt to",
                            "go and", "be tempted to", "up", "for any reason", "at any time", "at any point",
                            "in any case", "whatsoever", "without exception", "on any account")

#: an aside between a cue and its verb, set off by commas ("Do not, under any circumstances, run
#: `x`", "Never, ever push"), or a neutral word before the object ("never bare `pytest`"): the rule
#: reads as if it were not there
ADVERB_EXAMPLES: tuple[Example, ...] = (
    ex("- Do not, under any circumstances, run `make nuke`.", "deny command make nuke"),
    ex("- You must never, for any reason, edit `schema.sql`.", "deny write schema.sql"),
    ex("- Never, ever push to `main`.", "deny target push main"),
    ex("- NEVER bare `python -m pytest`; use `uv run python -m pytest`.", "deny command python -m pytest via uv"),
    ex("- Never plain `pip install`, always `uv add`.", "deny command pip install"),
    ex("- Don't push, just commit.", "deny command git push"),
    ex("- Never, if the tests fail, skip them silently."),
)

EXAMPLE_MARKERS: tuple[str, ...] = ("e.g.", "e.g", "eg.", "for example", "for instance", "i.e.", "such as:")

PRONOUNS: tuple[str, ...] = ("them", "these", "those", "it", "this", "that", "these tools", "these commands",
                             "these files", "those files", "those commands", "such files", "such commands",
                             "either of the following", "any of the following", "the following", "any of these",
                             "any of them", "these directories", "this directory")

DEICTICS: tuple[str, ...] = ("here", "there", "in here", "in this directory", "in this folder", "this directory",
                             "this folder")

DESCRIPTIVE_SUBJECTS: tuple[str, ...] = ("the", "a", "an", "our", "this", "that", "it", "its", "they", "we", "ci",
                                         "which", "who", "what", "there", "he", "she", "users", "people", "tests",
                                         "code", "script", "scripts", "tool", "tools", "hook", "hooks")

AGENT_SUBJECTS: tuple[str, ...] = ("you", "claude", "agents", "the agent", "ai", "assistants", "please", "i", "we must",
                                   "you must", "you should", "one should")

ABBREVIATIONS: tuple[str, ...] = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no.", "eg.", "ie.", "incl.",
                                  "resp.", "esp.", "min.", "max.", "dept.", "fig.", "ca.", "mr.", "ms.", "dr.")


@dataclass(frozen=True)
class WorkState:
    """Words for the state of committed or pushed work, and the task whose run shows it ("" when
    only the agent can judge it)."""

    phrases: tuple[str, ...]
    category: str
    examples: tuple[Example, ...] = ()


#: what a ban on committing or pushing is about when it names work, not a path or a text
WORK_NOUNS: tuple[str, ...] = ("code", "changes", "change", "work", "commits", "commit", "anything", "something", "files",
                               "a branch", "branches", "features", "fixes")

#: git actions named by a noun after a verbless "No" ("No commits with failing tests", "No pushing
#: while the build is broken"): a ban on that action in the state the words name
VERBLESS_ACTIONS: dict[str, str] = {"commits": "commit", "commit": "commit", "committing": "commit", "pushes": "push",
                                    "push": "push", "pushing": "push", "merges": "merge", "merge": "merge", "merging": "merge"}

#: "never commit untested code": a ban on committing such work is an order to run the task before
#: committing, stated softly (a warning: which run showed it is the agent's to say); a state no
#: command shows ("broken", "code you don't understand") is advice the agent judges (no check).
#: A state said in several words that name the task failing ("with failing tests", "while the
#: tests are failing", "code that fails the tests") needs no noun for the work, and is an order
#: with the ban's force: the task must have passed ("tests must pass before committing")
WORK_STATES: tuple[WorkState, ...] = (
    WorkState(("untested", "without tests", "that fails the tests", "that fails tests", "that fail tests",
               "that fail the tests", "that breaks the tests", "that breaks tests", "that break tests",
               "with failing tests", "failing tests", "that fails ci", "that hasn't been tested",
               "that has not been tested", "that haven't been tested", "that have not been tested", "failing",
               "while tests are failing", "while the tests are failing", "while tests fail", "while the tests fail",
               "while any test fails", "if tests fail", "if the tests fail", "if any test fails", "if tests are failing",
               "if the tests are failing", "when tests fail", "when the tests fail", "when tests are failing",
               "with broken tests", "with red tests", "with test failures", "that breaks a test", "that fails a test"),
              "test",
              (ex("- Never commit untested code", "warn sequence <test> -> git commit"),
               ex("- Don't push code that fails the tests", "deny sequence <test> -> git push"),
               ex("- **Green suite** - No commits with failing tests", "deny sequence <test> -> git commit"),
               ex("- Never commit while the tests are failing.", "deny sequence <test> -> git commit"),
               ex("> Do not push if any test fails", "deny sequence <test> -> git push"),
               ex("1. No merging with red tests", "deny sequence <test> -> git merge"),
               ex("- Commits with failing tests are fine on draft branches"),
               ex("- No tests for the generated code"))),
    WorkState(("unlinted", "with lint errors", "with linting errors", "that fails lint", "that fails linting",
               "with lint warnings", "while lint fails", "if lint fails", "if linting fails", "with lint failures"),
              "lint",
              (ex("- Never commit code with lint errors", "deny sequence <lint> -> git commit"),
               ex("- No pushing with lint warnings", "deny sequence <lint> -> git push"))),
    WorkState(("unformatted", "that is not formatted", "that isn't formatted", "that fails formatting"),
              "format",
              (ex("- Never push unformatted code", "warn sequence <format> -> git push"),)),
    WorkState(("with type errors", "that fails type checking", "that fails typecheck", "with typescript errors"),
              "typecheck",
              (ex("- Never commit changes with type errors", "deny sequence <typecheck> -> git commit"),)),
    WorkState(("that doesn't compile", "that does not compile", "that doesn't build", "that does not build",
               "that fails to build", "that fails to compile", "uncompilable", "with build errors", "with compile errors",
               "while the build is broken", "if the build fails", "with a broken build", "with build failures"),
              "build",
              (ex("- Never commit code that doesn't compile", "deny sequence <build> -> git commit"),
               ex("- No pushes while the build is broken", "deny sequence <build> -> git push"),)),
    WorkState(("broken", "you don't understand", "you do not understand", "you don't fully understand",
               "you do not fully understand", "you haven't reviewed", "you have not reviewed", "unreviewed", "half-finished",
               "incomplete", "unfinished", "work in progress", "wip", "that doesn't work", "that does not work",
               "unverified", "unrelated", "debug", "commented-out", "experimental", "that have not been reviewed",
               "that haven't been reviewed", "that has not been reviewed", "that hasn't been reviewed"),
              "",
              (ex("- NEVER commit code you don't fully understand"),
               ex("- Never commit broken code"),
               ex("- Never commit `dist/` or broken code", "deny stage dist/**"))),
)


#: words that say the commits a rewrite (amend, squash, rebase) would change were published:
#: the ban holds after a push of the session with no commit since, and warns otherwise (which
#: commits were pushed before the session no call shows)
PUBLISHED: tuple[str, ...] = ("pushed", "already-pushed", "already pushed", "published", "already published",
                              "that have been pushed", "that has been pushed", "that were pushed", "that was pushed",
                              "that have already been pushed", "that has already been pushed", "on the remote",
                              "remote commits", "public commits", "public history", "shared history", "published history",
                              "shared branches", "a shared branch", "shared branch")

PUBLISHED_EXAMPLES: tuple[Example, ...] = (
    ex("- Never amend commits that have been pushed", "deny command git commit --amend once pushed"),
    ex("- Never rebase pushed commits", "deny command git rebase once pushed"),
    ex("- Never squash already-pushed commits", "deny command git rebase -i once pushed"),
    ex("- Never amend commits", "deny command git commit --amend"),
    ex("- Never push commits that have not been reviewed"),
)
