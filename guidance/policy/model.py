"""pydantic models of the compiled bundle (contract: docs/policy-grammar.md, "The bundle").

Used by the compiler's last stage to validate what it produced and by `--json` consumers.
The hot path never imports this module: it reads the bundle as a plain dict.
Unknown top-level keys are allowed (additive changes to the contract are allowed).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Level = Literal["standard", "strict", "paranoid"]
Risk = Literal["critical", "high", "medium", "low"]
Verdict = Literal["deny", "warn", "ask"]
Tool = Literal["bash", "edit", "read", "task", "web", "mcp", "all"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SourceModel(_Strict):
    name: str
    path: str
    exists: bool
    size: int = Field(ge=0)
    mtime_ns: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    kind: Literal["claude", "local", "agents", "import"] = "claude"
    origin: Literal["shared", "local"] = "shared"
    scope: str = ""
    status: Literal["read", "absent", "duplicate", "reference", "skipped", "unusable"] = "read"
    imported_by: str = ""
    note: str = ""


class TreeModel(_Strict):
    dirs: dict[str, tuple[int, str]]
    files: dict[str, tuple[int, int]]
    ignore: list[str]


class SettingsModel(_Strict):
    level: Level = "standard"
    tools_allow: list[str] = []
    tools_deny: list[str] = []
    max_diff_lines: int = Field(default=300, gt=0)
    allow_commands: list[list[str]] = []
    protect_write: list[str] = []
    protect_read: list[str] = []


class ConstitutionModel(_Strict):
    hash: str = Field(pattern=r"^[0-9a-f]{16}$")
    rules: list[str]
    text: str


class ShardModel(_Strict):
    id: str = Field(min_length=1)
    text: str
    source: str
    origin: Literal["shared", "local"]
    section: str
    risk: Risk
    priority: int
    intents: list[str]
    domains: list[str]
    tools: list[Tool]
    constitution: bool
    enforcement: Literal["enforced", "advisory"]
    checks: list[str]
    hash: str = Field(pattern=r"^[0-9a-f]{16}$")
    #: the directory the rule applies to (its file is in a subdirectory); absent = the whole project
    scope: str = Field(default="", min_length=1)


class CheckModel(_Strict):
    id: str
    rule: str
    kind: Literal["command", "write", "read", "sequence", "tool"]
    verdict: Verdict
    pattern: list[str] | str | None = None
    before: list[str] | None = None
    then: list[str] | None = None
    message: str
    source: str
    #: the directory the check applies to (docs/policy-grammar.md, "Scope"); absent = everywhere
    scope: str = Field(default="", min_length=1)


class DocModel(_Strict):
    len: int = Field(ge=0)
    tf: dict[str, int]


class RetrievalModel(_Strict):
    avgdl: float = Field(ge=0)
    df: dict[str, int]
    docs: dict[str, DocModel]


class DiagnosticModel(_Strict):
    level: Literal["error", "warning", "info"]
    source: str
    message: str


class BundleModel(BaseModel):
    model_config = ConfigDict(extra="allow")

    format: Literal[1]
    compiler: str
    key: str = Field(pattern=r"^[0-9a-f]{64}$")
    root: str
    sources: list[SourceModel]
    tree: TreeModel
    settings: SettingsModel
    constitution: ConstitutionModel
    shards: list[ShardModel]
    checks: list[CheckModel]
    retrieval: RetrievalModel
    diagnostics: list[DiagnosticModel]
