"""Rules about files and paths as authors write them: titles over lists of paths, kinds of files
named in words, paths marked read-only, "this directory" in a subdirectory's file. Each form has
sentences that must give the checks shown and look-alikes that must give none (the lexicon's own
examples are compiled by test_lexicon.py; these are more of each form, in other wordings)."""

from __future__ import annotations

import pytest

from tests.policy.test_lexicon import shorts

MUST = [
    # a heading, a label or an intro that names files under a force
    ("## Files you must never touch\n\n- `config/prod.yml`\n", ["deny write config/prod.yml"]),
    ("### Files Claude must not modify\n\n- `LICENSE`\n", ["deny write LICENSE", "deny write LICENSE/**"]),
    ("## Files not to edit\n\n- `schema.graphql`\n", ["deny write schema.graphql"]),
    ("## Directories you should not modify\n\n- `legacy/`\n", ["warn write legacy/**"]),
    ("## Files to never read\n\n- `data/raw/`\n", ["deny read data/raw/**"]),
    ("**Read-only:** `vendor/`, `third_party/`", ["deny write vendor/**", "deny write third_party/**"]),
    ("## Off-limits directories\n\n- `infra/prod`\n", ["deny write infra/prod", "deny write infra/prod/**"]),
    ("Restricted paths:\n\n- `deploy/`\n", ["ask write deploy/**"]),
    ("## Protected Files\n\n| File | Reason |\n|---|---|\n| `alembic.ini` | shared config |\n", ["ask write alembic.ini"]),
]

MUST_NOT = [
    "## Key files\n\n- `src/main.rs` - entry point\n",
    "## Files you can edit freely\n\n- `src/`\n",
    "## Files you will need\n\n- `README.md`\n",
    "## Protected branches\n\n- `main`\n",
    "## Read-only replicas\n\n- `db-replica-1` serves reports\n",
    "## Files\n\n- `src/app.ts` - the app\n",
    "## Important files to read first\n\n- `docs/architecture.md`\n",
]


@pytest.mark.parametrize(("markdown", "expected"), MUST, ids=[m.split("\n")[0][:50] for m, _ in MUST])
def test_path_rules_compile(markdown: str, expected: list[str]) -> None:
    assert shorts(markdown) == expected


@pytest.mark.parametrize("markdown", MUST_NOT, ids=[m.split("\n")[0][:50] for m in MUST_NOT])
def test_path_look_alikes_compile_to_nothing(markdown: str) -> None:
    assert shorts(markdown) == []
