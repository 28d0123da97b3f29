"""Nouns a rule can be about when it names no path or command in backticks.

- `PATH_NOUNS`: kinds of files ("README files", "lock files", "documentation files (*.md)").
  A glob written in parentheses after the noun wins over the table's.
- `SELF_NOUNS`: the policy file itself ("this file"): a notice "do not edit" at the top of a
  generated CLAUDE.md protects the file it is in.
- `CONTENT_NOUNS`: text an agent adds to commit messages and PR descriptions (co-author
  trailers, "Generated with Claude Code" footers), with the phrases a message must not hold.
- `SURFACES`: where such text goes (commit messages, PR titles and descriptions, comments).
- `CREDENTIALS`: credentials of a tool: the files that hold them and the variables that carry them.
- `BRANCH_NOUNS`: words that name protected branches ("main", "the default branch").
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class PathNoun:
    words: tuple[str, ...]
    globs: tuple[str, ...]
    examples: tuple[Example, ...] = ()


PATH_NOUNS: tuple[PathNoun, ...] = (
    PathNoun(("documentation files", "markdown files", "md files", "doc files", "docs files", ".md files"), ("*.md",),
             (ex("- NEVER proactively create documentation files (\\*.md) or README files. Only create documentation "
                 "files if explicitly requested by the User.", "ask create *.md", "ask create README*"),
              ex("- Never create documentation files", "deny create *.md"))),
    PathNoun(("readme files", "readmes", "readme"), ("README*",)),
    PathNoun(("lock files", "lockfiles", "lockfile", "lock file"),
             ("package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb", "Cargo.lock", "poetry.lock",
              "uv.lock", "Pipfile.lock", "composer.lock", "Gemfile.lock", "go.sum"),
             (ex("- Never edit lock files by hand", "deny write package-lock.json", exact=False),)),
    PathNoun(("schema files", "json schema files", "schemas"), ("*.schema.json",)),
    PathNoun(("workflow files", "github workflows", "ci workflows", "workflows", "github actions workflows"),
             (".github/workflows/**",)),
    PathNoun(("migration files", "migrations", "existing migrations", "applied migrations"), ("**/migrations/**",),
             (ex("- Never edit existing migrations", "deny write **/migrations/**"),)),
    PathNoun(("env files", ".env files", "environment files", "dotenv files"), (".env", ".env.*"),
             (ex("- Never read env files", "deny read .env", "deny read .env.*"),)),
    PathNoun(("snapshot files", "snapshots"), ("*.snap", "**/__snapshots__/**")),
)

SELF_NOUNS: tuple[str, ...] = ("this file", "this document", "this claude.md", "this claude.md file", "this page")

SELF_EXAMPLES: tuple[Example, ...] = (
    ex("**Never add rules to this file unless explicitly instructed.**", "ask write CLAUDE.md"),
    ex("<!-- Auto-generated from docs/src.md - do not edit -->\n\n# Title\n", "deny write CLAUDE.md"),
)


@dataclass(frozen=True)
class ContentNoun:
    words: tuple[str, ...]
    phrases: tuple[str, ...]
    examples: tuple[Example, ...] = ()
    #: the phrases when the sentence is about the agent itself ("with yourself as co-author"):
    #: a human co-author stays allowed
    own_phrases: tuple[str, ...] = ()


#: words that make a content rule about the agent's own name ("yourself", "Claude", "AI")
SELF_WORDS: tuple[str, ...] = ("yourself", "you", "claude", "ai", "the ai", "the agent", "an ai", "assistant", "the assistant",
                               "the model", "anthropic", "bot", "itself")


#: Phrases are matched case-insensitively in the message text.
CONTENT_NOUNS: tuple[ContentNoun, ...] = (
    ContentNoun(("co-authored-by", "co-author", "co-authors", "co-author footers", "co-author credits",
                 "co-authored-by trailer", "co-author trailer", "co-author trailers", "coauthor"),
                ("co-authored-by",),
                (ex("- Do not add `Co-Authored-By` trailers to commits.", "deny message co-authored-by"),
                 ex("- NEVER add Co-Authored-By with yourself as co-author of a commit.",
                    "deny message co-authored-by: claude | noreply@anthropic.com")),
                own_phrases=("co-authored-by: claude", "noreply@anthropic.com")),
    ContentNoun(("generated with claude code", "generated with", "created with", "attribution", "ai attribution",
                 "agent attribution", "tool attribution", "model attribution", "attribution footers", "claude code footer",
                 "generated-by footer"),
                ("generated with", "created with", "\U0001f916 generated", "claude.com/claude-code",
                 "claude.ai/code", "co-authored-by: claude"),
                (ex('- Do NOT add "Generated with Claude Code" or co-author footers to commits or PRs',
                    "deny message generated with claude code | co-authored-by"),
                 ex("- Never add AI attribution to PRs", "deny message generated with | created with | \U0001f916 generated | "
                    "claude.com/claude-code | claude.ai/code | co-authored-by: claude"))),
)

#: "Disclose that the PR was written with Claude", "Mention `Fixes` in PR descriptions": a text
#: such messages must hold (warned when missing)
DISCLOSURE_EXAMPLES: tuple[Example, ...] = (
    ex("- Disclose that the PR was written with Claude.", "warn message without claude"),
    ex("- Mention `Fixes #N` in PR descriptions", "warn message without fixes"),
    ex("- Mention the ticket in the commit message"),
)

#: conventions a commit message follows, named in words ("follow Conventional Commits"): the
#: prefixes one of which the message must hold (warned when none is there)
_CONVENTIONAL_PREFIXES = tuple(f"{kind}{mark}" for kind in ("feat", "fix", "docs", "chore", "refactor", "test", "style",
                                                            "perf", "ci", "build", "revert") for mark in (":", "(", "!:"))
COMMIT_CONVENTIONS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("conventional commits", "conventional commit", "conventional-commit", "conventional-commits"), _CONVENTIONAL_PREFIXES),
)

_WITHOUT_CONVENTIONAL = "warn message without " + " | ".join(_CONVENTIONAL_PREFIXES)
COMMIT_CONVENTION_EXAMPLES: tuple[Example, ...] = (
    ex("- Use Conventional Commits for commit messages", _WITHOUT_CONVENTIONAL),
    ex("- Commit messages follow the conventional commit format (`feat:`, `fix:`)", _WITHOUT_CONVENTIONAL),
    ex("- Do not use conventional commit prefixes"),
    ex("- We no longer use Conventional Commits"),
)

SURFACES: tuple[str, ...] = ("commit message", "commit messages", "commits", "commit", "pr description",
                             "pr descriptions", "pr body", "pr bodies", "pr title", "pr titles", "prs", "pr",
                             "pull request", "pull requests", "pull request description", "pr comments",
                             "issue comments", "comments", "review comments", "messages", "git commits",
                             "description", "descriptions", "commit body", "release notes")


@dataclass(frozen=True)
class Credential:
    words: tuple[str, ...]
    files: tuple[str, ...]
    variables: tuple[str, ...]


CREDENTIALS: tuple[Credential, ...] = (
    Credential(("npm credentials", "npm token", "npm tokens", "npm auth token", "npm authentication"),
               ("~/.npmrc", ".npmrc"), ("NPM_TOKEN", "NODE_AUTH_TOKEN")),
    Credential(("pypi credentials", "pypi token", "pypi tokens"), ("~/.pypirc",), ("PYPI_TOKEN", "TWINE_PASSWORD")),
    Credential(("aws credentials", "aws keys", "aws secrets"), ("~/.aws/credentials",),
               ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")),
    Credential(("github token", "github tokens", "gh token"), ("~/.config/gh/hosts.yml",), ("GITHUB_TOKEN", "GH_TOKEN")),
    Credential(("docker credentials",), ("~/.docker/config.json",), ()),
    Credential(("api keys", "api key", "secrets", "credentials", "tokens", "passwords", "secret values",
                "the .env file", ".env values", "env secrets"),
               (".env", ".env.*", "~/.npmrc", "~/.pypirc", "~/.aws/credentials"), ()),
)

#: a file named with the family's stem stands for the family: a rule on `.env` covers `.env.local`
#: and `.env.production` (its examples and templates, which are committed on purpose, stay free)
FILE_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (".env", (".env", ".env.local", ".env.*.local", ".env.development", ".env.production", ".env.test", ".env.staging",
              ".env.prod", ".env.dev")),
)

FILE_FAMILY_EXAMPLES: tuple[Example, ...] = (
    ex("- Don't commit `.env` files", "deny stage .env .env.local .env.*.local .env.development .env.production .env.test "
       ".env.staging .env.prod .env.dev"),
    ex("- Never read `.env`", "deny read .env", "deny read .env.local", exact=False),
    ex("- Never read `.env.example`", "deny read .env.example"),
)

BRANCH_NOUNS: tuple[str, ...] = ("main", "master", "the main branch", "the master branch", "the default branch",
                                 "production", "trunk", "develop", "main branch", "master branch")
