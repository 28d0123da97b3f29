"""Score a CLAUDE.md on six dimensions from what the compiler actually produced.

The anchor's analyzer (`analyzer.js`) is purely lexical: it counts the words NEVER/ALWAYS/MUST,
so a file full of shouting scores well whether or not anything is enforced. Here the same six
dimensions and weights (structure 20, coverage 20, enforceability 25, compilability 15,
clarity 10, completeness 10) are kept so users can compare, but the dimensions that matter are
computed from the compiled bundle: enforceability is the share of imperative rules that
compiled to checks, compilability is one minus the share of error diagnostics, coverage asks
whether *rules* (not prose) touch each area.

Every dimension is a list of criteria with a maximum; a criterion that earns less than its
maximum becomes a deduction naming what is missing and what to write instead. The points of a
dimension's deductions add up exactly to what it lost, so the report explains the whole score.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it import MarkdownIt
from pydantic import BaseModel, Field

from cf_guidance.errors import PolicyError

#: Dimension name -> weight in the composite (the anchor's weights).
WEIGHTS: dict[str, float] = {
    "structure": 0.20,
    "coverage": 0.20,
    "enforceability": 0.25,
    "compilability": 0.15,
    "clarity": 0.10,
    "completeness": 0.10,
}

#: (lowest composite, grade), best first: the anchor's grade boundaries.
GRADES: tuple[tuple[float, str], ...] = ((90, "A"), (80, "B"), (70, "C"), (60, "D"), (0, "F"))

#: Individual rule deductions listed per criterion before the rest are summarised.
MAX_LISTED_RULES = 8

_VAGUE = re.compile(
    r"\b(try to|should probably|might want to|consider|if possible|when appropriate|"
    r"where possible|as needed|if needed|ideally|generally|usually)\b",
    re.IGNORECASE,
)
_ARCHITECTURE_HEADING = re.compile(
    r"architecture|structure|design|layout|overview|directory|modules?|components?",
    re.IGNORECASE,
)

_AREAS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "build and test",
        re.compile(r"\b(test|tests|testing|build|lint|compile|typecheck|pytest|cargo|make)\b", re.I),
        "add a rule such as 'Run `make test` before committing.'",
    ),
    (
        "security and secrets",
        re.compile(r"\b(secret|secrets|credential|credentials|token|password|api[ _-]?key|\.env)\b", re.I),
        "add a rule such as 'Never read `.env*` or `secrets/**`.'",
    ),
    (
        "version control",
        re.compile(r"\b(git|commit|commits|push|branch|merge|rebase|pull request|PR)\b", re.I),
        "add a rule such as 'Never run `git push --force`.'",
    ),
)

#: (topic, points, pattern): the anchor's completeness table.
_TOPICS: tuple[tuple[str, int, re.Pattern[str]], ...] = (
    ("build, test and lint", 15, re.compile(r"\b(build|test|lint)", re.I)),
    ("secrets and injection", 15, re.compile(r"secret|credential|injection|xss", re.I)),
    ("style and conventions", 15, re.compile(r"\b(style|convention|standard|format)", re.I)),
    ("error handling", 10, re.compile(r"\b(error|exception|catch|throw)", re.I)),
    ("commits and branches", 10, re.compile(r"\b(commit|branch|merge|PR)\b", re.I)),
    ("project layout", 10, re.compile(r"\b(director|folder|structure|organi[sz]e)", re.I)),
    ("dependencies", 10, re.compile(r"\b(dependenc|package|import|require)", re.I)),
    ("documentation", 5, re.compile(r"\b(doc|docs|documentation|comment)", re.I)),
    ("performance", 5, re.compile(r"\b(performance|optimi[sz]e|cache|lazy)", re.I)),
    ("deployment", 5, re.compile(r"\b(deploy|production|staging|CI|CD)\b", re.I)),
)


class Deduction(BaseModel):
    """Points a dimension lost, why, and what to write instead."""

    dimension: str
    points: float = Field(description="points lost within the dimension (out of 100)")
    impact: float = Field(description="points lost in the composite (points x weight)")
    reason: str
    suggestion: str
    source: str = ""


class DimensionScore(BaseModel):
    name: str
    weight: float
    score: float
    deductions: list[Deduction]


class Analysis(BaseModel):
    """The analyzer's report for one policy."""

    composite: float
    grade: str
    dimensions: list[DimensionScore]
    metrics: dict[str, int]

    def dimension(self, name: str) -> DimensionScore:
        for dim in self.dimensions:
            if dim.name == name:
                return dim
        raise KeyError(name)

    def suggestions(self) -> list[Deduction]:
        """Every deduction, largest composite impact first."""
        out = [d for dim in self.dimensions for d in dim.deductions]
        return sorted(out, key=lambda d: (-d.impact, d.dimension, d.source))

    def render(self, title: str = "policy") -> str:
        lines = [f"{title}: {self.composite:.1f}/100, grade {self.grade}", ""]
        for dim in self.dimensions:
            lines.append(f"  {dim.name:<15} {dim.score:5.1f}  (weight {dim.weight:.2f})")
        suggestions = self.suggestions()
        if suggestions:
            lines += ["", "Deductions (largest first):"]
            for d in suggestions:
                where = f" [{d.source}]" if d.source else ""
                lines.append(f"  -{d.impact:.1f} {d.dimension}: {d.reason}{where}")
                lines.append(f"      -> {d.suggestion}")
        return "\n".join(lines)


