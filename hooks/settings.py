"""The environment variables that steer a hook call, read in one place.

Hot path module: no imports. Used by the in-process path (dispatch) and by the warm-server
client (hookd), which must not import dispatch before it knows it needs it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

FAIL_CLOSED_ENV = "GUIDANCE_EVENT_FAIL_CLOSED"
TIMEOUT_ENV = "GUIDANCE_EVENT_SYNC_TIMEOUT_MS"
HOOKD_ENV = "GUIDANCE_HOOKD"
#: A cold compile (cache miss: site, markdown-it, pydantic, the compiler) takes about 0.5 s on
#: an idle 2-core machine and up to 7.8 s at load average 10 (docs/hooks.md, "Choosing the
#: deadline"); 12 s leaves half as much again. installer.wiring.TIMEOUT_S, the client's own
#: timeout, stays above twice this (a wedged warm server, then the in-process fallback).
DEFAULT_TIMEOUT_MS = 12000

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def fail_closed(environ: Mapping[str, str]) -> bool:
    return environ.get(FAIL_CLOSED_ENV, "").strip().lower() in _TRUE


def hookd_enabled(environ: Mapping[str, str]) -> bool:
    return environ.get(HOOKD_ENV, "").strip().lower() not in _FALSE


def timeout_ms(environ: Mapping[str, str]) -> tuple[int, str]:
    """Our own deadline in ms (0: none), and a one-line problem when the setting is invalid."""
    text = environ.get(TIMEOUT_ENV, "")
    if not text:
        return DEFAULT_TIMEOUT_MS, ""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        return DEFAULT_TIMEOUT_MS, f"{TIMEOUT_ENV}={text!r} is not a number of milliseconds; using {DEFAULT_TIMEOUT_MS}"
    return value, ""
