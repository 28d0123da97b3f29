"""Effects of the Python package tools: pip, uv, uvx, pipx, poetry, twine (and `python -m pip`)."""

from __future__ import annotations

from cf_guidance.decision import ASK
from cf_guidance.gates.commands.effects import CHANGE, LOCAL, SUPPLY, Entry, Parsed, Table
from cf_guidance.gates.commands.effects.packages import config_sets, indexes, specs_from
from cf_guidance.gates.commands.effects.sources import known_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.shell.model import Command, ShellAnalysis

    Test = Callable[[Parsed, Command, ShellAnalysis | None], str]


_PIP_OPTIONS = ("-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url", "-f",
                "--find-links", "--trusted-host", "-t", "--target", "--prefix", "--root", "--platform", "--python-version", "--src",
                "--proxy", "--cert", "--client-cert", "--log", "--timeout", "--retries", "--upgrade-strategy", "--index",
                "--default-index", "-p", "--python", "--with", "--from", "--directory", "--project", "--package", "--group", "--extra",
                "--optional", "--tag", "--branch", "--rev", "--allow-insecure-host", "--spec", "--pip-args", "--source", "-s",
                "--repository", "-r")
_PIP_INDEX_OPTIONS = ("-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--index", "--default-index")
_PIP_SOURCE_KEYS = ("global.index-url", "global.extra-index-url", "global.trusted-host", "global.find-links", "install.index-url",
                    "install.extra-index-url", "install.trusted-host", "install.find-links")

_PIP = Table(
    ("pip", "pip3"),
    (
        Entry("install|download|wheel", SUPPLY, "SUP001", test=specs_from(1, values=("-e", "--editable")), verdict=ASK,
              block=("pip install http://203.0.113.7/pkg-1.0.tar.gz", "pip install git+https://github.com/someone/helper.git",
                     "pip install -e git+https://github.com/someone/x.git#egg=x", "pip install 'pkg @ https://example.com/pkg.whl'",
                     "python -m pip install git+https://github.com/someone/helper.git"),
              allow=("pip install requests", "pip install -r requirements.txt", "pip install -e .", "pip install ./dist/app-1.0-py3-none-any.whl")),
        Entry("install|download|wheel", SUPPLY, "SUP002", test=indexes(*_PIP_INDEX_OPTIONS, always=("--trusted-host",)), verdict=ASK,
              block=("pip install --index-url http://pypi.example.net/simple requests", "pip install --extra-index-url https://pkgs.example.io/simple acme-utils",
                     "pip install -i https://test.pypi.org/simple/ helper", "pip install --trusted-host pypi.example.net x"),
              allow=("pip install --index-url https://download.pytorch.org/whl/cpu torch", "pip install -i https://pypi.org/simple requests")),
        Entry("config", SUPPLY, "SUP003", test=config_sets(*_PIP_SOURCE_KEYS), verdict=ASK,
              block=("pip config set global.index-url https://mirror.example.net/simple", "pip config set global.trusted-host mirror.example.net"),
              allow=("pip config list", "pip config set global.index-url https://pypi.org/simple", "pip config set global.timeout 60")),
        Entry("", LOCAL, allow=("pip list", "pip freeze > requirements.txt", "pip show requests", "pip uninstall -y requests")),
    ),
    options=_PIP_OPTIONS,
)

_UV = Table(
    ("uv", "uvx", "pipx"),
    (
        Entry("pip install|sync|compile", SUPPLY, "SUP001", test=specs_from(2, values=("-e", "--editable")), verdict=ASK,
              block=("uv pip install git+https://github.com/someone/helper",), allow=("uv pip install -r requirements.txt",)),
        Entry("pip install|sync|compile", SUPPLY, "SUP002", test=indexes(*_PIP_INDEX_OPTIONS, always=("--allow-insecure-host", "--trusted-host")),
              verdict=ASK, block=("uv pip install --extra-index-url https://pkgs.example.io/simple acme-utils",),
              allow=("uv pip install --index-url https://download.pytorch.org/whl/cu121 torch",)),
        Entry("add|install|run|tool", SUPPLY, "SUP001", test=specs_from(1, values=("--with", "--from", "--spec")), verdict=ASK,
              block=("uv add git+https://github.com/someone/helper", "uv tool install git+https://github.com/someone/tool",
                     "pipx install git+https://github.com/someone/tool.git", "uv add https://example.com/pkg-1.0.tar.gz"),
              allow=("uv add httpx", "uv tool install ruff", "pipx install poetry", "uv add --dev pytest")),
        Entry("add|install|run|tool|sync|lock", SUPPLY, "SUP002", test=indexes(*_PIP_INDEX_OPTIONS, always=("--allow-insecure-host",)),
              verdict=ASK, block=("uv add --index https://pkgs.example.io/simple acme-utils", "uv sync --extra-index-url http://10.0.0.2/simple"),
              allow=("uv sync", "uv lock --upgrade")),
        Entry("", LOCAL, allow=("uv run pytest -q", "uv venv", "uv pip list", "uvx ruff check .", "pipx list")),
    ),
    options=_PIP_OPTIONS,
    instead="build with `uv build` and let the user publish"
)

_POETRY = Table(
    ("poetry",),
    (
        Entry("add", SUPPLY, "SUP001", test=specs_from(1), verdict=ASK,
              block=("poetry add git+https://github.com/someone/helper.git", "poetry add https://example.com/x-1.0-py3-none-any.whl"),
              allow=("poetry add requests", "poetry add --group dev pytest")),
        Entry("source", SUPPLY, "SUP003", "poetry source add makes packages come from another index",
              test=lambda parsed, cmd, analysis: "=" if parsed.words[1:2] == ["add"] and not all(known_source(w) for w in parsed.words[3:4]) else "",
              verdict=ASK, block=("poetry source add --priority=primary mirror https://pkgs.example.io/simple",),
              allow=("poetry source show",)),
        Entry("config", SUPPLY, "SUP003", test=config_sets("repositories", "certificates"), verdict=ASK,
              block=("poetry config repositories.mirror https://pkgs.example.io/simple",), allow=("poetry config virtualenvs.in-project true",)),
        Entry("publish", CHANGE, "EFF001", "poetry publish uploads the package to the index", unless=("--dry-run",),
              block=("poetry publish --build",), allow=("poetry build",)),
        Entry("", LOCAL, allow=("poetry install", "poetry lock", "poetry run pytest", "poetry show --tree")),
    ),
    options=("-G", "--group", "-E", "--extras", "--source", "--priority", "-r", "--repository", "-u", "--username", "-p", "--password",
             "-C", "--directory", "-P", "--project"),
    instead="build with `poetry build` and let the user publish"
)

_TWINE = Table(
    ("twine",),
    (
        Entry("upload", CHANGE, "EFF001", "twine upload publishes the package to the index",
              block=("twine upload dist/*",), allow=("twine check dist/*",)),
    ),
    options=("-r", "--repository", "--repository-url", "-u", "--username", "-p", "--password", "-c", "--comment", "--config-file"),
    instead="upload to TestPyPI (`--repository testpypi`) or let the user publish"
)


TABLES = (_PIP, _UV, _POETRY, _TWINE)
