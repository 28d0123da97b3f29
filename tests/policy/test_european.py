"""German, French, Spanish and Portuguese blocks are glossed into English; English blocks are not.

The gloss is decided per block from its words: a block with more words of one of these languages
than of English is read in that language; an English block that quotes a foreign word ("`nie`",
"Use the `die` helper") keeps its words, so what compiled before compiles the same."""

from __future__ import annotations

import pytest

from cf_guidance.policy.european import gloss
from cf_guidance.policy.text import join, tokenize

ENGLISH = [
    "Never run `terraform destroy`.",
    "Use the `die` helper in tests, not `exit`.",
    "No new dependencies.",
    "Run the tests in CI before a release.",
    "A name like nie or jamais is rejected by the parser.",
    "Push to `main` only after review.",
]

#: (text, what the English reader reads)
GLOSSED = [
    ("Niemals `terraform destroy` ausführen.", "never run `terraform destroy`."),
    ("`dist/` nicht bearbeiten", "do not edit `dist/`"),
    ("Führe `make nuke` niemals aus.", "never run `make nuke`."),
    ("Niemals Dateien, Ordner oder Code löschen, ohne zu fragen.", "never delete files, directory or Code, without asking."),
    ("Vor jedem Commit `npm test` ausführen.", "run `npm test` before committing."),
    ("N'utilisez pas `npm publish`.", "do not use `npm publish`."),
    ("Ne lancez jamais `make nuke`.", "never run `make nuke`."),
    ("NO ejecutar `pnpm run dev` automáticamente", "do not run `pnpm run dev` automatically"),
    ("Usa siempre `pnpm`, nunca `npm`.", "always use `pnpm`, never `npm`."),
    ("Nunca fazer push na `main`.", "never push in `main`."),
]


def _read(text: str) -> str:
    masked, codes = _mask(text)
    return join(tokenize(masked, codes))


def _mask(text: str) -> tuple[str, tuple[str, ...]]:
    """The masked form guidance.policy.markdown gives tokenize: code spans as indexed markers."""
    from cf_guidance.policy.markdown import CODE_CLOSE, CODE_OPEN

    parts = text.split("`")
    codes = tuple(parts[1::2])
    masked = "".join(part if k % 2 == 0 else f"{CODE_OPEN}{k // 2}{CODE_CLOSE}" for k, part in enumerate(parts))
    return masked, codes


@pytest.mark.parametrize("text", ENGLISH)
def test_english_blocks_keep_their_words(text: str) -> None:
    masked, codes = _mask(text)
    tokens = tokenize(masked, codes, glossed=False)
    assert gloss(tokens) is tokens


@pytest.mark.parametrize(("text", "read"), GLOSSED)
def test_glossed_as_english(text: str, read: str) -> None:
    assert _read(text) == read


def test_explain_shows_the_authors_words_and_the_reading() -> None:
    from cf_guidance.policy.explain import explain_units
    from cf_guidance.policy.extract import extract
    from cf_guidance.policy.markdown import parse

    text = "# Regeln\n\n- Niemals `make nuke` ausführen.\n"
    lines = explain_units([("CLAUDE.md", u) for u in extract("CLAUDE.md", parse(text))], 3)
    assert "Niemals `make nuke` ausführen." in lines[0]
    assert any("clause (line 3): never run `make nuke`." in line for line in lines)
    assert any("deny command make nuke" in line for line in lines)
