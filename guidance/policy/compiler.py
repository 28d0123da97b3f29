"""Compile a project's policy files into the bundle (a plain JSON-ready dict).

The files are those the agents load (guidance.policy.sources): CLAUDE.md, .claude/CLAUDE.md,
CLAUDE.local.md, the files they import, the same files of subdirectories (scoped to their
directory) and Codex's AGENTS.md. The compiler is a list of named stages, like OPA's: each
stage reads and extends the state of one `Compilation`, and problems accumulate as
diagnostics naming file:line instead of stopping at the first one:

    read → parse → extract → scope → tag → checks → merge → shards → constitution → index → validate

`extract` walks each source's structure and reads its clauses into frames
(guidance.policy.extract, .frames, with the language in guidance.policy.lexicon); `checks`
resolves the frames into checks (guidance.policy.resolve) in the bundle's contract
(guidance.policy.checkform). Compiling never evaluates: the gates do that with the bundle.

`strict=True` raises the first error diagnostic as a `PolicyError` (the CLI's choice);
`strict=False` (the hook path) keeps every rule it could compile, so a typo in CLAUDE.md
never switches the built-in gates off. docs/policy-grammar.md documents the grammar.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cf_guidance import __version__, limits
from cf_guidance.errors import PolicyError
from cf_guidance.policy import grammar
from cf_guidance.policy.cache import compiler_identity
from cf_guidance.policy.checkform import to_check
from cf_guidance.policy.endorse import endorsements, unbanned, upkept_files
from cf_guidance.policy.explain import advisory_reason
from cf_guidance.policy.extract import BlockTokens, Unit, extract
from cf_guidance.policy.markdown import Block, Inline, parse
from cf_guidance.policy.sources import READ, UNUSABLE, Source, discover, empty_tree, load_bytes, prepare
from cf_guidance.policy.sources import CLAUDE as CLAUDE_KIND
from cf_guidance.policy.sources import IMPORT as IMPORT_KIND
from cf_guidance.policy.sources import LOCAL as LOCAL_KIND
from cf_guidance.policy.tree import POLICY_NAMES
from cf_guidance.policy.retriever import INTENTS, intent_scores, terms, tool_class

FORMAT = 1
SHARED = "CLAUDE.md"
LOCAL = "CLAUDE.local.md"
DEFAULT_PRIORITY = 50
CONSTITUTION_PRIORITY_BONUS = 100
MAX_CONSTITUTION_LINES = 60
MAX_RULE_CHARS = 2_000
#: Diagnostics kept per compile (a file of 20,000 duplicate bullets must not yield a huge bundle).
MAX_DIAGNOSTICS = 200

#: Heading words that put a section in the constitution (whole words, any case).
_CONSTITUTION_HEADING = re.compile(r"\b(safety|security|critical|non[- ]?negotiable|always|never)\b", re.IGNORECASE)
_SEVERITY = {"deny": 3, "ask": 2, "warn": 1}
_INTENT_DOMAIN = {"security": "security", "testing": "testing", "performance": "performance",
                  "architecture": "architecture", "debug": "debugging", "deployment": "deployment"}
_TOOL_ORDER = ("bash", "edit", "read", "task", "web", "mcp", "all")
_KIND_TOOL = {"command": "bash", "sequence": "bash", "write": "edit", "read": "read", "create": "edit", "stage": "bash",
              "message": "bash", "branch": "bash", "target": "bash", "arguments": "bash", "variable": "bash",
              "shape": "bash"}


@dataclass
class Rule:
    """A rule on its way to becoming a shard."""

    origin: str
    source: str  # "CLAUDE.md:12"
    section: tuple[str, ...]
    inline: Inline | None = None  # prose rules
    machine: grammar.MachineLine | None = None  # ```guidance rules
    in_constitution_section: bool = False
    text: str = ""
    masked: str = ""  # prose rules: the text with code spans masked and tags stripped
    rule_id: str = ""
    tags: grammar.Tags = field(default_factory=grammar.Tags)
    checks: list[dict[str, Any]] = field(default_factory=list)
    constitution: bool = False
    #: The directory the rule applies to ("" = the whole project): its file's scope.
    scope: str = ""
    #: prose rules: what the extractor read from the block
    unit: Unit | None = None


@dataclass
class Compilation:
    root: str
    sources: list[Source]
    #: Directory stamps of the walk that found the sources (guidance.policy.tree).
    tree: dict[str, Any] = field(default_factory=empty_tree)
    #: What discovery noted (level, where, message), reported by the read stage.
    notes: list[tuple[str, str, str]] = field(default_factory=list)
    diagnostics: list[dict[str, str]] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    settings: list[tuple[str, str, Any]] = field(default_factory=list)  # (origin, source, setting)
    shards: list[dict[str, Any]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    constitution: dict[str, Any] = field(default_factory=dict)
    settings_out: dict[str, Any] = field(default_factory=dict)
    retrieval: dict[str, Any] = field(default_factory=dict)
    bundle: dict[str, Any] = field(default_factory=dict)
    #: What the extractor read from each source's rule-bearing blocks, by source name (`compile --explain`).
    units: dict[str, list[Unit]] = field(default_factory=dict)
    #: Each source's block tokens, made by extraction and read again by the endorsement pass.
    tokens: dict[str, BlockTokens] = field(default_factory=dict)

    def report(self, level: str, source: str, message: str) -> None:
        self.diagnostics.append({"level": level, "source": source, "message": message})

    @property
    def errors(self) -> list[dict[str, str]]:
        return [d for d in self.diagnostics if d["level"] == "error"]


# --- stage: read ---------------------------------------------------------------------------


def stage_read(c: Compilation) -> None:
    """Decode every source to compile; report what cannot be (and what discovery noted)."""
    for level, where, message in c.notes:
        c.report(level, where, message)
    for source in c.sources:
        if source.status not in (READ, UNUSABLE):
            continue
        prepare(source)
        for level, message in source.problems:
            c.report(level, f"{source.name}:1", message)


def stage_scope(c: Compilation) -> None:
    """Rules of a subdirectory's files apply below that directory only (docs/policy-grammar.md, "Scope")."""
    scopes = {source.name: source.scope for source in c.sources if source.scope}
    if not scopes:
        return
    for rule in c.rules:
        rule.scope = scopes.get(rule.source.rpartition(":")[0], "")
    kept = []
    for origin, where, (key, value) in c.settings:
        scope = scopes.get(where.rpartition(":")[0], "")
        if not scope:
            kept.append((origin, where, (key, value)))
        elif key in ("protect_write", "protect_read"):
            kept.append((origin, where, (key, [grammar.scoped_glob(glob, scope) for glob in value])))
        else:
            c.report("warning", where, f"`{key.replace('_', ' ')}` in a subdirectory's file would apply to the whole "
                                       "project; it was ignored (move it to the root CLAUDE.md)")
    c.settings = kept


