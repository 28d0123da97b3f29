"""The shape of commit messages and PR titles, as authors write it: a form the first line
begins with (a type, a scope, a component in brackets), a length it keeps to, no emoji, a
sign-off every commit carries, the imperative mood of its first verb.

The gate judges these on the message the command line holds (`git commit -m`, `jj describe -m`,
`gh pr create --title`, and for emoji a PR's, an issue's or a comment's `--body`); a message
typed in an editor or read from a file is never judged. The mood is judged by its one sure sign,
a first verb in the past tense ("Added"), and only warns; tone ("be concise") stays advisory.
"""

from __future__ import annotations

from cf_guidance.policy.lexicon import Example, ex

#: the part of a message a length rule is about: its first line (a PR's title is all of it)
SUBJECT_NOUNS: tuple[str, ...] = (
    "subject line", "subject lines", "subject", "subjects", "commit subject", "commit subjects", "commit title",
    "commit titles", "commit header", "first line", "summary line", "header line", "header", "headline", "title",
    "titles", "pr title", "pr titles", "pull request title", "pull request titles", "commit message", "commit messages",
    "message", "messages", "commits", "commit")

#: a heading that says its lengths are the first line's ("### Subject" then "- Max 50 characters")
SUBJECT_HEADINGS: tuple[str, ...] = ("subject", "subject line", "title", "titles", "first line", "header", "summary line",
                                     "headline", "pr title", "pr titles", "commit title")

#: words that name where the text goes: a commit, or a PR (whose title is what a shape is about)
COMMIT_WORDS: tuple[str, ...] = ("commit", "commits", "committing", "commit's", "git", "subject line", "subject lines")
PR_WORDS: tuple[str, ...] = ("pr", "prs", "pull request", "pull requests", "pr's", "mr", "mrs", "merge request",
                             "merge requests")

#: words after a PR word that name its text, not its title ("PR descriptions", "pull request body")
BODY_WORDS: tuple[str, ...] = ("description", "descriptions", "body", "bodies", "text", "texts", "comment", "comments",
                               "review", "reviews")
#: words that name a text a PR, an issue or a review holds, with no PR word ("issue comments", "issues")
TEXT_WORDS: tuple[str, ...] = ("issue", "issues", "comments", "issue comments", "review comments", "pr comments")

#: the units a length is counted in ("72 characters", "50 chars", "a 50-char subject")
LENGTH_UNITS: tuple[str, ...] = ("characters", "character", "chars", "char", "columns", "column", "cols", "letters",
                                 "symbols")

#: words that ask for the imperative mood of the first line ("Use the imperative mood", "present tense")
MOOD_WORDS: tuple[str, ...] = ("imperative mood", "imperative", "imperative form", "imperative verb", "imperative verbs",
                               "imperative tense", "present tense", "present-tense", "imperative-mood")
#: words a ban on the past tense names ("Don't use the past tense in commit subjects")
PAST_WORDS: tuple[str, ...] = ("past tense", "past-tense")

#: verbs that ask a text to reference its issue ("PRs must link to an issue", "reference the ticket")
REFERENCE_VERBS: tuple[str, ...] = ("reference", "references", "link", "links", "cite", "cites", "mention", "mentions",
                                    "include", "includes")
#: what is referenced: an issue, a ticket (its number, its id, its key)
ISSUE_WORDS: tuple[str, ...] = ("issue", "issues", "ticket", "tickets")
#: words that make the reference optional ("if there is one", "when applicable")
REFERENCE_OPTIONAL: tuple[str, ...] = ("if", "when", "where", "whenever", "applicable", "possible", "available", "any",
                                       "relevant", "related", "optional", "optionally", "may", "can", "could")

#: the dashes a rule bans, by their names ("No em dashes": `—`; "em/en dashes": both)
DASH_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("em dash", "em dashes", "em-dash", "em-dashes", "emdash", "emdashes", "em/en dashes", "\u2014"), "\u2014"),
    (("en dash", "en dashes", "en-dash", "en-dashes", "em/en dashes", "\u2013"), "\u2013"))

#: the words for emoji
EMOJI_WORDS: tuple[str, ...] = ("emoji", "emojis", "emojies", "emoticons", "emoji characters", "emoji icons")
#: words after an emoji word that make it an attribution line, not emoji in the text ("emoji signatures")
SIGNATURE_WORDS: tuple[str, ...] = ("footer", "footers", "signature", "signatures", "trailer", "trailers", "attribution")
#: words before a noun that ban it without a cue of the tables ("No emoji", "without emojis")
NO_WORDS: tuple[str, ...] = ("no", "without", "zero")

