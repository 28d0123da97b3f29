from __future__ import annotations

import pytest

from cf_guidance import paths
from cf_guidance.paths import (
    ANCESTOR, HOME, OUTSIDE, PROJECT, PROJECT_ROOT, ROOT, SYSTEM, TEMP, TEMP_ROOT, Resolver, glob_base, has_glob, is_within,
)

R = Resolver("/home/dev/project/src", "/home/dev/project", home="/home/dev", temps=("/tmp", "/var/tmp"))


@pytest.mark.parametrize(
    ("given", "resolved"),
    [
        ("/tmp/../etc", "/etc"),
        ("//etc", "/etc"),
        ("/./usr/./lib/", "/usr/lib"),
        ("~", "/home/dev"),
        ("~/x", "/home/dev/x"),
        ("$HOME/x", "/home/dev/x"),
        ("${HOME}", "/home/dev"),
        ("$HOMEDIR/x", None),
        ("$PWD/a", "/home/dev/project/src/a"),
        ("~root", "/root"),
        ("../..", "/home/dev"),
        ("a/../../b", "/home/dev/project/b"),
        ("$X", None),
        ("$(pwd)/x", None),
        ("`pwd`", None),
        ("a\x00b", None),
        ("${HOME:?}/x", "/home/dev/x"),
        ("${HOME:-/}", "/home/dev"),
        ("${HOME%/}", None),
        ("${X:-/}", None),
        ("$HOME_DIR", None),
    ],
)
def test_resolve(given: str, resolved: str | None) -> None:
    assert R.resolve(given) == resolved


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/", ROOT),
        ("/home/dev", HOME),
        ("/home", ANCESTOR),
        ("/home/dev/project", PROJECT_ROOT),
        ("/home/dev/project/src/a.py", PROJECT),
        ("/tmp", TEMP_ROOT),
        ("/tmp/x/y", TEMP),
        ("/var/tmp/x", TEMP),
        ("/etc", SYSTEM),
        ("/usr/bin", SYSTEM),
        ("/home/other", SYSTEM),
        ("/usr/local/lib/x", OUTSIDE),
        ("/home/dev/other", OUTSIDE),
        ("/srv/www/site", OUTSIDE),
    ],
)
def test_classify(path: str, kind: str) -> None:
    assert R.classify(path) == kind


@pytest.mark.parametrize(("path", "base"), [("/*", "/"), ("build/*.o", "build"), ("*", "."), ("a/b", "a/b"), ("~/*", "~")])
def test_glob_base(path: str, base: str) -> None:
    assert glob_base(path) == base
    assert has_glob(path) == (path != base)


def test_where_takes_the_worse_of_literal_and_real(tmp_path) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "p"
    project.mkdir()
    (project / "etc-link").symlink_to("/etc")
    resolver = Resolver(str(project), str(project), home="/home/dev", temps=())
    assert resolver.where("etc-link") == ("/etc", SYSTEM)
    assert resolver.where("etc-link", real=False)[1] == PROJECT
    assert resolver.where("$UNKNOWN") == (None, "")


def test_relative_to_project_and_home() -> None:
    assert R.relative_to_project("/home/dev/project") == "."
    assert R.relative_to_project("/home/dev/project/a/b") == "a/b"
    assert R.relative_to_project("/home/dev/projectx") is None
    assert R.relative_to_home("/home/dev/.ssh/id_rsa") == ".ssh/id_rsa"


@pytest.mark.parametrize(
    "path", ["/home/dev/project", "/home/dev/project/a/b", "/home/dev/projectx", "/home/dev/.ssh/id_rsa", "/home/dev", "/", "/etc/passwd"]
)
def test_relatives_are_the_project_and_home_forms(path: str) -> None:
    fresh = R.for_event()
    assert fresh.relatives(path) == (fresh.relative_to_project(path), fresh.relative_to_home(path))
    assert fresh.relatives(path) == (R.relative_to_project(path), R.relative_to_home(path))


def test_relatives_are_kept_for_one_event_only() -> None:
    first = R.for_event()
    assert first.relatives("/home/dev/project/a") == ("a", "project/a")
    assert first._relatives and R.for_event()._relatives == {} and R._relatives == {}


def test_is_within() -> None:
    assert is_within("/a/b", "/a") and is_within("/a", "/a") and not is_within("/ab", "/a") and is_within("/x", "/")


def test_tmpdir_of_slash_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    from cf_guidance.paths import temp_dirs

    monkeypatch.setenv("TMPDIR", "/")
    assert "/" not in temp_dirs()
    monkeypatch.setenv("TMPDIR", "/scratch/tmp")
    assert "/scratch/tmp" in temp_dirs()


