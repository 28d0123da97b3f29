"""Compile CLAUDE.md + CLAUDE.local.md into the policy bundle (a plain JSON-ready dict).

The compiler is a list of named stages, like OPA's: each stage reads and extends the state of
one `Compilation`, and problems accumulate as diagnostics naming file:line instead of
stopping at the first one:

    read → parse → extract → tag → checks → merge → constitution → index → validate

`strict=True` raises the first error diagnostic as a `PolicyError` (the CLI's choice);
`strict=False` (the hook path) keeps every rule it could compile, so a typo in CLAUDE.md
never switches the built-in gates off. docs/policy-grammar.md documents the grammar.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cf_guidance import __version__, limits
from cf_guidance.errors import PolicyError
from cf_guidance.policy import grammar
from cf_guidance.policy.markdown import Block, Inline, parse
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
_KIND_TOOL = {"command": "bash", "sequence": "bash", "write": "edit", "read": "read"}


@dataclass
class Source:
    """One policy file as read: raw bytes for the key, decoded text (None = not compiled)."""

    name: str
    origin: str  # "shared" | "local"
    path: str = ""
    exists: bool = False
    size: int = 0
    mtime_ns: int = 0
    sha256: str = hashlib.sha256(b"").hexdigest()
    raw: bytes = b""
    text: str | None = None
    blocks: list[Block] = field(default_factory=list)
    #: Why an existing file could not be read ("" = it could).
    error: str = ""
    #: The file's only level-1 heading opens it: a document title, not a section.
    titled: bool = False

    def sections(self, section: tuple[str, ...]) -> tuple[str, ...]:
        """The heading path that can make a block constitutional (the title does not count)."""
        return section[1:] if self.titled else section

    def entry(self) -> dict[str, Any]:
        return {"name": self.name, "path": self.path, "exists": self.exists, "size": self.size,
                "mtime_ns": self.mtime_ns, "sha256": self.sha256}


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


@dataclass
class Compilation:
    root: str
    sources: list[Source]
    diagnostics: list[dict[str, str]] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    settings: list[tuple[str, str, Any]] = field(default_factory=list)  # (origin, source, setting)
    shards: list[dict[str, Any]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    constitution: dict[str, Any] = field(default_factory=dict)
    settings_out: dict[str, Any] = field(default_factory=dict)
    retrieval: dict[str, Any] = field(default_factory=dict)
    bundle: dict[str, Any] = field(default_factory=dict)

    def report(self, level: str, source: str, message: str) -> None:
        self.diagnostics.append({"level": level, "source": source, "message": message})

    @property
    def errors(self) -> list[dict[str, str]]:
        return [d for d in self.diagnostics if d["level"] == "error"]


# --- stage: read ---------------------------------------------------------------------------


def decode(raw: bytes, name: str) -> tuple[str | None, list[tuple[str, str]]]:
    """Bytes of a policy file -> (text with \\n newlines, [(level, message)]); None = unusable."""
    notes: list[tuple[str, str]] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        text = raw[3:].decode("utf-8", errors="replace")
        if "\ufffd" in text and b"\xef\xbf\xbd" not in raw:
            notes.append(("warning", "invalid UTF-8 bytes were replaced with U+FFFD"))
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = raw.decode("utf-16", errors="replace")
        notes.append(("info", "decoded as UTF-16 (byte order mark)"))
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("utf-8", errors="replace")
            # UTF-8 with a few broken bytes still has valid multi-byte characters; Latin-1 text
            # has none and no C1 control bytes (0x80-0x9f). Anything else: replace and warn.
            valid_multibyte = any(ord(ch) > 127 and ch != "\ufffd" for ch in text)
            if not valid_multibyte and not any(0x80 <= b <= 0x9F for b in raw):
                text = raw.decode("latin-1")
                notes.append(("warning", "not UTF-8; decoded as Latin-1 (save the file as UTF-8)"))
            else:
                notes.append(("warning", "invalid UTF-8 bytes were replaced with U+FFFD (save the file as UTF-8)"))
    if "\x00" in text:
        return None, [("error", f"{name} looks binary (NUL bytes); it was not compiled")]
    return text.replace("\r\n", "\n").replace("\r", "\n"), notes


def _load(source: Source, data: str | bytes | None) -> None:
    if data is None:
        return
    raw = data.encode("utf-8") if isinstance(data, str) else data
    source.exists = True
    source.raw = raw
    source.size = len(raw)
    source.sha256 = hashlib.sha256(raw).hexdigest()


def _read_file(source: Source) -> None:
    try:
        st = os.stat(source.path)
    except OSError:
        return
    source.exists = True
    source.mtime_ns = st.st_mtime_ns
    if not stat.S_ISREG(st.st_mode):
        # A FIFO would block the read forever and /dev/zero never ends: regular files only.
        source.error = "not a regular file"
        return
    digest = hashlib.sha256()
    chunks: list[bytes] = []
    total = 0
    try:
        with open(source.path, "rb") as handle:
            # Hash everything (the cache compares hashes) but keep only what may be compiled.
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
                if total <= limits.MAX_POLICY_BYTES:
                    chunks.append(chunk)
                total += len(chunk)
    except OSError as exc:
        source.error = str(exc.strerror or exc)
        return
    source.raw = b"".join(chunks)
    source.size = total
    source.sha256 = digest.hexdigest()


def stage_read(c: Compilation) -> None:
    for source in c.sources:
        if source.error:
            c.report("error", f"{source.name}:1",
                     f"cannot read {source.name}: {source.error}; make it a readable regular file")
            continue
        if not source.exists:
            continue
        if source.size > limits.MAX_POLICY_BYTES:
            c.report("error", f"{source.name}:1",
                     f"{source.name} is {source.size} bytes, over the {limits.MAX_POLICY_BYTES}-byte limit; "
                     "it was not compiled (split it or move reference material elsewhere)")
            continue
        text, notes = decode(source.raw, source.name)
        for level, message in notes:
            c.report(level, f"{source.name}:1", message)
        source.text = text


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
        for block in source.blocks:
            where = f"{source.name}:{block.line}"
            constitutional = _in_constitution(source.sections(block.section))
            if block.kind == "bullet":
                masked, tags = grammar.extract_tags(block.inline.masked)
                if not grammar.is_imperative(masked):
                    continue  # descriptive bullets are context, not rules (docs/policy-grammar.md)
                c.rules.append(Rule(source.origin, where, block.section, inline=block.inline,
                                    in_constitution_section=constitutional, masked=masked, tags=tags))
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


def _auto_id(text: str) -> str:
    return "S-" + hashlib.sha256(_normalise(text).encode("utf-8")).hexdigest()[:10]


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
            rule.rule_id = _auto_id(basis)
        rule.constitution = rule.in_constitution_section or rule.tags.critical


# --- stage: checks -------------------------------------------------------------------------


def stage_checks(c: Compilation) -> None:
    for rule in c.rules:
        if rule.machine is not None:
            message = rule.machine.reason or rule.machine.text
            rule.checks = [dict(check, message=message) for check in rule.machine.checks]
        elif rule.inline is not None:
            rule.checks = grammar.derive_checks(rule.masked, rule.inline.codes, rule.text)


# --- stage: merge --------------------------------------------------------------------------


def _strength(rule: Rule) -> tuple[int, int]:
    return (max((_SEVERITY[ch["verdict"]] for ch in rule.checks), default=0), len(rule.checks))


def stage_merge(c: Compilation) -> None:
    merged: dict[str, Rule] = {}
    for rule in c.rules:
        previous = merged.get(rule.rule_id)
        if previous is not None:
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
    for rule in c.rules:
        for check in rule.checks:
            if check["kind"] == "tool" and check["verdict"] == "deny" and check["pattern"] not in settings["tools_deny"]:
                settings["tools_deny"].append(check["pattern"])
    c.settings_out = settings


# --- stage: shards -------------------------------------------------------------------------


def _tools(rule: Rule) -> list[str]:
    wanted = set(rule.tags.tools)
    if not wanted:
        for check in rule.checks:
            if check["kind"] == "tool":
                wanted.add(tool_class(check["pattern"]) or "all")
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
            c.checks.append({"id": check_id, "rule": rule.rule_id, **check, "source": rule.source})
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
        basis = json.dumps([shard["text"], risk, priority, rule.checks], sort_keys=True, ensure_ascii=False)
        shard["hash"] = hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]
        c.shards.append(shard)


def _priority(rule: Rule) -> int:
    base = rule.tags.priority if rule.tags.priority is not None else DEFAULT_PRIORITY
    return base + (CONSTITUTION_PRIORITY_BONUS if rule.constitution else 0)


# --- stage: constitution -------------------------------------------------------------------


def _constitution_lines(source: Source) -> list[str]:
    if source.text is None:
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
    """sha256 over the compiler version and each source's name, presence and content hash."""
    digest = hashlib.sha256(f"cf-guidance {__version__}\n".encode())
    for source in sources:
        digest.update(f"{source.name}\0{int(source.exists)}\0{source.sha256}\n".encode())
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
        "compiler": __version__,
        "key": bundle_key(c.sources),
        "root": c.root,
        "sources": [s.entry() for s in c.sources],
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
    shared = Source(shared_name, "shared")
    local = Source(local_name, "local")
    _load(shared, shared_text)
    _load(local, local_text)
    return _run(Compilation(root, [shared, local]), strict)


def compile_project(project_dir: str | os.PathLike[str], *, strict: bool = False) -> dict[str, Any]:
    """Compile `<project_dir>/CLAUDE.md` and `CLAUDE.local.md` (either may be missing)."""
    root = os.path.abspath(os.fspath(project_dir))
    sources = []
    for name, origin in ((SHARED, "shared"), (LOCAL, "local")):
        source = Source(name, origin, path=os.path.join(root, name))
        _read_file(source)
        sources.append(source)
    return _run(Compilation(root, sources), strict)
