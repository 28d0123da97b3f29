"""The package managers' shared tests: where a package spec, an index and a `config set` point.

The tables are per tool: npm.py (npm, pnpm, yarn, bun, npx), python.py (pip, uv, uvx, pipx,
poetry, twine), languages.py (cargo, go, gem, composer). Installing from the usual registry is
ordinary work; what asks is code that comes from somewhere else -- a URL, a git repository, a
GitHub shorthand, an index or registry that is not the usual one -- and settings that switch
the usual source or its checks off.
"""

from __future__ import annotations

from cf_guidance.gates.commands.effects import Parsed
from cf_guidance.gates.commands.effects.sources import foreign_spec, known_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.shell.model import Command, ShellAnalysis

    Test = Callable[[Parsed, Command, ShellAnalysis | None], str]


def specs_from(skip: int, *, npm: bool = False, values: tuple[str, ...] = ()) -> Test:
    """A test: a package spec after the `skip` subcommand words, or in the values of `values`, comes from outside the registry."""
    def test(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        for spec in parsed.words[skip:] + parsed.args.value(*values):
            if foreign_spec(spec, npm=npm):
                return f"{cmd.program} installs {spec}, code from outside the registry"
        return ""
    return test


def indexes(*options: str, always: tuple[str, ...] = ()) -> Test:
    """A test: one of `options` names an index or registry that is not the usual one, or one of `always` is given."""
    def test(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        args = parsed.args
        for option in always:
            if args.has(option) or args.value(option):
                return f"{cmd.program} {option} switches off the source's checks"
        for option in options:
            for url in args.value(option):
                if not known_source(url) and not url.startswith(("./", "/", "../", "file:")):
                    return f"{cmd.program} {option} {url} installs from an index that is not the usual one"
        return ""
    return test


def config_sets(*keys: str, harmless: tuple[str, ...] = ()) -> Test:
    """A test: a `config set KEY VALUE` (any of the spellings) whose key is a package source or
    its checks, and whose value is not the usual registry or one of `harmless`."""
    def test(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        words = parsed.words
        at = next((i for i, w in enumerate(words) if w in ("set", "add", "--add", "-a")), -1)
        pairs = words[at + 1 :] if at != -1 else words[1:]
        if len(pairs) == 1 and "=" in pairs[0]:
            pairs = pairs[0].split("=", 1)
        if len(pairs) < 2:
            return ""
        key, value = pairs[0], pairs[1]
        lowered = key.lower()
        if not any(lowered == k or lowered.endswith(":" + k) or lowered.startswith(k + ".") for k in keys):
            return ""
        if value.lower() in harmless or ("://" in value and known_source(value)):
            return ""
        return f"{cmd.program} sets {key} to {value}: packages come from there from now on"
    return test