# --- stage: parse --------------------------------------------------------------------------


def stage_parse(c: Compilation) -> None:
    for source in c.sources:
        if source.text is None:
            continue
        source.blocks = parse(source.text)
        headings = [b for b in source.blocks if b.kind == "heading"]
        source.titled = bool(headings) and headings[0].level == 1 and sum(h.level == 1 for h in headings) == 1
        for block in source.blocks:
            if block.kind == "code" and block.unclosed:
                c.report("warning", f"{source.name}:{block.line}",
                         "code fence is never closed; the rest of the file is read as code (close it with ```)")


# --- stage: extract ------------------------------------------------------------------------


def _in_constitution(section: tuple[str, ...]) -> bool:
    return any(_CONSTITUTION_HEADING.search(title) for title in section)


def stage_extract(c: Compilation) -> None:
    for source in c.sources:
        if not source.blocks:
            continue
        tokens = c.tokens[source.name] = BlockTokens(source.blocks)
        units = c.units[source.name] = extract(source.name, source.blocks, source.scope, tokens)
        by_index = {unit.index: unit for unit in units}
        for index, block in enumerate(source.blocks):
            where = f"{source.name}:{block.line}"
            constitutional = _in_constitution(source.sections(block.section))
            unit = by_index.get(index)
            if unit is not None and unit.error:
                c.report("warning", where, f"could not read this block ({unit.error}); it stays advisory (a bug: please report it)")
            if unit is not None:
                masked, tags = grammar.extract_tags(block.inline.masked)
                cued = any(frame.modality and frame.cue and not any("a description" in n for n in frame.notes)
                           for _, frame in unit.frames)
                if not unit.specs and (block.kind == "html" or not (grammar.is_imperative(masked) or cued)):
                    continue  # descriptive text and comments for the file's editors are context (docs/policy-grammar.md)
                c.rules.append(Rule(source.origin, where, block.section, inline=block.inline,
                                    in_constitution_section=constitutional, masked=masked, tags=tags, unit=unit))
            elif block.kind == "code" and block.info == "guidance":
                _extract_machine(c, source, block, constitutional)


