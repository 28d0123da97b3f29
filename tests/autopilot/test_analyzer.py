from __future__ import annotations

import pytest

from autopilot.helpers import bundle, check, shard
from cf_guidance.autopilot.analyzer import WEIGHTS, compare, grade_for, score_bundle

GOOD = """# Payments service

One line on what it is.

## Build & Test

```bash
make test
```

- Run `make test` before committing.
- Never run `make deploy` from a laptop.

## Security

- Never read `.env` files.
- Never commit secrets or credentials.

## Git

- Never run `git push --force`.

## Project Structure

- `src/` holds the code, `tests/` the tests.

## Style

- Follow the formatting conventions; handle every error explicitly.
"""


def good_bundle() -> dict:
    shards = [
        shard("S-a", "Run `make test` before committing.", "CLAUDE.md:9", checks=["S-a#1"]),
        shard("S-b", "Never run `make deploy` from a laptop.", "CLAUDE.md:10", checks=["S-b#1"]),
        shard("S-c", "Never read `.env` files.", "CLAUDE.md:14", checks=["S-c#1"], constitution=True),
        shard("S-d", "Never commit secrets or credentials.", "CLAUDE.md:15", constitution=True),
        shard("S-e", "Never run `git push --force`.", "CLAUDE.md:19", checks=["S-e#1"]),
        shard("S-g", "Follow the formatting conventions; handle every error explicitly.", "CLAUDE.md:27"),
    ]
    checks = [
        check("S-a", 1, ["git", "commit"], kind="sequence"),
        check("S-b", 1, ["make", "deploy"]),
        check("S-c", 1, [".env"], kind="read"),
        check("S-e", 1, ["git", "push", "--force"]),
    ]
    return bundle(shards, checks)


def test_dimensions_use_the_anchor_weights() -> None:
    result = score_bundle(GOOD, good_bundle())
    assert [d.name for d in result.dimensions] == list(WEIGHTS)
    assert [d.weight for d in result.dimensions] == [0.20, 0.20, 0.25, 0.15, 0.10, 0.10]
    assert result.composite == round(sum(d.score * d.weight for d in result.dimensions), 1)


def test_deductions_explain_every_lost_point() -> None:
    result = score_bundle(GOOD, good_bundle())
    for dim in result.dimensions:
        lost = sum(d.points for d in dim.deductions)
        assert dim.score + lost == pytest.approx(100, abs=0.05), dim.name


def test_enforceability_is_the_share_of_imperative_rules_with_checks() -> None:
    result = score_bundle(GOOD, good_bundle())
    enforce = result.dimension("enforceability")
    # Every shard is an imperative rule (the compiler drops descriptive bullets); 6 rules,
    # 4 enforced: 70 * 4/6 earned from the share; 4 checks of the 5 wanted: 30 * 4/5.
    assert result.metrics["imperative_rules"] == 6
    assert result.metrics["enforced_rules"] == 4
    assert enforce.score == pytest.approx(70 * 4 / 6 + 30 * 4 / 5, abs=0.01)
    advisory = [d for d in enforce.deductions if d.source == "CLAUDE.md:15"]
    assert advisory and "secrets" in advisory[0].reason


def test_adding_an_enforced_rule_raises_the_score() -> None:
    before = score_bundle(GOOD, good_bundle())
    b = good_bundle()
    b["shards"].append(shard("S-h", "Never run `make publish`.", "CLAUDE.md:11", checks=["S-h#1"]))
    b["checks"].append(check("S-h", 1, ["make", "publish"]))
    after = score_bundle(GOOD, b)
    delta = compare(before, after)
    assert delta["delta"] > 0.5
    assert "enforceability" in delta["improvements"]
    assert not delta["regressions"]


@pytest.mark.parametrize(
    ("diagnostics", "compile_error", "expected"),
    [
        ([], "", 100.0),
        ([{"level": "warning", "source": "CLAUDE.md:3", "message": "w"}], "", 95.0),
        ([{"level": "error", "source": "CLAUDE.md:3", "message": "bad guidance line"}], "", 25 + 75 * 6 / 7),
        ([], "CLAUDE.md:4: unclosed guidance block", 0.0),
    ],
)
def test_compilability_counts_error_diagnostics(diagnostics: list, compile_error: str, expected: float) -> None:
    b = good_bundle()
    b["diagnostics"] = diagnostics
    result = score_bundle(GOOD, {} if compile_error else b, compile_error=compile_error)
    assert result.dimension("compilability").score == pytest.approx(expected, abs=0.01)
    if diagnostics or compile_error:
        reasons = [d.reason for d in result.dimension("compilability").deductions]
        assert any((diagnostics[0]["message"] if diagnostics else "unclosed") in r for r in reasons)


