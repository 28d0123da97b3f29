"""Replace a file in one step: a reader, or a crash, sees the old content or the new, never a part.

Hot path module (the job spool and the bundle cache write through it): standard library
only, no `typing` or `pathlib` at run time.

The bytes go to a hidden temp file beside the target (same file system, so the rename is
atomic), created with O_EXCL under a random name (two writers of one path never share a
temp file), written in full, fsynced, then renamed over the target. Any failure removes
the temp file and re-raises, so the caller decides what an error means to its user.
"""

from __future__ import annotations

import os

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    mode: int = 0o666,
    ignore_umask: bool = False,
    fsync_dir: bool = False,
    parent_mode: int | None = None,
) -> None:
    """Replace `path` with `data` durably; raise OSError (the temp file removed) on failure.

    `mode` is the new file's permission bits, masked by the umask as `open()` does unless
    `ignore_umask` (e.g. to keep an existing file's mode). `fsync_dir` also makes the
    rename itself durable. `parent_mode`, when given, creates the missing parent
    directories with that mode; without it a missing parent is an error.
    """
    target = os.fspath(path)
    directory, name = os.path.split(target)
    directory = directory or "."
    tmp = os.path.join(directory, ".%s.%d-%s.tmp" % (name, os.getpid(), os.urandom(4).hex()))
    try:
        fd = os.open(tmp, _CREATE, mode)
    except FileNotFoundError:
        if parent_mode is None:
            raise
        # Created only on a miss: the common case (parent exists) costs no extra system call.
        os.makedirs(directory, mode=parent_mode, exist_ok=True)
        fd = os.open(tmp, _CREATE, mode)
    try:
        try:
            if ignore_umask:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:  # os.write may write less than asked (signals, pipes, full quota)
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if fsync_dir:
        _fsync_directory(directory)


def _fsync_directory(directory: str) -> None:
    """Make a rename in `directory` durable (a crash after it must not undo it)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
