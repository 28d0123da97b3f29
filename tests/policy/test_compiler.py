"""The compiler: stages, ids, merge, constitution, settings, and bad input never raising."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf_guidance import __version__, limits
from cf_guidance.errors import PolicyError
from cf_guidance.policy import compiler
from cf_guidance.policy.compiler import compile_project, compile_sources
from cf_guidance.policy.model import BundleModel

SOURCE_RE = re.compile(r"^CLAUDE(\.local)?\.md:\d+$")


def shard_by_text(bundle: dict[str, Any], fragment: str) -> dict[str, Any]:
    return next(s for s in bundle["shards"] if fragment in s["text"])


def levels(bundle: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d["level"], d["source"]) for d in bundle["diagnostics"]]


def test_empty_policy_is_valid() -> None:
    bundle = compile_sources(None, None)
    BundleModel.model_validate(bundle)
    assert bundle["shards"] == [] and bundle["checks"] == [] and bundle["diagnostics"] == []
    assert bundle["format"] == 1 and bundle["compiler"].startswith(f"{__version__}+")
    assert bundle["settings"]["level"] == "standard" and bundle["settings"]["max_diff_lines"] == 300
    assert [s["exists"] for s in bundle["sources"]] == [False, False]


def test_compile_project_reads_both_files(project: Path) -> None:
    (project / "CLAUDE.md").write_text("- Never run `git push --force`\n")
    (project / "CLAUDE.local.md").write_text("- Avoid `npm install`\n")
    bundle = compile_project(project)
    assert bundle["root"] == str(project)
    assert [(s["origin"], s["source"]) for s in bundle["shards"]] == [("shared", "CLAUDE.md:1"), ("local", "CLAUDE.local.md:1")]
    shared = bundle["sources"][0]
    assert shared["exists"] and shared["path"] == str(project / "CLAUDE.md") and shared["size"] == 31
    assert shared["mtime_ns"] == (project / "CLAUDE.md").stat().st_mtime_ns


def test_missing_files_give_an_empty_policy(project: Path) -> None:
    bundle = compile_project(project)
    assert bundle["shards"] == [] and bundle["diagnostics"] == []


def test_stages_are_named_in_order() -> None:
    assert [name for name, _ in compiler.STAGES] == [
        "read", "parse", "extract", "scope", "tag", "checks", "merge", "shards", "constitution", "index", "validate"]


def test_check_fields_and_ids() -> None:
    bundle = compile_sources("# Ops\n- [R7] Never run `git push --force` or `git push -f`\n")
    assert [c["id"] for c in bundle["checks"]] == ["R7#1", "R7#2"]
    check = bundle["checks"][0]
    # the message is the reason the agent reads (what is banned, what instead), not the bullet pasted;
    # `also` holds the equivalent spellings, `values` the options that take a value
    assert check == {"id": "R7#1", "rule": "R7", "kind": "command", "verdict": "deny",
                     "pattern": ["git", "push", "--force"], "anchor": True, "also": [["git", "push", "-f"]],
                     "values": ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "-o",
                                "--push-option", "--repo", "--receive-pack", "--exec"], "confidence": 1.0,
                     "message": "Not allowed: `git push --force`.", "source": "CLAUDE.md:2"}
    shard = bundle["shards"][0]
    assert shard["checks"] == ["R7#1", "R7#2"] and shard["enforcement"] == "enforced"
    assert shard["tools"] == ["bash"] and shard["risk"] == "high" and shard["section"] == "Ops"


def test_advisory_rules_are_kept() -> None:
    bundle = compile_sources("- Always write docstrings\n")
    shard = bundle["shards"][0]
    assert shard["enforcement"] == "advisory" and shard["checks"] == [] and shard["tools"] == ["all"]
    assert shard["risk"] == "medium" and shard["priority"] == 50


def test_descriptive_bullets_are_not_rules() -> None:
    bundle = compile_sources("- Python 3.11\n- `src/` holds the code\n")
    assert bundle["shards"] == []


# --- ids -------------------------------------------------------------------------------------


def test_auto_ids_survive_reordering_and_whitespace() -> None:
    a = compile_sources("- Never commit secrets\n- Always write tests\n")
    b = compile_sources("# New heading\n\n- Always   write tests\n\n- never COMMIT secrets (high)\n")
    ids_a = {s["text"].lower(): s["id"] for s in a["shards"]}
    ids_b = {" ".join(s["text"].lower().split()): s["id"] for s in b["shards"]}
    assert ids_a == ids_b
    assert all(re.fullmatch(r"S-[0-9a-f]{10}", i) for i in ids_a.values())


def test_explicit_ids_win() -> None:
    bundle = compile_sources("- [R001] Never commit secrets\n- R002: Always write tests\n")
    assert [s["id"] for s in bundle["shards"]] == ["R001", "R002"]
    assert [s["text"] for s in bundle["shards"]] == ["Never commit secrets", "Always write tests"]


def test_duplicate_ids_later_wins_with_warning() -> None:
    bundle = compile_sources("- [R1] Never commit secrets\n- [R1] Always write tests\n")
    assert [s["text"] for s in bundle["shards"]] == ["Always write tests"]
    assert ("warning", "CLAUDE.md:2") in levels(bundle)


def test_mixed_blocks_keep_implicit_bullets() -> None:
    # The anchor dropped implicit bullets from any block holding an explicit id.
    bundle = compile_sources("## Safety\n- NEVER commit secrets (critical)\n- [R001] Never run `rm -rf /`\n")
    assert len(bundle["shards"]) == 2


# --- merge -----------------------------------------------------------------------------------


def test_local_overrides_shared_by_id() -> None:
    bundle = compile_sources("- [R1] Never run `make deploy`\n", "- [R1] Avoid `make deploy`\n")
    assert len(bundle["shards"]) == 1
    shard = bundle["shards"][0]
    assert shard["origin"] == "local" and shard["source"] == "CLAUDE.local.md:1"
    assert [c["verdict"] for c in bundle["checks"]] == ["warn"]
    assert ("info", "CLAUDE.local.md:1") in levels(bundle)


def test_local_override_cannot_silently_demote_the_constitution() -> None:
    bundle = compile_sources("## Safety\n- [R1] Never run `make deploy`\n", "- [R1] Avoid `make deploy`\n")
    shard = bundle["shards"][0]
    assert shard["constitution"] is True and shard["priority"] == 150
    assert ("warning", "CLAUDE.local.md:1") in levels(bundle)
    assert "weakens constitution rule" in bundle["diagnostics"][0]["message"]


def test_settings_merge_and_level_warning() -> None:
    shared = "```guidance\nlevel strict\nallow tool Read\nprotect write deploy/**\nmax-diff-lines 100\n```\n"
    local = "```guidance\nlevel standard\nallow tool Read Grep\nmax-diff-lines 500\n```\n"
    bundle = compile_sources(shared, local)
    settings = bundle["settings"]
    assert settings["level"] == "standard" and settings["max_diff_lines"] == 500
    assert settings["tools_allow"] == ["Read", "Grep"] and settings["protect_write"] == ["deploy/**"]
    assert ("warning", "CLAUDE.local.md:2") in levels(bundle)


def test_deny_tool_also_fills_tools_deny() -> None:
    bundle = compile_sources("```guidance\ndeny tool WebFetch\nwarn tool WebSearch\n```\n")
    assert bundle["settings"]["tools_deny"] == ["WebFetch"]
    assert [s["tools"] for s in bundle["shards"]] == [["web"], ["web"]]


def test_machine_rules_become_shards_with_reasons() -> None:
    bundle = compile_sources("```guidance\n[R10] deny command git push --force -- rewrites shared history\n```\n")
    shard = bundle["shards"][0]
    assert shard["id"] == "R10" and shard["source"] == "CLAUDE.md:2"
    assert shard["text"] == "deny command git push --force \u2014 rewrites shared history"
    assert bundle["checks"][0]["message"] == "rewrites shared history"


# --- constitution ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "constitutional"),
    [("Safety", True), ("Security rules", True), ("CRITICAL", True), ("Non-negotiable", True),
     ("Non negotiable", True), ("Always", True), ("Never do these", True),
     ("Alwaysish", False), ("Unsafety", False), ("Workflow", False), ("Insecurity", False)],
)
def test_constitution_headings_are_whole_words(heading: str, constitutional: bool) -> None:
    bundle = compile_sources(f"## {heading}\n- Never commit secrets\n")
    shard = bundle["shards"][0]
    assert shard["constitution"] is constitutional
    assert shard["priority"] == (150 if constitutional else 50)
    assert (shard["id"] in bundle["constitution"]["rules"]) is constitutional


def test_constitution_text_is_the_sections_markdown() -> None:
    text = "# X\nintro\n## Safety\n- Never commit secrets\n\n### Sub\n- Never run `rm -rf /`\n## Other\n- Keep it (critical)\n"
    bundle = compile_sources(text)
    constitution = bundle["constitution"]
    assert constitution["text"].startswith("## Safety\n- Never commit secrets\n\n### Sub\n- Never run `rm -rf /`")
    assert "- [" in constitution["text"].splitlines()[-1] and "Keep it" in constitution["text"]
    assert re.fullmatch(r"[0-9a-f]{16}", constitution["hash"])
    assert len(constitution["rules"]) == 3


def test_constitution_text_is_capped() -> None:
    text = "## Safety\n" + "".join(f"- Never do thing {i}\n" for i in range(200))
    bundle = compile_sources(text)
    lines = bundle["constitution"]["text"].splitlines()
    assert len(lines) == compiler.MAX_CONSTITUTION_LINES
    assert lines[-1].startswith("\u2026 (")


# --- inference ---------------------------------------------------------------------------------


def test_intents_domains_inferred_with_word_boundaries() -> None:
    bundle = compile_sources("- Always add unit tests for security fixes\n- Keep the decision logic pure\n")
    first, second = bundle["shards"]
    assert "testing" in first["intents"] and "security" in first["intents"]
    assert "testing" in first["domains"] and "security" in first["domains"]
    # "decision" holds "ci" and "logic" holds "log": whole-word matching ignores both.
    assert "deployment" not in second["intents"] and "debug" not in second["intents"]


def test_retrieval_index_covers_every_shard() -> None:
    bundle = compile_sources("- Never commit secrets\n- Always write tests\n")
    index = bundle["retrieval"]
    assert set(index["docs"]) == {s["id"] for s in bundle["shards"]}
    assert index["df"]["secret"] == 1 and index["avgdl"] > 0


def test_key_depends_on_content_and_version() -> None:
    a = compile_sources("- Never commit secrets\n")
    b = compile_sources("- Never commit secrets!\n")
    c = compile_sources(None, "- Never commit secrets\n")
    assert len({a["key"], b["key"], c["key"]}) == 3
    assert a["key"] == compile_sources("- Never commit secrets\n")["key"]


# --- errors and bad input ----------------------------------------------------------------------


def test_malformed_guidance_line_is_an_error_naming_file_line() -> None:
    bundle = compile_sources("# X\n\n```guidance\ndeny command rm -rf /tmp/x\nforbid everything\n```\n- Never run `make nuke`\n")
    assert levels(bundle) == [("error", "CLAUDE.md:5")]
    assert "unknown verb 'forbid'" in bundle["diagnostics"][0]["message"]
    assert len(bundle["checks"]) == 2  # the other rules still compile (hook path: strict=False)


def test_strict_raises_the_first_error_as_one_line() -> None:
    with pytest.raises(PolicyError) as info:
        compile_sources(None, "```guidance\nlevel lax\n```\n", strict=True)
    message = str(info.value)
    assert message.startswith("CLAUDE.local.md:2: invalid guidance rule") and "\n" not in message


def test_strict_project_compile(project: Path) -> None:
    (project / "CLAUDE.md").write_text("```guidance\ndeny\n```\n")
    with pytest.raises(PolicyError, match=r"^CLAUDE\.md:2: "):
        compile_project(project, strict=True)
    assert compile_project(project)["diagnostics"][0]["level"] == "error"


def test_unclosed_fence_is_a_warning_and_hides_the_rest() -> None:
    bundle = compile_sources("- Never run `make a`\n```bash\n- Never run `make b`\n")
    assert levels(bundle) == [("warning", "CLAUDE.md:2")]
    assert len(bundle["checks"]) == 1


def test_binary_content_is_not_compiled() -> None:
    bundle = compile_sources(b"- Never run `make a`\n\x00\x01\x02")
    assert bundle["shards"] == [] and levels(bundle) == [("error", "CLAUDE.md:1")]
    assert "binary" in bundle["diagnostics"][0]["message"]


def test_oversized_file_is_not_compiled(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    monkeypatch.setattr(limits, "MAX_POLICY_BYTES", 100)
    (project / "CLAUDE.md").write_text("- Never run `make a`\n" * 20)
    bundle = compile_project(project)
    assert bundle["shards"] == [] and levels(bundle) == [("error", "CLAUDE.md:1")]
    assert "over the 100-byte limit" in bundle["diagnostics"][0]["message"]
    assert bundle["sources"][0]["size"] == 420


def test_too_many_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_POLICY_RULES", 3)
    bundle = compile_sources("".join(f"- Never do thing {i}\n" for i in range(5)))
    assert len(bundle["shards"]) == 3 and levels(bundle) == [("error", "CLAUDE.md:4")]


def test_unreadable_source_is_an_error(project: Path) -> None:
    (project / "CLAUDE.md").mkdir()
    bundle = compile_project(project)
    assert levels(bundle) == [("error", "CLAUDE.md:1")] and "cannot read" in bundle["diagnostics"][0]["message"]


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_special_files_are_refused_without_blocking(project: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(project / "CLAUDE.md")
    else:
        (project / "CLAUDE.md").symlink_to("/dev/zero")
    bundle = compile_project(project)
    assert levels(bundle) == [("error", "CLAUDE.md:1")]
    assert "not a regular file" in bundle["diagnostics"][0]["message"]


ENCODINGS = [
    ("utf-8 with BOM", b"\xef\xbb\xbf- Never run `make caf\xc3\xa9`\n", [], "make café"),
    ("utf-16 LE with BOM", "- Never run `make café`\n".encode("utf-16"), [("info", "CLAUDE.md:1")], "make café"),
    ("utf-16 BE with BOM", b"\xfe\xff" + "- Never run `make café`\n".encode("utf-16-be"), [("info", "CLAUDE.md:1")], "make café"),
    ("latin-1", "- Never run `make café`\n".encode("latin-1"), [("warning", "CLAUDE.md:1")], "make café"),
    ("invalid utf-8", b"- Never run `make caf\x81\xff`\n", [("warning", "CLAUDE.md:1")], "make caf\ufffd\ufffd"),
    ("utf-8 with one broken byte", "- Never run `make café` \u2014 ok\n".encode() + b"\xe9\n", [("warning", "CLAUDE.md:1")], "make café"),
    ("CRLF", b"# T\r\n\r\n- Never run `make caf`\r\n", [], "make caf"),
]


@pytest.mark.parametrize(("name", "data", "diagnostics", "pattern"), ENCODINGS, ids=[e[0] for e in ENCODINGS])
def test_encodings(name: str, data: bytes, diagnostics: list[tuple[str, str]], pattern: str) -> None:
    bundle = compile_sources(data)
    assert levels(bundle) == diagnostics
    assert [" ".join(c["pattern"]) for c in bundle["checks"]] == [pattern]


def test_crlf_keeps_line_numbers() -> None:
    bundle = compile_sources(b"# T\r\n\r\n- Never run `make caf`\r\n")
    assert bundle["shards"][0]["source"] == "CLAUDE.md:3"


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"```", b"- ", b"* * *", b"#", b"[R1]", b"- [R1]", b"```guidance\n", b"```guidance\n[R1]\n```",
     b"<!-- - Never run `x` -->", b"| a | b |\n|---|---|\n| never run `x` | y |", b"- " + b"`" * 5000,
     b"\xff" * 100, "- \u202enever run `rm -rf /`\n".encode(), b"- [" * 1000, b">" * 500 + b" - Never run `x`"],
)
def test_garbage_never_raises(data: bytes) -> None:
    bundle = compile_sources(data, data)
    BundleModel.model_validate(bundle)
    assert all(SOURCE_RE.match(d["source"]) for d in bundle["diagnostics"])


def test_every_diagnostic_names_file_and_line() -> None:
    bundle = compile_sources("```guidance\nbad\n```\n- [R1] a must\n- [R1] b must\n```\n", b"\x00")
    assert bundle["diagnostics"]
    assert all(SOURCE_RE.match(d["source"]) for d in bundle["diagnostics"])


def test_diagnostics_are_capped_but_errors_stay_visible() -> None:
    text = "- Never run `make x`\n" * 300 + "```guidance\nbogus\n```\n"
    bundle = compile_sources(text)
    assert len(bundle["diagnostics"]) == compiler.MAX_DIAGNOSTICS
    assert ("error", "CLAUDE.md:302") in levels(bundle)
    last = bundle["diagnostics"][-1]
    assert last["level"] == "warning" and last["message"].startswith("101 more diagnostics not listed")
    with pytest.raises(PolicyError, match="CLAUDE.md:302"):
        compile_sources(text, strict=True)


def test_a_document_title_is_not_a_constitution_section() -> None:
    titled = compile_sources("# Security scanner service\n\n## Workflow\n- Never commit secrets\n")
    assert titled["shards"][0]["constitution"] is False and titled["constitution"]["text"] == ""
    # With several level-1 headings they are sections, and "# Security" is one.
    sections = compile_sources("# Intro\n- Keep it short\n# Security\n- Never commit secrets\n")
    assert [s["constitution"] for s in sections["shards"]] == [True, False]
    assert sections["constitution"]["text"] == "# Security\n- Never commit secrets"


_FRAGMENTS = st.sampled_from([
    "- ", "* ", "1. ", "  ", "# ", "## Safety\n", "```", "```guidance\n", "\n", "`", "Never run ", "Avoid ",
    "Ask before ", "Never edit ", "before committing", "[R1] ", "R002: ", "(critical)", "#security", "@testing",
    "[bash]", "priority: 5", "deny command ", "require ", "allow tool ", "level strict", " -- ", "<!--", "-->",
    "git push --force", "rm -rf /", "data/", "\ue000", "\ue001", "0", "\x00", "\r\n", "\u2014", "'", '"',
])


@settings(max_examples=150, deadline=None)
@given(st.lists(_FRAGMENTS, max_size=60).map("".join), st.binary(max_size=300))
def test_fuzz_never_raises(text: str, data: bytes) -> None:
    for shared, local in ((text, None), (data, text)):
        bundle = compile_sources(shared, local)
        BundleModel.model_validate(bundle)
        assert all(SOURCE_RE.match(d["source"]) for d in bundle["diagnostics"])
        assert {c["rule"] for c in bundle["checks"]} <= {s["id"] for s in bundle["shards"]}


_RULES = st.lists(
    st.sampled_from([
        "Never run `git push --force`", "Avoid `npm install`", "Ask before running `terraform apply`",
        "Never edit `migrations/`", "Never read `.env`", "Always run `make test` before committing",
        "Always write docstrings", "Keep functions small", "Prefer composition (low)", "Use `uv` #performance",
    ]),
    min_size=1, max_size=10, unique=True,
)


@settings(max_examples=60, deadline=None)
@given(_RULES, st.randoms(use_true_random=False))
def test_ids_and_checks_do_not_depend_on_order(rules: list[str], rng: Any) -> None:
    shuffled = rules[:]
    rng.shuffle(shuffled)
    a = compile_sources("".join(f"- {r}\n" for r in rules))
    b = compile_sources("# Moved\n\n" + "".join(f"* {r}\n\n" for r in shuffled))

    def by_id(bundle: dict[str, Any]) -> dict[str, Any]:
        return {s["id"]: sorted((c["kind"], c["verdict"], str(c.get("pattern") or c.get("before")))
                                for c in bundle["checks"] if c["rule"] == s["id"]) for s in bundle["shards"]}

    assert by_id(a) == by_id(b)