def _extract_machine(c: Compilation, source: Source, block: Block, constitutional: bool) -> None:
    for offset, line in enumerate(block.code.split("\n")):
        number = block.line + 1 + offset
        where = f"{source.name}:{number}"
        try:
            parsed = grammar.parse_guidance_line(line)
        except grammar.GrammarError as exc:
            c.report("error", where, f"invalid guidance rule: {exc}")
            continue
        if parsed is None:
            continue
        if parsed.setting is not None:
            c.settings.append((source.origin, where, parsed.setting))
            continue
        c.rules.append(Rule(source.origin, where, block.section, machine=parsed,
                            in_constitution_section=constitutional))


# --- stage: tag ----------------------------------------------------------------------------


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


def _auto_id(text: str, scope: str = "") -> str:
    """The id of a rule without one: from its text (and its scope, so the same sentence in two
    directories' files is two rules)."""
    basis = _normalise(text) if not scope else f"{scope}\0{_normalise(text)}"
    return "S-" + hashlib.sha256(basis.encode("utf-8")).hexdigest()[:10]


def stage_tag(c: Compilation) -> None:
    if len(c.rules) > limits.MAX_POLICY_RULES:
        first = c.rules[limits.MAX_POLICY_RULES]
        c.report("error", first.source,
                 f"more than {limits.MAX_POLICY_RULES} rules; the rest from here on were not compiled")
        del c.rules[limits.MAX_POLICY_RULES:]
    for rule in c.rules:
        if rule.inline is not None:  # masked text and tags were read in stage_extract
            rule.text = rule.inline.render(rule.masked)
            rule.rule_id = rule.tags.rule_id
        elif rule.machine is not None:
            reason = rule.machine.reason
            rule.text = f"{rule.machine.text} — {reason}" if reason else rule.machine.text
            rule.rule_id = rule.machine.rule_id
            _, rule.tags = grammar.extract_tags(rule.machine.reason)
        if len(rule.text) > MAX_RULE_CHARS:
            rule.text = rule.text[:MAX_RULE_CHARS].rstrip() + "…"
        if not rule.rule_id:
            basis = rule.text if rule.inline is not None else (rule.machine.text if rule.machine else rule.text)
            rule.rule_id = _auto_id(basis, rule.scope)
        # The constitution is shown at session start, for the whole project: scoped rules are not in it.
        rule.constitution = (rule.in_constitution_section or rule.tags.critical) and not rule.scope


# --- stage: checks -------------------------------------------------------------------------


