"""Directory stamps: the cache notices new, changed and removed policy files anywhere in the
project without walking it again, and ignores changes that cannot matter."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.policy import cache, tree
from cf_guidance.policy.cache import load_bundle
from cf_guidance.policy.sources import discover


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = cache._compile

    def compile_and_count(root: str) -> dict[str, Any]:
        calls.append(root)
        return real(root)

    monkeypatch.setattr(cache, "_compile", compile_and_count)
    return calls


def _age_tree(root: Path) -> None:
    """Every file and directory 10 s old: out of the racy window, so a hit is a plain stat."""
    for path in [root, *root.rglob("*")]:
        st = path.lstat()
        if not path.is_symlink():
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 10_000_000_000))


def _project(root: Path) -> Path:
    for rel, text in {"CLAUDE.md": "- Never run `make a`\n@docs/more.md\n", "docs/more.md": "- Never run `make b`\n",
                      "src/app/main.py": "print()\n", "src/gen/CLAUDE.md": "- Never run `make gen`\n"}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    _age_tree(root)
    return root


def _patterns(bundle: dict[str, Any]) -> list[str]:
    return sorted(" ".join(c["pattern"]) for c in bundle["checks"])


def _settled(project: Path) -> dict[str, Any]:
    """A cached bundle whose next load is a plain hit (the first compile created the state
    directory in the project root: the root's new mtime is refreshed by the next load)."""
    load_bundle(str(project))
    _age_tree(project)
    load_bundle(str(project))
    return load_bundle(str(project))


CHANGES = {
    "a new subdirectory CLAUDE.md": (lambda p: (p / "src/app/CLAUDE.md").write_text("- Never run `make app`\n"), True),
    "a new .claude/CLAUDE.md": (lambda p: ((p / "src/app/.claude").mkdir(), (p / "src/app/.claude/CLAUDE.md").write_text("- x\n")), True),
    "a new AGENTS.md": (lambda p: (p / "docs/AGENTS.md").write_text("- Never run `npm publish`\n"), True),
    "an edited import": (lambda p: (p / "docs/more.md").write_text("- Never run `make c`\n"), True),
    "a created missing import": (lambda p: ((p / "CLAUDE.md").write_text("@late.md\n"), _age_tree(p), load_bundle(str(p)),
                                            (p / "late.md").write_text("- Never run `make late`\n")), True),
    "a removed subdirectory CLAUDE.md": (lambda p: (p / "src/gen/CLAUDE.md").unlink(), True),
    "a removed walked directory": (lambda p: shutil.rmtree(p / "src/app"), True),
    "a new subdirectory": (lambda p: (p / "src/lib").mkdir(), True),
    "an ignored subdirectory CLAUDE.md": (lambda p: ((p / ".gitignore").write_text("out/\n"), _age_tree(p), load_bundle(str(p)),
                                                     (p / "out").mkdir(), (p / "out/CLAUDE.md").write_text("- x\n")), False),
    "a new source file": (lambda p: (p / "src/app/util.py").write_text("x = 1\n"), False),
    "a rewritten source file": (lambda p: (p / "src/app/main.py").write_text("print(1)\n"), False),
    "a new node_modules tree": (lambda p: ((p / "node_modules/pkg").mkdir(parents=True), (p / "node_modules/pkg/CLAUDE.md").write_text("- x\n")), False),
    "a new hidden directory": (lambda p: (p / ".cache").mkdir(), False),
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_what_a_change_does_to_the_cache(tmp_path: Path, counting: list[str], name: str) -> None:
    project = _project(tmp_path / "project")
    before = _settled(project)
    change, recompiles = CHANGES[name]
    compiled = len(counting)
    change(project)
    compiled_by_setup = len(counting) - compiled
    after = load_bundle(str(project))
    assert (len(counting) - compiled - compiled_by_setup == 1) is recompiles, name
    if recompiles:
        assert after == cache._compile(str(project)) or _patterns(after) == _patterns(cache._compile(str(project)))
    else:
        assert _patterns(after) == _patterns(before)
        counting.clear()
        load_bundle(str(project))
        assert not counting  # the refreshed stamps make the next call a plain hit


def test_a_new_rule_in_a_subdirectory_is_enforced_at_once(tmp_path: Path) -> None:
    project = _project(tmp_path / "project")
    _settled(project)
    (project / "src/app/CLAUDE.md").write_text("- Never run `make app`\n")
    bundle = load_bundle(str(project), part="decide")
    assert [c["scope"] for c in bundle["checks"] if c["pattern"] == ["make", "app"]] == ["src/app"]


def test_a_hit_stats_every_walked_directory_and_lists_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = _project(tmp_path / "project")
    bundle = _settled(project)
    assert set(bundle["tree"]["dirs"]) == {".", "docs", "src", "src/app", "src/gen"}
    listed: list[str] = []
    real = tree.listing
    monkeypatch.setattr(tree, "listing", lambda root, rel, ignore: listed.append(rel) or real(root, rel, ignore))
    load_bundle(str(project))
    assert listed == []
    (project / "src/app/new.py").write_text("")
    load_bundle(str(project))
    assert listed == ["src/app"]  # only the changed directory is listed again


def test_verify_states(tmp_path: Path) -> None:
    project = _project(tmp_path / "project")
    found = discover(str(project)).tree
    checked = max(stamp[0] for stamp in found["dirs"].values()) + tree.RACY_NS + 1
    assert tree.verify(found, str(project), checked) == "fresh"
    assert tree.verify(found, str(project), checked - tree.RACY_NS) == "same"  # racy: listed again, unchanged
    (project / "docs/x.txt").write_text("")
    assert tree.verify(found, str(project), checked) == "same"
    assert found["dirs"]["docs"][0] == (project / "docs").stat().st_mtime_ns  # refreshed in place
    (project / "docs/CLAUDE.md").write_text("")
    assert tree.verify(found, str(project), checked) == "stale"


def test_gitignore_changes_are_noticed(tmp_path: Path) -> None:
    project = _project(tmp_path / "project")
    found = discover(str(project)).tree
    checked = 2**62
    assert found["files"][".gitignore"] == [0, -1] and tree.verify(found, str(project), checked) == "fresh"
    (project / ".gitignore").write_text("# a comment\n!keep.log\n")  # no directory pattern changed
    assert tree.verify(found, str(project), checked) == "same"
    (project / ".gitignore").write_text("src/gen/\n")
    assert tree.verify(found, str(project), checked) == "stale"
    found = discover(str(project)).tree
    assert "src/gen" not in found["dirs"] and found["ignore"] == ["src/gen"]
    os.utime(project / ".gitignore", ns=(1, 1))  # touched, same bytes
    assert tree.verify(found, str(project), checked) == "same"
    (project / ".gitignore").unlink()
    assert tree.verify(found, str(project), checked) == "stale"


@pytest.mark.parametrize("name,rel,ignore,walked", [
    ("src", ".", [], True),
    ("node_modules", "web", [], False),
    (".git", ".", [], False),
    (".claude", ".", [], False),
    ("build", "a/b", [], False),
    ("data", ".", ["data"], False),
    ("data", "sub", ["data"], False),  # a name pattern matches at any depth
    ("data", "sub", ["/data"], True),  # an anchored one only at the root
    ("_build", "docs", ["docs/_build"], False),
    ("foo.egg-info", ".", ["*.egg-info"], False),
    ("src", ".", ["*.egg-info"], True),
])
def test_is_walked(name: str, rel: str, ignore: list[str], walked: bool) -> None:
    assert tree.is_walked(name, rel, ignore) is walked


def test_ignore_patterns() -> None:
    text = "# comment\n\nbuild/\n/data\n*.egg-info/\n!keep/\nlogs/**/x\nweird\\ name\ndocs/_build\n/\n"
    assert tree.ignore_patterns(text) == ["build", "/data", "*.egg-info", "docs/_build"]


@pytest.mark.parametrize("shape", [None, [], {"dirs": {}, "files": {}}, {"dirs": [], "files": {}, "ignore": []},
                                   {"dirs": {}, "files": {}, "ignore": "x"}])
def test_malformed_trees_are_not_valid(shape: Any) -> None:
    assert not tree.valid(shape)
    assert tree.valid({"dirs": {".": [1, "a//b"]}, "files": {".gitignore": [0, -1]}, "ignore": ["x"]})


@pytest.mark.parametrize("entry", [[1], "x", None, [1, 2], {"a": 1}])
def test_a_malformed_entry_makes_the_bundle_stale(tmp_path: Path, entry: Any) -> None:
    project = _project(tmp_path / "project")
    found = discover(str(project)).tree
    found["dirs"]["docs"] = entry
    assert tree.verify(found, str(project), 2**62) == "stale"
    assert tree.newest(found) > 0
    found = discover(str(project)).tree
    expected = "same" if entry == [1, 2] else "stale"
    found["files"][".gitignore"] = entry
    # a stamp of the right shape is only out of date: the file is read again, the stamp refreshed
    assert tree.verify(found, str(project), 2**62) == expected


def test_near_lists_the_directories_on_the_way(tmp_path: Path) -> None:
    project = _project(tmp_path / "project")
    (project / "src/gen/.claude").mkdir()
    found = discover(str(project)).tree
    root = str(project)
    assert tree.near(found, root, []) == ["."]
    assert tree.near(found, root, [f"{root}/src/gen/x/y.go", f"{root}/docs"]) == [".", "src", "src/gen", "docs", "src/gen/.claude"]
    assert tree.near(found, root, [f"{root}/node_modules/x", "/tmp/elsewhere", root + "-other/src"]) == ["."]


def test_a_call_elsewhere_does_not_look_at_a_directory(tmp_path: Path, counting: list[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A call working in docs/ is not affected by a new src/app/CLAUDE.md: only the directories
    on its way are stat'd; the next call working in src/app/ finds the file and recompiles."""
    project = _project(tmp_path / "project")
    _settled(project)
    counting.clear()
    (project / "src/app/CLAUDE.md").write_text("- Never run `make app`\n")
    stats: list[str] = []
    real_stat = os.stat
    monkeypatch.setattr(tree.os, "stat", lambda path, *a, **k: stats.append(str(path)) or real_stat(path, *a, **k))
    bundle = load_bundle(str(project), part="decide", near=[str(project / "docs/x.md")])
    assert not counting and ["make", "app"] not in [c["pattern"] for c in bundle["checks"]]
    walked = {str(project)} | {str(project / rel) for rel in ("docs", "src", "src/app", "src/gen")}
    assert walked & set(stats) == {str(project), str(project / "docs")}
    bundle = load_bundle(str(project), part="decide", near=[str(project / "src/app/main.py")])
    assert len(counting) == 1 and ["make", "app"] in [c["pattern"] for c in bundle["checks"]]


def test_a_new_directory_on_the_way_is_noticed(tmp_path: Path, counting: list[str]) -> None:
    project = _project(tmp_path / "project")
    _settled(project)
    counting.clear()
    (project / "src/app/new/deeper").mkdir(parents=True)
    (project / "src/app/new/deeper/CLAUDE.md").write_text("- Never run `make deep`\n")
    bundle = load_bundle(str(project), part="decide", near=[str(project / "src/app/new/deeper/x.py")])
    assert len(counting) == 1 and ["make", "deep"] in [c["pattern"] for c in bundle["checks"]]


def test_a_scoped_source_is_stat_only_for_calls_on_its_way(tmp_path: Path, counting: list[str]) -> None:
    project = _project(tmp_path / "project")
    _settled(project)
    counting.clear()
    (project / "src/gen/CLAUDE.md").write_text("- Never run `make other`\n")  # same directory listing
    load_bundle(str(project), part="decide", near=[str(project / "docs")])
    assert not counting  # its rules cannot apply in docs/
    bundle = load_bundle(str(project), part="decide", near=[str(project / "src/gen/x")])
    assert len(counting) == 1 and ["make", "other"] in [c["pattern"] for c in bundle["checks"]]
    (project / "docs/more.md").write_text("- Never run `make imported`\n")  # a project-wide source: always
    bundle = load_bundle(str(project), part="decide", near=[str(project / "src/app")])
    assert len(counting) == 2 and ["make", "imported"] in [c["pattern"] for c in bundle["checks"]]


def test_a_partial_check_forgets_racy_stamps_it_did_not_check(tmp_path: Path) -> None:
    """Before a rewrite after a partial check: a directory still racy at the last check, and
    left out, keeps no trusted mtime (a later check time would make it look settled)."""
    project = _project(tmp_path / "project")
    found = discover(str(project)).tree
    racy_at = found["dirs"]["src/app"][0] + 1  # checked right after the walk: every stamp is racy
    checked = tree.near(found, str(project), [str(project / "docs")])
    tree.forget_racy(found, set(checked), racy_at)
    assert found["dirs"]["src/app"][0] == -1 and found["dirs"]["docs"][0] > 0
    assert tree.verify(found, str(project), 2**62, ["src/app"]) == "same"  # listed again, same contents
    assert found["dirs"]["src/app"][0] == (project / "src/app").stat().st_mtime_ns
    settled = discover(str(project)).tree
    tree.forget_racy(settled, {"."}, 2**62)  # nothing racy: nothing forgotten
    assert all(stamp[0] > 0 for stamp in settled["dirs"].values())


def test_a_scoped_source_left_out_while_racy_is_hashed_when_next_checked(tmp_path: Path, counting: list[str]) -> None:
    project = _project(tmp_path / "project")
    load_bundle(str(project))
    bundle = load_bundle(str(project), part="decide", near=[str(project / "docs")])
    [entry] = [s for s in bundle["sources"] if s["name"] == "src/gen/CLAUDE.md"]
    [root] = [s for s in bundle["sources"] if s["name"] == "CLAUDE.md"]
    bundle["checked_ns"] = entry["mtime_ns"] + 1  # as if checked right after it changed
    cache._forget_unchecked(bundle, [str(project / "docs")])
    assert entry["mtime_ns"] == -1 and root["mtime_ns"] > 0  # the project's own source was checked
    load_bundle(str(project), part="decide", near=[str(project / "src/gen")])
    assert entry["mtime_ns"] == (project / "src/gen/CLAUDE.md").stat().st_mtime_ns and len(counting) == 1
