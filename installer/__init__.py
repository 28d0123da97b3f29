"""Installer (installed as cf_guidance.installer): wire cf-guidance's hooks into a repository.

    from cf_guidance.installer import install, verify, uninstall
    report = install("/path/to/repo", agent="claude")   # also verifies; report.ok, report.text()
"""

from __future__ import annotations

from .install import install, uninstall
from .report import Check, FileChange, InstallReport, VerifyReport
from .verify import verify

__all__ = ["Check", "FileChange", "InstallReport", "VerifyReport", "install", "uninstall", "verify"]