def stage_checks(c: Compilation) -> None:
    for rule in c.rules:
        if rule.machine is not None:
            message = rule.machine.reason or rule.machine.text
            rule.checks = [dict(check, message=message) for check in rule.machine.checks]
        elif rule.unit is not None:
            name = rule.source.rsplit(":", 1)[0]
            rule.checks = [dict(to_check(spec), source=f"{name}:{spec.line}") for spec in rule.unit.specs]


# --- stage: merge --------------------------------------------------------------------------


def _strength(rule: Rule) -> tuple[int, int]:
    return (max((_SEVERITY[ch["verdict"]] for ch in rule.checks), default=0), len(rule.checks))


def _restated(previous: Rule, rule: Rule) -> bool:
    """The same rule written again in another file of the same origin and scope."""
    return (previous.origin == rule.origin and previous.scope == rule.scope and previous.text == rule.text
            and previous.source.rpartition(":")[0] != rule.source.rpartition(":")[0])


def stage_merge(c: Compilation) -> None:
    merged: dict[str, Rule] = {}
    for rule in c.rules:
        previous = merged.get(rule.rule_id)
        if previous is not None:
            if _restated(previous, rule):
                # CLAUDE.md and AGENTS.md often say the same thing: one rule, where it was read first.
                c.report("info", rule.source, f"the same rule as {previous.source}; kept once")
                continue
            if previous.origin == "shared" and rule.origin == "local":
                if previous.constitution:
                    # The anchor silently demoted such rules; here the always-on status sticks.
                    rule.constitution = True
                    if _strength(rule) < _strength(previous):
                        c.report("warning", rule.source,
                                 f"local rule {rule.rule_id} weakens constitution rule at {previous.source}; "
                                 "the local version is used (remove it from CLAUDE.local.md to restore)")
                c.report("info", rule.source, f"local rule {rule.rule_id} overrides {previous.source}")
            else:
                c.report("warning", rule.source,
                         f"duplicate rule id {rule.rule_id} (also at {previous.source}); the later one is used")
            del merged[rule.rule_id]  # re-insert so document order follows the winner
        merged[rule.rule_id] = rule
    c.rules = list(merged.values())

    settings: dict[str, Any] = {"level": "standard", "tools_allow": [], "tools_deny": [], "max_diff_lines": 300,
                                "allow_commands": [], "protect_write": [], "protect_read": []}
    rank = {level: i for i, level in enumerate(grammar.LEVELS)}
    level_source: tuple[str, str] = ("", "")
    for origin, where, (key, value) in c.settings:
        if key == "level":
            if origin == "local" and level_source[0] == "shared" and rank[value] < rank[settings["level"]]:
                c.report("warning", where, f"CLAUDE.local.md lowers the policy level from {settings['level']} to {value}")
            settings["level"] = value
            level_source = (origin, where)
        elif key == "max_diff_lines":
            settings["max_diff_lines"] = value
        else:
            for item in value:
                if item not in settings[key]:
                    settings[key].append(item)
    found = [e for source in c.sources if source.name in c.tokens
             for e in endorsements(source.blocks, source.name, c.tokens[source.name])]
    settings["endorsed_commands"] = unbanned(found, [check for rule in c.rules for check in rule.checks])
    settings["endorsed_files"] = _upkept_imports(c)
    for rule in c.rules:
        for check in rule.checks if not rule.scope else ():  # a scoped tool ban is the gate's (it knows the scope)
            if check["kind"] == "tool" and check["verdict"] == "deny" and check["pattern"] not in settings["tools_deny"]:
                settings["tools_deny"].append(check["pattern"])
    c.settings_out = settings


#: files loaded by name (CLAUDE.md, AGENTS.md, ...), lowercased: the user's, whatever imports them
_POLICY_FILE_NAMES = frozenset(name.lower() for name in POLICY_NAMES)


