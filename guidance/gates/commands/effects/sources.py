"""Where a package comes from: the usual registries, and the specs and URLs that name
somewhere else. Shared by the package tables (cf_guidance.gates.commands.effects.packages) and
the supply-chain gate, which reads manifests and runner words without loading the tables."""

from __future__ import annotations

import os

from cf_guidance.gates.commands.effects import is_local_host, url_host
from cf_guidance.gates.commands.git import git_dir

#: The usual registries and indexes (and their file hosts), by host name.
KNOWN_SOURCES = frozenset((
    "pypi.org", "pypi.python.org", "files.pythonhosted.org", "download.pytorch.org", "pypi.nvidia.com", "registry.npmjs.org",
    "registry.yarnpkg.com", "npm.pkg.github.com", "rubygems.org", "index.rubygems.org", "crates.io", "index.crates.io",
    "static.crates.io", "proxy.golang.org", "sum.golang.org", "repo.packagist.org", "packagist.org", "repo1.maven.org",
))


def known_source(url: str) -> bool:
    """True for the usual registry (over https) or a registry on this machine."""
    host = url_host(url).lower()
    if is_local_host(host):
        return True
    return host in KNOWN_SOURCES and not url.lower().startswith("http://")


_URL_MARKERS = ("git+", "git://", "http://", "https://", "ssh://", "git@", "hg+", "svn+", "bzr+")
_NPM_HOSTED = ("github:", "gitlab:", "bitbucket:", "gist:")


def foreign_spec(spec: str, *, npm: bool = False) -> str:
    """What makes a package spec come from outside the registry ("" when it does not): a URL,
    a VCS URL, `name @ https://...`, and for npm-style tools `github:u/r` and `user/repo`."""
    lowered = spec.lower().strip()
    if " @ " in lowered or "@http" in lowered or "@git+" in lowered:
        lowered = lowered.split("@", 1)[1].strip()
    if lowered.startswith(_URL_MARKERS):
        url = lowered[4:] if lowered.startswith(("git+", "hg+")) else lowered
        if "://" in url and is_local_host(url_host(url)):
            return ""
        return spec
    if npm:
        if lowered.startswith(_NPM_HOSTED):
            return spec
        if "/" in lowered and lowered[:1] not in ("@", ".", "/", "~") and not lowered.startswith(("file:", "npm:", "link:", "workspace:", "portal:")):
            return spec  # `user/repo`: npm installs it from GitHub
    return ""


#: Runners that fetch a package and run it in one go (`npx`, `uvx`, `pipx run`, `pnpm dlx`): the
#: shell analysis unwraps them (cf_guidance.shell.unwrap), so the supply-chain gate reads their
#: words from the command's text.
RUNNERS = frozenset(("npx", "bunx", "uvx", "pipx", "pnpm", "yarn", "uv", "poetry", "bun", "npm"))

#: The host of a hosted-repository shorthand (`github:acme/x`; npm's bare `acme/x` is GitHub).
_SHORTHAND_HOSTS = {"github:": "github.com", "gitlab:": "gitlab.com", "bitbucket:": "bitbucket.org"}


def repository_owner(url: str) -> str:
    """`host/owner` of a repository address or package spec (`git@github.com:acme/x.git`,
    `git+https://github.com/acme/x`, `github:acme/x#v2`, npm's `acme/x`), "" when it names none."""
    spec = url.strip().lower()
    for prefix, host in _SHORTHAND_HOSTS.items():
        if spec.startswith(prefix):
            owner = spec[len(prefix) :].split("/", 1)[0]
            return f"{host}/{owner}" if owner and "/" in spec[len(prefix) :] else ""
    for prefix in ("git+", "hg+"):
        spec = spec.removeprefix(prefix)
    if "://" in spec:
        host = url_host(spec)
        path = spec.split("://", 1)[1].split("/", 1)[1] if "/" in spec.split("://", 1)[1] else ""
    elif "@" in spec and ":" in spec:  # scp-like: git@github.com:acme/x.git
        host, path = spec.split("@", 1)[1].split(":", 1)
    elif "/" in spec and spec[:1] not in "@./~" and ":" not in spec:
        host, path = "github.com", spec  # npm installs `owner/repo` from GitHub
    else:
        return ""
    owner = path.split("/", 1)[0]
    return f"{host}/{owner}" if host and owner and "/" in path else ""


def project_owner(root: str) -> str:
    """`host/owner` of the project's `origin` remote, read from its git config (no git process;
    a worktree's `.git` file leads to the shared config), "" when there is none."""
    gitdir = git_dir(root)
    if not gitdir:
        return ""
    try:
        with open(os.path.join(gitdir, "config"), encoding="utf-8") as handle:
            config = handle.read()
    except (OSError, UnicodeDecodeError):
        return ""
    section = config.partition('[remote "origin"]')[2].split("\n[", 1)[0]
    for line in section.splitlines():
        key, eq, value = line.partition("=")
        if eq and key.strip().lower() == "url":
            return repository_owner(value)
    return ""
