"""Every entry of the rule language's tables compiles its own examples to the checks it states
(LanguageTool/Vale style: an entry cannot be added without what it must and must not catch)."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance.policy.checkform import short
from cf_guidance.policy.compiler import compile_sources
from cf_guidance.policy.lexicon import Example
from cf_guidance.policy.lexicon.docs import all_examples


def shorts(markdown: str) -> list[str]:
    bundle = compile_sources(markdown if markdown.endswith("\n") else markdown + "\n")
    assert not [d for d in bundle["diagnostics"] if "could not read" in d["message"]], bundle["diagnostics"]
    return list(dict.fromkeys(short(check) for check in bundle["checks"]))


EXAMPLES: list[tuple[str, Example]] = all_examples()


def _id(pair: tuple[str, Example]) -> str:
    return f"{pair[0]}: {pair[1].text[:60]}"


@pytest.mark.parametrize("pair", EXAMPLES, ids=[_id(p) for p in EXAMPLES])
def test_example(pair: tuple[str, Example]) -> None:
    table, example = pair
    found = shorts(example.text)
    if example.exact:
        assert found == list(example.checks), f"{table}: {example.text!r}"
    else:
        missing = [c for c in example.checks if c not in found]
        assert not missing, f"{table}: {example.text!r} gave {found}"


def test_every_table_entry_has_examples() -> None:
    from cf_guidance.policy.lexicon.docs import entries

    without = [name for name, entry in entries() if not getattr(entry, "examples", ())]
    # program names and equivalences without examples are listed data, not phrasing; the rest must have them
    assert [name for name in without if name.startswith(("cue:", "action:", "condition:", "category:"))] == []


def test_examples_cover_must_and_must_not() -> None:
    positives = [e for _, e in EXAMPLES if e.checks]
    negatives = [e for _, e in EXAMPLES if not e.checks]
    assert len(positives) >= 80 and len(negatives) >= 20


def checks_of(markdown: str) -> list[dict[str, Any]]:
    return list(compile_sources(markdown)["checks"])


def test_docs_tables_are_current() -> None:
    from cf_guidance.policy.lexicon.docs import embedded, markdown
    from tests.conftest import REPO

    document = (REPO / "docs" / "policy-grammar.md").read_text(encoding="utf-8")
    assert embedded(document) == markdown(), (
        "regenerate with: python -m cf_guidance.policy.lexicon.docs docs/policy-grammar.md")


def test_every_cjk_entry_has_must_and_must_not_examples() -> None:
    from cf_guidance.policy.lexicon import cjk

    lacking = [f"{table}:{entry.name}" for table, entries in cjk.TABLES + (("heading", cjk.HEADINGS),) for entry in entries
               if not any(e.checks for e in entry.examples) or not any(not e.checks for e in entry.examples)]
    assert lacking == []


def test_every_european_entry_has_must_and_must_not_examples() -> None:
    from cf_guidance.policy.lexicon import european

    lacking = [gloss.name for gloss in european.GLOSSES
               if not any(e.checks for e in gloss.examples) or not any(not e.checks for e in gloss.examples)]
    assert lacking == []
