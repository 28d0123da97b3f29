"""JSON decode/encode for the hot path without importing `json` (which imports `re`).

Uses CPython's `_json` C scanner and string encoder directly; falls back to `json` when the
accelerator is missing. Output is compact, UTF-8 safe (ASCII escapes) and key order is kept.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

_WHITESPACE = " \t\n\r"


def _reject_constant(name: str) -> object:
    raise ValueError(f"invalid JSON constant {name}")


class _Context:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_reject_constant)
    memo: dict[str, str] = {}


_scan: Callable[[str, int], tuple[Any, int]] | None
_encode_str: Callable[[str], str] | None
try:
    import _json

    _scan = _json.make_scanner(_Context())  # type: ignore[arg-type]  # duck-typed context
    _encode_str = _json.encode_basestring_ascii
except ImportError:  # pragma: no cover - every CPython ships _json
    _scan = None
    _encode_str = None


def loads(text: str) -> Any:
    """Decode one JSON document; raise ValueError on anything else (NaN included)."""
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text, parse_constant=_reject_constant)
    n = len(text)
    i = 0
    while i < n and text[i] in _WHITESPACE:
        i += 1
    try:
        value, end = _scan(text, i)
    except StopIteration as exc:
        raise ValueError(f"invalid JSON at character {exc.value}") from None
    while end < n and text[end] in _WHITESPACE:
        end += 1
    if end != n:
        raise ValueError(f"extra data after JSON at character {end}")
    return value


def _quote(s: str) -> str:
    if _encode_str is None:  # pragma: no cover
        import json

        return json.dumps(s)
    return _encode_str(s)


def dumps(value: Any) -> str:
    """Compact JSON for dict/list/str/int/float/bool/None (keys as given)."""
    parts: list[str] = []
    _emit(value, parts)
    return "".join(parts)


def _emit(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_quote(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("cannot encode NaN or infinity as JSON")
        out.append(float.__repr__(value))
    elif isinstance(value, dict):
        out.append("{")
        first = True
        for key, item in value.items():
            if not first:
                out.append(",")
            first = False
            out.append(_quote(key if isinstance(key, str) else str(key)))
            out.append(":")
            _emit(item, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _emit(item, out)
        out.append("]")
    else:
        raise TypeError(f"cannot encode {type(value).__name__} as JSON")
