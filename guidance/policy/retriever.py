"""Rank a bundle's shards for a prompt or a tool call: BM25 plus tool, intent and risk boosts.

Hot path (UserPromptSubmit): standard library only, no `re`, no `typing` at run time. The
BM25 statistics are precomputed by the compiler (`bundle["retrieval"]`), with the same
`terms()` function defined here, so query and index are tokenised identically.

Scoring (deterministic, no network, no embeddings):
    score = bm25 / max_bm25            lexical relevance in [0, 1]
          + 0.15  if the prompt's intent is one of the shard's intents
          + 0.10  critical risk, 0.05 high risk
          + 0.10  if the shard names the tool class of the call (e.g. [bash] for Bash)
Only shards with some lexical match are candidates, so "hello world" retrieves nothing
(the anchor's hash embedding ranked critical rules first for every query). Ties break on
priority, then id. The constants match the anchor (@claude-flow/guidance retriever).
"""

from __future__ import annotations

import math

from cf_guidance.event import tool_class_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TOP_K = 5
INTENT_BOOST = 0.15
RISK_BOOST = {"critical": 0.10, "high": 0.05}
TOOL_BOOST = 0.10
BM25_K1 = 1.2
BM25_B = 0.75

#: The anchor's 11 TaskIntent values, in its tie-break order ("general" = nothing matched).
INTENTS = (
    "bug-fix",
    "feature",
    "refactor",
    "security",
    "performance",
    "testing",
    "docs",
    "deployment",
    "architecture",
    "debug",
    "general",
)

#: intent -> ((alternatives, weight), ...). An alternative is a word or a space-separated
#: phrase matched on word boundaries (the anchor wraps each regex in \b...\b); a group adds its
#: weight once when any alternative occurs. Whole-word matching fixes the anchor's
#: "ci"/"cd" firing inside other words.
INTENT_TABLE: dict[str, tuple[tuple[tuple[str, ...], float], ...]] = {
    "bug-fix": (
        (("fix", "bug", "broken", "error", "crash", "issue", "wrong", "incorrect", "fail"), 0.8),
        (("not working", "doesn't work", "unexpected", "regression"), 0.9),
    ),
    "feature": (
        (("add", "create", "implement", "build", "new", "introduce", "develop"), 0.5),
        (("feature", "capability", "functionality", "support for"), 0.9),
        (("user", "page", "profile", "dashboard", "form", "widget", "component", "module"), 0.3),
    ),
    "refactor": (
        (("refactor", "restructure", "reorganize", "simplify", "clean", "extract", "inline"), 0.9),
        (("improve readability", "reduce complexity", "code quality"), 0.8),
    ),
    "security": (
        (("security", "auth", "permission", "access control", "encrypt", "secret", "token"), 0.9),
        (("cve", "vulnerability", "injection", "xss", "csrf", "sanitize"), 1.0),
    ),
    "performance": (
        (("performance", "optimize", "speed", "slow", "fast", "cache", "memory usage", "latency"), 0.9),
        (("bottleneck", "profile", "benchmark", "throughput", "efficient"), 0.8),
    ),
    "testing": (
        (
            ("test", "tests", "spec", "specs", "coverage", "mock", "mocks", "assert", "asserts", "tdd",
             "unit test", "unit tests", "integration test", "integration tests"),
            1.0,
        ),
        (("test suite", "test case", "test plan", "quality assurance"), 0.9),
    ),
    "docs": (
        (("document", "readme", "jsdoc", "comment", "explain", "describe", "tutorial"), 0.8),
        (("api docs", "documentation", "usage guide", "changelog"), 0.9),
    ),
    "deployment": (
        (("deploy", "release", "publish", "ci", "cd", "pipeline", "docker", "kubernetes"), 0.9),
        (("staging", "production", "rollback", "migration", "version"), 0.7),
    ),
    "architecture": (
        (("architect", "design pattern", "system design", "structure", "boundary"), 0.8),
        (("module boundary", "bounded context", "domain model", "aggregate root"), 0.7),
        (("interface", "api design", "separation of concerns"), 0.6),
    ),
    "debug": (
        (("debug", "trace", "log", "diagnose", "investigate", "root cause"), 0.9),
        (("stack trace", "breakpoint", "inspect", "reproduction"), 0.8),
    ),
}

_STOPWORDS = frozenset(
    "a an and are as at be by for from has have i in is it its of on or that the this to was "
    "we were will with you your our can do if not no so but than then them they these those "
    "there here when which who what all any each".split()
)


def tool_class(tool_name: str) -> str:
    """The shard tool class of a hook event's tool name ("Bash" -> "bash", "mcp__x__y" -> "mcp")."""
    cls = tool_class_of(tool_name)
    return "" if cls == "other" else cls  # no class, not a shard tag: the compiler reads "" as all tools


#: ASCII punctuation -> space (apostrophes kept: "doesn't" is one word in the intent table).
_SEPARATORS = {c: " " for c in range(128) if not chr(c).isalnum() and chr(c) != "'"}
_SEPARATORS[0x2019] = "'"


