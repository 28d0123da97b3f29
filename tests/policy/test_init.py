"""The public surface of cf_guidance.policy: sorted, complete, lazy."""

from __future__ import annotations

import importlib

import pytest

import cf_guidance.policy as policy


def test_all_is_sorted_and_resolves() -> None:
    assert policy.__all__ == sorted(policy.__all__)
    for name in policy.__all__:
        module = importlib.import_module(policy._PUBLIC[name])
        assert getattr(policy, name) is getattr(module, name)


def test_unknown_name() -> None:
    with pytest.raises(AttributeError):
        policy.nothing_here  # noqa: B018
