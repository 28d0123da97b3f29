"""Supply chain: code that comes from somewhere other than the usual registry, settings that
change where packages come from, and hand edits of lockfiles.

Commands are judged by the effect model's package tables (cf_guidance.gates.commands.effects.
packages) and, for runners the shell analysis unwraps (`npx`, `uvx`, `pipx run`), by the words
they were given; edits (any tool) by the file they change and the lines they add: a lockfile's
resolved URLs and hashes, a manifest's dependencies, a registry configuration.
"""

from __future__ import annotations

from cf_guidance.decision import ASK
from cf_guidance.gates.commands import describe, resolver
from cf_guidance.gates.commands.effects import findings_for, program_and_args
from cf_guidance.gates.commands.effects.sources import RUNNERS, foreign_spec, known_source, project_owner, repository_owner
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.commands.writes import writes_of
from cf_guidance.gates.reasons import finding, rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.writes import Write
    from cf_guidance.shell.model import Command

GATE = "supply-chain"



RULES = (
    rule("SUP001", "install-from-url", ASK, "Installing code from a URL or a git repository",
       "Asks before a package manager installs from outside the registry: a URL (`pip install http://.../pkg.tar.gz`, "
       "`npm install https://.../x.tgz`), a git repository (`git+https://...`, `github:user/repo`, npm's `user/repo`, "
       "`cargo install --git`), also through runners (`npx github:u/r`, `uvx --from git+...`, `pipx run --spec git+...`), "
       "`gh extension install` and `helm plugin install`; and before an edit of a manifest (package.json, "
       "requirements*.txt, pyproject.toml, Cargo.toml, Gemfile) that adds such a dependency. A repository of the project's "
       "own owner (the owner of its `origin` remote: `npm install github:acme/shared-config#v2` in a clone of acme/webapp) "
       "passes.",
       "Nobody reviewed that code, it can change between two installs, and installing runs it.",
       "pip install git+https://github.com/someone/helper.git\nnpm install https://example.com/x-1.0.0.tgz",
       "pip install helper==1.2.0\nnpm install x@1.0.0"),
    rule("SUP002", "unusual-index", ASK, "Installing from an index or registry that is not the usual one",
       "Asks before `--index-url`, `--extra-index-url`, `-i`, `--find-links`, `--registry`, `--index`, `--source`, "
       "`--repository` name an index other than the usual registry (PyPI, npm, crates.io, RubyGems, Packagist, the Go proxy, "
       "PyTorch's and NVIDIA's indexes, GitHub Packages, or one on this machine), before `--trusted-host` and "
       "`--allow-insecure-host`, and before `GOSUMDB=off`, `GOFLAGS=-insecure` or another `GOPROXY` on a go command.",
       "An extra index can serve a package with the name of an internal one (dependency confusion); plain http can be tampered with.",
       "pip install --extra-index-url https://pkgs.example.io/simple acme-utils", "pip install acme-utils"),
    rule("SUP003", "registry-config-change", ASK, "Changing where packages come from",
       "Asks before settings that change the package source or its checks for every later install: `npm config set "
       "registry`, `yarn config set npmRegistryServer`, `pip config set global.index-url`, `poetry source add`, `go env -w "
       "GOPROXY=...`, `gem sources --add`, `composer config repositories...`, `strict-ssl false`; and edits of `.npmrc`, "
       "`.yarnrc(.yml)`, `pip.conf`, `uv.toml`, `pyproject.toml`, `.cargo/config.toml`, `bunfig.toml`, `composer.json` "
       "that add a registry or index other than the usual one, or switch TLS checks off.",
       "Every install after it trusts the new source.",
       "npm config set registry https://npm.example-mirror.io/", "npm install --registry https://registry.npmjs.org"),
    rule("SUP004", "lockfile-edit", ASK, "Editing a lockfile's resolved URLs or hashes by hand",
       "Asks before Write, Edit, MultiEdit, apply_patch, `sed -i` or a shell write changes a resolved URL, integrity hash or "
       "checksum in a lockfile (package-lock.json, npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml, bun.lock, uv.lock, "
       "poetry.lock, pdm.lock, Pipfile.lock, Cargo.lock, Gemfile.lock, composer.lock, go.sum, flake.lock), or copies "
       "another lockfile over it. A lockfile the package manager rewrites (`npm install`) is not a finding.",
       "A lockfile pins what every machine installs; a changed URL or hash installs other code everywhere, unreviewed.",
       "Edit package-lock.json: \"resolved\": \"https://registry.npmjs.org/x\" -> \"https://evil.example/x.tgz\"",
       "npm install x@1.2.3"),
)
_OWN = frozenset(rule.code for rule in RULES)