def _upkept_imports(c: Compilation) -> list[dict[str, str]]:
    """The imported files the policy tells the agent to keep up to date (policy/endorse.py), each
    once with the first line that says so: files named like a policy file (CLAUDE.md, AGENTS.md)
    and files that hold checks of their own are never among them (a change could drop a rule)."""
    holding = {rule.source.rsplit(":", 1)[0] for rule in c.rules if rule.checks}
    imports = [s for s in c.sources if s.kind == IMPORT_KIND and s.status == READ and s.path
               and os.path.basename(s.path).lower() not in _POLICY_FILE_NAMES and s.name not in holding]
    if not imports:
        return []
    names: dict[str, str] = {}
    basenames = [os.path.basename(s.path).lower() for s in imports]
    for source, base in zip(imports, basenames):
        names[os.path.relpath(source.path, c.root).lower()] = source.path
        if basenames.count(base) == 1:  # a file name two imports share names neither
            names.setdefault(base, source.path)
    out: dict[str, str] = {}
    for source in c.sources:
        if source.name in c.tokens:
            for path, line in upkept_files(source.blocks, source.name, c.tokens[source.name], names):
                out.setdefault(path, line)
    return [{"path": path, "source": line} for path, line in out.items()]


# --- stage: shards -------------------------------------------------------------------------


def _tools(rule: Rule) -> list[str]:
    wanted = set(rule.tags.tools)
    if not wanted:
        for check in rule.checks:
            if check["kind"] == "tool":
                wanted.add(tool_class(check["pattern"]) or "all")
            elif check.get("then_paths"):
                wanted.update(("edit", "bash"))  # edits by a file tool or a command
            else:
                wanted.add(_KIND_TOOL[check["kind"]])
    return [t for t in _TOOL_ORDER if t in wanted] or ["all"]


def stage_shards(c: Compilation) -> None:
    ordered = sorted(enumerate(c.rules), key=lambda pair: (-_priority(pair[1]), pair[0]))
    for _, rule in ordered:
        priority = _priority(rule)
        scores = intent_scores(rule.text) if not rule.tags.intents else {}
        intents = rule.tags.intents or [i for i in INTENTS if i in scores] or ["general"]
        domains = rule.tags.domains or sorted({_INTENT_DOMAIN[i] for i in intents if i in _INTENT_DOMAIN}) or ["general"]
        risk = rule.tags.risk or ("high" if any(ch["verdict"] == "deny" for ch in rule.checks) else "medium")
        check_ids = []
        for n, check in enumerate(rule.checks, start=1):
            check_id = f"{rule.rule_id}#{n}"
            check_ids.append(check_id)
            item = {"id": check_id, "rule": rule.rule_id, **check, "source": check.get("source") or rule.source}
            if rule.scope:
                item["scope"] = rule.scope
                if item["kind"] in ("write", "read", "create") and isinstance(item.get("pattern"), str):
                    item["pattern"] = grammar.scoped_glob(item["pattern"], rule.scope)
                if item.get("only"):
                    item["only"] = [grammar.scoped_glob(glob, rule.scope) for glob in item["only"]]
            c.checks.append(item)
        shard = {
            "id": rule.rule_id,
            "text": rule.text,
            "source": rule.source,
            "origin": rule.origin,
            "section": " > ".join(rule.section),
            "risk": risk,
            "priority": priority,
            "intents": intents,
            "domains": domains,
            "tools": _tools(rule),
            "constitution": rule.constitution,
            "enforcement": "enforced" if rule.checks else "advisory",
            "checks": check_ids,
        }
        if not rule.checks and rule.unit is not None:
            shard["why"] = advisory_reason(rule.unit)
        if rule.scope:
            shard["scope"] = rule.scope
        # what a rule says, not where it is: moving it (or promoting it to CLAUDE.md) keeps its hash
        said = [{k: v for k, v in check.items() if k != "source"} for check in rule.checks]
        basis = json.dumps([shard["text"], risk, priority, said], sort_keys=True, ensure_ascii=False)
        shard["hash"] = hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]
        c.shards.append(shard)


