"""The build backend: setuptools' own, with one informational warning of editable installs muted.

setuptools warns on every editable install whose packages are mapped from folders of other names
(pyproject `package-dir`: guidance/ -> cf_guidance) "Please be careful with folders in your working
directory with the same name as your package": such an install is an import finder, which a
`cf_guidance/` folder in the working directory would shadow. This repository has none, so the
warning is noise on every contributor's install (pip >= 24 prints backend warnings). Everything
else is setuptools' (PEP 517 hooks re-exported unchanged); only that one message is muted.
"""

from __future__ import annotations

import warnings
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the PEP 517 and 660 hooks, unchanged)


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"(?s).*same\s+name\s+as\s+your\s+package")
        return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