#: Lockfile names and the words of the lines that pin a source or a hash.
LOCKFILES = {
    "package-lock.json": ('"resolved"', '"integrity"'),
    "npm-shrinkwrap.json": ('"resolved"', '"integrity"'),
    "yarn.lock": ("resolved ", "integrity ", "checksum:", "resolution:"),
    "pnpm-lock.yaml": ("resolution:", "integrity:", "tarball:"),
    "bun.lock": ("sha512-", "://", '"integrity"'),
    "uv.lock": ("source = ", "url = ", "hash = ", "registry = "),
    "poetry.lock": ("url = ", "hash = ", "reference = ", "[package.source]"),
    "pdm.lock": ("url = ", "hash = "),
    "pipfile.lock": ('"hashes"', "sha256:", '"index"'),
    "cargo.lock": ("source = ", "checksum = "),
    "gemfile.lock": ("remote:", "revision:", "sha256="),
    "composer.lock": ('"url"', '"shasum"', '"reference"'),
    "go.sum": (" h1:",),
    "flake.lock": ('"narhash"', '"url"', '"rev"'),
}
#: Programs whose writes of a lockfile carry text the line does not show: another lockfile over it.
_COPIERS = frozenset(("cp", "mv", "install", "ln", "dd", "rsync", "scp", "curl", "wget"))

#: Registry configuration files and the keys that set a source or switch its checks off.
_REGISTRY_CONFIGS = {
    ".npmrc": ("registry", "strict-ssl"),
    ".yarnrc": ("registry", "strict-ssl"),
    ".yarnrc.yml": ("npmregistryserver", "unsafehttpwhitelist", "enablestrictssl", "npmscopes"),
    "bunfig.toml": ("registry",),
    "pip.conf": ("index-url", "extra-index-url", "trusted-host", "find-links"),
    "pip.ini": ("index-url", "extra-index-url", "trusted-host", "find-links"),
    "uv.toml": ("index-url", "extra-index-url", "[[index]]", "url", "allow-insecure-host"),
    "pyproject.toml": ("index-url", "extra-index-url", "[[tool.uv.index]]", "[[tool.poetry.source]]", "[[tool.pdm.source]]", "url"),
    "config.toml": ("replace-with", "registry", "index"),
    "composer.json": ('"url"', "secure-http"),
    ".gemrc": ("sources",),
}


def check(ctx: GateContext) -> list[Finding]:
    out = findings_for(ctx, GATE, _OWN, lambda cmd, hit: hit.code == "SUP001" and _from_own_owner(ctx, cmd))
    if ctx.event.command is not None:
        found = summary(ctx)
        if found is not None:
            for cmd in found.analysis.commands:
                if cmd.wrappers and not RUNNERS.isdisjoint(cmd.wrappers):
                    _runner(cmd, out)
    for write in writes_of(ctx):
        name = write.name().lower()
        if name in LOCKFILES:
            _lockfile(write, name, out)
        elif name in _REGISTRY_CONFIGS and (name != "config.toml" or "/.cargo/" in "/" + write.path):
            _registry_config(write, name, out)
        if name == "package.json" or name.startswith(("requirements", "constraints")) or name in ("pyproject.toml", "cargo.toml", "gemfile"):
            _manifest(write, name, out)
    return out


def _runner(cmd: Command, out: list[Finding]) -> None:
    """`npx github:u/r`, `uvx --from git+...`: the shell analysis keeps the runner's words only in the text."""
    words = [w.strip("'\"") for w in (cmd.text or "").split()]
    for word in words:
        value = word.split("=", 1)[1] if word.startswith("--") and "=" in word else word
        if foreign_spec(value, npm=False) or value.startswith(("github:", "gitlab:", "bitbucket:")):
            out.append(finding(GATE, "SUP001", ASK, f"{cmd.wrappers[0]} fetches {value} and runs it", segment=describe(cmd), evidence=value))
            return


def _from_own_owner(ctx: GateContext, cmd: Command) -> bool:
    """True when every package `cmd` installs from outside the registry is a repository of the
    project's own owner (`npm install github:acme/shared-config#v2` in a clone of acme/webapp)."""
    owners = {repository_owner(spec) for spec in program_and_args(cmd)[1] if foreign_spec(spec, npm=True)}
    if not owners or "" in owners or len(owners) > 1:
        return False
    return owners == {project_owner(resolver(ctx).root)}


def _who(write: Write) -> str:
    return write.cmd.program if write.cmd is not None else write.segment.split(" ", 1)[0]


def _lockfile(write: Write, name: str, out: list[Finding]) -> None:
    if write.cmd is not None and write.added is None:
        if write.cmd.program in _COPIERS:
            out.append(finding(GATE, "SUP004", ASK, f"{write.cmd.program} replaces {write.path} with another lockfile", segment=write.segment, evidence=write.path))
        return
    markers = LOCKFILES[name]
    if write.cmd is not None and write.cmd.program in ("sed", "perl"):
        script = (write.added or "").lower()
        if any(word in script for word in ("resolved", "integrity", "http", "url", "hash", "sha", "checksum", "source", "registry", "tarball", "h1:")):
            out.append(finding(GATE, "SUP004", ASK, f"{write.cmd.program} rewrites sources or hashes in {write.path}", segment=write.segment, evidence=write.path))
        return
    added = {line.strip() for line in write.new_lines() if _pins(line, markers)}
    dropped = {line.strip() for line in write.dropped_lines() if _pins(line, markers)}
    if added or dropped:
        out.append(finding(GATE, "SUP004", ASK, f"{_who(write)} changes resolved sources or hashes in {write.path}", segment=write.segment, evidence=write.path))


