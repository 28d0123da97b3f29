"""Cues: the words that give an English sentence its force.

A cue's modality decides what a clause does with its action and objects:

- `ban`: the action is forbidden (verdict deny; ask when a condition or qualifier narrows it).
- `avoid`: the action is discouraged (warn).
- `ask`: the action needs a human's yes first (ask).
- `require`: the action is required; it yields checks only in forms that can be checked at a
  tool call (an ordering "before committing", a branch prefix, a command's required options,
  "use X instead of Y").
- `only`: "only use X for linting", "only push after X": everything else of that kind is
  banned, or the action waits for something.

English cues are matched as whole words on the lowercased text; the cues of Chinese, Japanese
and Korean are in lexicon/cjk.py. A cue written in a heading or in the sentence introducing a
list ("## NEVER", "Never edit these files:") applies to the items below it that carry no cue
of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class Cue:
    name: str
    modality: str
    phrases: tuple[str, ...]
    examples: tuple[Example, ...] = ()
    #: a require cue that states a hard rule ("must", "mandatory"): an ordering said with it denies.
    #: The others ("always", "make sure", a plain imperative) state practice, however firmly: an
    #: ordering said with them warns (the first commit of a session is not stopped for it). Bans
    #: and "only" are hard by their modality ("never commit without X", "only push after X").
    hard: bool = False


CUES: tuple[Cue, ...] = (
    Cue(
        "never",
        "ban",
        ("never", "do not", "don't", "dont", "must not", "mustn't", "must never", "should never", "shall not",
         "shall never", "cannot", "can't", "may not", "are not allowed to", "is not allowed to", "not allowed to",
         "are forbidden to", "is forbidden to", "forbidden to", "you are forbidden from", "under no circumstances",
         "do not ever", "never ever", "is not to", "are not to", "is never to", "are never to"),
        examples=(
            ex("- Never run `terraform destroy`", "deny command terraform destroy"),
            ex("- Do not use `git push --force`", "deny command git push --force"),
            ex("- You must not run `kubectl delete namespace prod`", "deny command kubectl delete namespace prod"),
            ex("- The deploy script never runs `terraform destroy`"),
            ex("- Don't worry if `git status` shows untracked files"),
            ex("- Commit your work but do not push", "deny command git push"),
            ex("- The release job tags builds but never pushes"),
            # a lead-in whose verb stops at its colon: what follows is the object, not the bare command
            ex("**Never commit:**\n\n- `config/local.json`\n- \u274c `.env.local`\n", "deny stage config/local.json",
               "deny stage .env.local"),
            ex("Never commit or push:\n\n- `out/`\n", "deny stage out/**"),
            ex("**Never commit:** `data/cache.db`, `data/tmp.db`.", "deny stage data/cache.db", "deny stage data/tmp.db"),
        ),
    ),
    Cue(
        "forbidden-word",
        "ban",
        ("forbidden", "prohibited", "not allowed", "not permitted", "strictly forbidden", "banned", "never allowed",
         "never permitted"),
        examples=(
            ex("- `git push --force` is forbidden", "deny command git push --force"),
            # an action named as the subject: "direct pushes to `main`" is pushing to main
            ex("- Direct pushes to `main` are never allowed.", "deny target push main"),
            ex("- Committing to `master` is not permitted.", "deny target commit master"),
            ex("- Force pushes are never allowed.", "deny command <force-push>"),
            ex("- Pushes are never allowed on Fridays."),
            ex("## Forbidden\n\n- `npm publish`\n", "deny command npm publish"),
            ex("- Forbidden characters in names are rejected by the parser"),
        ),
    ),
    Cue(
        "cross-mark",
        "ban",
        ("\u274c", "\U0001f6ab", "\u26d4"),
        examples=(
            ex("- \u274c `git push --force`", "deny command git push --force"),
            ex("- \u274c `npm publish` (CI publishes)", "deny command npm publish"),
            # marked lines without list markers are items of their own; a check mark among them is allowed
            ex("**Forbidden commands:**\n\n\u274c `git reset --hard`\n\u274c `npm publish`\n\u2705 `npm test`\n",
               "deny command git reset --hard", "deny command npm publish"),
        ),
    ),
    Cue(
        # after its subject only ("`docker` is not available here"): running it fails or is not
        # how the project works, which the agent learns sooner from a warning than from the error
        "unavailable",
        "avoid",
        ("is not available", "are not available", "isn't available", "aren't available", "is unavailable",
         "are unavailable", "is not installed", "are not installed", "isn't installed", "aren't installed",
         "is not supported", "are not supported", "isn't supported", "aren't supported"),
        examples=(
            ex("- `docker` is not available in this environment", "warn command docker"),
            ex("- `sudo` isn't available here; install into the user's home instead", "warn command sudo"),
            ex("- pnpm and yarn are not supported in this repo", "warn command pnpm", "warn command yarn"),
            ex("- Windows is not supported"),
            ex("- If `pnpm` is not installed, run `corepack enable`"),
            ex("- The `--watch` flag is not supported by the test runner"),
            ex("- `make` is not installed on the CI image"),
            ex("- `xdg-open` is not available on macOS"),
            ex("- Docker isn't installed in this sandbox", "warn command docker"),
        ),
    ),
    Cue(
        # a tool the project does not use, said of the tool ("Poetry is not used in this project") or
        # of the project ("This repo does not use npm"): running it is not how the project works
        # (warn); only programs count, a code identifier or a design pattern "not used" is no command
        "not-used",
        "avoid",
        ("is not used", "are not used", "isn't used", "aren't used", "is no longer used", "are no longer used",
         "is never used", "are never used", "does not use", "doesn't use", "no longer uses", "do not have access to",
         "don't have access to", "have no access to", "does not have access to", "doesn't have access to"),
        examples=(
            ex("- Poetry is not used in this project", "warn command poetry"),
            ex("- This repository does not use npm or yarn", "warn command npm", "warn command yarn"),
            ex("- You do not have access to docker here", "warn command docker"),
            ex("- Docker is not used for local development", "warn command docker"),
            ex("- `useSession` is not used in this project; call `useAuth`"),
            ex("- The repository pattern is not used here"),
            ex("- The worker does not use `docker`"),
        ),
    ),
    Cue(
        "avoid",
        "avoid",
        ("avoid", "should not", "shouldn't", "prefer not to", "try not to", "try to avoid", "refrain from",
         "is discouraged", "are discouraged", "not recommended", "better not", "use sparingly", "use it sparingly"),
        examples=(
            ex("- Avoid `npm install`", "warn command npm install"),
            ex("- `pnpm test` - Run all tests (slow, use sparingly)", "warn command pnpm test"),
            ex("- You should not run `cargo update`", "warn command cargo update"),
            ex("- Refrain from running `yarn upgrade`", "warn command yarn upgrade"),
            ex("- Avoid long functions"),
        ),
    ),
    Cue(
        "ask-before",
        "ask",
        ("ask before", "ask first before", "ask the user before", "ask me before", "always ask before",
         "check with the user before", "check with me before", "confirm before", "confirm with the user before",
         "confirm with me before", "get approval before", "get user approval before", "get explicit approval before",
         "get permission before", "get explicit permission before", "get confirmation before",
         "require approval before", "require explicit approval before", "request approval before",
         "ask for permission before", "ask for approval before", "ask the user for permission before",
         "ask for confirmation before", "wait for approval before", "wait for confirmation before",
         "double-check with the user before", "double check with the user before", "double-check with me before",
         "ask permission before", "ask for explicit permission before", "ask for explicit approval before",
         "get the user's approval before", "get my approval before", "get my permission before"),
        examples=(
            ex("- Ask before `terraform apply`", "ask command terraform apply"),
            ex("- Always double-check with the user before committing changes", "ask command git commit"),
            ex("- Ask permission before pushing or pulling", "ask command git push", "ask command git pull"),
            ex("- Always ask the user before running `git rebase`", "ask command git rebase"),
            ex("- Get explicit approval before running `make release`", "ask command make release"),
            ex("- Ask before large refactors"),
        ),
    ),
    Cue(
        # said of a command the sentence or its list item names ("`cargo test --all-features` - ask
        # user first"): that command waits for a yes
        "ask-first",
        "ask",
        ("ask first", "ask user first", "ask the user first", "ask me first", "check with the user first",
         "confirm with the user first", "ask for confirmation", "ask for permission", "ask for approval",
         "ask the user for confirmation", "ask the user for permission", "ask the user for approval"),
        examples=(
            ex("- Core changes: `cargo test --all-features` - ask user first", "ask command cargo test --all-features"),
            # the situation first, the cue last: "Before X, ask for confirmation:" over the list of X
            ex("Before running any of these commands, always ask for confirmation:\n\n- `make purge`\n- `git clean -fdx`\n",
               "ask command make purge", "ask command git clean -fdx"),
            ex("- `make reset` will ask for confirmation"),
            ex("- The installer may ask for permission to write to `/usr/local`"),
            ex("- `make deploy` - ships to production (ask first)", "ask command make deploy"),
            ex("- If the task is unclear, ask first"),
        ),
    ),
    Cue(
        # after its subject only ("The following commands require approval:", "`make deploy` needs
        # approval"): the subject waits for a human's yes
        "needs-approval",
        "ask",
        ("requires approval", "require approval", "requires human approval", "require human approval",
         "requires explicit approval", "require explicit approval", "requires user approval", "require user approval",
         "needs approval", "need approval", "requires confirmation", "require confirmation",
         "requires explicit permission", "require explicit permission"),
        examples=(
            ex("The following commands require human approval before execution:\n\n- `terraform apply`\n- `make release`\n",
               "ask command terraform apply", "ask command make release"),
            ex("- `make deploy` needs approval", "ask command make deploy"),
            ex("- Every release requires approval from two maintainers"),
        ),
    ),
    Cue(
        "ask-when",
        "ask",
        ("stop and ask the user when", "stop and ask the user if", "stop and ask when", "stop and ask if",
         "ask the user when", "ask the user if you", "ask user when", "ask me when", "ask first when",
         "ask the user first when", "check with the user when", "ask for approval when", "ask before you"),
        examples=(
            ex("Stop and ask the user when you:\n\n- need to add new dependencies\n- change the public API\n",
               "ask command <add-dependency>"),
        ),
    ),
    Cue(
        "must",
        "require",
        ("must", "have to", "has to", "is required", "are required", "required to", "is mandatory", "mandatory"),
        examples=(
            ex("- `make test` must pass before committing", "deny sequence make test -> git commit"),
            ex("- You must run `make lint` before pushing", "deny sequence make lint -> git push"),
            ex("- Running `make check` is mandatory before every commit", "deny sequence make check -> git commit"),
            ex("- Branch names must start with `feat/`", "deny branch feat/*"),
        ),
        hard=True,
    ),
    Cue(
        "always",
        "require",
        ("always", "make sure to", "make sure that", "make sure", "ensure that", "ensure", "be sure to",
         "remember to", "need to", "needs to"),
        examples=(
            ex("- Always run `make test` before committing", "warn sequence make test -> git commit"),
            ex("- Make sure to run `make lint` before pushing", "warn sequence make lint -> git push"),
            ex("- Always write tests"),
        ),
    ),
    Cue(
        "only",
        "only",
        ("only",),
        examples=(
            ex("- Only push after running `make check`", "deny sequence make check -> git push"),
            ex("- Only use `spin` commands for linting", "deny command <lint>", exact=False),
            ex("- Only run `npm run build` when the change is large"),
        ),
    ),
)

#: Heading words that make a section a list of rules of one force ("## NEVER", "### What to
#: AVOID"), matched like cues; a heading's own cue counts too (CJK headings: lexicon/cjk.py).
HEADING_CUES: tuple[Cue, ...] = (
    Cue("heading-ban", "ban", ("never", "forbidden", "forbidden patterns", "prohibited", "don'ts", "donts",
                               "do not", "don't", "anti-patterns", "never do", "not allowed"),
        examples=(ex("## NEVER\n\n- use `--no-verify` on git commits\n", "deny command git commit --no-verify"),)),
    Cue("heading-avoid", "avoid", ("avoid", "what to avoid", "things to avoid", "pitfalls to avoid"),
        examples=(ex("## What to avoid\n\n- `npm audit fix --force`\n", "warn command npm audit fix --force"),)),
    Cue("heading-ask", "ask", ("ask before", "ask first", "requires approval", "requires confirmation", "stop conditions",
                               "when to ask", "need approval", "needs approval"),
        examples=(ex("## Ask first\n\n- `terraform apply`\n", "ask command terraform apply"),)),
)

#: Labels: a block, a list item or a table cell whose words before its colon (or all its words)
#: are only these gives its force to what follows it ("always" labels give none: what follows is
#: read on its own; "the user will:" gives the user's actions to the user, the agent asks): the rest of the item ("**Never:** a; b"),
#: the list below it ("**Ask first**" then items), the sub-items of a bullet, the other cells of
#: a table row ("| **Never do** | ... |") or the cells of a table column ("| ❌ Forbidden |").
#: Matched whole (after dropping emphasis, emoji and a parenthesised gloss); heading words count.
LABEL_CUES: tuple[Cue, ...] = (
    Cue("label-ban", "ban", ("never", "never do", "never ever", "don't", "do not", "dont", "don't do", "do not do",
                             "must not", "must never", "not allowed", "forbidden", "prohibited", "forbidden actions",
                             "prohibited actions", "what not to do", "things not to do", "things to never do", "don'ts",
                             "donts", "off limits", "off-limits", "do not touch", "don't touch", "never touch",
                             "禁止", "禁止事項", "禁止事项", "绝对禁止", "禁止行为", "不要", "不可", "严禁", "금지", "금지 사항",
                             "금지사항", "하지 말 것", "절대 금지", "やってはいけないこと", "してはいけないこと"),
        examples=(ex("- **Never:** edit `dist/`; run `make nuke`", "deny write dist/**", "deny command make nuke"),
                  ex("**Never**\n\n- Commit secrets.\n- Push directly to `main`.\n",
                     "deny stage .env .env.local .env.*.local .env.production .env.development *.pem *.key id_rsa id_ed25519 "
                     "credentials.json *.p12 "
                     "[Ss]ecrets.yaml [Ss]ecrets.yml [Ss]ecrets.json [Ss]ecrets.toml [Ss]ecrets.env "
                     "[Ss]ecrets.xcconfig [Ss]ecret.yaml [Ss]ecret.yml [Ss]ecret.json [Ss]ecret.toml "
                     "[Ss]ecret.env [Ss]ecret.xcconfig *.secret.yaml *.secret.yml *.secret.json *.secret.toml "
                     "*.secret.env *.secret.xcconfig", "deny target push main"),
                  ex("- **Never**\n  - Run `terraform destroy`.\n", "deny command terraform destroy"),
                  ex("| Tier | Examples |\n|---|---|\n| **Never do** | Run `make nuke`; edit `vendor/` |\n",
                     "deny command make nuke", "deny write vendor/**"),
                  ex("| Task | \u274c Forbidden | \u2705 Use |\n|---|---|---|\n| Publish | `npm publish` | the release workflow |\n",
                     "deny command npm publish"),
                  ex("| Task | \u274c Forbidden | \u2705 Use |\n|---|---|---|\n| Read files | `cat` | the Read tool |\n",
                     "warn command cat"),
                  ex("- **Never**: mind the warnings in the build log"),
                  ex("| Feature | Supported |\n|---|---|\n| Never | `retry` |\n"))),
    Cue("label-ask", "ask", ("ask first", "ask before", "ask me first", "ask the user first", "check first", "confirm first",
                             "requires approval", "require approval", "needs approval", "need approval", "approval required",
                             "requires confirmation", "requires human approval", "human approval required", "with approval",
                             "only with approval", "stop and ask", "ask", "要確認", "確認必須", "要相談", "需审批", "需要确认",
                             "需确认", "需要审批", "승인 필요", "확인 필요", "사전 확인", "먼저 확인"),
        examples=(ex("**Ask first**\n\n- Adding new dependencies.\n- Running `terraform apply`.\n",
                     "ask command <add-dependency>", "ask command terraform apply", exact=False),
                  ex("- **Ask first:** changing `schema.sql`; running `make migrate`.", "ask write schema.sql",
                     "ask command make migrate"))),
    Cue("label-require", "require", ("always", "always do", "must", "must do", "required", "do", "必须", "必須", "반드시", "항상"),
        examples=(ex("- \u2705 **Always do:** run `npm test` before committing", "warn sequence npm test -> git commit"),
                  ex("- **Always:** keep functions small"))),
    Cue("label-user", "ask", ("the user will", "the user handles", "the user does", "the user is responsible for",
                              "leave to the user", "left to the user", "only the user", "only the user may", "the human will",
                              "humans will", "the maintainers will", "i will", "i'll handle", "user handles"),
        examples=(ex("The user will:\n\n- Deploy the app to production\n- Merge pull requests\n",
                     "ask command <deploy>", "ask command gh pr merge"),)),
    Cue("label-avoid", "avoid", ("avoid", "things to avoid", "what to avoid", "discouraged", "not recommended", "避免", "避ける",
                                 "非推奨", "지양", "비권장"),
        examples=(ex("- **Avoid:** `npm audit fix --force`", "warn command npm audit fix --force"),)),
)

#: Titles that name files under a force: a heading, a label or a list's intro ("## Files you must
#: not edit", "**Protected files:**", "### Read-only directories", "Generated files - DO NOT
#: EDIT") gives the paths below it (or after its colon) that force, about writing them unless its
#: own verb says otherwise ("Files you must not read"). A title is one of `FILE_PLACES` with a
#: protecting word before it, or with a cue and a verb after it (its subject may be the agent).
#: The protecting words that ban also say it of one path: "`vendor/` is read-only", "`x` — inputs
#: (READ-ONLY)", "treat `x` as immutable".
FILE_PLACES: tuple[str, ...] = ("files", "file", "directories", "directory", "dirs", "folders", "folder", "paths",
                                "areas", "locations", "zones")

FILE_TITLES: tuple[Cue, ...] = (
    Cue("title-read-only", "ban", ("read-only", "readonly", "read only", "do-not-edit", "do-not-touch", "do-not-modify",
                                   "off-limits", "off limits", "immutable", "untouchable", "hands-off", "no-edit", "no-touch",
                                   "never-edit", "never-touch"),
        examples=(ex("## Read-only directories\n\n- `packages/legacy/`\n- `third_party/`\n",
                     "deny write packages/legacy/**", "deny write third_party/**"),
                  ex("**Off-limits files:** `src/App.jsx`, `src/styles/*`", "deny write src/App.jsx", "deny write src/styles/*"),
                  ex("## Read-only mode\n\nThe dashboard has a read-only mode for viewers.\n"),
                  ex("- `bench/` \u2014 benchmark inputs (READ-ONLY)", "deny write bench/**"),
                  ex("- `vendor/` is read-only", "deny write vendor/**"),
                  ex("- Use a read-only token for `gh api` calls"))),
    Cue("title-protected", "ask", ("protected", "restricted", "guarded"),
        examples=(ex("Protected files:\n\n- `README.md`\n- `docs/**`\n", "ask write README.md", "ask write docs/**"),
                  ex("## Protected routes\n\n- `/admin` requires a session\n"))),
)

#: the other form of a title: a place noun, its subject, a cue and a verb
FILE_TITLE_EXAMPLES: tuple[Example, ...] = (
    ex("## Files you must not edit\n\n- `architecture.md`\n- `specs/spec.md`\n",
       "deny write architecture.md", "deny write specs/spec.md"),
    ex("### Files You MUST NOT Edit\n\n| File | Why |\n|---|---|\n| `crm/css/classic.css` | vendor CSS |\n",
       "deny write crm/css/classic.css"),
    ex("## Files you should not read\n\n- `data/raw/`\n", "warn read data/raw/**"),
    ex("### Generated files - DO NOT EDIT\n\n- `docs/api.md`\n", "deny write docs/api.md"),
    ex("## Files you will work on\n\n- `src/app.ts`\n"),
)

#: "No" opening a clause before a git action (its noun or -ing form) or a lone command is a ban;
#: before anything else it is a description ("No tests exist for this module").
NO_ACTION_EXAMPLES: tuple[Example, ...] = (
    ex("- Open a PR for every change — no direct pushes to `release`", "deny target push release"),
    # new dependencies: with a condition the rule it states; alone it may describe the design (a warning)
    ex("- No dependency installs without explicit approval.", "ask command <add-dependency>"),
    ex("- No new dependencies.", "warn command <add-dependency>"),
    ex("- No dependencies are bundled with the binary."),
    ex("- No force pushing, ever", "deny command <force-push>"),
    ex("- No commits during a freeze", "warn command git commit"),
    ex("- No `git stash` in shared checkouts", "warn command git stash"),
    ex("- No tests exist for the legacy importer"),
    # a gerund of any verb with what it acts on; a short label or an intensifier before "no"; the item's branch label
    ex("- No editing `dist/` by hand.", "deny write dist/**"),
    ex("- No running `make nuke`.", "deny command make nuke"),
    ex("- No running services are required for the unit tests."),
    ex("- Absolutely no `git push --force`.", "deny command git push --force"),
    ex("- **Git:** no force pushes", "deny command <force-push>"),
    ex("- **NO history rewrites**: `git rebase -i`, `git reset --hard`", "deny command git rebase -i",
       "deny command git reset --hard"),
    ex("- **Main branch** - no direct pushes", "deny target push main"),
    ex("- **Main branch** - never commit directly", "deny target commit main"),
    ex("- **Main branch** - the production line"),
    ex("- **Style:** no trailing whitespace"),
    ex("- No need to run `make` first"),
    ex("- No AI attribution in commits or PRs", "deny message generated with | created with | \U0001f916 generated | "
       "claude.com/claude-code | claude.ai/code | co-authored-by: claude"),
    ex('- No "Co-Authored-By" lines', "deny message co-authored-by"),
    ex('- No "WIP" in PR titles', "deny message wip"),
    ex('- No "magic numbers" in the code'),
    # a noun for a kind, then the commands of that kind: those commands
    ex("- NO data wipes: `make reset-db`, `make drop-db`", "deny command make reset-db", "deny command make drop-db"),
    ex("- No risky commands (`make nuke`)", "deny command make nuke"),
    ex("- No magic numbers: use `MAX_RETRIES`"),
    ex("- No globals (`window.state`)"),
)