def _priority(rule: Rule) -> int:
    base = rule.tags.priority if rule.tags.priority is not None else DEFAULT_PRIORITY
    return base + (CONSTITUTION_PRIORITY_BONUS if rule.constitution else 0)


# --- stage: constitution -------------------------------------------------------------------


def _constitution_lines(source: Source) -> list[str]:
    if source.text is None or source.scope:
        return []
    lines = source.text.split("\n")
    # HTML blocks (comments for the file's editors) are not shown to the agent.
    hidden = {n for b in source.blocks if b.kind == "html" for n in range(b.line, b.end_line + 1)}
    headings = [b for b in source.blocks if b.kind == "heading"]
    out: list[str] = []
    covered_until = 0
    for i, heading in enumerate(headings):
        if heading.line <= covered_until or (source.titled and heading.level == 1):
            continue
        if not _CONSTITUTION_HEADING.search(heading.text):
            continue
        end = len(lines)
        for later in headings[i + 1:]:
            if later.level <= heading.level:
                end = later.line - 1
                break
        if out:
            out.append("")
        for number in range(heading.line, end + 1):
            line = lines[number - 1]
            if number in hidden or (not line.strip() and (not out or not out[-1].strip())):
                continue  # hidden, or a second blank line in a row
            out.append(line)
        while out and not out[-1].strip():
            out.pop()
        covered_until = end
    return out


def stage_constitution(c: Compilation) -> None:
    lines: list[str] = []
    for source in c.sources:
        lines.extend(_constitution_lines(source))
    outside = {r.rule_id for r in c.rules if r.constitution and not r.in_constitution_section}
    for shard in c.shards:
        if shard["id"] in outside:
            lines.append(f"- [{shard['id']}] {shard['text']}")
    if len(lines) > MAX_CONSTITUTION_LINES:
        hidden = len(lines) - MAX_CONSTITUTION_LINES + 1
        lines = lines[: MAX_CONSTITUTION_LINES - 1] + [f"… ({hidden} more lines in CLAUDE.md)"]
    text = "\n".join(lines)
    c.constitution = {
        "hash": hashlib.sha256(text.encode("utf-8")).hexdigest()[:16],
        "rules": [s["id"] for s in c.shards if s["constitution"]],
        "text": text,
    }


# --- stage: index --------------------------------------------------------------------------


def stage_index(c: Compilation) -> None:
    df: dict[str, int] = {}
    docs: dict[str, dict[str, Any]] = {}
    total = 0
    for shard in c.shards:
        tag_text = " ".join([*shard["intents"], *shard["domains"], *shard["tools"], shard["risk"]])
        # Commands and paths in backticks are a rule's most specific words: they count twice.
        code_text = " ".join(shard["text"].split("`")[1::2])
        words = terms(f"{shard['text']} {code_text} {shard['section']} {tag_text}")
        tf: dict[str, int] = {}
        for word in words:
            tf[word] = tf.get(word, 0) + 1
        for word in tf:
            df[word] = df.get(word, 0) + 1
        docs[shard["id"]] = {"len": len(words), "tf": tf}
        total += len(words)
    c.retrieval = {"avgdl": round(total / len(docs), 4) if docs else 0.0, "df": df, "docs": docs}


# --- stage: validate -----------------------------------------------------------------------


def bundle_key(sources: list[Source]) -> str:
    """sha256 over the compiler version and each source's name, presence, content hash, scope and status."""
    digest = hashlib.sha256(f"cf-guidance {__version__}\n".encode())
    for source in sources:
        digest.update(f"{source.name}\0{int(source.exists)}\0{source.sha256}\0{source.scope}\0{source.status}\n".encode())
    return digest.hexdigest()


