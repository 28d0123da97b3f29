"""Effects of the package managers of other languages: cargo, go, gem, composer."""

from __future__ import annotations

from cf_guidance.decision import ASK
from cf_guidance.gates.commands.effects import CHANGE, GRANT, LOCAL, SUPPLY, Entry, Parsed, Table, is_local_host, url_host
from cf_guidance.gates.commands.effects.packages import indexes
from cf_guidance.gates.commands.effects.sources import known_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.shell.model import Command, ShellAnalysis

    Test = Callable[[Parsed, Command, ShellAnalysis | None], str]


_CARGO = Table(
    ("cargo",),
    (
        Entry("install|add", SUPPLY, "SUP001", "cargo {verb} builds code from a git repository", flags=("--git",),
              test=lambda parsed, cmd, analysis: "" if all(is_local_host(url_host(u)) for u in parsed.args.value("--git")) else "=",
              verdict=ASK, block=("cargo install --git https://github.com/someone/tool",), allow=("cargo install ripgrep", "cargo install --path .")),
        Entry("install|add", SUPPLY, "SUP002", test=indexes("--index", "--registry"), verdict=ASK,
              block=("cargo install tool --index sparse+https://crates.example.io/index/",), allow=("cargo add serde --features derive",)),
        Entry("publish|yank", CHANGE, "EFF001", "cargo {verb} changes the crate on the registry", unless=("--dry-run",),
              block=("cargo publish", "cargo yank --version 1.0.1"), allow=("cargo publish --dry-run", "cargo package")),
        Entry("owner", GRANT, "REP005", "cargo owner --add gives someone publish rights", flags=("-a", "--add"),
              block=("cargo owner --add someone",), allow=("cargo owner --list",)),
        Entry("", LOCAL, allow=("cargo build --release", "cargo test", "cargo run -- --help", "cargo fmt", "cargo login")),
    ),
    options=("--git", "--branch", "--tag", "--rev", "--index", "--registry", "--path", "--version", "--vers", "-p", "--package",
             "--features", "-F", "--target", "--bin", "--root", "-j", "--jobs", "--manifest-path", "-a", "--add", "-r", "--remove"),
    instead="check it with `cargo publish --dry-run` and let the user publish"
)

#: go environment settings that change where modules come from or switch their checksums off.
_GO_SOURCE_VARS = ("GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOINSECURE", "GOFLAGS", "GONOPROXY")


def _go_setting(name: str, value: str) -> str:
    """Why a go environment setting is a change of source ("" when it is not)."""
    if name not in _GO_SOURCE_VARS:
        return ""
    lowered = value.lower()
    if name == "GOFLAGS":
        return f"GOFLAGS={value} fetches modules without TLS" if "insecure" in lowered else ""
    if name == "GOPROXY":
        proxies = [p for p in lowered.replace("|", ",").split(",") if p not in ("direct", "off", "")]
        return "" if all(known_source(p) for p in proxies) else f"GOPROXY={value} fetches modules from another proxy"
    if name == "GOSUMDB":
        return f"GOSUMDB={value} switches the checksum database off or elsewhere" if lowered != "sum.golang.org" else ""
    return f"{name}={value} skips checksum verification or TLS for those modules"


def _go_env(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if not parsed.args.has("-w"):
        return ""
    for word in parsed.words[1:]:
        name, _, value = word.partition("=")
        found = _go_setting(name, value)
        if found:
            return found
    return ""


def _go_assignments(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    for name, value in cmd.assignments:
        found = _go_setting(name, value)
        if found:
            return found
    return ""


_GO = Table(
    ("go",),
    (
        Entry("env", SUPPLY, "SUP003", test=_go_env, verdict=ASK,
              block=("go env -w GOPROXY=https://goproxy.example.io", "go env -w GOSUMDB=off", "go env -w GOINSECURE=example.com"),
              allow=("go env GOPROXY", "go env -w GOPRIVATE=github.com/acme/*", "go env -w GOPROXY=https://proxy.golang.org,direct")),
        Entry("get|install|mod|build|run|test", SUPPLY, "SUP002", test=_go_assignments, verdict=ASK,
              block=("GOSUMDB=off go get github.com/someone/lib", "GOFLAGS=-insecure go install example.com/tool@latest"),
              allow=("go install golang.org/x/tools/gopls@latest", "go get github.com/stretchr/testify", "go mod tidy")),
        Entry("", LOCAL, allow=("go build ./...", "go test ./...", "go vet ./...")),
    ),
    options=("-o", "-C", "-tags", "-ldflags", "-gcflags", "-run", "-p", "-mod", "-modfile", "-exec", "-bench", "-count", "-timeout"),
)

def _gem_sources(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if not parsed.args.has("-a", "--add"):
        return ""
    for url in parsed.words[1:]:
        if not known_source(url):
            return f"gem sources --add {url} makes gems come from there from now on"
    return ""


_GEM = Table(
    ("gem",),
    (
        Entry("install|fetch|update", SUPPLY, "SUP002", test=indexes("--source", "-s"), verdict=ASK,
              block=("gem install helper --source http://gems.example.net",), allow=("gem install rails", "gem install ./pkg/app-1.0.gem")),
        Entry("sources", SUPPLY, "SUP003", test=_gem_sources, verdict=ASK,
              block=("gem sources --add https://gems.example.net/",), allow=("gem sources --list",)),
        Entry("push|yank", CHANGE, "EFF001", "gem {verb} changes the gem on the registry", block=("gem push app-1.0.gem",), allow=("gem build app.gemspec",)),
        Entry("owner", GRANT, "REP005", "gem owner --add gives someone publish rights", flags=("-a", "--add"),
              block=("gem owner app -a someone@example.com",), allow=("gem owner app",)),
        Entry("", LOCAL, allow=("gem list", "gem env")),
    ),
    options=("--source", "-s", "-v", "--version", "-r", "--remove", "-i", "--install-dir", "-n", "--bindir", "--key", "--host"),
    instead="build it with `gem build` and let the user push it"
)


def _composer_config(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    words = [w.lower() for w in parsed.words[1:]]
    if not words:
        return ""
    key, values = words[0], words[1:]
    if key.startswith(("repositories.", "repo.", "repositories")) and values:
        return f"composer config {key} adds a package source"
    if key in ("secure-http", "disable-tls") and values and values[0] in (("false",) if key == "secure-http" else ("true", "1")):
        return f"composer config {key} {values[0]} switches TLS off for packages"
    return ""


_COMPOSER = Table(
    ("composer",),
    (
        Entry("config", SUPPLY, "SUP003", test=_composer_config, verdict=ASK,
              block=("composer config repositories.helper vcs https://github.com/someone/helper", "composer config secure-http false"),
              allow=("composer config --list", "composer config sort-packages true")),
        Entry("create-project|require", SUPPLY, "SUP002", test=indexes("--repository", "--repository-url"), verdict=ASK,
              block=("composer create-project acme/app --repository=https://repo.example.io",),
              allow=("composer require monolog/monolog", "composer create-project laravel/laravel app")),
        Entry("", LOCAL, allow=("composer install", "composer update --lock", "composer dump-autoload")),
    ),
    options=("--repository", "--repository-url", "-d", "--working-dir", "--stability", "-s"),
)


TABLES = (_CARGO, _GO, _GEM, _COMPOSER)