class _Facts:
    """What the dimensions look at: the Markdown outline and the compiled bundle."""

    def __init__(self, text: str, bundle: dict[str, Any], compile_error: str) -> None:
        self.text = text
        self.bundle = bundle
        self.compile_error = compile_error
        lines = text.splitlines()
        self.content_lines = sum(1 for line in lines if line.strip())
        self.h1 = 0
        self.h2_lines: list[int] = []
        self.headings: list[str] = []
        self.code_blocks = 0
        self.tables = 0
        tokens = MarkdownIt("commonmark").enable("table").parse(text)
        for index, token in enumerate(tokens):
            if token.type == "heading_open":
                title = tokens[index + 1].content if index + 1 < len(tokens) else ""
                self.headings.append(title)
                if token.tag == "h1":
                    self.h1 += 1
                elif token.tag == "h2" and token.map:
                    self.h2_lines.append(token.map[0])
            elif token.type in ("fence", "code_block"):
                self.code_blocks += 1
            elif token.type == "table_open":
                self.tables += 1
        bounds = self.h2_lines + [len(lines)]
        self.longest_section = max(
            (bounds[i + 1] - bounds[i] for i in range(len(self.h2_lines))), default=len(lines)
        )
        self.shards: list[dict[str, Any]] = list(bundle.get("shards", []))
        self.checks: list[dict[str, Any]] = list(bundle.get("checks", []))
        self.diagnostics: list[dict[str, Any]] = list(bundle.get("diagnostics", []))
        self.constitution_rules: list[str] = list(bundle.get("constitution", {}).get("rules", []))
        # The compiler keeps only imperative bullets and machine rules as shards; descriptive
        # bullets are context. So every shard is an imperative rule.
        self.imperative = self.shards
        self.enforced = [s for s in self.imperative if s.get("checks")]
        self.errors = [d for d in self.diagnostics if d.get("level") == "error"]
        self.warnings = [d for d in self.diagnostics if d.get("level") == "warning"]

    def metrics(self) -> dict[str, int]:
        kinds: dict[str, int] = {}
        for check in self.checks:
            key = f"checks_{check.get('kind', 'other')}"
            kinds[key] = kinds.get(key, 0) + 1
        return {
            "content_lines": self.content_lines,
            "sections": len(self.h2_lines),
            "code_blocks": self.code_blocks,
            "rules": len(self.shards),
            "imperative_rules": len(self.imperative),
            "enforced_rules": len(self.enforced),
            "advisory_imperative_rules": len(self.imperative) - len(self.enforced),
            "checks": len(self.checks),
            "constitution_rules": len(self.constitution_rules),
            "errors": len(self.errors) + (1 if self.compile_error else 0),
            "warnings": len(self.warnings),
            **kinds,
        }


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Scorer:
    """Collects criteria for one dimension: earned points and the deductions for the rest."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.weight = WEIGHTS[name]
        self.score = 0.0
        self.deductions: list[Deduction] = []

    def criterion(self, maximum: float, earned: float, reason: str, suggestion: str) -> None:
        earned = max(0.0, min(maximum, earned))
        self.score += earned
        if earned < maximum:
            self.lose(maximum - earned, reason, suggestion)

    def lose(self, points: float, reason: str, suggestion: str, source: str = "") -> None:
        self.deductions.append(
            Deduction(
                dimension=self.name,
                points=round(points, 2),
                impact=round(points * self.weight, 2),
                reason=reason,
                suggestion=suggestion,
                source=source,
            )
        )

    def per_rule(
        self,
        maximum: float,
        offenders: Sequence[dict[str, Any]],
        total: int,
        reason: Callable[[dict[str, Any]], str],
        suggestion: Callable[[dict[str, Any]], str],
    ) -> None:
        """Earn `maximum` scaled by the share of rules that are fine; list each offender."""
        if total <= 0:
            return
        each = maximum / total
        self.score += maximum - each * len(offenders)
        for shard in offenders[:MAX_LISTED_RULES]:
            self.lose(each, reason(shard), suggestion(shard), str(shard.get("source", "")))
        rest = offenders[MAX_LISTED_RULES:]
        if rest:
            self.lose(
                each * len(rest),
                f"{len(rest)} more rules like the above",
                suggestion(rest[0]),
            )

    def result(self) -> DimensionScore:
        return DimensionScore(
            name=self.name, weight=self.weight, score=round(self.score, 2), deductions=self.deductions
        )


def _structure(f: _Facts) -> DimensionScore:
    s = _Scorer("structure")
    s.criterion(10, 10 if f.h1 else 0, "no H1 title", "start with '# <project name>' and one line on what it is")
    sections = len(f.h2_lines)
    s.criterion(
        20,
        20 if sections >= 5 else 15 if sections >= 3 else 5 if sections >= 1 else 0,
        f"{sections} H2 sections (5 or more earn full points)",
        "group rules under H2 headings such as '## Build & Test', '## Security', '## Git'",
    )
    n = f.content_lines
    s.criterion(
        20,
        20 if 20 <= n <= 200 else 15 if n > 200 else 10 if n >= 10 else 0,
        f"{n} content lines (20-200 earn full points)",
        "move reference material out to docs/ and keep CLAUDE.md to rules"
        if n > 200
        else "state the project's build, test, security and git rules",
    )
    s.criterion(
        20,
        20 if f.longest_section <= 50 else 10 if f.longest_section <= 80 else 0,
        f"longest section is {f.longest_section} lines (50 or fewer earn full points)",
        "split the longest section under more specific H2 headings",
    )
    rules = len(f.constitution_rules)
    s.criterion(
        30,
        30 if 1 <= rules <= 15 else 15 if rules > 15 else 0,
        "no constitution: no rules under a Safety/Security/Critical/Non-negotiable heading"
        if rules == 0
        else f"constitution has {rules} rules; it is shown at every session start (15 or fewer)",
        "put the few rules that must always hold under '## Safety' or '## Non-negotiable'"
        if rules == 0
        else "keep only the must-always-hold rules under the constitution headings",
    )
    return s.result()


def _coverage(f: _Facts) -> DimensionScore:
    s = _Scorer("coverage")
    for area, pattern, suggestion in _AREAS:
        covered = any(pattern.search(str(shard.get("text", ""))) for shard in f.imperative)
        s.criterion(20, 20 if covered else 0, f"no imperative rule about {area}", suggestion)
    commands = [c for c in f.checks if c.get("kind") in ("command", "sequence")]
    s.criterion(
        20,
        20 if commands else 0,
        "no rule compiled to a command check",
        "ban the dangerous commands of this project: 'Never run `make deploy`.'",
    )
    has_layout = any(_ARCHITECTURE_HEADING.search(h) for h in f.headings)
    s.criterion(
        20,
        20 if has_layout else 0,
        "no architecture / structure section",
        "add '## Project Structure' saying where code, tests and generated files live",
    )
    return s.result()


def _enforceability(f: _Facts) -> DimensionScore:
    s = _Scorer("enforceability")
    if not f.imperative:
        s.lose(
            70,
            "no imperative rules (never/always/must/do not ...)",
            "write the rules as bullets: 'Never run `X`', 'Never edit `path/**`'",
        )
    else:
        advisory = [shard for shard in f.imperative if not shard.get("checks")]
        s.per_rule(
            70,
            advisory,
            len(f.imperative),
            lambda shard: f"advisory, not enforced: '{_short(str(shard.get('text', '')))}'",
            _enforce_hint,
        )
    s.criterion(
        30,
        30 * min(1.0, len(f.checks) / 5),
        f"{len(f.checks)} compiled checks (5 or more earn full points)",
        "state bans and protections with backticked commands and paths, or a ```guidance block",
    )
    return s.result()


def _enforce_hint(shard: dict[str, Any]) -> str:
    text = str(shard.get("text", ""))
    if "`" in text:
        return "phrase it as 'Never run `cmd`' / 'Never edit `glob`' so the compiler can check it"
    return "name the command or path in backticks, or add a ```guidance line such as 'deny command X'"


def _compilability(f: _Facts) -> DimensionScore:
    s = _Scorer("compilability")
    if f.compile_error:
        s.lose(100, f"does not compile: {f.compile_error}", "fix the named line and run `cf-guidance compile`")
        return s.result()
    total = len(f.shards) + len(f.errors)
    share = len(f.errors) / total if total else 0.0
    s.score += 75 * (1 - share)
    for diag in f.errors[:MAX_LISTED_RULES]:
        s.lose(
            75 / total,
            f"compile error: {diag.get('message', '')}",
            "fix the line (see `cf-guidance compile`)",
            str(diag.get("source", "")),
        )
    if len(f.errors) > MAX_LISTED_RULES:
        s.lose(75 / total * (len(f.errors) - MAX_LISTED_RULES), "more compile errors", "run `cf-guidance compile`")
    kept = 25.0
    for diag in f.warnings:
        if kept <= 0:
            break
        lost = min(5.0, kept)
        kept -= lost
        s.lose(lost, f"warning: {diag.get('message', '')}", "resolve the warning", str(diag.get("source", "")))
    s.score += kept
    return s.result()


def _clarity(f: _Facts) -> DimensionScore:
    s = _Scorer("clarity")
    rules = f.imperative or f.shards
    if not rules:
        s.lose(70, "no rules to read", "state the rules as short bullets")
    else:
        vague = [shard for shard in rules if _VAGUE.search(str(shard.get("text", "")))]
        s.per_rule(
            40,
            vague,
            len(rules),
            lambda shard: f"vague wording: '{_short(str(shard.get('text', '')))}'",
            lambda shard: "say what must happen ('Run `X`'), not what to try or consider",
        )
        sized = [shard for shard in rules if not 3 <= len(str(shard.get("text", "")).split()) <= 60]
        s.per_rule(
            30,
            sized,
            len(rules),
            lambda shard: f"rule of {len(str(shard.get('text', '')).split())} words",
            lambda shard: "keep one rule per bullet, 3-60 words; move explanation to a paragraph",
        )
    s.criterion(
        30,
        30 if f.code_blocks >= 3 else 15 if f.code_blocks >= 1 else 0,
        f"{f.code_blocks} code blocks (3 or more earn full points)",
        "show the exact build, test and run commands in fenced code blocks",
    )
    return s.result()


def _completeness(f: _Facts) -> DimensionScore:
    s = _Scorer("completeness")
    for topic, points, pattern in _TOPICS:
        s.criterion(points, points if pattern.search(f.text) else 0, f"nothing on {topic}", f"say how this project handles {topic}")
    return s.result()


_DIMENSIONS = (_structure, _coverage, _enforceability, _compilability, _clarity, _completeness)


def grade_for(composite: float) -> str:
    for lowest, grade in GRADES:
        if composite >= lowest:
            return grade
    return "F"


def score_bundle(text: str, bundle: dict[str, Any], *, compile_error: str = "") -> Analysis:
    """Score `text` given the bundle the compiler produced for it (pure; no I/O)."""
    facts = _Facts(text, bundle, compile_error)
    dimensions = [dimension(facts) for dimension in _DIMENSIONS]
    composite = round(sum(d.score * d.weight for d in dimensions), 1)
    return Analysis(composite=composite, grade=grade_for(composite), dimensions=dimensions, metrics=facts.metrics())


def analyze(shared_text: str, local_text: str | None = None, *, root: str = "") -> Analysis:
    """Compile the policy (shared plus optional local overlay) and score it.

    The Markdown dimensions look at `shared_text` (the file being judged); the compiled ones
    at the merged bundle. A policy that does not compile scores 0 on compilability and is
    otherwise scored on an empty bundle.
    """
    from cf_guidance.policy.compiler import compile_sources

    try:
        bundle = compile_sources(shared_text, local_text, root=root, strict=False)
    except PolicyError as exc:
        return score_bundle(shared_text, {}, compile_error=str(exc))
    return score_bundle(shared_text, bundle)


def compare(before: Analysis, after: Analysis) -> dict[str, Any]:
    """The composite delta and per-dimension moves between two analyses."""
    moves = {
        dim.name: round(after.dimension(dim.name).score - dim.score, 2) for dim in before.dimensions
    }
    return {
        "before": before.composite,
        "after": after.composite,
        "delta": round(after.composite - before.composite, 1),
        "improvements": {k: v for k, v in moves.items() if v > 0},
        "regressions": {k: v for k, v in moves.items() if v < 0},
    }
