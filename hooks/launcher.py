"""The file the wired hook command runs: `<venv python> -S <this file> <command>`.

`-S` skips `site`, whose `.pth` processing (an editable install's finder imports pathlib
and re) costs more than the hook itself. So this file puts the directory holding the
`guidance` package on `sys.path` itself, for both layouts:

- installed: ``<site-packages>/guidance/hooks/launcher.py`` -> put ``<site-packages>`` first;
- source tree (editable install, a clone): ``<repo>/hooks/`` beside ``<repo>/guidance/`` ->
  put ``<repo>`` first and add ``<repo>`` to ``guidance.__path__`` so that
  ``guidance.hooks`` resolves to ``<repo>/hooks`` as `package-dir` maps it.

Then `guidance.hooks.hookd.launch` answers: through the project's warm hook server when one
is listening, else in-process (guidance.hooks.dispatch). Slow paths that need third-party
packages (a cache miss compiles CLAUDE.md with markdown-it and pydantic) call `site.main()`
first (guidance.policy.cache).
"""

import os
import sys


def _bootstrap() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    parent = os.path.dirname(here)
    source_tree = os.path.isfile(os.path.join(parent, "guidance", "__init__.py"))
    root = parent if source_tree else os.path.dirname(parent)
    # sys.path[0] is this file's directory: replace it, so hooks/*.py never shadow stdlib names.
    sys.path[0] = root
    import guidance

    if source_tree and parent not in guidance.__path__:
        guidance.__path__.append(parent)


if __name__ == "__main__":
    _bootstrap()
    hookd = __import__("guidance.hooks.hookd", fromlist=["launch"])
    sys.exit(hookd.launch())
