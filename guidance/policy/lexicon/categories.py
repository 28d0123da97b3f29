"""Categories: tasks and the commands that do them; files that commands write without naming them.

A rule may name a task instead of a command: "run the tests before committing", "only use
`spin` for linting", "you should never run any other command to build", "ask before adding
dependencies". `CATEGORIES` lists, per task, the words that name it and the command patterns
that do it (`<pkg>` is one package argument, `*` any further words; a script glob such as
`*lint*` after `npm run` matches script names). The document's own commands come first: when
the text says how it builds ("All builds are done via `make dist`"), that command is what
"build" means in it, and the category's commands are what "any other command to build" means.

`IMPLIED_WRITES` lists files that commands write without naming them: a rule that protects
package.json also covers `npm install left-pad`.
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class Category:
    name: str
    #: nouns and verbs that name the task ("lint", "linting", "linters", "lint commands")
    words: tuple[str, ...]
    commands: tuple[str, ...]
    #: package-script names that do the task (`npm run lint:js`, `yarn typecheck`)
    scripts: tuple[str, ...] = ()
    #: the words (of `words`) that name the commands themselves, so a ban can be about them
    #: ("never run individual lint commands"); the others name the task ("the tests"), which only
    #: an ordering ("run the tests before pushing") or a purpose ("only use X for linting") uses
    objects: tuple[str, ...] = ()
    examples: tuple[Example, ...] = ()
    #: commands of the category's shape that do not do its task: `git tag -l` lists tags, `pip
    #: install -e .` installs the project itself (a trailing `*`: any further arguments)
    exempt: tuple[str, ...] = ()
    #: words before one of `words` that say what every member is, not which ones: every library one
    #: adds is a "third-party" or "external" one, so "never add third-party libraries" is all of them
    neutral: tuple[str, ...] = ()


#: package managers that run a package's scripts by name (`pnpm lint`, `npm run lint:js`)
SCRIPT_RUNNERS = ("npm run", "yarn", "yarn run", "pnpm", "pnpm run", "bun run")
#: package managers that also run an installed tool by name (`pnpm vitest run`, `yarn eslint .`):
#: a category's JavaScript tools run this way do its task too
TOOL_RUNNERS = ("pnpm", "yarn", "bun run")
JS_TOOLS = frozenset("jest vitest mocha eslint prettier tsc vue-tsc biome oxlint stylelint playwright".split())

CATEGORIES: tuple[Category, ...] = (
    Category("build", ("build", "builds", "building", "the build", "compile the project", "build commands", "build scripts",
                       "other build commands"),
             ("python setup.py develop", "python setup.py build", "python setup.py build_ext", "python setup.py install",
              "python setup.py bdist_wheel", "python -m build", "pip install -e", "cmake --build", "ninja", "make build",
              "make all", "cargo build", "go build", "gradle build", "gradlew build", "mvn package", "mvn install",
              "mvn compile", "dotnet build", "bazel build", "xcodebuild", "swift build"),
             scripts=("build", "build:*"), objects=("build commands", "build scripts", "other build commands"),
             examples=(ex("All builds are done via `make dist`. You should NEVER run any other command to build the project.",
                          "deny command <build>"),
                       ex("- You should NEVER run any other command to build the project.", "ask command <build>"))),
    Category("test", ("test", "tests", "the tests", "test suite", "testing", "unit tests", "test commands", "the test suite",
                      "all tests", "the full test suite"),
             ("pytest", "python -m pytest", "npm test", "cargo test", "cargo nextest run", "go test", "jest", "vitest",
              "mocha", "make test", "tox", "nox", "dotnet test", "mvn test", "gradle test", "gradlew test", "rspec",
              "bundle exec rspec", "phpunit", "deno test", "swift test", "ctest", "bun test", "playwright test"),
             scripts=("test", "test:*"), objects=("test commands",),
             examples=(ex("- Run the tests before pushing", "warn sequence <test> -> git push"),
                       ex("- Only commit once the tests pass.", "deny sequence <test> -> git commit"))),
    Category("lint", ("lint", "linting", "linters", "linter", "lint commands", "lint checks", "lint tools",
                      "individual lint commands", "linting tools", "lint command", "lint errors", "linting errors",
                      "lint warnings"),
             ("eslint", "ruff check", "ruff", "flake8", "pylint", "lintrunner", "black --check", "isort --check",
              "cargo clippy", "golangci-lint", "rubocop", "stylelint", "biome lint", "biome check", "oxlint",
              "shellcheck", "make lint"),
             scripts=("lint", "lint:*", "*lint*"),
             objects=("lint commands", "individual lint commands", "linters", "lint tools", "linting tools", "lint command",
                      "lint checks"),
             examples=(ex("- Only use commands provided via `spin` for linting.", "deny command <lint>"),
                       ex("- Only push after all lint errors are resolved.", "deny sequence <lint> -> git push"))),
    Category("typecheck", ("typecheck", "type check", "type-check", "typechecking", "type checking",
                           "type-checking", "type checks", "type checkers"),
             ("tsc", "mypy", "pyright", "vue-tsc", "make typecheck"),
             scripts=("typecheck", "type-check", "types", "tsc", "check-types", "typecheck:*"), objects=("type checkers",)),
    Category("format", ("format", "formatting", "formatter", "the formatter", "formatters", "formatted",
                        "format check", "format checks", "formatting checks", "formatting validation", "format validation"),
             ("prettier", "ruff format", "black", "isort", "cargo fmt", "gofmt", "go fmt", "rustfmt", "biome format",
              "make format", "make fmt"),
             scripts=("format", "format:*", "fmt"), objects=("formatters",),
             # "formatting validation" is one task (the formatter's), not formatting and the project's checks;
             # "formatted using `X`" names the document's own formatter (tests/policy/test_implicit_orderings.py)
             examples=(ex("- All code must pass formatting validation before commit", "deny sequence <format> -> git commit"),
                       ex("- Only push once the format checks pass.", "deny sequence <format> -> git push"))),
    # the project's own checks of the work as a whole ("run verification", "all checks must pass"):
    # what the document lists for them (a "Verification" section's `npm run verify`) does them
    Category("check", ("verification", "checks", "the checks", "all checks", "quality checks", "the quality checks",
                       "ci checks", "validation", "verification commands", "the verification", "full verification",
                       "verification checks", "code quality checks"),
             ("make check", "make ci", "make verify", "make validate", "just check", "just ci", "pre-commit run", "tox",
              "nox"),
             scripts=("check", "check:*", "check-all", "verify", "verify:*", "validate", "validate:*", "ci", "quality"),
             examples=(ex("Always run verification after:\n\n- Updating type definitions\n- Modifying API client code\n",
                          "warn sequence <check> -> git commit after any change"),
                       ex("- All checks must pass before pushing", "deny sequence <check> -> git push"),
                       ex("- Skip the checks for docs-only changes"))),
    Category("dev", ("dev server", "development server", "the dev server", "dev servers", "local server"),
             ("npm run dev", "yarn dev", "pnpm dev", "bun run dev", "bun dev", "next dev", "vite", "nuxt dev",
              "astro dev", "npm start", "yarn start", "pnpm start", "python manage.py runserver", "flask run",
              "rails server"),
             objects=("dev server", "development server", "the dev server", "dev servers", "local server"),
             examples=(ex("- Never start the dev server yourself", "deny command <dev>"),)),
    Category("database", ("database operations", "database", "databases", "db operations", "the database",
                          "database changes", "sql queries"),
             ("psql", "mysql", "mongosh", "mongo", "supabase db", "supabase migration", "prisma migrate", "prisma db",
              "drizzle-kit push", "drizzle-kit migrate", "alembic upgrade", "alembic downgrade", "redis-cli"),
             objects=("database operations", "db operations", "sql queries", "database commands"),
             examples=(ex("- Always use the Supabase MCP tools for database operations.", "warn command <database>"),)),
    # applying schema migrations to a database (writing a migration file is an edit of `**/migrations/**`)
    Category("migrate", ("database migrations", "db migrations", "migrations", "schema migrations", "the migrations",
                         "the database migrations", "migration commands"),
             ("prisma migrate", "prisma db push", "drizzle-kit migrate", "drizzle-kit push", "alembic upgrade",
              "alembic downgrade", "python manage.py migrate", "rails db:migrate", "bin/rails db:migrate",
              "rake db:migrate", "knex migrate", "sequelize db:migrate", "supabase db push", "supabase migration up",
              "flyway migrate", "goose up", "dbmate up", "mix ecto.migrate"),
             scripts=("migrate", "migrate:*", "db:migrate", "db:push"),
             objects=("database migrations", "db migrations", "migrations", "schema migrations", "the migrations",
                      "the database migrations", "migration commands"),
             examples=(ex("- Ask before running database migrations", "ask command <migrate>"),
                       ex("NEVER do the following without explicit user confirmation:\n\n- Run database migrations\n",
                          "ask command <migrate>"),
                       ex("- Never edit existing migrations", "deny write **/migrations/**"),
                       ex("- Migrations run on deploy"))),
    Category("deploy", ("deploy", "deploys", "deployment", "deployments", "production deploys"),
             ("vercel deploy", "vercel --prod", "netlify deploy", "fly deploy", "flyctl deploy", "wrangler deploy",
              "wrangler publish", "firebase deploy", "kubectl apply", "helm upgrade", "helm install",
              "terraform apply", "serverless deploy", "sls deploy", "gcloud app deploy", "cdk deploy", "railway up"),
             objects=("deploys", "deployments", "production deploys"),
             scripts=("deploy", "deploy:*")),
    Category("publish", ("publish", "publishing", "releases to npm", "package releases"),
             ("npm publish", "yarn npm publish", "yarn publish", "pnpm publish", "bun publish", "twine upload",
              "cargo publish", "poetry publish", "uv publish", "flit publish", "hatch publish", "gem push",
              "dotnet nuget push", "vsce publish"), objects=("package releases",)),
    Category("add-dependency", ("dependencies", "dependency", "new dependencies", "new dependency", "packages",
                                "new packages", "libraries", "new libraries", "deps", "third-party packages",
                                "npm packages", "crates", "gems"),
             ("npm install <pkg>", "npm i <pkg>", "npm add <pkg>", "yarn add <pkg>", "pnpm add <pkg>", "pnpm install <pkg>",
              "pnpm i <pkg>", "bun add <pkg>", "bun install <pkg>", "bun i <pkg>", "deno add <pkg>", "pip install <pkg>",
              "uv add <pkg>", "uv pip install <pkg>", "poetry add <pkg>", "pdm add <pkg>", "rye add <pkg>",
              "cargo add <pkg>", "go get <pkg>", "gem install <pkg>", "bundle add <pkg>", "composer require <pkg>",
              "dotnet add package", "conda install <pkg>", "swift package add-dependency", "dart pub add <pkg>",
              "flutter pub add <pkg>", "npx expo install <pkg>"),
             objects=("dependencies", "dependency", "new dependencies", "new dependency", "packages", "new packages",
                      "libraries", "new libraries", "deps", "third-party packages", "npm packages", "crates", "gems"),
             neutral=("third-party", "third", "party", "external", "extra", "additional", "outside", "foreign", "more",
                      "unapproved", "unvetted", "random", "arbitrary", "unnecessary", "unneeded"),
             examples=(ex("- Ask before adding new dependencies", "ask command <add-dependency>"),
                       ex("- Never add dependencies", "deny command <add-dependency>"),
                       # every library one adds is a third-party one: the words say what they are, not which
                       ex("- **NEVER** pull in third-party libraries unless the user says so", "ask command <add-dependency>"),
                       ex("- Avoid adding external crates", "warn command <add-dependency>"),
                       ex("3. Additional packages must not be installed without approval", "ask command <add-dependency>"),
                       ex("> Do not introduce extra dependencies.", "deny command <add-dependency>"),
                       ex("- React libraries: keep the list short"),
                       ex("- ❌ Don't test external libraries for correctness", "warn command <add-dependency>"),
                       # `<pkg>` is one package: the bare command installs the lockfile, here and in prose
                       ex("- Ask before running `npm install <pkg>`", "ask command npm install ?*")),
             exempt=("pip install -e *", "pip install --editable *", "pip install .*", "uv pip install -e *",
                     "uv pip install --editable *", "uv pip install .*")),
    # installs outside the project: into the machine's or the user's environment
    Category("global-install", ("global packages", "global installs", "global package"),
             ("npm install -g", "npm install --global", "npm i -g", "pnpm add -g", "pnpm add --global",
              "pnpm install -g", "yarn global add", "bun add -g", "bun add --global", "bun install -g",
              "pip install --user", "sudo pip install", "sudo pip3 install", "sudo npm install", "gem install --user-install"),
             objects=("global packages", "global installs", "global package"),
             examples=(ex("- Never install packages globally", "deny command <global-install>"),
                       ex("- Do not install dependencies system-wide; use the project's venv", "deny command <global-install>"),
                       ex("- Ask before installing global packages", "ask command <global-install>"),
                       ex("- Global state is shared between tests"))),
    # a virtual environment is made by one of these; `uv sync` and `poetry install` make the
    # project's own one as a side effect, which a rule against making environments is not about
    Category("create-venv", ("virtual environments", "virtual environment", "virtualenvs", "virtualenv", "venvs",
                             "a venv", "new venv", "a new venv", "new venvs", "python environments", "new virtual environments",
                             "a new virtual environment", "a virtual environment", "new virtualenvs"),
             ("python -m venv", "python3 -m venv", "virtualenv", "uv venv", "pyenv virtualenv", "mkvirtualenv",
              "conda create", "mamba create"),
             objects=("virtual environments", "virtual environment", "virtualenvs", "virtualenv", "venvs", "a venv",
                      "new venv", "a new venv", "new venvs", "python environments", "new virtual environments",
                      "a new virtual environment", "a virtual environment", "new virtualenvs"),
             examples=(ex("- Don't create ad-hoc virtual environments", "deny command <create-venv>"),
                       ex("- Never create a new venv; use the existing `.venv`", "deny command <create-venv>"),
                       ex("- Ask before creating virtual environments", "ask command <create-venv>"),
                       ex("- Always run Python inside a virtual environment"))),
    # packages of the machine, from the operating system's package manager (`apt-get install`,
    # `brew install`): a rule about them is not about the project's dependencies
    Category("system-install", ("system packages", "system package", "system dependencies", "system libraries",
                                "os packages", "os-level packages", "system-level packages", "host packages",
                                "apt packages", "distro packages", "operating system packages", "system tools"),
             ("apt install <pkg>", "apt-get install <pkg>", "aptitude install <pkg>", "dnf install <pkg>",
              "yum install <pkg>", "apk add <pkg>", "pacman -S <pkg>", "zypper install <pkg>", "brew install <pkg>",
              "port install <pkg>", "snap install <pkg>", "choco install <pkg>", "winget install <pkg>",
              "scoop install <pkg>", "nix-env -i <pkg>", "sudo apt install <pkg>", "sudo apt-get install <pkg>",
              "sudo dnf install <pkg>", "sudo yum install <pkg>", "sudo apk add <pkg>", "sudo pacman -S <pkg>",
              "sudo zypper install <pkg>", "sudo snap install <pkg>"),
             objects=("system packages", "system package", "system dependencies", "system libraries", "os packages",
                      "os-level packages", "system-level packages", "host packages", "apt packages", "distro packages",
                      "operating system packages", "system tools"),
             examples=(ex("- **Do not install system packages**; the container is thrown away", "deny command <system-install>"),
                       ex("- Ask before installing OS packages", "ask command <system-install>"),
                       ex("Installing system dependencies is not allowed.", "deny command <system-install>"),
                       ex("1. No new system libraries without approval", "ask command <system-install>"),
                       ex("- System packages are listed in `Brewfile`"))),
    Category("update-dependency", ("library updates", "dependency updates", "library update", "upgrades"),
             ("npm update", "npm upgrade", "npm install <pkg>@latest", "yarn upgrade", "yarn up", "pnpm update",
              "pnpm up", "bun update", "pip install --upgrade", "pip install -U", "uv lock --upgrade",
              "uv sync --upgrade", "poetry update", "cargo update", "go get -u", "ncu -u", "npm-check-updates -u"),
             objects=("library updates", "dependency updates", "upgrades"),
             examples=(ex("- Ask before library updates", "ask command <update-dependency>"),)),
    # the versions of the language and the package manager a project pins (`.nvmrc`, `packageManager`,
    # `.tool-versions`): the commands that change the pin or the tool every later command runs with;
    # selecting the pinned version for the shell (`nvm use`) is everyday work and not among them
    Category("toolchain", ("node version", "node versions", "the node version", "node.js version", "the node.js version",
                           "npm versions", "npm version pin", "the package manager", "package manager", "package managers",
                           "the package manager version", "package manager version", "package manager versions",
                           "the toolchain", "toolchain", "toolchain versions", "the python version", "python version",
                           "python versions", "runtime version", "runtime versions", "the runtime version",
                           "version managers", "version pins", "the version pins"),
             ("volta pin", "volta install", "corepack enable", "corepack disable", "corepack use", "corepack prepare",
              "corepack up", "yarn set version", "yarn policies set-version", "pnpm env use", "nvm alias default",
              "fnm default", "asdf set", "asdf local", "asdf global", "mise use", "pyenv local", "pyenv global",
              "uv python pin", "rustup default", "rustup override set"),
             objects=("node version", "node versions", "the node version", "node.js version", "the node.js version",
                      "npm versions", "the package manager", "package manager", "package managers",
                      "the package manager version", "package manager version", "package manager versions", "the toolchain",
                      "toolchain", "toolchain versions", "the python version", "python version", "python versions",
                      "runtime version", "runtime versions", "the runtime version", "version pins", "the version pins"),
             examples=(ex("- Never change the package manager or Node version (volta pin, corepack, yarn set version) "
                          "without approval", "ask command <toolchain>", "ask write .nvmrc", exact=False),
                       ex("- Do not change Node or npm versions unless explicitly requested.", "ask command <toolchain>",
                          exact=False),
                       ex("- Never upgrade the package manager", "deny command <toolchain>"),
                       # the project's tool of the job, not a change of it: its rivals warn (programs.RIVALS)
                       ex("- The package manager is pnpm", "warn command npm", "warn command yarn", "warn command bun"),
                       ex("- Check the Node version with `node -v`"))),
    Category("login", ("authentication", "manual authentication", "logins", "log ins"),
             ("npm login", "yarn npm login", "docker login", "gh auth login", "vercel login", "firebase login",
              "netlify login", "heroku login", "aws configure", "aws sso login", "gcloud auth login", "az login",
              "wrangler login", "fly auth login", "supabase login"), objects=("authentication", "manual authentication")),
    Category("env-change", ("environment variables", "env vars", "environment variable", "env var", "secrets"),
             ("gh secret set", "gh secret delete", "gh secret remove", "gh variable set", "gh variable delete",
              "vercel env add", "vercel env rm", "vercel env remove", "netlify env:set", "netlify env:unset",
              "heroku config:set", "heroku config:unset", "fly secrets set", "fly secrets unset",
              "flyctl secrets set", "wrangler secret put", "wrangler secret delete", "railway variables set"),
             objects=("environment variables", "env vars", "environment variable", "env var"),
             examples=(ex("- Never change environment variables", "deny command <env-change>"),)),
    Category("git-write", ("git operations", "git commands", "raw git commands", "raw git", "git",
                           "git workflow operations"),
             ("git commit", "git push", "git checkout -b", "git switch -c", "git branch <name>", "git merge",
              "git rebase", "git reset", "git cherry-pick", "git revert", "git tag <name>", "git pull",
              "git stash", "git am"),
             objects=("git operations", "git commands", "raw git commands", "raw git", "git workflow operations"),
             examples=(ex("- Use Graphite for all git operations instead of raw git commands",
                          "warn command <git-write>"),)),
    Category("git-destructive", ("destructive git operations", "destructive git commands", "destructive git actions",
                                 "destructive git", "destructive git operation", "destructive git command",
                                 "history rewrites", "history-rewriting commands", "rewriting history", "rewrite history",
                                 "rewrite git history", "rewriting git history", "git history rewrites"),
             ("git reset --hard", "git clean -f", "git clean -fd", "git clean -fdx", "git clean -xfd", "git push --force",
              "git push -f", "git push --force-with-lease", "git branch -D", "git checkout -- <path>", "git checkout .",
              "git restore .", "git stash drop", "git stash clear", "git filter-branch", "git filter-repo",
              "git reflog expire", "git push --delete", "git tag -d", "git update-ref -d"),
             objects=("destructive git operations", "destructive git commands", "destructive git actions", "destructive git",
                      "destructive git operation", "destructive git command", "history rewrites", "history-rewriting commands",
                      "rewriting history", "rewrite history", "rewriting git history", "git history rewrites"),
             examples=(ex("- Never use destructive git operations unless explicitly requested",
                          "ask command <git-destructive>"),
                       ex("- Avoid destructive git commands", "warn command <git-destructive>"))),
    Category("force-push", ("force push", "force pushes", "force-push", "force-pushes", "force pushing"),
             ("git push --force", "git push -f", "git push --force-with-lease", "git push --force-if-includes",
              "git push +<ref>"),
             objects=("force push", "force pushes", "force-push", "force-pushes", "force pushing"),
             examples=(ex("- Make sure to never force push", "deny command <force-push>"),)),
    Category("pull-request", ("pr", "prs", "pull request", "pull requests", "merge request", "merge requests",
                              "a pr", "a pull request", "draft pr", "draft prs"),
             ("gh pr create", "hub pull-request", "glab mr create", "gt submit"),
             objects=("pr", "prs", "pull request", "pull requests", "merge request", "merge requests", "a pr",
                      "a pull request", "draft pr", "draft prs")),
    Category("tag", ("tags", "a tag", "release tags", "git tags", "git tag commands", "manual git tag commands",
                     "version tags"),
             ("git tag <name>", "git push --tags", "git push --follow-tags"),
             objects=("tags", "a tag", "release tags", "git tags", "git tag commands", "manual git tag commands",
                      "version tags"),
             exempt=("git tag -l *", "git tag --list *", "git tag -n *", "git tag --contains *", "git tag --merged *",
                     "git tag --no-merged *", "git tag --points-at *", "git tag -v *", "git tag --verify *")),
)

#: (file glob, the commands that write it without naming it)
IMPLIED_WRITES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("package.json", ("npm install <pkg>", "npm uninstall <pkg>", "npm pkg set", "npm version", "yarn add <pkg>",
                      "yarn remove <pkg>", "pnpm add <pkg>", "pnpm remove <pkg>", "bun add <pkg>", "bun remove <pkg>")),
    ("package-lock.json", ("npm install", "npm uninstall", "npm update", "npm dedupe", "npm audit fix")),
    ("yarn.lock", ("yarn install", "yarn add", "yarn remove", "yarn upgrade", "yarn up")),
    ("pnpm-lock.yaml", ("pnpm install", "pnpm add", "pnpm remove", "pnpm update", "pnpm up")),
    ("bun.lock", ("bun install", "bun add", "bun remove", "bun update")),
    ("bun.lockb", ("bun install", "bun add", "bun remove", "bun update")),
    ("Cargo.toml", ("cargo add", "cargo remove")),
    ("Cargo.lock", ("cargo update", "cargo add", "cargo remove", "cargo generate-lockfile")),
    ("pyproject.toml", ("uv add", "uv remove", "poetry add", "poetry remove", "pdm add", "pdm remove")),
    ("uv.lock", ("uv lock", "uv add", "uv remove")),
    ("poetry.lock", ("poetry lock", "poetry add", "poetry remove", "poetry update")),
    ("go.mod", ("go get", "go mod tidy")),
    ("go.sum", ("go get", "go mod tidy")),
    ("Gemfile.lock", ("bundle install", "bundle update", "bundle add")),
    ("composer.lock", ("composer require", "composer update", "composer install")),
)

#: words that limit a ban on editing a file to editing it by hand: the commands that write it stay
#: allowed ("don't edit `package.json` directly" is how one says "use `npm install`")
BY_HAND: tuple[str, ...] = ("manually", "by hand", "hand-edit", "hand edit", "directly",
                            "直接", "手动", "手動", "手で", "직접", "수동")

IMPLIED_WRITE_EXAMPLES: tuple[Example, ...] = (
    ex("- Never modify `package.json` without asking", "ask write package.json", "ask command <writes package.json>"),
    ex("- Don't edit `package.json` by hand", "deny write package.json"),
    ex("- `pyproject.toml` 직접 수정 금지", "deny write pyproject.toml"),
    ex("- 不要直接修改 `Cargo.toml`", "deny write Cargo.toml"),
    ex("- `go.mod` を手で編集しないでください", "deny write go.mod"),
    # the text names the command to use: the commands that write the file are how it is meant to change
    ex("- Never edit `Cargo.toml`, use `cargo add` instead", "deny write Cargo.toml"),
)
