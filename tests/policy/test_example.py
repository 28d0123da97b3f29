"""CLAUDE.md.example compiles cleanly and exercises every form of the rule grammar."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance.policy.compiler import compile_sources
from tests.conftest import REPO

EXAMPLE = REPO / "CLAUDE.md.example"


@pytest.fixture(scope="module")
def bundle() -> dict[str, Any]:
    return compile_sources(EXAMPLE.read_text(encoding="utf-8"))


def rendered(check: dict[str, Any]) -> str:
    from cf_guidance.policy.checkform import short

    return short(check)


EXPECTED = {
    "R001": ["deny command git push --force", "deny command git push -f"],
    "R002": ["deny command git reset --hard"],
    "R003": ["deny command rm -rf migrations/"],
    "R004": ["deny command terraform destroy"],
    "R005": ["deny command rotate-keys.sh"],
    "R006": ["deny command git commit --no-verify"],
    "R010": ["deny write migrations/versions/**"],
    "R011": ["deny write poetry.lock", "deny write package-lock.json"],
    "R012": ["deny write infra/prod/**"],
    "R013": ["deny read ~/.npmrc", "deny read .npmrc", "deny variable NPM_TOKEN NODE_AUTH_TOKEN"],
    "R020": ["deny read .env", "deny read .env.local", "deny read .env.*.local", "deny read .env.development",
             "deny read .env.production", "deny read .env.test", "deny read .env.staging", "deny read .env.prod",
             "deny read .env.dev", "deny read .env.*", "deny read secrets/**"],
    "R021": ["deny read config/pci/*.pem"],
    "R030": ["warn command pip install"],
    "R031": ["warn command docker compose down -v"],
    "R032": ["warn command npm audit fix"],
    "R033": ["warn command npm"],
    "R034": ["deny command <lint>"],
    "R035": ["warn command helm", "warn command talosctl"],
    "R036": ["warn command alembic below the root"],
    "R040": ["ask command alembic upgrade head"],
    "R041": ["ask command terraform apply"],
    "R042": ["ask command kubectl rollout restart"],
    "R043": ["ask command make seed-prod"],
    "R044": ["warn command psql"],
    "R045": ["ask command git commit"],
    "R050": ["warn sequence make test -> git commit"],
    "R051": ["deny sequence make lint -> git push"],
    "R052": ["warn sequence make check-migrations -> alembic revision"],
    "R053": ["warn sequence <lint> -> git commit after any change", "warn sequence <typecheck> -> git commit after any change"],
    "R054": ["deny branch feat/*"],
    "R055": ["deny target push main"],
    "R056": ["deny message co-authored-by"],
    "R057": ["deny create ./TODO.md"],
    "R058": ["deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: length <= 72", "deny shape git commit, jj describe, jj desc, jj commit, jj ci, jj new, gt create, gt c, gt modify, gt m: emoji no emoji"],
    "R059": ["warn sequence make gen -> git commit after db/queries/**/*.sql"],
    "R060": ["deny command git commit --amend once pushed"],
    "R061": ["ask command <pull-request>"],
    "M001": ["deny command git push --force"],
    "M002": ["deny command git clean -fdx"],
    "M003": ["warn command npm install *"],
    "M004": ["ask command kubectl delete *"],
    "M005": ["deny write ledgerline/settings/production.py"],
    "M006": ["ask write infra/**"],
    "M007": ["deny read secrets/**", "deny read .env.production"],
    "M008": ["deny sequence make test -> git push"],
    "M009": ["deny tool WebFetch"],
    "M010": ["warn tool mcp__browser__*"],
}


def test_compiles_without_diagnostics(bundle: dict[str, Any]) -> None:
    assert bundle["diagnostics"] == []


def test_every_explicit_rule_compiles_to_its_checks(bundle: dict[str, Any]) -> None:
    checks = {c["id"]: c for c in bundle["checks"]}
    found = {s["id"]: [rendered(checks[i]) for i in s["checks"]] for s in bundle["shards"] if not s["id"].startswith("S-")}
    assert found == EXPECTED


def test_a_paragraph_with_a_list_after_its_colon(bundle: dict[str, Any]) -> None:
    checks = {c["id"]: c for c in bundle["checks"]}
    generated = next(s for s in bundle["shards"] if s["text"].startswith("The generated API client"))
    assert [rendered(checks[i]) for i in generated["checks"]] == [
        "deny write clients/python/ledgerline_client.py", "deny write clients/ts/index.ts"]


def test_advisory_rules_say_why_and_mentions_stay_context(bundle: dict[str, Any]) -> None:
    advisory = [s for s in bundle["shards"] if s["enforcement"] == "advisory"]
    assert len(advisory) == 6 and all(s["why"] for s in advisory)
    assert {s["text"][:5] for s in advisory} == {"Alway", "Every", "Log t", "Keep ", "Write", "注释使用英"}
    texts = " ".join(s["text"] for s in bundle["shards"])
    for mention in ("make dev", "pg_dump", "make deploy", "rm -rf build", "git push origin", "CLAUDE.md.example"):
        assert mention not in texts
        assert all(mention not in rendered(c) for c in bundle["checks"])


def test_tags(bundle: dict[str, Any]) -> None:
    shards = {s["id"]: s for s in bundle["shards"]}
    assert shards["R001"]["risk"] == "critical" and shards["R006"]["risk"] == "high"
    assert shards["R002"]["intents"] == ["refactor"] and shards["R003"]["domains"] == ["deployment"]
    assert shards["R004"]["tools"] == ["bash"] and shards["R010"]["priority"] == 190
    money = next(s for s in bundle["shards"] if "minor units" in s["text"])
    assert money["domains"] == ["architecture"] and money["risk"] == "high"
    regression = next(s for s in bundle["shards"] if "regression test" in s["text"])
    assert regression["intents"] == ["bug-fix", "testing"] and regression["priority"] == 70
    assert all("#" not in s["text"] and "@" not in s["text"] and "(critical)" not in s["text"] for s in bundle["shards"])


def test_constitution(bundle: dict[str, Any]) -> None:
    constitution = bundle["constitution"]
    section_rules = {"R001", "R002", "R003", "R004", "R005", "R006", "R010", "R011", "R012", "R020", "R021", "R060", "R061"}
    assert section_rules < set(constitution["rules"])
    logged = next(s for s in bundle["shards"] if "card numbers or CVVs" in s["text"])
    assert logged["constitution"] and logged["id"] in constitution["rules"]  # (critical) outside the section
    assert constitution["text"].startswith("## Non-negotiable safety rules\n\n- [R001]")
    assert "R030" not in constitution["rules"]
    assert "<!--" not in constitution["text"] and "\n\n\n" not in constitution["text"]
    assert f"- [{logged['id']}] Log the request id" in constitution["text"]


def test_settings(bundle: dict[str, Any]) -> None:
    settings = bundle["settings"]
    assert settings["level"] == "strict" and settings["max_diff_lines"] == 400
    assert settings["tools_deny"] == ["WebFetch"] and "mcp__github__*" in settings["tools_allow"]
    assert settings["allow_commands"] == [["rm", "-rf", "./build"]]
    assert settings["protect_write"] == [".github/workflows/**"] and settings["protect_read"] == ["keys/**"]


def test_grammar_doc_covers_every_machine_verb() -> None:
    doc = (REPO / "docs" / "policy-grammar.md").read_text(encoding="utf-8")
    for form in ("deny command", "warn command", "ask command", "deny write", "ask write", "deny read",
                 "require ", "deny tool", "allow tool", "allow command", "protect write", "protect read",
                 "level ", "max-diff-lines"):
        assert form in doc, form
