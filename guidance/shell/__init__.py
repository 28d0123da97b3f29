"""Shell analysis: the commands a Bash tool call will actually run.

Entry point: `analyze(command) -> ShellAnalysis` (implemented in `guidance.shell.analysis`).
"""

from __future__ import annotations

from cf_guidance.shell.model import Command, ShellAnalysis, program_name

__all__ = ["Command", "ShellAnalysis", "analyze", "program_name"]


TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

#: The analyser, imported on first use (importing the model must stay cheap) and kept: an
#: import statement on every call costs about 1 µs of a ~35 µs analysis.
_analyzer: Callable[[str], ShellAnalysis] | None = None


def analyze(command: str) -> ShellAnalysis:
    global _analyzer
    if _analyzer is None:
        from cf_guidance.shell.analysis import analyze as implementation

        _analyzer = implementation
    return _analyzer(command)
