from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cf_guidance import _fastjson

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_round_trip_matches_stdlib(value: object) -> None:
    encoded = _fastjson.dumps(value)
    assert json.loads(encoded) == value
    assert _fastjson.loads(encoded) == value
    assert _fastjson.loads(json.dumps(value, indent=2)) == value


@pytest.mark.parametrize(
    "text",
    ["", "   ", "{", '{"a": 1} x', "[1,]", "NaN", '{"a": Infinity}', "'single'", "{'a': 1}", '"\\x"'],
)
def test_rejects_invalid_json(text: str) -> None:
    with pytest.raises(ValueError):
        _fastjson.loads(text)


def test_rejects_unencodable() -> None:
    with pytest.raises(ValueError):
        _fastjson.dumps(float("nan"))
    with pytest.raises(TypeError):
        _fastjson.dumps(object())


def test_output_is_ascii() -> None:
    assert _fastjson.dumps({"k": "é\u2028"}) == '{"k":"\\u00e9\\u2028"}'
