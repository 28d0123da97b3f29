"""The bundle cache: hits, misses, racy edits, corrupt files, unwritable state, hot-path imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import package_path

from cf_guidance.policy import cache
from cf_guidance import __version__
from cf_guidance.policy.cache import COMPILER_DIRS, cache_path, identity_of, load_bundle

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every compile the cache triggers."""
    calls: list[str] = []
    real = cache._compile

    def compile_and_count(root: str) -> dict[str, Any]:
        calls.append(root)
        return real(root)

    monkeypatch.setattr(cache, "_compile", compile_and_count)
    return calls


def age(path: Path, seconds: int = 10) -> None:
    """Move a file's mtime into the past so it is not 'racy'."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 1_000_000_000))


def write_policy(project: Path, text: str, name: str = "CLAUDE.md") -> Path:
    path = project / name
    path.write_text(text)
    age(path)
    return path


def test_miss_then_hit(project: Path, counting: list[str]) -> None:
    write_policy(project, "- Never run `make a`\n")
    first = load_bundle(str(project))
    second = load_bundle(str(project))
    assert counting == [str(project)]
    assert first["key"] == second["key"] and second["checks"][0]["pattern"] == ["make", "a"]
    stored = json.loads(Path(cache_path(str(project))).read_text())
    assert stored["key"] == first["key"]
    assert cache_path(str(project)) == str(project / ".claude-flow" / "guidance" / "cache" / "bundle.json")


def test_state_dir_override(project: Path, tmp_path: Path) -> None:
    write_policy(project, "- Never run `make a`\n")
    state = tmp_path / "state"
    load_bundle(str(project), state_dir=str(state))
    assert (state / "cache" / "bundle.json").is_file()
    assert not (project / ".claude-flow").exists()


def test_environment_moves_the_state_dir(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUIDANCE_STATE_DIR", str(tmp_path / "elsewhere"))
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    assert (tmp_path / "elsewhere" / "cache" / "bundle.json").is_file()


def test_edit_recompiles(project: Path, counting: list[str]) -> None:
    path = write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    path.write_text("- Never run `make bb`\n")
    assert load_bundle(str(project))["checks"][0]["pattern"] == ["make", "bb"]
    assert len(counting) == 2


def test_same_size_edit_with_restored_mtime_is_caught(project: Path, counting: list[str]) -> None:
    # The racy case: content changes within one mtime tick, size unchanged.
    path = project / "CLAUDE.md"
    path.write_text("- Never run `make a`\n")
    load_bundle(str(project))
    st = path.stat()
    path.write_text("- Never run `make b`\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert load_bundle(str(project))["checks"][0]["pattern"] == ["make", "b"]
    assert len(counting) == 2


def test_racy_window_hashes_without_rewriting(project: Path, counting: list[str]) -> None:
    (project / "CLAUDE.md").write_text("- Never run `make a`\n")  # mtime = now: racy for RACY_NS
    load_bundle(str(project))
    cached = Path(cache_path(str(project)))
    written = cached.stat().st_mtime_ns
    for _ in range(3):
        assert load_bundle(str(project))["checks"][0]["pattern"] == ["make", "a"]
    assert len(counting) == 1 and cached.stat().st_mtime_ns == written


def test_touch_without_change_keeps_the_bundle(project: Path, counting: list[str]) -> None:
    path = write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    age(path, 5)  # new mtime, same bytes
    bundle = load_bundle(str(project))
    assert len(counting) == 1
    assert bundle["sources"][0]["mtime_ns"] == path.stat().st_mtime_ns
    load_bundle(str(project))
    assert len(counting) == 1


@pytest.mark.parametrize("change", ["create-local", "delete-shared"])
def test_sources_appearing_or_disappearing(project: Path, counting: list[str], change: str) -> None:
    shared = write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    if change == "create-local":
        write_policy(project, "- Never run `make z`\n", "CLAUDE.local.md")
    else:
        shared.unlink()
    bundle = load_bundle(str(project))
    assert len(counting) == 2
    exists = {s["name"]: s["exists"] for s in bundle["sources"]}
    assert [exists["CLAUDE.md"], exists["CLAUDE.local.md"]] == ([True, True] if change == "create-local" else [False, False])


CORRUPT = [
    b"",
    b"{",
    b"\x00\xff\xfe garbage",
    b"[]",
    b'{"format": 1}',
    b"null",
    b"[" * 100_000,
]


@pytest.mark.parametrize("content", CORRUPT, ids=range(len(CORRUPT)))
def test_corrupt_cache_is_rebuilt(project: Path, counting: list[str], content: bytes) -> None:
    write_policy(project, "- Never run `make a`\n")
    path = Path(cache_path(str(project)))
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    bundle = load_bundle(str(project))
    assert bundle["checks"][0]["pattern"] == ["make", "a"] and counting
    assert json.loads(path.read_text())["key"] == bundle["key"]


@pytest.mark.parametrize(
    "tamper",
    [
        lambda b: b.update(compiler="0.0.0-other"),
        lambda b: b.update(compiler=b["compiler"].split("+")[0] + "+0"),  # the same version, another build
        lambda b: b.update(root="/somewhere/else"),
        lambda b: b.update(format=2),
        lambda b: b.update(shards="not a list"),
        lambda b: b.update(checked_ns="x"),
        lambda b: b["sources"].clear(),
        lambda b: b["sources"][0].update(path="/etc/passwd"),
        lambda b: b["sources"][-1].update(path="relative/CLAUDE.md"),
        lambda b: b.pop("tree"),
        lambda b: b["tree"]["dirs"].update({".": "not a stamp"}),
        lambda b: b["tree"]["files"].update({".gitignore": [1]}),
    ],
)
def test_foreign_or_malformed_cache_is_not_trusted(project: Path, counting: list[str], tamper: Any) -> None:
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    path = Path(cache_path(str(project)))
    stored = json.loads(path.read_text())
    tamper(stored)
    path.write_text(json.dumps(stored))
    load_bundle(str(project))
    assert len(counting) == 2


def test_unwritable_state_dir_compiles_in_memory(project: Path, tmp_path: Path, counting: list[str]) -> None:
    write_policy(project, "- Never run `make a`\n")
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    for _ in range(2):
        assert load_bundle(str(project), state_dir=str(blocker))["checks"][0]["pattern"] == ["make", "a"]
    assert len(counting) == 2
    assert blocker.is_file() and blocker.read_text() == ""


def test_no_temporary_files_are_left(project: Path) -> None:
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    path = project / "CLAUDE.md"
    path.write_text("- Never run `make b`\n")
    load_bundle(str(project))
    assert sorted(p.name for p in Path(cache_path(str(project))).parent.iterdir()) == ["bundle.json", "decide.json"]


def test_bundle_errors_do_not_prevent_caching(project: Path, counting: list[str]) -> None:
    write_policy(project, "```guidance\nbogus\n```\n- Never run `make a`\n")
    load_bundle(str(project))
    bundle = load_bundle(str(project))
    assert len(counting) == 1 and bundle["diagnostics"][0]["level"] == "error"


FORBIDDEN_ON_HIT = ("json", "re", "typing", "hashlib", "pathlib", "dataclasses", "pydantic", "markdown_it",
                    "enum", "fnmatch", "subprocess", "click", "yaml", "cryptography")

_PROBE = """
import sys
from cf_guidance.policy.cache import load_bundle
bundle = load_bundle(sys.argv[1])
print(len(bundle["checks"]))
print(",".join(sorted(m for m in {forbidden!r} if m in sys.modules)))
"""


def run_probe(project: Path, *flags: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=package_path())
    env.pop("GUIDANCE_STATE_DIR", None)
    result = subprocess.run(
        [sys.executable, *flags, "-c", _PROBE.format(forbidden=FORBIDDEN_ON_HIT), str(project)],
        capture_output=True, text=True, env=env, check=True, timeout=60,
    )
    return result.stdout.splitlines()


def test_cache_hit_imports_only_the_standard_library(project: Path) -> None:
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    assert run_probe(project, "-S") == ["1", ""]


def test_cache_miss_under_python_S_finds_site_packages(project: Path) -> None:
    write_policy(project, "- Never run `make a`\n")
    lines = run_probe(project, "-S")
    assert lines[0] == "1"
    assert (project / ".claude-flow" / "guidance" / "cache" / "bundle.json").is_file()


def test_missing_project_dir_is_an_empty_policy_and_creates_nothing(tmp_path: Path) -> None:
    ghost = tmp_path / "no-such-project"
    bundle = load_bundle(str(ghost))
    assert bundle["shards"] == [] and not ghost.exists()


def test_a_warm_process_decodes_each_cache_version_once(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_policy(project, "- Never run `make a`\n")
    first = load_bundle(str(project))
    decodes: list[str] = []
    real = cache._decode_cache

    def counting_decode(path: str, root: str, part: str) -> Any:
        decodes.append(path)
        return real(path, root, part)

    monkeypatch.setattr(cache, "_decode_cache", counting_decode)
    assert load_bundle(str(project)) is first and decodes == []
    # Another process rewrites the cache: the new version is decoded.
    path = Path(cache_path(str(project)))
    stored = json.loads(path.read_text())
    stored["checks"][0]["message"] = "rewritten elsewhere"
    path.write_text(json.dumps(stored))
    assert load_bundle(str(project))["checks"][0]["message"] == "rewritten elsewhere" and len(decodes) == 1
    assert load_bundle(str(project))["checks"][0]["message"] == "rewritten elsewhere" and len(decodes) == 1


def test_memo_is_bounded(tmp_path: Path) -> None:
    for i in range(cache._MEMO_SIZE + 3):
        project = tmp_path / f"p{i}"
        project.mkdir()
        load_bundle(str(project))
    assert len(cache._MEMO) <= cache._MEMO_SIZE


def test_a_fifo_source_never_blocks_the_hash_check(project: Path) -> None:
    os.mkfifo(project / "CLAUDE.md")  # mtime = now: the next loads are inside the racy window
    first = load_bundle(str(project))
    assert first["diagnostics"][0]["message"].startswith("cannot read CLAUDE.md: not a regular file")
    assert load_bundle(str(project))["key"] == first["key"]


# -- the decision part (decide.json) -------------------------------------------------------------


def decide_file(project: Path) -> Path:
    return Path(cache_path(str(project), part="decide"))


def test_decide_part_holds_only_what_a_decision_reads(project: Path, counting: list[str]) -> None:
    write_policy(project, "- Never run `make a`\n- Always write tests first\n")
    full = load_bundle(str(project))
    part = load_bundle(str(project), part="decide")
    assert counting == [str(project)]  # the miss wrote both files; the part was a hit
    assert set(part) == set(cache.DECIDE_KEYS)
    assert part["checks"] == full["checks"] and part["settings"] == full["settings"] and part["key"] == full["key"]
    assert "shards" not in part and "retrieval" not in part and "constitution" not in part
    assert decide_file(project).stat().st_size < Path(cache_path(str(project))).stat().st_size


def test_decide_part_on_a_miss_compiles_and_writes_both(project: Path, counting: list[str]) -> None:
    write_policy(project, "- Never run `make a`\n")
    part = load_bundle(str(project), part="decide")
    assert counting and part["checks"][0]["pattern"] == ["make", "a"]
    assert json.loads(decide_file(project).read_text())["key"] == json.loads(Path(cache_path(str(project))).read_text())["key"]


@pytest.mark.parametrize(
    "tamper",
    [
        lambda b: b.update(compiler="0.0.0-other"),
        lambda b: b.update(root="/somewhere/else"),
        lambda b: b.update(checks="not a list"),
        lambda b: b.update(settings=[]),
        lambda b: b.pop("key"),
        lambda b: b["sources"][0].update(path="/etc/passwd"),
    ],
)
def test_foreign_or_malformed_decide_part_is_not_trusted(project: Path, counting: list[str], tamper: Any) -> None:
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    path = decide_file(project)
    stored = json.loads(path.read_text())
    tamper(stored)
    path.write_text(json.dumps(stored))
    assert load_bundle(str(project), part="decide")["checks"][0]["pattern"] == ["make", "a"]
    assert len(counting) == 2


def test_torn_pair_is_rebuilt(project: Path, counting: list[str]) -> None:
    """decide.json missing or cut short (a crash between the two writes): compile again."""
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    path = decide_file(project)
    path.write_bytes(path.read_bytes()[:40])
    assert load_bundle(str(project), part="decide")["checks"][0]["pattern"] == ["make", "a"]
    path.unlink()
    assert load_bundle(str(project), part="decide")["checks"][0]["pattern"] == ["make", "a"]
    assert len(counting) == 3 and json.loads(path.read_text())["checks"][0]["pattern"] == ["make", "a"]


def test_mismatched_pair_is_rebuilt(project: Path, counting: list[str]) -> None:
    """A decide.json left from an older compile (policy edited since) is stale, never used."""
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    old = decide_file(project).read_bytes()
    write_policy(project, "- Never run `make bb`\n")
    load_bundle(str(project))
    decide_file(project).write_bytes(old)
    assert load_bundle(str(project), part="decide")["checks"][0]["pattern"] == ["make", "bb"]
    assert len(counting) == 3


def test_unknown_part_is_an_error(project: Path) -> None:
    with pytest.raises(ValueError, match="unknown bundle part"):
        load_bundle(str(project), part="shards")


def test_decide_part_hit_imports_only_the_standard_library(project: Path) -> None:
    write_policy(project, "- Never run `make a`\n")
    load_bundle(str(project))
    env = dict(os.environ, PYTHONPATH=package_path())
    env.pop("GUIDANCE_STATE_DIR", None)
    probe = _PROBE.replace("load_bundle(sys.argv[1])", "load_bundle(sys.argv[1], part='decide')")
    result = subprocess.run(
        [sys.executable, "-S", "-c", probe.format(forbidden=FORBIDDEN_ON_HIT), str(project)],
        capture_output=True, text=True, env=env, check=True, timeout=60,
    )
    assert result.stdout.splitlines() == ["1", ""]


def test_compiler_identity_follows_the_installed_code(tmp_path: Path) -> None:
    """A checkout updated or reinstalled under the same version is another compiler; the bytecode
    Python writes beside the modules is not."""
    package = tmp_path / "pkg"
    for directory in COMPILER_DIRS:
        (package / directory).mkdir(parents=True, exist_ok=True)
        (package / directory / "m.py").write_text("x = 1\n")
    before = identity_of(str(package))
    assert before.startswith(f"{__version__}+") and identity_of(str(package)) == before
    (package / "policy" / "__pycache__").mkdir()
    (package / "policy" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    assert identity_of(str(package)) == before
    (package / "policy" / "lexicon" / "m.py").write_text("x = 22\n")
    assert identity_of(str(package)) != before
