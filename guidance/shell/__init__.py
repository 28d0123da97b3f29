"""Shell analysis: the commands a Bash tool call will actually run.

Entry point: `analyze(command) -> ShellAnalysis` (implemented in `guidance.shell.analysis`).
"""

from __future__ import annotations

from guidance.shell.model import Command, ShellAnalysis, program_name

__all__ = ["Command", "ShellAnalysis", "analyze", "program_name"]


def analyze(command: str) -> ShellAnalysis:
    from guidance.shell.analysis import analyze as _analyze

    return _analyze(command)
