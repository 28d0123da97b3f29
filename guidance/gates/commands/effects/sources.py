"""Where a package comes from: the usual registries, and the specs and URLs that name
somewhere else. Shared by the package tables (cf_guidance.gates.commands.effects.packages) and
the supply-chain gate, which reads manifests and runner words without loading the tables."""

from __future__ import annotations

from cf_guidance.gates.commands.effects import is_local_host, url_host

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