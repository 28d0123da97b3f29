"""Programs: names written without backticks, tool names, equivalent commands, option shapes.

- `KNOWN_PROGRAMS`: programs people ban by name. A bare word ("use yarn not npm") or a one-word
  span after "use"/"avoid" is a program only when it is one of these.
- `TOOL_NAMES`: names of tools as people write them, and their program ("Graphite" is `gt`).
- `RIVALS`: tools that do one job, of which a project uses one ("use pnpm": npm, yarn and bun
  are discouraged).
- `EQUIVALENTS`: commands that do the same thing. A check on the first also covers the others
  (a ban on `pip` covers `pip3` and `python -m pip`; a ban on `npm login` covers `npm adduser`).
- `OPTION_ALIASES`: options that mean the same to one command (`git commit -n` is `--no-verify`).
- `OPTION_VALUES`: options that take the next word as their value, per program: that word is
  not a subcommand or a package (`pip install -r requirements.txt` installs no new package,
  `git -C dir push` is a push).
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex

KNOWN_PROGRAMS: frozenset[str] = frozenset(
    """git npm npx yarn pnpm bun bunx deno node pip pip3 pipx uv uvx poetry conda mamba cargo rustup go make
    cmake ninja docker docker-compose podman kubectl helm terraform tofu pulumi aws gcloud az gsutil rm rmdir
    mv cp sudo su curl wget ssh scp rsync dd mkfs fdisk parted chmod chown kill pkill killall shutdown reboot
    halt psql mysql mongo mongosh redis-cli sqlite3 find xargs python python3 pytest jest vitest mocha tsc
    eslint prettier black ruff mypy pyright flake8 pylint isort lintrunner gh gt glab brew apt apt-get yum dnf
    pacman systemctl crontab truncate shred wipefs mkswap mount umount iptables nc netcat ncat telnet ftp sftp
    heroku vercel netlify firebase flyctl fly wrangler supabase prisma alembic rails rake gem bundle composer
    php artisan dotnet mvn gradle gradlew sbt mix elixir flutter dart xcodebuild fastlane ansible
    ansible-playbook vagrant packer nix nix-env chezmoi tmux bazel nx turbo lerna semantic-release twine hatch
    flit tox nox pre-commit husky lint-staged sed awk perl ruby jj sl hg svn biome oxlint stylelint
    golangci-lint rubocop cargo-clippy clippy spin lefthook changeset tsx ts-node vite next nuxt grep rg ag
    ls cat head tail less sort uniq wc jq yq tar zip unzip gzip ln touch mkdir chmod open xdg-open tee env
    printenv export source pipenv pdm""".split()
)


#: options by which a command picks one package of a workspace (`pnpm --filter web test`,
#: `cargo test -p core`): a run narrowed that way is not the whole suite
PACKAGE_SELECTORS: dict[str, tuple[str, ...]] = {
    "pnpm": ("--filter", "-F", "-C", "--dir"),
    "npm": ("-w", "--workspace", "--prefix"),
    "yarn": ("workspace", "--cwd"),
    "bun": ("--filter", "--cwd"),
    "cargo": ("-p", "--package", "--manifest-path"),
    "go": ("-run",),
    "make": ("-C", "--directory"),
    "dotnet": ("--filter",),
}


#: the system's package managers and their subcommands per verb: "never install or remove the
#: system dotnet SDK (apt-get/snap)", "do not install Node with apt" name the installer, and the
#: package's name there varies (`dotnet-sdk-8.0`, `nodejs`), so the name is matched as a prefix
SYSTEM_INSTALLERS: dict[str, dict[str, tuple[str, ...]]] = {
    "apt": {"install": ("install",), "delete": ("remove", "purge")},
    "apt-get": {"install": ("install",), "delete": ("remove", "purge")},
    "snap": {"install": ("install",), "delete": ("remove",)},
    "brew": {"install": ("install",), "delete": ("uninstall", "remove")},
    "dnf": {"install": ("install",), "delete": ("remove",)},
    "yum": {"install": ("install",), "delete": ("remove",)},
    "choco": {"install": ("install",), "delete": ("uninstall",)},
    "winget": {"install": ("install",), "delete": ("uninstall",)},
}

SYSTEM_INSTALLER_EXAMPLES: tuple[Example, ...] = (
    ex("- Never install or remove the system dotnet SDK (apt-get/snap).", "deny command apt-get install dotnet*",
       "deny command apt-get remove dotnet*", "deny command apt-get purge dotnet*", "deny command snap install dotnet*",
       "deny command snap remove dotnet*"),
    ex("- Do not install node with apt; use nvm.", "deny command apt install node*"),
    ex("- Never install `nodejs` via apt-get.", "deny command apt-get install nodejs*"),
    ex("- Install the SDK with `brew install dotnet`."),
)


#: programs whose first argument is often another program or a task runner (`php artisan`,
#: `bundle exec rake`, `python manage.py`): written as plain words, the second word is part of the command
RUNNERS: frozenset[str] = frozenset("php bundle python python3 node npx bunx uv uvx poetry pipenv pdm hatch dotnet".split())


#: runners the shell analysis sees through (`uv run pytest` runs pytest under "uv", `docker compose
#: exec app npm test` runs npm in a container): a document that runs a program this way prescribes
#: that way, and a ban on the bare program ("never run npm on the host") leaves it alone
WRAPPER_RUNNERS: frozenset[str] = frozenset(
    """uv poetry pipenv pdm hatch conda mamba npx bunx uvx pipx bundle docker docker-compose podman podman-compose mise asdf
    direnv devbox dotenv env-cmd cross-env nix""".split())

#: launchers that run a command in a container: a ban qualified by the host ("never run `npm` on the
#: host", "outside Docker") leaves a command run through them alone
CONTAINER_LAUNCHERS: tuple[str, ...] = ("docker", "docker-compose", "podman", "podman-compose")

#: words that name a container as where commands run ("inside the `app` container", "through Docker
#: Compose", "in the devcontainer"): after in / inside / through they name a runner, the container launchers
CONTAINER_WORDS: frozenset[str] = frozenset(
    "container containers docker devcontainer dev-container compose docker-compose podman".split())

#: words that, alone after "never" / "not" following a required runner, ban the run without it
#: ("Run `pytest` via `uv run`, never directly", "composer goes through the container, not locally")
BARE_RUN_WORDS: frozenset[str] = frozenset("directly bare natively locally".split())

#: tools that run the command written after them and are named as a prefix ("prefix `flutter` with
#: `fvm`"): the shell does not see through them, so the command they run is theirs, never the bare one
PREFIX_RUNNERS: frozenset[str] = frozenset("fvm sfw direnv devbox mise asdf rtx dotenv op aws-vault nix-shell".split())

#: a language or ecosystem named for the commands a runner is for ("Python commands", "all
#: PHP/Composer/Artisan commands", "rake tasks"): the programs those words mean; a runner named with
#: no program ("Always use `uv run`") is for the programs the document runs under it, else its ecosystem's
ECOSYSTEM_PROGRAMS: dict[str, tuple[str, ...]] = {
    "python": ("python", "pytest"), "py": ("python",), "pytest": ("pytest",),
    "php": ("php", "composer"), "composer": ("composer",), "artisan": ("php artisan",),
    "ruby": ("ruby", "rake", "rails", "rspec"), "rake": ("rake",), "rails": ("rails",), "rspec": ("rspec",),
    "node": ("node", "npm"), "npm": ("npm",), "flutter": ("flutter", "dart"), "dart": ("dart",),
    "rust": ("cargo",), "cargo": ("cargo",), "go": ("go",), "django": ("manage.py",), "manage.py": ("manage.py",),
}

#: the ecosystem a runner serves, for a runner named with no program and none run under it in the text
RUNNER_ECOSYSTEMS: dict[str, str] = {"uv": "py", "poetry": "py", "pipenv": "py", "pdm": "py", "hatch": "py",
                                     "bundle": "ruby", "fvm": "flutter"}

WRAPPER_EXAMPLES: tuple[Example, ...] = (
    ex("- Never run `pytest` directly - use the project runner\n\nRun the tests:\n\n```bash\nuv run --project core pytest tests/\n```\n",
       "deny command pytest via uv"),
    # a program to be run under a runner: running it bare is discouraged, the runner is the way
    ex("- Run Python through `uv run`.", "warn command python via uv", "warn command pytest via uv"),
    ex("- Always run pytest via poetry", "warn command pytest via poetry"),
    # the program as the subject, the runner after "be run"
    ex("All python commands should be run via `uv run python ...`", "warn command python via uv", "warn command pytest via uv"),
    # "must" / "only" with the programs named: running them bare is not allowed
    ex("- pytest must always be invoked through `poetry run`", "deny command pytest via poetry"),
    # the program in backticks; the program as the subject of "must run"; the runner "for" the programs
    ex("- Always run `pytest` via `uv run`.", "warn command pytest via uv"),
    ex("- All Ruby commands MUST run through `bin/docker`.", "deny command ruby via docker docker-compose podman podman-compose",
       exact=False),
    # a language or ecosystem for its programs, a container named in words, "go through"
    ex("**Every PHP/Composer command MUST go through Docker Compose.**",
       "deny command php via docker docker-compose podman podman-compose",
       "deny command composer via docker docker-compose podman podman-compose"),
    ex("- Only run artisan commands inside the `app` container.",
       "deny command php artisan via docker docker-compose podman podman-compose"),
    ex("- Node scripts go through `docker compose exec web`.",
       "warn command node via docker docker-compose podman podman-compose", exact=False),
    # a prefix tool; no program named: those the document runs under the runner, else its ecosystem's
    ex("- Prefix `flutter` and `dart` commands with `fvm`.", "warn command flutter", "warn command dart"),
    ex("**Always prefix commands with `fvm`:**\n\n```bash\nfvm flutter pub get\n```\n", "warn command flutter", exact=False),
    ex("- Always use `uv run`.", "warn command python via uv"),
    ex("- Always prefer `poetry run` for consistent environments.", "warn command python via poetry"),
    # the program inside the runner's span; a ban in the same sentence spares the way it prescribes
    ex("- Always run tests with `uv run pytest`.", "warn command pytest via uv"),
    ex("- Always use `bundle exec rspec` to run the specs.", "warn command rspec via bundle"),
    ex("- Do not call python directly - always go through `uv run`.", "deny command python via uv", exact=False),
    # a ban of the bare run after the runner; a ban naming the program beside a runner the sentence names
    ex("- Run `pytest` via `uv run`, never directly.", "deny command pytest via uv"),
    ex("- Rake tasks go through `bundle exec`, not directly.", "deny command rake via bundle"),
    ex("- Scripts go through `poetry run`, never bare `python`.", "deny command python via poetry"),
    ex("- Run `pytest` via `uv run`, never with `-s`."),
    ex("- Run the app in Docker."),
    ex("**Run in Docker (for untrusted input):**\n\n```bash\ndocker run --rm -v $(pwd):/src img /src/bin/tool check\n```\n"),
    ex("- Always use `docker compose` to start services."),
    ex("- Run `make test` inside the `app` directory."),
    ex("- Always use `bundle exec` for rake tasks.", "warn command rake via bundle"),
    ex("- Always use `make` for the release tasks."),
    # a container the document runs the program in: the ban is on running it on the host
    ex("- Never run `npm` directly.\n\nRun it in the container:\n\n```bash\ndocker compose exec app npm test\n```\n",
       "deny command npm via docker"),
    ex("- Never run `rspec` directly.\n\nRun the specs:\n\n```bash\nbundle exec rspec spec/models\n```\n",
       "deny command rspec via bundle"),
    ex("- Never run `npx` directly on the host machine.", "deny command npx via docker docker-compose podman podman-compose"),
    ex("- Never run `npx` in this repo.", "deny command npx"),
    # a version manager or environment loader the document runs the program under
    ex("- Never run `pnpm` directly.\n\nRun the tests:\n\n```bash\nmise exec -- pnpm test\n```\n", "deny command pnpm via mise"),
    ex("- The server should be run via `uv run`"),
    ex("- Run everything through `uv run`.", "warn command python via uv"),
    ex("- Run the tests with `make test`."),
)


#: the runners a tool brings for other programs (`bunx vite` is Bun's way of running vite): a rule
#: that prefers the tool to a program ("use `bun` instead of npm, vite") leaves the program run that way alone
OWN_RUNNERS: dict[str, tuple[str, ...]] = {"bun": ("bunx",), "npm": ("npx",), "pnpm": ("pnpm",)}

OWN_RUNNER_EXAMPLES: tuple[Example, ...] = (
    ex("- Use `bun` instead of npm or vite", "warn command npm", "warn command vite via bunx"),
    ex("- Use `pnpm` rather than `jest` directly", "warn command jest via pnpm"),
    ex("- Use `make` instead of `vite`", "warn command vite"),
    ex("- Never run `eslint` directly, use `pnpm lint`.", "deny command eslint"),
)


@dataclass(frozen=True)
class ToolName:
    names: tuple[str, ...]
    program: str
    examples: tuple[Example, ...] = ()


#: tools that do one job, of which a project uses one: "use pnpm" warns on the others (the reason
#: names the one to use). Only the bare program after "use" counts ("use `pnpm test`" prescribes
#: a command, not a tool).
RIVALS: tuple[tuple[str, ...], ...] = (
    ("npm", "yarn", "pnpm", "bun"),
    ("pip", "pip3", "poetry", "pipenv", "conda", "uv", "pdm"),
    ("stack", "cabal"),
    ("mvn", "gradle"),
)

#: words of a label that names the project's tool of a kind ("Package manager: `yarn`")
RIVAL_LABELS: tuple[str, ...] = ("package manager", "package management", "packages", "dependencies", "build tool",
                                 "build system", "dependency management")

#: the project's own launcher of a tool, checked in beside the code (`./mvnw` runs Maven, `./gradlew`
#: Gradle): a text that names it as the tool of its job ("All builds use `./mvnw`") discourages the
#: system's copy of the tool as well as the job's other tools
PROJECT_LAUNCHERS: dict[str, str] = {"mvnw": "mvn", "gradlew": "gradle"}

#: how a text states the tool of a job without an imperative, with the job or the project as the
#: subject: "Dependencies are managed with Poetry", "Package management is handled by pnpm". The
#: participles, then the prepositions that name the tool
STATED_PARTICIPLES: frozenset[str] = frozenset(("managed", "handled", "done", "installed", "maintained", "built",
                                                "driven", "resolved", "locked", "pinned"))
STATED_PREPOSITIONS: frozenset[str] = frozenset(("with", "by", "via", "through", "using"))
#: nouns that name the job of the tools of RIVALS, as a statement's subject ("Python dependencies
#: are managed with uv", "All builds use `./mvnw`") or its purpose ("uv is used for package
#: management", "Uses pnpm for JavaScript dependencies")
JOB_NOUNS: frozenset[str] = frozenset(("dependencies", "dependency", "deps", "packages", "package", "builds", "build",
                                       "management", "manager", "managers", "installs", "installation", "installations",
                                       "environment", "environments", "tooling", "toolchain", "system"))

STATED_TOOL_EXAMPLES: tuple[Example, ...] = (
    # the job or the project as the subject, a participle, a preposition, the tool
    ex("Dependencies are managed with Poetry.", "warn command pip via poetry", "warn command uv via poetry", exact=False),
    ex("- This project is managed with `uv`.", "warn command pip via uv", "warn command poetry via uv", exact=False),
    ex("Python packages are handled by uv", "warn command pip via uv", exact=False),
    ex("- Package management is done through pnpm (v9).", "warn command npm", "warn command yarn", "warn command bun"),
    ex("JS dependencies are installed using Yarn and checked in CI", "warn command npm", "warn command pnpm",
       "warn command bun"),
    # the tool as the subject, used for the job, or the job's tool
    ex("**uv** is used for package management in Python.", "warn command pip via uv", exact=False),
    ex("- pnpm is used as the package manager", "warn command npm", "warn command yarn", "warn command bun"),
    ex("Bun is our package manager.", "warn command npm", "warn command yarn", "warn command pnpm"),
    ex("The package manager is **yarn**.", "warn command npm", "warn command pnpm", "warn command bun"),
    # no subject, the job named after "for"; a subject that is the job; after "and" in one sentence
    ex("- Uses **pnpm** for TypeScript dependencies", "warn command npm", "warn command yarn", "warn command bun"),
    ex("All builds use `./mvnw`.", "warn command mvn", "warn command gradle"),
    ex("- Builds are done with `./gradlew`, the checked-in wrapper.", "warn command mvn", "warn command gradle"),
    ex("- It is a monorepo and we use `pnpm` as the package manager", "warn command npm", "warn command yarn",
       "warn command bun"),
    # one sentence, two jobs: each tool discourages its own job's others
    ex("- Use pnpm for Node and uv for Python to install dependencies.", "warn command npm", "warn command yarn",
       "warn command bun", "warn command pip via uv", "warn command poetry via uv", exact=False),
    # not the project's choice of a tool: another subject, a feature, the tool as the agent, two of a job
    ex("The docs site is built with npm."),
    ex("pip is used by the base image to install wheels."),
    ex("- Other dependencies are managed by pre-commit."),
    ex("- Releases are managed with changesets."),
    ex("- Dependencies are managed with yarn or npm."),
    ex("- Uses npm to fetch the plugins."),
    ex("- npm is used for the docs site only when offline"),
    ex("uv is a fast Python package and project manager written in Rust."),
    ex("- Yarn is the package manager of the old dashboard, which is frozen."),
    ex("- The package manager is configured in `.npmrc`."),
)

#: words after "the only" that make it the one tool permitted for its job, not just the one in use
#: ("pnpm is the only allowed package manager": the others are banned; "... the only package manager
#: we use": warned)
PERMITTED_WORDS: frozenset[str] = frozenset(("allowed", "permitted", "approved", "accepted", "sanctioned", "may", "must",
                                             "can"))

RIVAL_EXAMPLES: tuple[Example, ...] = (
    ex("- pnpm is the only allowed package manager.", "deny command npm", "deny command yarn", "deny command bun"),
    ex("The only package manager you may use is bun.", "deny command npm", "deny command yarn", "deny command pnpm"),
    ex("- uv is the only package manager we use.", "warn command pip via uv", "warn command pip3 via uv",
       "warn command poetry via uv", "warn command pipenv via uv", "warn command conda via uv", "warn command pdm via uv"),
    ex("- The only package we publish is the CLI."),
    ex("- npm is the only package manager that supports this flag."),
    ex("- Package manager: `yarn`", "warn command npm", "warn command pnpm", "warn command bun"),
    ex("- Package manager: `yarn` (v4)", "warn command npm", "warn command pnpm", "warn command bun"),
    ex("- **Package manager**: **pnpm 9** with `node-linker=hoisted`", "warn command npm", "warn command yarn",
       "warn command bun"),
    ex("- Language: Python"),
    ex("- Package manager: `yarn` or `npm`"),
    ex("- Use pnpm for package management", "warn command npm", "warn command yarn", "warn command bun"),
    # the project says what it uses: the others are discouraged; "only" rules them out
    ex("This project uses pnpm.", "warn command npm", "warn command yarn", "warn command bun"),
    ex("We use Yarn as our package manager.", "warn command npm", "warn command pnpm", "warn command bun"),
    ex("- pnpm only.", "deny command npm", "deny command yarn", "deny command bun"),
    ex("- Package manager: pnpm ONLY (no npm)", "deny command npm", "deny command yarn", "deny command bun"),
    ex("- Only use yarn.", "deny command npm", "deny command pnpm", "deny command bun"),
    ex("- Only use pnpm for package management.", "deny command npm", "deny command yarn", "deny command bun"),
    ex("- npm only for publishing"),
    ex("- This repo uses `uv` exclusively.", "deny command pip via uv", "deny command pip3 via uv", "deny command poetry via uv",
       "deny command pipenv via uv", "deny command conda via uv", "deny command pdm via uv"),
    ex("## Package manager\n\nUses **bun**.\n", "warn command npm", "warn command yarn", "warn command pnpm"),
    ex("- `fetch.sh` - Uses npm to fetch plugins"),
    ex("## Package Manager\n\npnpm\n", "warn command npm", "warn command yarn", "warn command bun"),
    ex("## Package manager\n\n- **bun** only\n", "deny command npm", "deny command yarn", "deny command pnpm"),
    ex("## Tooling\n\n- pnpm\n- vitest\n"),
    ex("## Package manager\n\npnpm workspaces hold the apps.\n"),
    ex("Uses pnpm workspaces."),
    ex("This project uses pnpm workspaces for the apps."),
    ex("The worker uses npm to fetch plugins."),
    ex("- Only use yarn when the lockfile is missing."),
    # `uv` also runs the others (`uv pip install`): that form passes
    ex("- Always use `uv` to manage Python dependencies", "warn command pip via uv", "warn command pip3 via uv",
       "warn command poetry via uv", "warn command pipenv via uv", "warn command conda via uv", "warn command pdm via uv"),
    ex("- Use cabal for builds", "warn command stack"),
    ex("- Build with `cabal build`, not stack", "warn command stack"),
    ex("- Use `pnpm test` to run the tests"),
    ex("- Use yarn workspaces for new packages"),
    ex("- Use npm's `--workspace` flag for one package"),
)

TOOL_NAMES: tuple[ToolName, ...] = (
    ToolName(("graphite",), "gt", (ex("- Use Graphite instead of raw git commands", "warn command <git-write>"),)),
    ToolName(("github cli", "the gh cli"), "gh"),
    ToolName(("yarn",), "yarn", (ex("- Use yarn not npm", "warn command npm"),)),
    ToolName(("npm",), "npm", (ex("- Never use npm, always pnpm", "deny command npm"),)),
    ToolName(("pnpm",), "pnpm"),
    ToolName(("bun",), "bun"),
    ToolName(("pip",), "pip", (ex("- Use uv, never pip", "deny command pip"),)),
    ToolName(("poetry",), "poetry"),
    ToolName(("conda",), "conda"),
    ToolName(("uv",), "uv"),
    ToolName(("docker compose", "docker-compose"), "docker-compose"),
    ToolName(("the typescript compiler",), "tsc"),
    ToolName(("eslint",), "eslint"),
    ToolName(("prettier",), "prettier"),
    ToolName(("jest",), "jest"),
    ToolName(("vitest",), "vitest"),
    ToolName(("pytest",), "pytest"),
    ToolName(("terraform",), "terraform"),
    ToolName(("kubectl",), "kubectl"),
    ToolName(("homebrew",), "brew"),
    ToolName(("maven",), "mvn", (ex("- Use `./mvnw`, never system Maven.", "deny command mvn"),
                                 ex("- Maven Central hosts the release artifacts."))),
    ToolName(("gradle",), "gradle"),
)


#: subcommands of common tools, which a text may write as a plain word after the program in
#: backticks ("the `hg` push command"): any other word there ("`pytest` output", "`npm` directly")
#: leaves the span standing for the whole program
SUBCOMMAND_WORDS: frozenset[str] = frozenset(
    """push pull commit merge rebase reset checkout switch clean stash tag branch fetch clone cherry-pick revert restore
    bisect delete apply destroy plan taint import prune rmi exec build up down stop kill restart install uninstall
    publish unpublish login logout deploy rollback upgrade drain cordon scale rollout strip migrate seed drop release
    audit""".split())

#: a known program in backticks with its subcommand written after it as a plain word: the ban is on
#: that subcommand, never on the whole program
SPLIT_COMMAND_EXAMPLES: tuple[Example, ...] = (
    ex("- Never use the `hg` push command.", "deny command hg push"),
    ex("- Don't run `kubectl` delete on production.", "warn command kubectl delete"),
    ex("- Never `git` push to main.", "warn command git push"),
    ex("- Never use `pytest` output as proof.", "warn command pytest"),
    ex("- Never run `npm` directly.", "deny command npm"),
    ex("- Never use `yarn` again.", "deny command yarn"),
    ex("- Do not use `pip` for installs.", "warn command pip"),
)


#: known programs named by everyday English verbs: where a rule's verb would stand ("Don't mix
#: tabs and spaces", "Never kill the dev server", "Do not export secrets"), such a word is the
#: verb unless a flag, a task (`mix ecto.reset`) or a subcommand (`make install`) follows it
VERB_PROGRAMS: frozenset[str] = frozenset(
    "mix make go find sort touch open kill source export head tail less cat spin fly bundle tee".split())

VERB_PROGRAM_EXAMPLES: tuple[Example, ...] = (
    ex("- Don't mix tabs and spaces in YAML files."),
    ex("- Do not mix up the staging and production configs."),
    ex("- Never kill the dev server."),
    ex("- Never export secrets to the shell."),
    ex("- Don't go outside the repository."),
    ex("- Never sort imports by hand."),
    ex("- Never mix ecto.reset.", "deny command mix ecto.reset"),
    ex("- Never go build with cgo.", "warn command go build"),
    ex("- Don't use make; use just.", "deny command make"),
)


@dataclass(frozen=True)
class Equivalent:
    """Command prefixes that do the same; the first is how rules usually name it."""

    forms: tuple[str, ...]
    examples: tuple[Example, ...] = ()


EQUIVALENTS: tuple[Equivalent, ...] = (
    Equivalent(("pip", "pip3", "python -m pip", "python3 -m pip"),
               (ex("- Do not invoke `pip` directly", "deny command pip"),)),
    Equivalent(("python", "python3")),
    Equivalent(("npm install", "npm i", "npm add", "npm in", "npm isntall"),
               (ex("- Avoid `npm install`", "warn command npm install"),)),
    Equivalent(("npm uninstall", "npm remove", "npm rm", "npm un", "npm r")),
    Equivalent(("npm login", "npm adduser", "npm add-user"),
               (ex("- NEVER run `npm login` locally", "deny command npm login"),)),
    Equivalent(("npm test", "npm run test", "npm t", "npm tst")),
    Equivalent(("npm run", "npm run-script")),
    # a package's `test` and `start` scripts, with or without `run`
    Equivalent(("pnpm test", "pnpm run test", "pnpm t"), (ex("- Never run `pnpm test` directly", "deny command pnpm test"),)),
    Equivalent(("yarn test", "yarn run test")),
    Equivalent(("npm start", "npm run start")),
    Equivalent(("pnpm start", "pnpm run start")),
    Equivalent(("yarn start", "yarn run start")),
    Equivalent(("docker-compose", "docker compose")),
    Equivalent(("yarn add", "yarn install --save")),
    Equivalent(("tsc", "npx tsc")),
    # a package manager's runner of other programs is that manager at work: a ban on the manager
    # covers it ("use bun instead of npm" warns on `npx tsc`), and the preferred tool's runner passes
    Equivalent(("npm exec", "npx"), (ex("- Use bun instead of npm.", "warn command npm"),
                                     ex("- Never use `npx`.", "deny command npx"))),
    Equivalent(("bun x", "bunx")),
    Equivalent(("pnpm dlx", "pnpx")),
    Equivalent(("uv tool run", "uvx")),
    # a Python tool run as a module of the interpreter is the same tool
    Equivalent(("pytest", "python -m pytest", "python3 -m pytest", "py.test"),
               (ex("- Never run bare `python -m pytest`; use `uv run python -m pytest`.",
                   "deny command python -m pytest via uv"),)),
    Equivalent(("git switch -c", "git checkout -b")),
)

#: (program and subcommand, the options that set how it always runs): a requirement naming the
#: command with one of them ("Always `git pull --rebase`") means every call of it carries the
#: option, as "use `git commit -S`" does for commits (any option of `git commit` but its message).
#: Not an option for one occasion (`git push --force-with-lease` is how to force, not how to push),
#: nor one a command's `--abort`/`--continue` calls lack (`git merge --no-ff`)
HABIT_OPTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("git pull", ("--rebase", "-r", "--ff-only", "--no-rebase", "--autostash")),
)
HABIT_EXAMPLES: tuple[Example, ...] = (
    ex("- Always use `git pull --rebase`.", "deny arguments git pull needs --rebase"),
    ex("- Use `git pull --ff-only` to update the branch", "warn arguments git pull needs --ff-only"),
    ex("- Always pull with `git pull --ff-only`", "deny arguments git pull needs --ff-only"),
    ex("- Commits must be GPG signed (`git commit -S`).", "deny arguments git commit needs -S"),
    ex("- Run `git pull --rebase` if the push is rejected"),
    ex("- Use `git push --force-with-lease` when you must force"),
    ex("- Never use `git pull --rebase` on shared branches", "warn command git pull --rebase"),
)

#: (program and subcommand, option, its other spellings): a rule written with any one of them
#: covers the others (`git commit -n` and `--no-verify`, `terraform apply -auto-approve` and
#: `--auto-approve`). Only spellings the program's own help gives as the same option.
OPTION_ALIASES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("git commit", "--no-verify", ("-n",)),
    ("git commit", "--signoff", ("-s",)),
    ("git commit", "--gpg-sign", ("-S",)),
    ("git commit", "--all", ("-a",)),
    ("git commit", "--amend", ()),
    ("git push", "--force", ("-f",)),
    ("git push", "--no-verify", ()),
    ("git push", "--set-upstream", ("-u",)),
    ("git push", "--delete", ("-d",)),
    ("git merge", "--no-verify", ()),
    ("git clean", "--force", ("-f",)),
    ("git checkout", "--force", ("-f",)),
    ("git add", "--all", ("-A",)),
    ("git add", "--force", ("-f",)),
    ("git rebase", "--interactive", ("-i",)),
    ("git tag", "--delete", ("-d",)),
    ("git tag", "--force", ("-f",)),
    ("git branch", "--delete", ("-d",)),
    ("git pull", "--rebase", ("-r",)),
    ("npm install", "--save-dev", ("-D",)),
    ("npm install", "--global", ("-g",)),
    ("npm install", "--force", ("-f",)),
    ("npm publish", "--force", ("-f",)),
    ("pnpm add", "--save-dev", ("-D",)),
    ("pnpm add", "--global", ("-g",)),
    ("yarn add", "--dev", ("-D",)),
    ("pip install", "--upgrade", ("-U",)),
    ("pip install", "--editable", ("-e",)),
    ("docker rm", "--force", ("-f",)),
    ("docker system prune", "--all", ("-a",)),
    ("docker system prune", "--force", ("-f",)),
    ("docker compose down", "--volumes", ("-v",)),
    ("docker-compose down", "--volumes", ("-v",)),
    ("terraform apply", "-auto-approve", ("--auto-approve",)),
    ("terraform destroy", "-auto-approve", ("--auto-approve",)),
    ("gh pr merge", "--admin", ()),
    ("gh pr merge", "--squash", ("-s",)),
    ("gh pr merge", "--rebase", ("-r",)),
    ("gh pr create", "--draft", ("-d",)),
    ("rm", "--recursive", ("-r", "-R")),
    ("rm", "--force", ("-f",)),
    ("cp", "--recursive", ("-r", "-R")),
    ("chmod", "--recursive", ("-R",)),
    ("chown", "--recursive", ("-R",)),
)

OPTION_ALIAS_EXAMPLES: tuple[Example, ...] = (
    ex("- Never use `git commit -n`.", "deny command git commit -n"),
    ex("- Never run `terraform apply -auto-approve`.", "deny command terraform apply -auto-approve"),
    ex("- Do not `git clean --force`.", "deny command git clean --force"),
)

#: package managers that run a package script without `run` (`pnpm lint` is `pnpm run lint`),
#: with the words that are their own commands instead (`pnpm install` is no script; `bun test`
#: is Bun's test runner, not the `test` script): a rule on one spelling covers the other
SCRIPT_SHORTHANDS: dict[str, frozenset[str]] = {
    "pnpm": frozenset("""add i install up update upgrade remove rm uninstall un link ln unlink import rebuild rb prune
        fetch patch patch-commit audit list ls outdated why licenses exec dlx create init publish pack store env setup
        server config c bin root doctor recursive r run deploy dedupe self-update approve-builds""".split()),
    "yarn": frozenset("""add install remove upgrade up info init link unlink outdated pack publish run why workspace
        workspaces config cache global bin dlx exec node set plugin version npm constraints dedupe explain patch rebuild
        search unplug login logout owner tag team import audit autoclean check create help licenses list policies
        upgrade-interactive versions""".split()),
    "bun": frozenset("""run test x repl exec install i add a remove rm update outdated link unlink pm build init create c
        upgrade publish audit patch why info""".split()),
}

SCRIPT_SHORTHAND_EXAMPLES: tuple[Example, ...] = (
    ex("- Never run `pnpm run typecheck` in watch mode.", "warn command pnpm run typecheck"),
    ex("- Do not run `yarn lint:fix`.", "deny command yarn lint:fix"),
    ex("- Never run `bun test` directly.", "deny command bun test"),
)

#: program (or "program subcommand") -> options that take the next word as their value
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "git": ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"),
    "git commit": ("-m", "--message", "-F", "--file", "-C", "-c", "--author", "--date", "-t", "--template",
                   "--fixup", "--squash", "--trailer"),
    "git push": ("-o", "--push-option", "--repo", "--receive-pack", "--exec"),
    "git tag": ("-m", "--message", "-F", "--file", "-u", "--local-user", "--contains", "--points-at", "--sort",
                "--format", "--merged", "--no-merged"),
    "git checkout": ("-b", "-B", "--orphan"),
    "git switch": ("-c", "-C", "--create", "--force-create", "--orphan"),
    "npm": ("--prefix", "-w", "--workspace", "--registry", "--tag", "--otp"),
    "pnpm": ("--filter", "-F", "-C", "--dir", "-w"),
    "yarn": ("--cwd",),
    "bun": ("--cwd", "-c", "--config"),
    "pip": ("-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t", "--target", "-i",
            "--index-url", "--extra-index-url", "-f", "--find-links", "--prefix", "--root", "--src", "--upgrade-strategy"),
    "uv": ("--project", "--directory", "-p", "--python", "--with", "--index", "--index-url", "--extra",
           "--group", "--package", "-r", "--requirement", "-c", "--constraint", "-e", "--editable"),
    "python": ("-c", "-W", "-X"),
    "cargo": ("-p", "--package", "--features", "-F", "--target", "--bin", "--manifest-path", "-j", "--jobs",
              "--profile", "--example", "--test", "--bench", "-Z", "--config", "--color"),
    "make": ("-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-o", "-W"),
    "docker": ("-H", "--host", "--context", "--config", "-l", "--log-level"),
    "kubectl": ("-n", "--namespace", "--context", "--cluster", "--kubeconfig", "-l", "--selector", "-o", "--output"),
    "gh": ("-R", "--repo"),
    "node": ("-r", "--require", "--import", "--loader", "-e", "--eval", "-p", "--print"),
    "pytest": ("-k", "-m", "-c", "-p", "--rootdir", "--maxfail", "-n", "--tb"),
    "deno": ("--config", "-c", "--import-map", "--allow-read", "--allow-write", "--allow-net", "--allow-env"),
    "go": ("-C", "-o", "-tags", "-run", "-p"),
    "conda": ("-n", "--name", "-p", "--prefix", "-c", "--channel"),
}

