"""The file the wired hook command runs: `<venv python> -S <this file> <command>`.

`-S` skips `site`, whose `.pth` processing (an editable install's finder imports pathlib
and re) costs more than the hook itself. So this file makes the `cf_guidance` package
importable itself, for both layouts:

- installed: ``<site-packages>/cf_guidance/hooks/launcher.py`` -> put ``<site-packages>`` first;
- source tree (editable install, a clone): ``<repo>/hooks/`` beside ``<repo>/guidance/`` ->
  load ``<repo>/guidance`` as ``cf_guidance`` with ``<repo>`` also on its ``__path__``, so
  that ``cf_guidance.hooks`` resolves to ``<repo>/hooks`` as `package-dir` maps it.

Then `cf_guidance.hooks.hookd.launch` answers: through the project's warm hook server when one
is listening, else in-process (cf_guidance.hooks.dispatch). Slow paths that need third-party
packages (a cache miss compiles CLAUDE.md with markdown-it and pydantic) call `site.main()`
first (cf_guidance.policy.cache).
"""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _bootstrap() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    parent = os.path.dirname(here)
    package = os.path.join(parent, "guidance")
    # sys.path[0] is this file's directory: replace it, so hooks/*.py never shadow stdlib names.
    if not os.path.isfile(os.path.join(package, "__init__.py")):
        sys.path[0] = os.path.dirname(parent)
        return
    del sys.path[0]
    # CPython's import system is already loaded (frozen); importlib.util would cost ~5 ms more.
    machinery: Any = sys.modules.get("_frozen_importlib_external")
    bootstrap: Any = sys.modules.get("_frozen_importlib")
    if machinery is None or bootstrap is None:
        import importlib.util as machinery
        bootstrap = machinery
    spec = machinery.spec_from_file_location("cf_guidance", os.path.join(package, "__init__.py"),
                                             submodule_search_locations=[package, parent])
    module = bootstrap.module_from_spec(spec)
    sys.modules["cf_guidance"] = module
    spec.loader.exec_module(module)


if __name__ == "__main__":
    _bootstrap()
    hookd = __import__("cf_guidance.hooks.hookd", fromlist=["launch"])
    sys.exit(hookd.launch())