#: words of a message template that stand for a part of it (`type(scope): description`,
#: `[component] summary`, `<area>: <what changed>`): a template, not an example message
PLACEHOLDER_WORDS: tuple[str, ...] = (
    "type", "types", "scope", "scopes", "area", "component", "subsystem", "module", "package", "pkg", "platform",
    "category", "domain", "feature", "section", "crate", "app", "service", "layer", "topic", "kind", "tag", "prefix",
    "project", "workspace", "context", "description", "desc", "subject", "summary", "message", "title", "msg",
    "change", "changes", "what", "short", "brief", "imperative", "summary of changes", "ticket", "issue", "jira")
#: a word in a template part that makes the part optional (`(<optional scope>)`, `[optional scope]`)
OPTIONAL_WORDS: tuple[str, ...] = ("optional", "opt")
#: the words for the convention's types, when the text lists them ("Types: `feat`, `fix`")
TYPE_LABELS: tuple[str, ...] = ("types", "type", "allowed types", "commit types", "valid types", "prefixes")

#: words that let the scope be left out ("include a scope when possible", "omit it for broad changes")
SCOPE_OPTIONAL: tuple[str, ...] = ("if", "when", "where", "optional", "optionally", "omit", "possible", "applicable", "unless",
                                   "may", "can", "could", "should", "prefer", "preferably", "ideally")

