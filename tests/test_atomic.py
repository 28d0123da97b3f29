"""write_atomic: the whole content or the old file, the asked mode, and no temp file left behind."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cf_guidance._atomic import write_atomic


@pytest.fixture
def umask() -> Iterator[Callable[[int], int]]:
    old = os.umask(0o022)
    try:
        yield os.umask
    finally:
        os.umask(old)


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize(
    ("as_path", "data"),
    [(str, b""), (str, b"{}\n"), (Path, "ünï\x00code".encode()), (Path, bytes(range(256)) * 8192)],
    ids=["empty", "small-str-path", "binary-pathlike", "2-MiB"],
)
def test_contents_are_written(tmp_path: Path, as_path: Callable[[str], str | os.PathLike[str]], data: bytes) -> None:
    target = tmp_path / "out.json"
    write_atomic(as_path(str(target)), data)
    assert target.read_bytes() == data
    assert leftovers(tmp_path) == []


def test_short_writes_are_continued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, view: real(fd, view[:3]))
    write_atomic(tmp_path / "out", b"0123456789")
    monkeypatch.undo()
    assert (tmp_path / "out").read_bytes() == b"0123456789"


@pytest.mark.parametrize(
    ("umask_bits", "mode", "ignore_umask", "expected"),
    [
        (0o022, 0o666, False, 0o644),  # the default, as open() would create it
        (0o022, 0o600, False, 0o600),
        (0o077, 0o644, False, 0o600),  # the umask still applies
        (0o077, 0o664, True, 0o664),  # exact: e.g. keeping the mode of the file it replaces
        (0o000, 0o640, True, 0o640),
    ],
)
def test_mode_bits(tmp_path: Path, umask: Callable[[int], int], umask_bits: int, mode: int, ignore_umask: bool,
                   expected: int) -> None:
    umask(umask_bits)
    target = tmp_path / "out"
    write_atomic(target, b"x", mode=mode, ignore_umask=ignore_umask)
    assert stat.S_IMODE(os.stat(target).st_mode) == expected


@pytest.mark.parametrize("existing", [b"", b"old and much longer than the new content\n" * 100])
def test_an_existing_file_is_replaced_whole(tmp_path: Path, existing: bytes) -> None:
    target = tmp_path / "out"
    target.write_bytes(existing)
    with open(target, "rb") as reader:  # opened before: keeps reading the old file, whole
        write_atomic(target, b"new")
        assert reader.read() == existing
    assert target.read_bytes() == b"new"
    assert leftovers(tmp_path) == []


def _fail_after_first_write(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write
    calls: list[int] = []

    def write(fd: int, view: memoryview) -> int:
        calls.append(fd)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        return real(fd, view[:4])  # a partial first write, then the disk is full

    monkeypatch.setattr(os, "write", write)


def _fail(name: str, exc: BaseException) -> Callable[[pytest.MonkeyPatch], None]:
    def inject(monkeypatch: pytest.MonkeyPatch) -> None:
        def fail(*args: object) -> None:
            raise exc

        monkeypatch.setattr(os, name, fail)

    return inject


@pytest.mark.parametrize(
    ("inject", "raised"),
    [
        (_fail_after_first_write, OSError),
        (_fail("write", KeyboardInterrupt()), KeyboardInterrupt),  # not only OSError cleans up
        (_fail("fsync", OSError(5, "Input/output error")), OSError),
        (_fail("replace", OSError(30, "Read-only file system")), OSError),
        (_fail("fchmod", OSError(1, "Operation not permitted")), OSError),
    ],
    ids=["write-after-partial", "interrupted-write", "fsync", "replace", "fchmod"],
)
def test_a_failure_removes_the_temp_file_and_keeps_the_old_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject: Callable[[pytest.MonkeyPatch], None],
    raised: type[BaseException],
) -> None:
    target = tmp_path / "out"
    target.write_bytes(b"old")
    with monkeypatch.context() as patched:
        inject(patched)
        with pytest.raises(raised):
            write_atomic(target, b"new content", ignore_umask=True)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_no_partial_file_is_visible_while_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out"
    target.write_bytes(b"old")
    seen: list[tuple[bytes, list[str]]] = []
    real = os.write

    def write(fd: int, view: memoryview) -> int:
        seen.append((target.read_bytes(), sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))))
        return real(fd, view[:2])

    monkeypatch.setattr(os, "write", write)
    write_atomic(target, b"0123456789")
    monkeypatch.undo()
    assert len(seen) == 5 and set(seen[0][1]) == {"out"}
    assert all(content == b"old" and names == ["out"] for content, names in seen)
    assert target.read_bytes() == b"0123456789"


@pytest.mark.parametrize(("parent_mode", "expected"), [(0o700, 0o700), (0o777, 0o755)])
def test_missing_parents_are_created_with_the_given_mode(tmp_path: Path, umask: Callable[[int], int],
                                                          parent_mode: int, expected: int) -> None:
    target = tmp_path / "a" / "b" / "out"
    write_atomic(target, b"x", parent_mode=parent_mode)
    assert target.read_bytes() == b"x"
    assert stat.S_IMODE(os.stat(tmp_path / "a" / "b").st_mode) == expected


def test_a_missing_parent_is_an_error_unless_asked_to_create_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "missing" / "out", b"x")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("fsync_dir", "directory_synced"), [(True, True), (False, False)])
def test_fsync_dir_syncs_the_directory_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        fsync_dir: bool, directory_synced: bool) -> None:
    real = os.fsync
    synced: list[str] = []

    def fsync(fd: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_atomic(tmp_path / "out", b"x", fsync_dir=fsync_dir)
    assert synced == (["file", "dir"] if directory_synced else ["file"])


def test_concurrent_writers_of_one_path_never_share_a_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "out"
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for _ in range(50):
                write_atomic(target, b"%d" % n * 1000)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert target.read_bytes() in {b"%d" % n * 1000 for n in range(4)}
    assert leftovers(tmp_path) == []


def test_a_bare_file_name_is_written_in_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_atomic("out", b"x", fsync_dir=True, parent_mode=0o700)
    assert (tmp_path / "out").read_bytes() == b"x"
    assert leftovers(tmp_path) == []
