"""A scripted stand-in for the Anthropic Messages API, for deterministic end-to-end runs.

See docs/model-server.md. `ModelServer(script)` serves it on 127.0.0.1.
"""

from __future__ import annotations

from cf_guidance.modelserver.script import Script, ToolUse, Turn, load_script
from cf_guidance.modelserver.server import LoggedRequest, ModelServer, ToolResult

__all__ = ["LoggedRequest", "ModelServer", "Script", "ToolResult", "ToolUse", "Turn", "load_script"]
