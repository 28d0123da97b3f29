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
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


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


class EndorsedModel(_Strict):
    """A command an instruction of the policy prescribes ("Run `gh workflow run` ..."): policy/endorse.py."""

    words: list[str] = Field(min_length=2)
    source: str


class EndorsedFileModel(_Strict):
    """An imported file the policy tells the agent to keep up to date ("Keep `docs/OVERVIEW.md` current"): policy/endorse.py."""

    path: str = Field(min_length=1)
    source: str


class SettingsModel(_Strict):
    level: Level = "standard"
    tools_allow: list[str] = []
    tools_deny: list[str] = []
    max_diff_lines: int = Field(default=300, gt=0)
    allow_commands: list[list[str]] = []
    protect_write: list[str] = []
    protect_read: list[str] = []
    endorsed_commands: list[EndorsedModel] = []
    endorsed_files: list[EndorsedFileModel] = []


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
    #: advisory prose rules: why no check was derived (what `cf-guidance compile` shows)
    why: str = Field(default="", min_length=1)


class CheckModel(_Strict):
    id: str
    rule: str
    kind: Literal["command", "write", "read", "sequence", "tool", "create", "stage", "message", "branch", "target",
                  "arguments", "variable", "shape"]
    verdict: Verdict
    pattern: list[str] | str | None = None
    before: list[str] | None = None
    then: list[str] | None = None
    message: str
    source: str
    #: the directory the check applies to (docs/policy-grammar.md, "Scope"); absent = everywhere
    scope: str = Field(default="", min_length=1)
    #: command, message, arguments: positional words are the command's leading ones (`bun test` is not `bun bd test`)
    anchor: bool | None = None
    #: other command patterns the check also covers (equivalents, a category's members, message carriers)
    also: list[list[str]] | None = None
    #: options that take the next word as their value (not a positional word)
    values: list[str] | None = None
    #: commands (leading NAME=value words are required assignments) the check does not apply to
    except_: list[list[str]] | None = Field(default=None, alias="except")
    #: command: applies only when the command runs under this wrapper (or the tool call sets it): "timeout"
    wrapped: Literal["timeout"] | None = None
    #: command: applies only when the command runs below the project root (after a `cd` into a subdirectory)
    away: bool | None = None
    #: command: applies only to the commands the effect model counts as changes ("`aws` commands that modify state")
    changes: bool | None = None
    #: command: wrappers (`uv` of `uv run pytest`) under which the check does not apply (the document runs it so)
    via: list[str] | None = None
    #: command: a rewrite of published commits: held after a `git push` of the session with no commit since, warned before
    published: bool | None = None
    #: command: NAME=value words of which the command must carry one (`HUSKY=0 git commit`); a value `*` is any
    assigned: list[str] | None = None
    #: sequence: any of these also satisfies the rule; the gated command's target branch
    before_any: list[list[str]] | None = None
    target: str | None = None
    #: target (merge): only a merge of one of these branches (globs; `upstream/*`) into the target
    merged: list[str] | None = None
    #: sequence: `before` must run after the last change of these files (globs; `**`: any file) and
    #: before `then`, instead of before every `then`
    edits: list[str] | None = None
    #: sequence: the step is a read or an edit of one of `paths` (globs) rather than the command `before`
    step: Literal["read", "edit"] | None = None
    paths: list[str] | None = None
    #: sequence: the gated action is an edit of one of these files (`**`: any) rather than the command `then`
    then_paths: list[str] | None = None
    #: arguments: each inner list is one required option and its spellings
    requires: list[list[str]] | None = None
    #: message: phrases the message text must not hold (lowercase); with `absent`, one it must hold
    phrases: list[str] | None = None
    absent: bool | None = None
    #: shape: what of the message the command writes is checked: its subject's beginning (one of
    #: `starts`; `*` is one word), its subject's length (at most `max` characters), a period
    #: ending its subject, emoji in it, or a first verb in the past tense ("mood": "Added", not "Add")
    #: or no issue reference in it ("reference": `#123`, `PROJ-12`, a link to an issue)
    #: "dash": one of the characters `starts` lists is in it; "unstarts": its subject begins with one of `starts`
    form: Literal["starts", "length", "period", "emoji", "mood", "reference", "dash", "unstarts"] | None = None
    #: shape: "body": the emoji and reference forms judge the body a PR, issue or comment gets too, not only its title
    part: Literal["body"] | None = None
    starts: list[str] | None = None
    max: int | None = Field(default=None, gt=0)
    #: target: the action gated on branch `pattern` (push, commit, merge)
    action: Literal["push", "commit", "merge"] | None = None
    #: the category of commands the check stands for (build, lint, ...)
    category: str | None = None
    #: write, create: the paths the check spares: those a rule confines changes to ("only edit files
    #: in `src/`", pattern `**`: any other path of the project), or the files the text names beside
    #: a ban on "other" ones ("do not touch other `.properties` files")
    only: list[str] | None = None
    #: how sure the extractor was (1.0 = a backticked object of a known verb)
    confidence: float | None = Field(default=None, ge=0, le=1)


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