def test_an_empty_policy_scores_low_with_suggestions() -> None:
    result = score_bundle("", {})
    assert result.composite < 30
    assert result.grade == "F"
    suggestions = result.suggestions()
    assert suggestions[0].impact >= suggestions[-1].impact
    assert any("H1" in s.reason for s in suggestions)


def test_vague_rules_are_listed_under_clarity() -> None:
    b = bundle([shard("S-v", "Try to avoid large commits if possible.", "CLAUDE.md:3")])
    result = score_bundle("# x\n\n- Try to avoid large commits if possible.\n", b)
    clarity = result.dimension("clarity")
    assert any(d.source == "CLAUDE.md:3" and "vague" in d.reason for d in clarity.deductions)


def test_a_huge_constitution_is_penalised() -> None:
    shards = [shard(f"S-{i}", f"Never run `tool{i}`.", f"CLAUDE.md:{i + 3}", constitution=True) for i in range(20)]
    result = score_bundle("# x\n\n## Safety\n", bundle(shards))
    assert any("constitution has 20 rules" in d.reason for d in result.dimension("structure").deductions)


@pytest.mark.parametrize(("composite", "grade"), [(95, "A"), (90, "A"), (89.9, "B"), (80, "B"), (75, "C"), (60, "D"), (59.9, "F"), (0, "F")])
def test_grades(composite: float, grade: str) -> None:
    assert grade_for(composite) == grade


def test_render_lists_deductions_largest_first() -> None:
    text = score_bundle("", {}).render("CLAUDE.md")
    assert text.startswith("CLAUDE.md: ")
    assert "Deductions (largest first):" in text


# --- with the real compiler ---------------------------------------------------------------

from autopilot.helpers import CORPUS  # noqa: E402

from cf_guidance.autopilot.analyzer import analyze  # noqa: E402


def corpus_files() -> list:
    return sorted(p for p in CORPUS.glob("*.md") if p.name != "SOURCES.md")


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_every_corpus_file_scores_and_explains_itself(path) -> None:
    result = analyze(path.read_text(encoding="utf-8", errors="replace"))
    assert 0 <= result.composite <= 100
    assert result.grade == grade_for(result.composite)
    for dim in result.dimensions:
        assert 0 <= dim.score <= 100
        assert dim.score + sum(d.points for d in dim.deductions) == pytest.approx(100, abs=0.05)
    # Enforceability is what the compiler enforced, not how often the file says NEVER.
    enforced, rules = result.metrics["enforced_rules"], result.metrics["rules"]
    if rules:
        share = enforced / rules
        assert result.dimension("enforceability").score >= 70 * share - 0.01


def test_a_ban_the_compiler_enforces_raises_enforceability() -> None:
    base = GOOD.replace("- Never run `make deploy` from a laptop.\n", "- Never leave a deploy half done.\n")
    before, after = analyze(base), analyze(GOOD)
    assert after.metrics["enforced_rules"] == before.metrics["enforced_rules"] + 1
    assert after.dimension("enforceability").score > before.dimension("enforceability").score
    assert compare(before, after)["delta"] >= 0.5
    advisory = [d.reason for d in before.dimension("enforceability").deductions]
    assert any("Never leave a deploy half done" in r for r in advisory)


def test_shouting_without_checks_does_not_score() -> None:
    shouting = "# X\n\n## Rules\n\n" + "".join(f"- NEVER do bad thing {i}. ALWAYS MUST be good.\n" for i in range(10))
    result = analyze(shouting)
    assert result.metrics["rules"] == 10 and result.metrics["enforced_rules"] == 0
    assert result.dimension("enforceability").score == 0


def test_a_broken_guidance_line_costs_compilability_and_names_the_line() -> None:
    text = GOOD + "\n```guidance\nfrobnicate everything\n```\n"
    result = analyze(text)
    compil = result.dimension("compilability")
    assert compil.score < 100
    assert any(d.source.startswith("CLAUDE.md:") for d in compil.deductions)