def _capped(diagnostics: list[dict[str, str]]) -> list[dict[str, str]]:
    if len(diagnostics) <= MAX_DIAGNOSTICS:
        return diagnostics
    kept = diagnostics[: MAX_DIAGNOSTICS - 1]
    rest = diagnostics[MAX_DIAGNOSTICS - 1 :]
    worst = next((d for level in ("error", "warning") for d in rest if d["level"] == level), rest[0])
    summary = f"{len(rest)} more diagnostics not listed; the next {worst['level']} is: {worst['message']}"
    return [*kept, {"level": worst["level"], "source": worst["source"], "message": summary}]


def stage_validate(c: Compilation) -> None:
    c.bundle = {
        "format": FORMAT,
        "compiler": compiler_identity(),
        "key": bundle_key(c.sources),
        "root": c.root,
        "sources": [s.entry() for s in c.sources],
        "tree": c.tree,
        "settings": c.settings_out,
        "constitution": c.constitution,
        "shards": c.shards,
        "checks": c.checks,
        "retrieval": c.retrieval,
        "diagnostics": _capped(c.diagnostics),
    }
    from cf_guidance.policy.model import BundleModel

    BundleModel.model_validate(c.bundle)  # a failure here is a compiler bug, not user input


STAGES: tuple[tuple[str, Callable[[Compilation], None]], ...] = (
    ("read", stage_read),
    ("parse", stage_parse),
    ("extract", stage_extract),
    ("scope", stage_scope),
    ("tag", stage_tag),
    ("checks", stage_checks),
    ("merge", stage_merge),
    ("shards", stage_shards),
    ("constitution", stage_constitution),
    ("index", stage_index),
    ("validate", stage_validate),
)


def _run(c: Compilation, strict: bool) -> dict[str, Any]:
    for _, stage in STAGES:
        stage(c)
    if strict and c.errors:
        first = c.errors[0]
        raise PolicyError(f"{first['source']}: {first['message']}")
    return c.bundle


def compile_sources(
    shared_text: str | bytes | None,
    local_text: str | bytes | None = None,
    *,
    root: str = "",
    strict: bool = False,
    shared_name: str = SHARED,
    local_name: str = LOCAL,
) -> dict[str, Any]:
    """Compile policy texts (None = file absent) into a bundle dict; see the module docstring."""
    shared = Source(shared_name, "shared", kind=CLAUDE_KIND)
    local = Source(local_name, "local", kind=LOCAL_KIND)
    load_bytes(shared, shared_text)
    load_bytes(local, local_text)
    return _run(Compilation(root, [shared, local]), strict)


def compile_project(
    project_dir: str | os.PathLike[str], *, strict: bool = False, shared_text: str | bytes | None = None
) -> dict[str, Any]:
    """Compile the policy files of `project_dir` that the agents load (any may be missing):
    see guidance.policy.sources for which, and docs/policy-grammar.md, "Sources".

    `shared_text` stands in for the root CLAUDE.md (a candidate policy, `cf-guidance replay
    --candidate`); every other file is read as the project has it."""
    return compilation_of(project_dir, strict=strict, shared_text=shared_text).bundle


def compilation_of(
    project_dir: str | os.PathLike[str], *, strict: bool = False, shared_text: str | bytes | None = None
) -> Compilation:
    """`compile_project`'s whole state: the bundle and what the extractor read (`units`), for
    `cf-guidance compile --explain` and the review list."""
    root = os.path.abspath(os.fspath(project_dir))
    found = discover(root)
    if shared_text is not None:
        root_claude = next(s for s in found.sources if s.name == SHARED and not s.scope and not s.imported_by)
        load_bytes(root_claude, shared_text)
        root_claude.status, root_claude.error, root_claude.note = READ, "", ""
        root_claude.decoded, root_claude.text, root_claude.problems, root_claude.blocks = False, None, [], []
    c = Compilation(root, found.sources, tree=found.tree, notes=found.notes)
    _run(c, strict)
    return c