def words(text: str) -> list[str]:
    """Lowercased words (letters, digits and apostrophes) in order, for intent matching."""
    out: list[str] = []
    for word in text.lower().translate(_SEPARATORS).split():
        if not word.isalnum():
            # Non-ASCII punctuation (dashes, emoji) or apostrophes: split character by character.
            current: list[str] = []
            for ch in word:
                if ch.isalnum() or ch == "'":
                    current.append(ch)
                elif current:
                    out.append("".join(current))
                    current = []
            if current:
                out.append("".join(current))
            continue
        out.append(word)
    return [w.strip("'") for w in out if w.strip("'")]


def _stem(word: str) -> str:
    # Crude suffix stripping, applied identically to index and query, so "tests"/"testing"/
    # "tested" meet "test". Not linguistics: only consistency matters.
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def terms(text: str) -> list[str]:
    """BM25 terms: words split on non-alphanumerics, stopwords and 1-char words dropped, stemmed."""
    out: list[str] = []
    for word in words(text.replace("'", " ").replace("\u2019", " ")):
        if len(word) > 1 and word not in _STOPWORDS:
            out.append(_stem(word))
    return out


def _build_index() -> tuple[dict[str, list[tuple[str, int]]], list[tuple[str, str, int]]]:
    single: dict[str, list[tuple[str, int]]] = {}
    phrases: list[tuple[str, str, int]] = []
    for intent, groups in INTENT_TABLE.items():
        for index, (alternatives, _) in enumerate(groups):
            for alt in alternatives:
                if " " in alt:
                    phrases.append((f" {alt} ", intent, index))
                else:
                    single.setdefault(alt, []).append((intent, index))
    return single, phrases


_WORD_GROUPS, _PHRASE_GROUPS = _build_index()


def intent_scores(text: str) -> dict[str, float]:
    """Score of every intent with a match in `text` (anchor table, word-bounded)."""
    tokens = words(text)
    hits: set[tuple[str, int]] = set()
    for token in set(tokens):
        hits.update(_WORD_GROUPS.get(token, ()))
    joined = " " + " ".join(tokens) + " "
    for phrase, intent, index in _PHRASE_GROUPS:
        if phrase in joined:
            hits.add((intent, index))
    scores: dict[str, float] = {}
    for intent, index in hits:
        scores[intent] = scores.get(intent, 0.0) + INTENT_TABLE[intent][index][1]
    return scores


def classify_intent(text: str) -> tuple[str, float]:
    """(intent, confidence): the best-scoring intent, ties to the first in INTENTS order."""
    scores = intent_scores(text)
    best = "general"
    best_score = 0.0
    for intent in INTENTS:
        score = scores.get(intent, 0.0)
        if score > best_score:
            best, best_score = intent, score
    return best, min(best_score / 3.0, 1.0)


def retrieve(
    bundle: dict[str, Any], text: str, *, tool_class: str | None = None, k: int = TOP_K
) -> list[tuple[dict[str, Any], float]]:
    """The top `k` shards for `text` as (shard, score), best first; [] when nothing matches."""
    index = bundle.get("retrieval") or {}
    docs = index.get("docs") or {}
    df = index.get("df") or {}
    avgdl = float(index.get("avgdl") or 1.0) or 1.0
    query = sorted(set(terms(text)))
    if not query or not docs or k <= 0:
        return []
    n_docs = len(docs)
    idf = {}
    for term in query:
        n = df.get(term, 0)
        if n:
            idf[term] = math.log((n_docs - n + 0.5) / (n + 0.5) + 1.0)
    if not idf:
        return []
    lexical: dict[str, float] = {}
    for shard_id, doc in docs.items():
        tf = doc.get("tf") or {}
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * doc.get("len", 0) / avgdl)
        score = 0.0
        for term, weight in idf.items():
            f = tf.get(term)
            if f:
                score += weight * f * (BM25_K1 + 1.0) / (f + norm)
        if score > 0.0:
            lexical[shard_id] = score
    if not lexical:
        return []
    top = max(lexical.values())
    intent, _ = classify_intent(text)
    ranked: list[tuple[float, int, str, dict[str, Any]]] = []
    for shard in bundle.get("shards") or ():
        base = lexical.get(shard.get("id", ""))
        if base is None:
            continue
        score = base / top
        if intent != "general" and intent in (shard.get("intents") or ()):
            score += INTENT_BOOST
        score += RISK_BOOST.get(shard.get("risk", ""), 0.0)
        if tool_class and tool_class in (shard.get("tools") or ()):
            score += TOOL_BOOST
        ranked.append((-score, -int(shard.get("priority", 0)), shard.get("id", ""), shard))
    ranked.sort(key=lambda row: row[:3])
    return [(row[3], round(-row[0], 6)) for row in ranked[:k]]


def context_text(results: list[tuple[dict[str, Any], float]]) -> str:
    """Retrieved shards as markdown lines for `additionalContext` ("" when there are none)."""
    if not results:
        return ""
    lines = ["Project rules relevant to this request (from CLAUDE.md):"]
    for shard, _ in results:
        mark = " (enforced)" if shard.get("enforcement") == "enforced" else ""
        lines.append(f"- [{shard.get('id', '')}] {shard.get('text', '')}{mark}")
    return "\n".join(lines)