@pytest.mark.parametrize(
    ("given", "unset"),
    [("${X:-/}", "/"), ("${X:=/etc}/", "/etc"), ("${X}", None), ("${X:-$Y}", None), ("./build", None), ("${X:-./b}", "/home/dev/project/src/b")],
)
def test_resolve_unset_takes_the_default(given: str, unset: str | None) -> None:
    assert R.resolve_unset(given) == unset


def test_parameter_expansions_are_not_globs() -> None:
    assert not has_glob("${HOME:?}/x") and has_glob("${HOME}/*.log") and glob_base("${HOME:?}/a") == "${HOME:?}/a"


def test_resolver_for_follows_changes_to_home_and_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    # The cache is keyed by the environment's raw values: a change made through os.environ
    # must give a resolver built from the new values, and an unchanged one the cached set-up.
    monkeypatch.setenv("HOME", "/home/first")
    monkeypatch.delenv("TMPDIR", raising=False)
    first = paths.resolver_for("/work/p", "/work/p")
    again = paths.resolver_for("/work/p", "/work/p")
    assert again is not first and again._origin is first._origin and again._memo is first._memo
    monkeypatch.setenv("HOME", "/home/second")
    second = paths.resolver_for("/work/p", "/work/p")
    assert second.home == "/home/second"
    monkeypatch.setenv("TMPDIR", "/scratch")
    third = paths.resolver_for("/work/p", "/work/p")
    assert third.classify("/scratch/x") == paths.TEMP
    assert third.resolve("$TMPDIR/x") == "/scratch/x"
    monkeypatch.delenv("TMPDIR")
    fourth = paths.resolver_for("/work/p", "/work/p")
    assert fourth.classify("/scratch/x") != paths.TEMP
    assert fourth.resolve("$TMPDIR/x") == "/tmp/x"  # the next event reads $TMPDIR again


def test_each_resolver_for_call_looks_symlinks_up_afresh(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # One event's gates share what a Resolver learnt about a link; the next event must see the
    # link as it is then (an answer kept across events would let a re-pointed link through).
    project = tmp_path / "p"
    (project / "build").mkdir(parents=True)
    link = project / "out"
    link.symlink_to(project / "build")
    first = paths.resolver_for(str(project), str(project))
    assert first.where("out") == (str(project / "out"), PROJECT)
    assert first.resolve("out", real=True) == str(project / "build")
    link.unlink()
    link.symlink_to("/etc")
    assert first.where("out") == (str(project / "out"), PROJECT)  # the same event: the answer it already gave
    second = paths.resolver_for(str(project), str(project))
    assert second.where("out") == ("/etc", SYSTEM)
    assert second.resolve("out", real=True) == "/etc"


def _follow_links_reference(path: str) -> str:
    """The plain statement of what `_follow_links` answers (its faster form must agree)."""
    import os

    try:
        if os.path.lexists(path):
            return os.path.realpath(path)
        parent, name = os.path.split(path)
        if parent and parent != path and os.path.lexists(parent):
            return os.path.join(os.path.realpath(parent), name)
    except (OSError, ValueError):
        pass
    return path


def test_follow_links_agrees_with_its_plain_statement(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os

    base = tmp_path / "t"
    (base / "real" / "sub").mkdir(parents=True)
    (base / "real" / "file").write_text("x")
    links = {
        "to-real": base / "real", "to-sub": base / "real" / "sub", "to-etc": "/etc", "to-missing": base / "nowhere",
        "to-file": base / "real" / "file", "loop": base / "loop", "relative": "real/sub", "up": "real/../real",
    }
    for name, target in links.items():
        (base / name).symlink_to(target)
    (base / "real" / "back").symlink_to(base)
    names = ["real", "sub", "file", "missing", "back", *links]
    paths_ = ["/", "/etc", "/nonexistent/x", str(base)]
    for first in names:
        paths_.append(f"{base}/{first}")
        for second in names:
            paths_.append(f"{base}/{first}/{second}")
            paths_.append(f"{base}/{first}/{second}/deeper")
    (base / "real" / "deep" / "inside").mkdir(parents=True)
    paths_ += [f"{base}/real/file/below", f"{base}/real/deep/inside/x", f"{base}/missing/a/b/c"]
    for path in paths_:
        assert paths._follow_links(path) == _follow_links_reference(path), path
        assert paths._real_path(path) == os.path.realpath(path), path