#: "Always include a scope", "A scope is required": every first line is `type(scope): ...`
SCOPE_EXAMPLES: tuple[Example, ...] = (
    ex("## Commit messages\n\n- Always include a scope.", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts *(*): | *(*)!:"),
    ex("- A scope is required in every commit message", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts *(*): | *(*)!:"),
    ex("- Include a scope in commit messages when the change touches one package"),
    ex("- Use a scope where possible in commit messages"),
    ex("- The OAuth scope is required for the API"),
)

#: the words of a DCO sign-off: each commit carries a `Signed-off-by:` line (`git commit -s`)
SIGNOFF_WORDS: tuple[str, ...] = ("sign off", "sign-off", "signoff", "signed off", "signed-off", "signed-off-by", "sign-offs",
                                  "signoffs", "dco", "developer certificate of origin")
#: the options that add it
SIGNOFF_OPTIONS: tuple[str, ...] = ("--signoff", "-s")
#: the words of a signed commit (a GPG or SSH signature, not a sign-off line), and its options
GPG_WORDS: tuple[str, ...] = ("gpg signed", "gpg-signed", "gpg sign", "gpg-sign", "signed commits", "gpg signature",
                              "gpg signatures", "gpg signing", "gpg-signing", "commit signing", "ssh signing")
#: of them, the words that name a commit's signature without the word "commit" ("GPG signing
#: mandatory"); "signed" alone may be a release, a tag, a binary
GPG_OWN_WORDS: tuple[str, ...] = ("gpg", "gpg-signed", "gpg-sign", "gpg-signing")
GPG_OPTIONS: tuple[str, ...] = ("-S", "--gpg-sign")

_CONVENTIONAL_FORMS = "*: | *!: | *(*): | *(*)!:"

#: message templates written as a code span
TEMPLATE_EXAMPLES: tuple[Example, ...] = (
    ex("- Commit messages must use the format `type(scope): description`.",
       "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts *(*): | *(*)!:"),
    ex("- Commit format: `<type>[optional scope]: <description>`", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts " + _CONVENTIONAL_FORMS),
    ex("## Commits\n\nFormat: `<type>(<scope>): <subject>`", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts *(*): | *(*)!:"),
    ex("- Prefix every commit with the component: `[component] what changed`", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts [*]"),
    ex("- PR titles must be written as `<area>: <summary>`", "deny shape gh pr create, gh pr edit, glab mr create: starts *: | *!:"),
    ex("## Commits\n\nWrite commit messages in this format:\n\n```\n[component] short summary\n\nWhy it changed.\n```",
       "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts [*]"),
    ex("## Commits\n\nCommit like this:\n\n```\ngit commit -m \"fix: the bug\"\n```"),
    ex("- Example commit: `feat(api): add the login endpoint`"),
    ex("- Run `git log --format='%h %s'` to see recent commit messages"),
    ex("## Response format\n\nAnswer as `<type>: <answer>`"),
)

#: what narrows a prefix to some of the messages ("When working on the web client, prefix commit
#: messages with `[web]`", "Prefix test-only commits with `test:`"): which messages those are no
#: command line says, so the prefix stays advisory. Openers of the clause, and the words before
#: "commits" / "PR titles" that narrow nothing
SCOPED_PREFIX_OPENERS: tuple[str, ...] = ("when", "whenever", "if", "for changes", "for work", "for commits", "on changes",
                                          "in changes")
UNSCOPED_BEFORE: tuple[str, ...] = ("all", "every", "each", "your", "the", "our", "git", "new", "any", "my", "their", "its",
                                    "with", "prefix", "prefixed", "prepend")

#: "Use `fix:`, `feat:`, `chore:` prefixes", "Prefix commit messages with the platform: `[ios]`, `[android]`"
PREFIX_EXAMPLES: tuple[Example, ...] = (
    ex("- Prefix commit messages with the platform: `[ios]`, `[android]`, `[web]`.",
       "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts [ios] | [android] | [web]"),
    ex("## Commit messages\n\n- Use \"docs:\" or \"chore:\" prefixes", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts docs: | docs(*): | docs!: | "
       "docs(*)!: | chore: | chore(*): | chore!: | chore(*)!:"),
    ex("## Commits\n\n- Use `fix:` and `feat:` prefixes", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts fix: | fix(*): | fix!: | fix(*)!: | "
       "feat: | feat(*): | feat!: | feat(*)!:"),
    ex("- Prefix dependency updates with `deps:`"),
    ex("- When working on the mobile app, prefix commit messages with `[mobile]`"),
    ex("- Prefix test-only commits with `test:`"),
    ex("- Prefix all commits with `[core]`", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: starts [core]"),
    ex("- Prefix commit messages with the ticket id, e.g. `PROJ-123:`"),
    # the prefix as the subject's verb, and a form shown by an example of the placeholder it names
    ex("- PR titles must start with one of `feat:`, `fix:` or `docs:`", "warn shape gh pr create, gh pr edit, glab mr create: starts feat: | "
       "feat(*): | feat!: | feat(*)!: | fix: | fix(*): | fix!: | fix(*)!: | docs: | docs(*): | docs!: | docs(*)!:"),
    ex("- PR titles begin with the component in brackets, e.g. `[cli] Add a flag`", "warn shape gh pr create, gh pr edit, glab mr create: starts [*]"),
    ex("- Test-only commits must start with `test:`"),
    ex("- Never start commit messages with `WIP:`", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: unstarts WIP:"),
)

#: "Keep the subject line under 72 characters", "PR titles must be at most 70 chars", "50/72 rule"
LENGTH_EXAMPLES: tuple[Example, ...] = (
    ex("- Limit the subject line to 72 characters", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: length <= 72"),
    ex("- Commit subjects must be under 50 characters; wrap the body at 72.", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: length <= 50"),
    ex("- Keep PR titles under 70 chars", "warn shape gh pr create, gh pr edit, glab mr create: length <= 70"),
    ex("## Commit messages\n\n- Follow the 50/72 rule.", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: length <= 50"),
    ex("## Commit messages\n\n- Subject line ≤ 60 chars", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: length <= 60"),
    ex("- Wrap the commit body at 72 characters"),
    ex("## SEO\n\n- Keep page titles under 60 characters"),
    ex("- Keep functions under 50 lines"),
    ex("## Commit messages\n\n### Subject\n\n- Max 50 characters", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: length <= 50"),
    ex("## Commit messages\n\n### Body\n\n- Max 72 characters per line"),
    ex("## Code style\n\n- Keep lines under 100 characters"),
    # an intro with the texts and the force: its items are their forms, said as strongly
    ex("Commit messages MUST:\n\n- stay within 60 characters\n- not end with a period\n",
       "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: length <= 60",
       "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: period no period"),
    ex("PR titles must always:\n\n- stay within 60 characters\n", "deny shape gh pr create, gh pr edit, glab mr create: length <= 60"),
    ex("Functions must:\n\n- stay within 60 lines\n"),
)

#: "Do not end the subject line with a period", "No period at the end" (under "### Subject")
PERIOD_EXAMPLES: tuple[Example, ...] = (
    ex("- Do not end the commit subject line with a period", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: period no period"),
    ex("## Commit messages\n\n### Subject\n\n- No period at the end", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: period no period"),
    ex("## Commit messages\n\n- End the body's sentences with a period"),
    ex("## Docs\n\n- Do not end headings with a period"),
)

#: "No emoji in commit messages", "Do not use emojis in commits or PR titles"
EMOJI_EXAMPLES: tuple[Example, ...] = (
    ex("- Do not use emoji in commit messages", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: emoji no emoji"),
    ex("## Commit messages\n\n- No emojis", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: emoji no emoji"),
    ex("- Avoid emoji in PR titles", "warn shape gh pr create, gh pr edit, glab mr create: emoji no emoji"),
    ex("- Never use emoji in commit messages or PR descriptions",
       "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m, gh pr create, gh pr edit, gh pr comment, gh pr review, "
       "gh issue create, gh issue comment, gh issue edit, glab mr create: emoji no emoji"),
    ex("- No emojis in issue comments", "deny shape gh pr create, gh pr edit, gh pr comment, gh pr review, gh issue create, "
       "gh issue comment, gh issue edit, glab mr create: emoji no emoji"),
    ex("## Code style\n\n- No emojis"),
    ex("- Never add a robot emoji footer to commits", "deny message generated with | created with | \U0001f916 generated | "
       "claude.com/claude-code | claude.ai/code | co-authored-by: claude"),
    ex("- Use emoji at the start of commit messages"),
)

#: "Use the imperative mood in the subject line": a first verb in the past tense ("Added") warns
MOOD_EXAMPLES: tuple[Example, ...] = (
    ex("- Use the imperative mood in the subject line", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: mood imperative"),
    ex("## Commit messages\n\n- Write in the present tense (\"Add\", not \"Added\")",
       "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: mood imperative"),
    ex("- Never use the past tense in commit messages", "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: mood imperative"),
    ex("- PR titles must use the imperative mood", "warn shape gh pr create, gh pr edit, glab mr create: mood imperative"),
    ex("## Docs\n\n- Write instructions in the imperative mood"),
    ex("- Use the present tense in code comments"),
)

#: "PR descriptions must reference the issue", "Every PR must link to an issue": a text with no
#: issue reference (`#123`, `PROJ-12`, a link to an issue) warns
REFERENCE_EXAMPLES: tuple[Example, ...] = (
    ex("- Every PR must link to an issue", "warn shape gh pr create, glab mr create: reference an issue"),
    ex("- PR descriptions must reference the issue (`Fixes #123`)", "warn shape gh pr create, glab mr create: reference an issue"),
    ex("- Always include the ticket number in commit messages",
       "warn shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: reference an issue"),
    ex("- Reference the issue in commit messages when there is one"),
    ex("- Link related issues in the PR description"),
    ex("- Every PR is linked to its issue by the bot"),
    ex("- Check the linked issue before opening a PR"),
)

#: "No em dashes in commit messages or PR descriptions": a `—` in the text denies
DASH_EXAMPLES: tuple[Example, ...] = (
    ex("- Never use em dashes in commit messages or PR descriptions",
       "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m, gh pr create, gh pr edit, gh pr comment, gh pr review, "
       "gh issue create, gh issue comment, gh issue edit, glab mr create: dash no \u2014"),
    ex("## Commit messages\n\n- No em dashes", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: dash no \u2014"),
    ex("## Writing\n\n- No em dashes in the docs"),
    ex("- Use an em dash for ranges in commit messages"),
)

#: "Commit messages must not begin with "WIP"": a first line that does denies
UNSTARTS_EXAMPLES: tuple[Example, ...] = (
    ex('- Commit messages must not begin with "WIP"', "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: unstarts WIP"),
    ex("- Never start PR titles with `Draft:`", "deny shape gh pr create, gh pr edit, glab mr create: unstarts Draft:"),
    ex('- Never start a sentence with "So"'),
    ex("- Do not prefix branch names with `feature/`"),
)

#: "All commits must be signed off", "Sign off your commits (DCO)": commits carry `-s`
SIGNOFF_EXAMPLES: tuple[Example, ...] = (
    ex("- All commits must be signed off.", "deny arguments git commit needs --signoff"),
    ex("- Sign off every commit (DCO).", "warn arguments git commit needs --signoff"),
    ex("- This project requires a DCO sign-off on each commit", "deny arguments git commit needs --signoff"),
    ex("- Do not sign off commits on behalf of the user"),
    ex("- The maintainer signs off the release"),
    ex("- Commits must be GPG signed.", "deny arguments git commit needs -S"),
    ex("- Only signed commits are accepted on main", "warn arguments git commit needs -S"),
    ex("- Set up GPG signing for your account before contributing"),
    # a statement with no modal word: "required" or "mandatory" after the noun is the rule
    ex("- GPG signing mandatory", "deny arguments git commit needs -S"),
    ex("- DCO sign-off is mandatory (`git commit -s`)", "deny arguments git commit needs --signoff"),
    ex("- Commit signing required for every commit", "deny arguments git commit needs -S"),
    ex("- GPG signing is configured on the build machine"),
    ex("- Release tarballs are signed by the release job"),
)
