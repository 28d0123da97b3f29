"""Actions: the verbs of rules and what acting on an object means.

`kind` says which checks an object of the verb can become:

- `run`: a command is run (command checks; any program-looking code span counts).
- `use`: like `run`, but a one-word span must be a known program ("Never use `any`" is about
  TypeScript, not a program called any).
- `write`: a path is changed (write checks); `delete` is a write too.
- `create`: a new file appears (create checks: a Write to a path that does not exist, `touch`,
  a `>` redirection, a copy or move onto it).
- `read`: a path is read (read checks: Read, Grep, Glob, and cat/grep/rg/... in Bash).
- `git`: an action on the repository that is itself a command (`commands`); objects such as
  "to main" or paths narrow it ("commit to main" is a push or commit while on main; "commit
  `.env` files" is staging them).
- `add`, `install`, `update`, `publish`, `deploy`, `login`, `expose`, `content`, `bypass`: verbs
  whose meaning depends on their object (dependencies, packages, secrets, a trailer, hooks);
  the nouns table and the categories say what each combination yields.
- `thing`: verbs that act on a thing named in words (comment on a PR, close an issue, switch
  branches); guidance.policy.lexicon.things says which commands do each.

`words` are English forms (base and -ing; a third-person "-s" form makes a sentence
descriptive: "the script deletes `x`"); the verbs of Chinese, Japanese and Korean are in
lexicon/cjk.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class Action:
    name: str
    kind: str
    words: tuple[str, ...]
    #: the command patterns the action is, when it needs no object ("never amend commits")
    commands: tuple[str, ...] = ()
    examples: tuple[Example, ...] = ()


ACTIONS: tuple[Action, ...] = (
    Action("run", "run",
           ("run", "running", "execute", "executing", "invoke", "invoking", "call", "calling", "type", "typing",
            "issue", "issuing", "launch", "launching", "trigger", "triggering", "start", "starting", "fire off",
            "restart", "restarting", "spin up", "spinning up", "perform", "performing", "carry out", "carrying out",
            "re-run", "re-running", "rerun", "rerunning"),
           examples=(
               ex("- Never run `make clean`", "deny command make clean"),
               ex("- Do not execute `./scripts/reset-db.sh`", "deny command reset-db.sh"),
               ex("- Never run git push --force", "deny command git push --force"),
               ex("- Don't invoke `frobnicate --all` directly", "deny command frobnicate --all"),
               ex("- Never run tests like the ones in `tests/slow/`"),
               # a series of verbs: those the table does not know ("stop", "kill") are passed over
               ex("- Do not start, stop, restart, or kill dev servers (`npm run dev`, etc.)", "deny command npm run dev",
                  exact=False),
               ex("- Never read, parse, or edit `secrets/`", "deny write secrets/**", exact=False),
               ex("- Do not automatically perform Git operations (add, commit, push, pull, etc.)", "ask command <git-write>"),
               ex("- Perform a code review before merging"),
               ex("- Do not re-run `make bench` without explicitly asking", "ask command make bench"),
           )),
    # verbs of preference name the project's tool as "use" does ("Always prioritize uv": the other
    # tools of its job are discouraged, lexicon programs RIVALS)
    Action("use", "use", ("use", "using", "utilize", "utilise", "employ", "prefer", "prioritize", "prioritise",
                          "favor", "favour", "stick to", "stick with", "default to", "go with", "opt for", "rely on"),
           examples=(
               ex("- Never use `docker system prune`", "deny command docker system prune"),
               ex("- Never use `any` in TypeScript"),
               ex("- Do not use `setTimeout` in tests"),
               ex("- Always prioritize uv.", "warn command pip via uv", "warn command pip3 via uv", "warn command poetry via uv",
                  "warn command pipenv via uv", "warn command conda via uv", "warn command pdm via uv"),
               ex("- Prefer pnpm for package management.", "warn command npm", "warn command yarn", "warn command bun"),
               ex("- Stick to `yarn`.", "warn command npm", "warn command pnpm", "warn command bun"),
               ex("- Prefer small, focused commits."),
               ex("- Prefer `pnpm test --filter` for a single package."),
           )),
    Action("set", "use", ("set", "setting", "pass", "passing", "specify", "specifying", "give", "giving"),
           examples=(
               ex("- Do not set a timeout when running `bun bd`", "deny command timeout bun bd"),
               ex("- Never set `NODE_ENV` in tests"),
           )),
    Action("edit", "write",
           ("edit", "editing", "modify", "modifying", "change", "changing", "update", "updating", "alter",
            "altering", "touch", "touching", "write to", "writing to", "overwrite", "overwriting", "hand-edit",
            "hand edit", "rename", "renaming", "move", "moving", "bump", "bumping", "tamper with", "mess with",
            "commit changes to", "make changes to", "make changes", "change anything in", "edit anything in", "add rules to",
            "add anything to", "write into", "make file changes", "make any file changes", "make any changes",
            "make modifications", "make any modifications",
            # verbs that change a file whatever else they mean ("rewrite" and "regenerate" are left to the guess
            # below: "rewrite history" is a category, "regenerate" mostly names the generator's run; "refactoring"
            # is as often a noun: "refactoring comments")
            "reformat", "reformatting", "re-format", "patch", "patching", "mutate", "mutating", "restructure",
            "restructuring", "reorganize", "reorganizing", "reorganise", "reorganising", "refactor",
            "clobber", "clobbering"),
           examples=(
               ex("- Never edit `migrations/`", "deny write migrations/**"),
               ex("- Do not reformat `vendored/`", "deny write vendored/**"),
               ex("- Never patch files in `node_modules/` by hand", "deny write node_modules/**"),
               ex("- Don't refactor anything under `legacy/` while fixing bugs", "deny write legacy/**"),
               ex("- Avoid refactoring unrelated code"),
               ex("- Never patch a bug by hiding it"),
               ex("- Do not modify `package-lock.json`", "deny write package-lock.json", "ask command <writes package-lock.json>"),
               ex("- Do not manually edit `package-lock.json`", "deny write package-lock.json"),
               ex("- Do not bump the version in `plugins/x/plugin.json` from a routine PR", "deny write plugins/x/plugin.json"),
               ex("- Never edit `config loader` behaviour"),
               ex("- Never write tests in `src/`"),
           )),
    Action("delete", "write",
           ("delete", "deleting", "remove", "removing", "rm", "wipe", "wiping", "clean up", "cleaning up", "purge",
            "purging", "erase", "erasing", "truncate", "truncating", "drop", "dropping", "destroy", "destroying",
            "nuke", "nuking"),
           examples=(
               ex("- Never delete or modify files under `data/`", "deny write data/**"),
               ex("- Never nuke `.cache/`", "deny write .cache/**"),
               ex("- Never destroy the user's work"),
               ex("- Never delete the old branches of `origin`", "warn command git branch -d"),
           )),
    Action("create", "create",
           ("create", "creating", "add", "adding", "introduce", "introducing", "generate new", "make new",
            "write new", "put", "putting", "place", "placing", "save", "saving", "store", "storing", "leave", "leaving",
            # a path made again after it was removed on purpose
            "recreate", "recreating", "re-create", "re-creating"),
           examples=(
               ex("- Never recreate `build/legacy/`", "deny create build/legacy/**"),
               ex("- Do not recreate deleted tests to make the suite pass"),
               ex("- Don't create `middleware.ts`", "deny create middleware.ts"),
               # where a kind of file goes: a ban on the place is about that kind only
               ex("- Never put test files in `src/`", "deny create src/**/*.test.*", exact=False),
               ex("- Do not leave markdown files at the repository root", "deny create ./*.md"),
               ex("- Never store secrets in the repository"),
               ex("- Never create files in `src/legacy`", "deny create src/legacy/**"),
               ex("- Do not add `console.log` statements"),
           )),
    Action("read", "read",
           ("read", "reading", "open", "opening", "cat", "view", "viewing", "print", "printing", "display",
            "displaying", "show", "showing", "dump", "dumping", "look at", "looking at", "look into", "search",
            "searching", "grep", "inspect", "inspecting", "load", "loading", "browse", "browsing", "explore",
            "exploring", "access", "accessing", "look inside", "looking inside", "look in", "looking in", "look through",
            "looking through", "grep through", "search through", "searching through", "dig into", "digging into",
            "scan", "scanning", "index", "indexing", "crawl", "crawling"),
           examples=(
               ex("- Never read `.env`", "deny read .env", exact=False),
               ex("- Never look inside `data/private/`", "deny read data/private/**"),
               ex("- Do not grep through `node_modules/`", "deny read node_modules/**"),
               ex("- Do not read files in `examples/` unless asked", "ask read examples/**"),
               ex("- Never read `$SECRET` aloud"),
           )),
    Action("commit", "git", ("commit", "committing", "check in", "checking in", "make commits", "make a commit",
                            "make any commits", "making commits", "making a commit"), commands=("git commit",),
           examples=(
               ex("- Don't commit unless the user explicitly asks you to", "ask command git commit"),
               ex("- Never commit `.env` files", "deny stage .env .env.local .env.*.local .env.development .env.production "
                  ".env.test .env.staging .env.prod .env.dev"),
               ex("- Never commit directly to main", "deny target commit main"),
               ex("- Make new commits only when the user requests it", "ask command git commit"),
               ex("- Never make commits autonomously", "ask command git commit"),
               ex("- Ask the user before committing anything or pushing", "ask command git commit",
                  "ask command git push"),
           )),
    Action("push", "git", ("push", "pushing", "push up", "pushing up"), commands=("git push",),
           examples=(
               ex("- Never push without an explicit instruction to push", "ask command git push"),
               ex("- NEVER push directly to main", "deny target push main"),
           )),
    Action("force-push", "git", ("force push", "force-push", "force pushing", "force-pushing", "force-pushes",
                                  "force pushes", "forcepush", "push --force", "push -f"), commands=("git push --force",),
           examples=(ex("- Make sure to never force push", "deny command <force-push>"),)),
    Action("amend", "git", ("amend", "amending"), commands=("git commit --amend",),
           examples=(ex("- Never amend commits", "deny command git commit --amend"),)),
    Action("squash", "git", ("squash", "squashing"), commands=("git rebase -i",),
           examples=(ex("- Never squash pushed commits", "deny command git rebase -i once pushed"),)),
    Action("stage", "git", ("stage", "staging"), commands=("git add",),
           examples=(ex("- Ask before staging, committing, or reverting changes", "ask command git add",
                        "ask command git commit", "ask command git revert"),
                     ex("- Never stage `secrets.json`", "deny stage secrets.json"),
                     ex("- Never deploy to staging without approval", "ask command <deploy>"))),
    Action("revert", "git", ("revert", "reverting"), commands=("git revert",),
           examples=(ex("- Never revert commits without asking", "ask command git revert"),
                     ex("- Don't revert other people's commits", "warn command git revert"),
                     ex("- Never revert to the old API"))),
    # pulling brings others' commits into the work (a fetch and a merge): "never push or pull unless asked"
    Action("pull", "git", ("pull", "pulling"), commands=("git pull",),
           examples=(ex("- Never push or pull unless the user requests it", "ask command git push", "ask command git pull"),
                     ex("- Don't pull changes without asking", "ask command git pull"),
                     ex("- Never pull in new dependencies without asking", "ask command <add-dependency>"),
                     # an object that is some pulls (or not a branch at all): a warning
                     ex("- Don't pull the latest Docker image in tests", "warn command git pull"))),
    Action("merge", "git", ("merge", "merging"), commands=("git merge",),
           examples=(ex("- Never merge to main directly", "deny target merge main"),)),
    # working on a branch is committing to it and pushing it: "never work directly on main"
    Action("work-on", "git", ("work on", "working on", "work directly on", "working directly on", "develop on",
                              "developing on", "develop directly on", "make changes on", "making changes on",
                              "make changes directly on", "make changes to", "making changes to", "do work on"),
           examples=(ex("- Never work directly on main", "deny target commit main", "deny target push main"),
                     ex("- Never work on the master branch directly", "deny target commit master", "deny target push master"),
                     ex("- Don't develop on `master`", "deny target commit master", "deny target push master"),
                     ex("- Never work on more than one issue at a time"))),
    Action("rebase", "git", ("rebase", "rebasing"), commands=("git rebase",),
           examples=(ex("- Don't rebase without asking", "ask command git rebase"),)),
    Action("tag", "git", ("tag", "tagging"), commands=("git tag <name>", "git push --tags"),
           examples=(ex("- Never tag releases manually", "deny command <tag>"),)),
    Action("open", "git", ("open", "opening", "submit", "submitting", "file", "raise", "raising", "send",
                           "create", "creating", "make"),
           examples=(ex("- Don't open PRs for features without discussion", "ask command <pull-request>"),)),
    Action("comment", "thing", ("comment", "commenting", "comment on", "commenting on", "reply", "replying", "reply to",
                                "replying to", "respond to", "responding to", "post", "posting", "leave", "leaving"),
           examples=(ex("- Do not comment on the PR", "deny command gh pr comment"),
                     ex("- Never post comments on GitHub issues", "deny command gh issue comment", exact=False),
                     ex("- Do not leave the build directory dirty"))),
    Action("enable", "thing", ("enable", "enabling", "turn on", "turning on"),
           examples=(ex("- Ask before enabling auto-merge", "ask command gh pr merge --auto"),
                     ex("- Never enable debug logging in production"))),
    Action("close", "thing", ("close", "closing", "reopen", "reopening"),
           examples=(ex("- Never close issues", "deny command gh issue close", exact=False),
                     ex("- Do not close the terminal"))),
    Action("approve", "thing", ("approve", "approving"),
           examples=(ex("- Never approve pull requests", "deny command gh pr review --approve", exact=False),)),
    Action("switch", "thing", ("switch", "switching", "switch to", "check out", "checkout", "checking out"),
           examples=(ex("- Never switch branches", "deny command git checkout ?*", exact=False),
                     ex("- Never switch to Yarn 2"))),
    Action("install", "install", ("install", "installing", "pip install", "npm install"),
           examples=(
               ex("- Do not install `left-pad`", "deny command pip install left-pad"),
               ex("- Never install new dependencies without asking", "ask command <add-dependency>"),
           )),
    Action("add", "add", ("add", "adding", "introduce", "introducing", "pull in"),
           examples=(ex("- Do not add new dependencies", "deny command <add-dependency>"),)),
    Action("update", "update", ("update", "updating", "upgrade", "upgrading", "bump", "bumping"),
           examples=(ex("- Don't upgrade dependencies unless asked", "ask command <update-dependency>"),)),
    Action("publish", "publish", ("publish", "publishing", "release", "releasing"),
           examples=(ex("- Never publish packages yourself", "deny command <publish>"),)),
    Action("deploy", "deploy", ("deploy", "deploying", "ship to production"),
           examples=(ex("- Never deploy to production", "ask command <deploy>"),)),
    Action("login", "login", ("log in", "login", "logging in", "authenticate", "authenticating", "sign in",
                              "signing in", "attempt manual authentication", "manual authentication"),
           examples=(ex("- NEVER attempt manual authentication", "deny command <login>"),)),
    Action("expose", "expose", ("share", "sharing", "expose", "exposing", "leak", "leaking", "reveal", "revealing",
                                "echo", "echoing", "output", "outputting", "paste", "pasting",
                                "print out", "hardcode", "hard-code"),
           examples=(ex("- NEVER share or expose npm credentials", "deny read ~/.npmrc", "deny read .npmrc",
                        "deny variable NPM_TOKEN NODE_AUTH_TOKEN"),)),
    Action("content", "content", ("add", "adding", "include", "including", "append", "appending", "emit",
                                  "emitting", "put", "putting", "insert", "inserting", "mention", "write",
                                  "writing", "sign", "signing", "credit", "crediting", "reference", "referencing",
                                  "contain", "containing"),
           examples=(
               ex("- Never add a Co-Authored-By trailer", "deny message co-authored-by"),
               ex("- Never add test plan to PR description", "deny message test plan"),
               ex("- Do not mention Anthropic or Claude in commit messages", "ask message anthropic | claude"),
               ex("- Never mention the ticket, the customer or the incident"),
               ex("- Commit messages must not mention Claude or Anthropic", "ask message claude | anthropic"),
               ex('- PR descriptions must not contain "Generated with Claude Code"', "deny message generated with claude code"),
               ex("- Commit messages must never include AI attribution", "deny message generated with | created with | "
                  "\U0001f916 generated | claude.com/claude-code | claude.ai/code | co-authored-by: claude"),
               ex("- The tests must not contain hardcoded ports"),
               # names not to write: a slash or a second verb separates them, the heading may say where
               ex("## Pull requests and commits\n\n- Never mention Copilot/Gemini.", "ask message copilot | gemini"),
               ex("- Never credit Gemini or mention AI assistance in commit messages", "deny message generated with | "
                  "created with | \U0001f916 generated | claude.com/claude-code | claude.ai/code | co-authored-by: claude",
                  "ask message gemini"),
               ex("## Commit messages\n\n- Don't mention that a change was written with Copilot or Gemini",
                  "ask message copilot | gemini"),
               ex("- Never mention Gemini or LLM assistance in commit messages", "deny message generated with | "
                  "created with | \U0001f916 generated | claude.com/claude-code | claude.ai/code | co-authored-by: claude",
                  "ask message gemini"),
               ex("## Code style\n\n- Never mention Copilot."),
               ex("## Pull requests\n\n- Never add reviewers."),
           )),
    Action("bypass", "bypass", ("skip", "skipping", "bypass", "bypassing", "disable", "disabling",
                                "circumvent", "circumventing"),
           examples=(ex("- Never skip the git hooks", "deny command git commit --no-verify", exact=False),)),
)


@dataclass(frozen=True)
class Unchanged:
    """Verbs the action table does not know that leave the path they name as it is."""

    name: str
    words: tuple[str, ...]
    examples: tuple[Example, ...] = ()


#: A verb the table does not know, over a path written as its object under a strong cue ("Never
#: symlink `vendor/`", "Do not rewrite `CHANGELOG.md`"), is read as a change to that path: the
#: rule is kept, asked rather than denied, since the reading is a guess (guidance.policy.frames
#: `guessed_change`). These verbs stay out of the guess: some turn the rule around (forgetting or
#: omitting a file is not changing it), the others do something with the path that leaves it as it
#: is (importing from it, mocking it, copying it elsewhere).
UNCHANGED: tuple[Unchanged, ...] = (
    Unchanged("inverting", ("forget", "forgetting", "omit", "omitting", "neglect", "neglecting", "ignore", "ignoring",
                            "overlook", "overlooking", "miss", "missing", "hesitate", "hesitating", "fail", "failing",
                            "lose", "losing", "leave out", "abandon", "abandoning"),
              examples=(ex("- Never forget `CHANGELOG.md`"),
                        ex("- Do not omit `tests/fixtures/` from the package"),
                        ex("- Never symlink `vendor/`", "ask write vendor/**"))),
    Unchanged("using", ("import", "importing", "require", "requiring", "cite", "citing", "copy", "copying", "duplicate",
                        "duplicating", "mock", "mocking", "stub", "stubbing", "test", "testing", "benchmark", "document",
                        "documenting", "log", "logging", "trust", "trusting", "assume", "assuming", "guess", "guessing",
                        "compare", "comparing", "parse", "parsing", "cache", "caching", "inline", "inlining", "re-export",
                        "re-exporting", "pipe", "piping", "source", "sourcing", "depend", "depending", "mix", "mixing",
                        "confuse", "confusing", "treat", "treating", "wrap", "wrapping", "expect", "expecting", "watch",
                        "watching", "serve", "serving", "mount", "mounting", "bundle", "bundling", "ship", "shipping",
                        "link", "linking", "debug", "debugging", "trace", "tracing", "profile", "profiling",
                        "lint", "linting", "review", "reviewing", "check", "checking", "verify", "verifying",
                        "reinvent", "reinventing", "reimplement", "reimplementing", "replicate", "replicating",
                        "hardcode", "hardcoding", "hard-code", "hard-coding"),
              examples=(ex("- Never import from `src/internal/`"),
                        ex("- Do not mock `src/db.ts` in integration tests"),
                        ex("- Never copy `.env.example` into other projects"),
                        ex("- Don't lint `vendor/`"),
                        ex("- Never reinvent `lib/http.ts`; extend it"),
                        ex("- Never regenerate `api/openapi.json` by hand", "ask write api/openapi.json"))),
)
