"""What init, verify and uninstall report (pydantic: printed as text or JSON by the CLI)."""

from __future__ import annotations

from pydantic import BaseModel, Field

#: A check whose failure means the guard does not protect the repository.
ERROR = "error"
#: A check whose failure the user should act on, but the hooks still run (or cannot be checked here).
WARNING = "warning"


class FileChange(BaseModel):
    path: str
    action: str  # "created" | "updated" | "unchanged" | "removed" | "kept"
    backup: str | None = None
    detail: str = ""


class Check(BaseModel):
    name: str
    ok: bool
    detail: str = ""
    level: str = ERROR


class VerifyReport(BaseModel):
    target: str
    agents: list[str]
    checks: list[Check] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks if check.level == ERROR)

    def add(self, name: str, ok: bool, detail: str = "", level: str = ERROR) -> bool:
        self.checks.append(Check(name=name, ok=ok, detail=detail, level=level))
        return ok

    def text(self) -> str:
        lines = []
        for check in self.checks:
            mark = "ok  " if check.ok else ("FAIL" if check.level == ERROR else "warn")
            lines.append(f"{mark} {check.name}" + (f": {check.detail}" if check.detail else ""))
        warnings = sum(1 for check in self.checks if not check.ok and check.level == WARNING)
        status = "all checks passed" if self.ok else "FAILED"
        lines.append("verify: " + status + (f" ({warnings} warning(s) to act on)" if warnings else ""))
        return "\n".join(lines)


#: What each scope's wiring means for the user, said after init.
_SCOPE_LINES = {
    "project": "scope project: commit .claude/settings.json (and .codex/hooks.json, .gitignore); every clone runs "
               "cf-guidance-hook from PATH or ~/.local/bin",
    "local": "scope local: .claude/settings.local.json names this machine's installation and stays out of git",
    "user": "scope user: your own settings name this machine's installation; every project you open is guarded",
}


class InstallReport(BaseModel):
    target: str
    agents: list[str]
    state_dir: str
    scope: str = "project"
    #: What a pre-tool hook answers when the installation is missing or broken: "deny" or "warn".
    if_missing: str = "deny"
    dry_run: bool = False
    changes: list[FileChange] = Field(default_factory=list)
    diff: str = ""
    notes: list[str] = Field(default_factory=list)
    verify: VerifyReport | None = None

    @property
    def ok(self) -> bool:
        return self.verify is None or self.verify.ok

    def text(self) -> str:
        if self.dry_run:
            head = [f"dry run: nothing written in {self.target}"]
            return "\n".join(head + [self.diff.rstrip() or "(no changes)"] + self.notes)
        lines = [f"{change.action:<9} {change.path}" + (f"  (backup: {change.backup})" if change.backup else "")
                 + (f"  {change.detail}" if change.detail else "") for change in self.changes]
        lines.append(_SCOPE_LINES.get(self.scope, "") + f"; where cf-guidance is missing or broken, pre-tool hooks {self.if_missing}")
        lines += self.notes
        if self.verify is not None:
            lines.append(self.verify.text())
        return "\n".join(lines)
