"""Which policy files are read, as the agents read them: tables of source layouts.

Each case is a project layout (path -> text; `-> target` makes a symlink) and what compiling
it must give: the status of the files listed, the diagnostics (level, where, words), and the
rules (their source file:line). What Claude Code itself loads for these layouts was checked
with the pinned client (docs/policy-grammar.md, "Sources").
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from cf_guidance import limits
from cf_guidance.policy.compiler import compile_project
from cf_guidance.policy.sources import import_lines, import_target


def build(root: Path, layout: dict[str, str]) -> None:
    for rel, text in layout.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if text.startswith("-> "):
            path.symlink_to(text[3:])
        else:
            path.write_text(text)


def statuses(bundle: dict[str, Any]) -> dict[str, str]:
    return {s["name"]: s["status"] for s in bundle["sources"] if s["status"] != "absent" or s["imported_by"]}


def rule_sources(bundle: dict[str, Any]) -> list[str]:
    return sorted(shard["source"] for shard in bundle["shards"])


def diagnostics(bundle: dict[str, Any], level: str) -> list[str]:
    return [f"{d['source']} {d['message']}" for d in bundle["diagnostics"] if d["level"] == level]


# --- imports ---------------------------------------------------------------------------------

IMPORT_CASES = {
    "relative to the importing file": (
        {"CLAUDE.md": "@docs/a.md\n", "docs/a.md": "- Never run `make a`\n@b.md\n", "docs/b.md": "- Never run `make b`\n",
         "b.md": "- Never run `make root-b`\n"},
        {"CLAUDE.md": "read", "docs/a.md": "read", "docs/b.md": "read"},
        ["docs/a.md:1", "docs/b.md:1"],
    ),
    ".claude/CLAUDE.md imports from .claude/": (
        {".claude/CLAUDE.md": "@rules.md\n", ".claude/rules.md": "- Never run `make c`\n", "rules.md": "- Never run `make r`\n"},
        {".claude/CLAUDE.md": "read", ".claude/rules.md": "read"},
        [".claude/rules.md:1"],
    ),
    "CLAUDE.local.md imports are local": (
        {"CLAUDE.md": "- Never run `make a`\n", "CLAUDE.local.md": "@mine.md\n", "mine.md": "- Never run `make mine`\n"},
        {"CLAUDE.md": "read", "CLAUDE.local.md": "read", "mine.md": "read"},
        ["CLAUDE.md:1", "mine.md:1"],
    ),
    "inline, bullet, ./ and #anchor forms": (
        {"CLAUDE.md": "See @a.md for more.\n- also @./b.md\n@c.md#rules\n", "a.md": "- Never run `make a`\n",
         "b.md": "- Never run `make b`\n", "c.md": "- Never run `make c`\n"},
        {"CLAUDE.md": "read", "a.md": "read", "b.md": "read", "c.md": "read"},
        ["a.md:1", "b.md:1", "c.md:1"],
    ),
    "not imports: code, comments, mail, brackets, escapes": (
        {"CLAUDE.md": "`@a.md` and\n\n```\n@b.md\n```\n\n<!-- @c.md -->\n\nmail x@d.md (@e.md) \\@f.md\n",
         **{f"{n}.md": f"- Never run `make {n}`\n" for n in "abcdef"}},
        {"CLAUDE.md": "read"},
        [],
    ),
    "a file imported twice is read once": (
        {"CLAUDE.md": "@a.md\n@b.md\n", "a.md": "@c.md\n", "b.md": "@c.md\n", "c.md": "- Never run `make c`\n"},
        {"CLAUDE.md": "read", "a.md": "read", "b.md": "read", "c.md": "read"},
        ["c.md:1"],
    ),
    "text that is not markdown is a reference": (
        {"CLAUDE.md": "@package.json\n@notes\n", "package.json": '{"scripts": {}}\n', "notes": "- Never run `make n`\n"},
        {"CLAUDE.md": "read", "package.json": "reference", "notes": "read"},
        ["notes:1"],
    ),
}


@pytest.mark.parametrize("name", list(IMPORT_CASES))
def test_imports(project: Path, name: str) -> None:
    layout, expected, sources = IMPORT_CASES[name]
    build(project, layout)
    bundle = compile_project(project)
    assert statuses(bundle) == expected
    assert [s for s in rule_sources(bundle) if s != "CLAUDE.md:1"] == [s for s in sources if s != "CLAUDE.md:1"]
    assert not diagnostics(bundle, "error") and not diagnostics(bundle, "warning")


def test_an_import_cycle_is_read_once_with_a_warning(project: Path) -> None:
    build(project, {"CLAUDE.md": "@a.md\n", "a.md": "- Never run `make a`\n@b.md\n", "b.md": "- Never run `make b`\n@a.md\n"})
    bundle = compile_project(project)
    assert statuses(bundle) == {"CLAUDE.md": "read", "a.md": "read", "b.md": "read"}
    assert rule_sources(bundle) == ["a.md:1", "b.md:1"]
    [warning] = diagnostics(bundle, "warning")
    assert warning.startswith("b.md:2 import cycle: a.md imports itself")


def test_a_self_import_is_a_cycle(project: Path) -> None:
    build(project, {"CLAUDE.md": "- Never run `make a`\n@CLAUDE.md\n"})
    bundle = compile_project(project)
    assert rule_sources(bundle) == ["CLAUDE.md:1"]
    assert diagnostics(bundle, "warning")[0].startswith("CLAUDE.md:2 import cycle")


def test_imports_stop_where_claude_code_stops(project: Path) -> None:
    # CLAUDE.md -> a -> b -> c -> d is loaded by Claude Code 2.1.328; e (the fifth hop) is not
    chain = "abcdef"
    layout = {"CLAUDE.md": "@a.md\n"}
    for here, after in zip(chain, chain[1:] + "-"):
        layout[f"{here}.md"] = f"- Never run `make {here}`\n" + (f"@{after}.md\n" if after != "-" else "")
    build(project, layout)
    bundle = compile_project(project)
    assert rule_sources(bundle) == [f"{n}.md:1" for n in "abcd"]
    [warning] = diagnostics(bundle, "warning")
    assert warning.startswith(f"d.md:2 @e.md is more than {limits.MAX_IMPORT_HOPS} imports away")


def test_missing_imports_warn_only_about_file_names(project: Path) -> None:
    build(project, {"CLAUDE.md": "@docs/rules.md\nUse @types/node and ask @alice for a review.\n"})
    bundle = compile_project(project)
    assert diagnostics(bundle, "warning") == ["CLAUDE.md:1 import of docs/rules.md: no such file; nothing was read"]
    assert [d.split(" ")[0] for d in diagnostics(bundle, "info")] == ["CLAUDE.md:2", "CLAUDE.md:2"]
    # listed all the same: creating one changes the policy (the cache stats them)
    assert statuses(bundle) == {"CLAUDE.md": "read", "docs/rules.md": "absent", "types/node": "absent", "alice": "absent"}


def test_an_import_from_home_is_local_policy(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    build(home, {".claude/mine.md": "- Never run `make mine`\n"})
    monkeypatch.setenv("HOME", str(home))
    build(project, {"CLAUDE.md": "@~/.claude/mine.md\n"})
    bundle = compile_project(project)
    [source] = [s for s in bundle["sources"] if s["kind"] == "import"]
    assert (source["name"], source["origin"], source["path"]) == ("~/.claude/mine.md", "local", str(home / ".claude/mine.md"))
    assert [s["origin"] for s in bundle["shards"]] == ["local"] and rule_sources(bundle) == ["~/.claude/mine.md:1"]
    assert "outside the project" in diagnostics(bundle, "info")[0]


@pytest.mark.parametrize("target", [".env", "config/credentials.json", "secrets/prod.md", "keys/id_rsa"])
def test_a_secret_file_is_never_imported(project: Path, target: str) -> None:
    build(project, {"CLAUDE.md": f"@{target}\n", target: "- Never run `make secret`\n"})
    bundle = compile_project(project)
    assert statuses(bundle) == {"CLAUDE.md": "read"} and not bundle["shards"]
    assert "names a secret file" in diagnostics(bundle, "warning")[0]


def test_a_binary_extension_is_not_imported(project: Path) -> None:
    build(project, {"CLAUDE.md": "@logo.png\n", "logo.png": "- Never run `make png`\n"})
    bundle = compile_project(project)
    assert statuses(bundle) == {"CLAUDE.md": "read"} and "not a text file" in diagnostics(bundle, "info")[0]


@pytest.mark.parametrize("word,path", [
    ("a.md", "a.md"), ("./a.md", "./a.md"), ("~/x.md", "~/x.md"), ("/etc/x.md", "/etc/x.md"), ("a.md#part", "a.md"),
    ("my\\ notes.md", "my notes.md"), ("_x", "_x"), ("/", None), ("#x", None), ("@scope", None), ("(x)", None), ("", None),
])
def test_import_target(word: str, path: str | None) -> None:
    assert import_target(word) == path


def test_import_lines_name_the_line() -> None:
    text = "# T\n\nSee @a.md and\n@b.md.\n\n| x | @c.md |\n|---|---|\n| 1 | 2 |\n"
    assert import_lines(text) == [(3, "a.md"), (4, "b.md."), (6, "c.md")]


# --- CLAUDE.md and AGENTS.md -----------------------------------------------------------------

AGENTS_CASES = {
    "CLAUDE.md is a symlink to AGENTS.md": (
        {"AGENTS.md": "- Never run `make a`\n", "CLAUDE.md": "-> AGENTS.md"},
        {"CLAUDE.md": "read", "AGENTS.md": "duplicate"},
    ),
    "AGENTS.md is a symlink to CLAUDE.md": (
        {"CLAUDE.md": "- Never run `make a`\n", "AGENTS.md": "-> CLAUDE.md"},
        {"CLAUDE.md": "read", "AGENTS.md": "duplicate"},
    ),
    "CLAUDE.md imports @AGENTS.md": (  # read as the import; Codex's own listing of it is the duplicate
        {"CLAUDE.md": "@AGENTS.md\n", "AGENTS.md": "- Never run `make a`\n"},
        {"CLAUDE.md": "read", "AGENTS.md": "duplicate"},
    ),
    "AGENTS.md is a copy of CLAUDE.md": (
        {"CLAUDE.md": "- Never run `make a`\n", "AGENTS.md": "- Never run `make a`\n"},
        {"CLAUDE.md": "read", "AGENTS.md": "duplicate"},
    ),
    "both say the same rule among others": (
        {"CLAUDE.md": "- Never run `make a`\n", "AGENTS.md": "# Codex\n\n- Never run `make a`\n- Never run `make b`\n"},
        {"CLAUDE.md": "read", "AGENTS.md": "read"},
    ),
    "only AGENTS.md": (
        {"AGENTS.md": "- Never run `make a`\n"},
        {"AGENTS.md": "read"},
    ),
    "AGENTS.override.md wins over AGENTS.md": (
        {"AGENTS.override.md": "- Never run `make a`\n", "AGENTS.md": "- Never run `make b`\n"},
        {"AGENTS.override.md": "read", "AGENTS.md": "skipped"},
    ),
}


@pytest.mark.parametrize("name", list(AGENTS_CASES))
def test_claude_md_and_agents_md(project: Path, name: str) -> None:
    layout, expected = AGENTS_CASES[name]
    build(project, layout)
    bundle = compile_project(project)
    assert statuses(bundle) == expected
    patterns = [" ".join(c["pattern"]) for c in bundle["checks"]]
    assert patterns.count("make a") == 1, patterns  # the same rule never twice
    assert not diagnostics(bundle, "warning") and not diagnostics(bundle, "error")


def test_every_policy_file_is_listed_with_its_path(project: Path) -> None:
    build(project, {"CLAUDE.md": "@docs/x.md\n", "docs/x.md": "- a\n", "AGENTS.md": "-> CLAUDE.md", "src/CLAUDE.md": "- b\n"})
    bundle = compile_project(project)
    listed = {s["name"]: s for s in bundle["sources"]}
    assert set(listed) == {"CLAUDE.md", "docs/x.md", ".claude/CLAUDE.md", "CLAUDE.local.md", "AGENTS.override.md",
                           "AGENTS.md", "src/CLAUDE.md"}
    assert all(s["path"] == str(project / s["name"]) for s in listed.values())
    assert listed["src/CLAUDE.md"]["scope"] == "src" and listed["docs/x.md"]["imported_by"] == "CLAUDE.md:1"


# --- subdirectories --------------------------------------------------------------------------


def test_subdirectory_files_are_scoped_to_their_directory(project: Path) -> None:
    build(project, {
        "CLAUDE.md": "- Never run `make a`\n",
        "src/gen/CLAUDE.md": "## Safety\n\n- Never run `make a`\n- Never edit `*.pb.go`\n- Don't edit `schema/`\n@more.md\n",
        "src/gen/more.md": "- Never touch `/etc/hosts`\n",
        "src/gen/.claude/CLAUDE.md": "- Never run `make dot`\n",
        "src/gen/CLAUDE.local.md": "- Never run `make mine`\n",
        "api/AGENTS.md": "- Never run `npm publish`\n",
    })
    bundle = compile_project(project)
    scopes = {s["name"]: s["scope"] for s in bundle["sources"] if s["status"] == "read"}
    assert scopes == {"CLAUDE.md": "", "api/AGENTS.md": "api", "src/gen/CLAUDE.md": "src/gen", "src/gen/more.md": "src/gen",
                      "src/gen/.claude/CLAUDE.md": "src/gen", "src/gen/CLAUDE.local.md": "src/gen"}
    checks = {(c["source"], c.get("scope", ""), " ".join(c["pattern"]) if isinstance(c["pattern"], list) else c["pattern"])
              for c in bundle["checks"]}
    assert checks == {
        ("CLAUDE.md:1", "", "make a"),
        ("src/gen/CLAUDE.md:3", "src/gen", "make a"),  # the same sentence, a different rule
        ("src/gen/CLAUDE.md:4", "src/gen", "src/gen/**/*.pb.go"),
        ("src/gen/CLAUDE.md:5", "src/gen", "src/gen/schema/**"),
        ("src/gen/more.md:1", "src/gen", "/etc/hosts"),  # absolute: kept as written
        ("src/gen/more.md:1", "src/gen", "/etc/hosts/**"),
        ("src/gen/.claude/CLAUDE.md:1", "src/gen", "make dot"),
        ("src/gen/CLAUDE.local.md:1", "src/gen", "make mine"),
        ("api/AGENTS.md:1", "api", "npm publish"),
    }
    ids = [s["id"] for s in bundle["shards"]]
    assert len(ids) == len(set(ids))
    # the constitution is shown to the whole project at session start: scoped files stay out of it
    assert bundle["constitution"] == {"hash": bundle["constitution"]["hash"], "rules": [], "text": ""}


def test_settings_of_a_subdirectory_file(project: Path) -> None:
    build(project, {"sub/CLAUDE.md": "```guidance\nlevel paranoid\nprotect write out/**\nallow command rm -rf ./x\n"
                                     "deny tool WebFetch\n```\n"})
    bundle = compile_project(project)
    settings = bundle["settings"]
    assert settings["level"] == "standard" and settings["allow_commands"] == [] and settings["tools_deny"] == []
    assert settings["protect_write"] == ["sub/out/**"]
    assert [d.split(" ")[0] for d in diagnostics(bundle, "warning")] == ["sub/CLAUDE.md:2", "sub/CLAUDE.md:4"]
    [tool] = [c for c in bundle["checks"] if c["kind"] == "tool"]
    assert tool["scope"] == "sub"


@pytest.mark.parametrize("skipped", ["node_modules/pkg", "vendor", ".venv/lib", "build/out", "third_party/x", "data/set"])
def test_dependency_build_hidden_and_ignored_directories_are_not_walked(project: Path, skipped: str) -> None:
    build(project, {".gitignore": "# data\ndata/\n!keep/\n", f"{skipped}/CLAUDE.md": "- Never run `make x`\n",
                    "src/CLAUDE.md": "- Never run `make y`\n"})
    bundle = compile_project(project)
    assert rule_sources(bundle) == ["src/CLAUDE.md:1"]
    assert skipped.split("/")[0] not in bundle["tree"]["dirs"]
    assert bundle["tree"]["ignore"] == ["data"]


def test_a_symlinked_directory_is_not_followed(project: Path, tmp_path: Path) -> None:
    build(tmp_path / "elsewhere", {"CLAUDE.md": "- Never run `make x`\n"})
    (project / "linked").symlink_to(tmp_path / "elsewhere")
    (project / "loop").symlink_to(project)
    assert compile_project(project)["shards"] == []


# --- limits ----------------------------------------------------------------------------------


def test_directory_limit(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_DISCOVERY_DIRS", 3)
    build(project, {f"d{n}/CLAUDE.md": f"- Never run `make {n}`\n" for n in range(4)})
    bundle = compile_project(project)
    assert rule_sources(bundle) == ["d0/CLAUDE.md:1", "d1/CLAUDE.md:1"]
    assert diagnostics(bundle, "warning") == [
        "CLAUDE.md:1 looked in 3 directories (limits.MAX_DISCOVERY_DIRS); d2/ and the directories after it were not "
        "searched for CLAUDE.md or AGENTS.md files"]


def test_depth_limit(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_DISCOVERY_DEPTH", 2)
    build(project, {"a/b/CLAUDE.md": "- Never run `make b`\n", "a/b/c/CLAUDE.md": "- Never run `make c`\n"})
    bundle = compile_project(project)
    assert rule_sources(bundle) == ["a/b/CLAUDE.md:1"]
    assert "more than 2 levels deep" in diagnostics(bundle, "warning")[0]


def test_source_limit(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_POLICY_SOURCES", 6)  # the root's five candidates and one more
    build(project, {"CLAUDE.md": "- Never run `make a`\n", "a/CLAUDE.md": "- Never run `make b`\n", "b/CLAUDE.md": "- c\n"})
    bundle = compile_project(project)
    assert len(bundle["sources"]) == 6 and rule_sources(bundle) == ["CLAUDE.md:1", "a/CLAUDE.md:1"]
    assert "more than 6 policy files" in diagnostics(bundle, "warning")[0]


def test_total_bytes_limit(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_POLICY_TOTAL_BYTES", 40)
    build(project, {"CLAUDE.md": "- Never run `make a`\n", "sub/CLAUDE.md": "- Never run `make b` in the sub dir\n"})
    bundle = compile_project(project)
    assert statuses(bundle)["sub/CLAUDE.md"] == "skipped" and rule_sources(bundle) == ["CLAUDE.md:1"]
    assert "sub/CLAUDE.md was not compiled" in diagnostics(bundle, "warning")[0]


def test_a_missing_project_lists_the_root_candidates(tmp_path: Path) -> None:
    bundle = compile_project(tmp_path / "nowhere")
    assert [s["name"] for s in bundle["sources"]] == ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md",
                                                       "AGENTS.override.md", "AGENTS.md"]
    assert {s["status"] for s in bundle["sources"]} == {"absent"} and bundle["tree"]["dirs"] == {}


def test_unreadable_subdirectory_is_a_warning(project: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every directory")
    build(project, {"locked/CLAUDE.md": "- x\n"})
    (project / "locked").chmod(0)
    try:
        assert "cannot list locked/" in diagnostics(compile_project(project), "warning")[0]
    finally:
        (project / "locked").chmod(0o755)


def test_domain_tags_and_repeated_mentions_are_not_listed_twice(project: Path) -> None:
    build(project, {"CLAUDE.md": "- Never run `make a` @deployment\n- Never run `make b` @security\nAsk @alice.\n"
                                 "Or @alice again.\n"})
    assert import_lines((project / "CLAUDE.md").read_text()) == [(1, "deployment"), (2, "security"), (3, "alice."), (4, "alice")]
    bundle = compile_project(project)
    assert statuses(bundle) == {"CLAUDE.md": "read", "alice": "absent"}
    assert [s["domains"] for s in bundle["shards"]] == [["deployment"], ["security"]]
    assert diagnostics(bundle, "info") == ["CLAUDE.md:3 @alice. is not a text file; it is not imported (as in Claude Code)",
                                           "CLAUDE.md:4 import of alice: no such file; nothing was read"]
    (project / "security").write_text("- Never run `make c`\n")  # a file of that name is imported, as by Claude Code
    assert "security:1" in rule_sources(compile_project(project))
