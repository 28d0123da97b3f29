"""The installation the hook runs from, and the package-manager commands that remove it."""

from __future__ import annotations

import os
import sys

import pytest

import cf_guidance
from cf_guidance.gates.commands.installation import installation, uninstalls
from cf_guidance.shell import analyze


def test_found_from_this_process() -> None:
    found = installation()
    package = os.path.dirname(os.path.abspath(cf_guidance.__file__))
    assert package in found.removal
    if sys.prefix != sys.base_prefix:
        assert sys.prefix in found.removal and sys.prefix in found.guarded
    assert found.removed_by(os.path.dirname(package)) == package  # a directory above it
    assert found.removed_by("/srv/elsewhere") == ""


def test_a_source_checkout_may_be_edited_but_not_removed() -> None:
    found = installation()
    package = os.path.dirname(os.path.abspath(cf_guidance.__file__))
    if os.path.basename(package) != "guidance":
        pytest.skip("installed layout: the package is not a source checkout")
    assert found.written_by(os.path.join(package, "engine.py")) == ""
    assert found.removed_by(package) == package


REMOVES = [
    "pip uninstall -y cf-guidance",
    "pip3 uninstall cf_guidance",
    "pip3.12 uninstall -y CF-Guidance",
    "python3 -m pip uninstall -y cf-guidance",
    "uv pip uninstall cf-guidance",
    "uv tool uninstall cf-guidance",
    "uv remove cf-guidance",
    "pipx uninstall cf-guidance",
    "pipx uninstall-all",
    "pipx reinstall cf-guidance",
    "poetry remove cf-guidance",
    "conda remove cf-guidance",
    "pip install cf-guidance==0.0.1",
    "pip install --force-reinstall cf-guidance",
    "pip freeze | xargs pip uninstall -y",
    "pip uninstall -y -r requirements.txt",
]
KEEPS = [
    "pip install -r requirements.txt",
    "pip install -e .",
    "pip uninstall -y requests",
    "pipx uninstall black",
    "uv tool uninstall ruff",
    "uv remove httpx",
    "pip list",
    "pip show cf-guidance",
    "python3 -m pip install --upgrade pip",
]


def _args(command: str) -> tuple[str, list[str]]:
    cmd = analyze(command).commands[-1]
    return cmd.program, cmd.args


@pytest.mark.parametrize("command", REMOVES)
def test_removes(command: str) -> None:
    assert uninstalls(*_args(command))


@pytest.mark.parametrize("command", KEEPS)
def test_keeps(command: str) -> None:
    assert uninstalls(*_args(command)) == ""