#: What a pinned source or hash looks like in any lockfile, key or not (an Edit may change the value alone).
_PIN_MARKS = ("://", "sha512-", "sha384-", "sha256-", "sha1-", "sha256:", "sha512:", "h1:", "sha256=", "git+", "git@")


def _pins(line: str, markers: tuple[str, ...]) -> bool:
    """True when a lockfile line pins a source or a hash: the file's own keys, a URL, a hash."""
    lowered = line.lower()
    if any(m in lowered for m in markers) or any(m in lowered for m in _PIN_MARKS):
        return True
    run = 0
    for ch in lowered:  # a bare hex digest (Cargo.lock, composer.lock, go.sum's values)
        run = run + 1 if ch in "0123456789abcdef" else 0
        if run >= 40:
            return True
    return False


def _unusual(line: str) -> str:
    """A URL in `line` that is not the usual registry, or a switch of TLS checks off ("" when none)."""
    lowered = line.lower().replace(" ", "")
    if "strict-ssl=false" in lowered or "enablestrictssl:false" in lowered or "secure-http\":false" in lowered or "unsafehttpwhitelist" in lowered:
        return "TLS checks switched off"
    for token in line.replace('"', " ").replace("'", " ").replace("=", " ").split():
        if "://" in token and not known_source(token):
            return token
    return ""


def _registry_config(write: Write, name: str, out: list[Finding]) -> None:
    keys = _REGISTRY_CONFIGS[name]
    for line in write.new_lines():
        lowered = line.lower()
        if any(key in lowered for key in keys):
            unusual = _unusual(line)
            if unusual:
                out.append(finding(GATE, "SUP003", ASK, f"{_who(write)} makes {write.path} take packages from {unusual}", segment=write.segment, evidence=unusual))
                return


#: Manifest keys whose value is metadata, not a dependency (package.json).
_METADATA = frozenset(("homepage", "url", "repository", "bugs", "funding", "$schema", "author", "license", "main", "module", "types",
                       "email", "name", "version", "description", "directory"))


def _manifest(write: Write, name: str, out: list[Finding]) -> None:
    for line in write.new_lines():
        found = _foreign_dependency(line, name)
        if found:
            out.append(finding(GATE, "SUP001", ASK, f"{_who(write)} adds a dependency on {found} to {write.path}", segment=write.segment, evidence=found))
            return
        if name.startswith(("requirements", "constraints")) and line.strip().startswith(("--index-url", "-i ", "--extra-index-url", "--find-links", "-f ", "--trusted-host")):
            unusual = _unusual(line) or line.strip()
            if "://" not in unusual or not known_source(unusual):
                out.append(finding(GATE, "SUP002", ASK, f"{_who(write)} makes {write.path} install from {unusual}", segment=write.segment, evidence=unusual))
                return
        if name in ("gemfile", "cargo.toml") and any(k in line.lower() for k in ("source ", "registry")):
            unusual = _unusual(line)
            if unusual:
                out.append(finding(GATE, "SUP003", ASK, f"{_who(write)} makes {write.path} take packages from {unusual}", segment=write.segment, evidence=unusual))
                return


def _foreign_dependency(line: str, name: str) -> str:
    text = line.strip().rstrip(",")
    if name == "package.json":
        key, colon, value = text.partition(":")
        key = key.strip().strip('"')
        value = value.strip().strip('"')
        if not colon or key in _METADATA or key.startswith("$") or " " in value:
            return ""
        hosted = value.startswith(("git+", "git://", "github:", "gitlab:", "bitbucket:", "http://"))
        tarball = value.startswith("https://") and (value.endswith((".tgz", ".tar.gz", ".git")) or "#" in value or "/tarball/" in value)
        return value if hosted or tarball else ""
    if name.startswith(("requirements", "constraints")):
        spec = text.split(" #", 1)[0]
        if spec.startswith("-e "):
            spec = spec[3:].strip()
        return spec if spec and not spec.startswith("-") and foreign_spec(spec) else ""
    lowered = text.lower()
    if name == "pyproject.toml" and ("@ git+" in lowered or "@ http" in lowered or "git = " in lowered or "url = " in lowered and "://" in lowered and "[" not in lowered):
        value = text.split("@", 1)[-1] if "@" in text else text.split("=", 1)[-1]
        value = value.strip().strip("\"',{} ")
        return value if value and not known_source(value) else ""
    if name == "cargo.toml" and "git = " in lowered:
        return text.split("git = ", 1)[1].split('"')[1] if '"' in text.split("git = ", 1)[1] else text
    if name == "gemfile" and ("git:" in lowered or "github:" in lowered or ":git =>" in lowered):
        return text
    return ""
