"""Read a state file safely: a regular file of ours, opened without blocking, bounded in size.

Hot path module: standard library only (os).

Derived state (spool jobs, session summaries, trust.json, the bundle cache) lives in a
directory that a misconfiguration may leave writable by others, and a crash or a hostile
process may leave a FIFO, a device or a symlink where a file belongs. Opened naively, a FIFO
with no writer blocks the hook until its deadline and a symlink to /dev/zero never ends.
`read_bytes` opens with O_NONBLOCK and O_NOFOLLOW, checks that what it opened is a regular
file owned by this user (or root) that no one else may write, and reads at most `limit`
bytes. Anything else raises an OSError subclass, so a caller that already skips unreadable
files skips these too, and `problem` says in one line what was wrong.
"""

from __future__ import annotations

import os
import time

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_S_IFMT = 0o170000
_S_IFREG = 0o100000
_S_IFDIR = 0o040000
#: Permission bits that let someone other than the owner change a file or a directory's entries.
OTHERS_WRITE = 0o022


class UnsafeFile(OSError):
    """A state file that must not be read: not a regular file, not ours, writable by others, too big."""


def owner_problem(st: os.stat_result, what: str) -> str:
    """"" when `st` belongs to this user (or root) and no one else may write it; else why not."""
    if st.st_uid != os.getuid() and st.st_uid != 0:
        return f"{what} belongs to uid {st.st_uid}, not to this user (uid {os.getuid()})"
    if st.st_mode & OTHERS_WRITE:
        return f"{what} is writable by group or others (mode {st.st_mode & 0o777:04o})"
    return ""


def directory_problem(path: str) -> str:
    """"" when `path` is missing or a directory of ours that others cannot write; else why not."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return ""  # nothing there to trust or distrust (writing there fails, and says so)
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    if st.st_mode & _S_IFMT != _S_IFDIR:
        return f"{path} is not a directory"
    return owner_problem(st, path)


def read_bytes(path: str, limit: int) -> bytes:
    """The bytes of the regular file at `path`; UnsafeFile (an OSError) when it is not safe to use."""
    fd = os.open(path, _FLAGS)
    try:
        st = os.fstat(fd)
        if st.st_mode & _S_IFMT != _S_IFREG:
            raise UnsafeFile(f"{path} is not a regular file")
        problem = owner_problem(st, path)
        if problem:
            raise UnsafeFile(problem)
        if st.st_size > limit:
            raise UnsafeFile(f"{path} is {st.st_size} bytes, over the {limit}-byte limit")
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UnsafeFile(f"{path} grew over the {limit}-byte limit while it was read")
        return b"".join(chunks)
    finally:
        os.close(fd)


#: The directories under the state directory whose contents a hook call trusts (its own
#: entries are checked by `state_problem`; each file in them again when it is read).
TRUSTED_SUBDIRS = ("cache", "sessions", "spool")


def state_problem(state_dir: str) -> str:
    """"" when nothing a hook call reads from the state directory could have been written by
    another user: the directory and TRUSTED_SUBDIRS are ours (or root's) and not writable by
    group or others. Else one line: what is wrong, what the hook does instead, how to fix it.
    A missing directory is fine (there is nothing in it to trust).
    """
    for path in (state_dir,) + tuple(os.path.join(state_dir, name) for name in TRUSTED_SUBDIRS):
        problem = directory_problem(path)
        if problem:
            return (f"{problem}, so another user could have planted its hook server, cache or session state: "
                    f"this call was decided in-process from CLAUDE.md alone; run `cf-guidance init` "
                    f"(or `chmod -R go-w {state_dir}`) to make it private again")
    return ""


QUARANTINE_DIR = "quarantine"
QUARANTINE_LOG = "log.jsonl"


def quarantine(state_dir: str, path: str, problem: str) -> str:
    """Move a derived-state file that cannot be used out of the way, into ``<state>/quarantine/``,
    and log why (``quarantine/log.jsonl``, read by `cf-guidance status`); "" if it was already gone.

    The file is kept (for a person to look at) and never read again; what it held is rebuilt
    from the ledger. A FIFO or symlink is moved as it is, never opened.
    """
    from cf_guidance import _fastjson

    directory = os.path.join(state_dir, QUARANTINE_DIR)
    relative = os.path.relpath(path, state_dir).replace(os.sep, "_")
    target = os.path.join(directory, "%d-%s" % (time.time_ns(), relative))
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        os.replace(path, target)
    except FileNotFoundError:
        return ""  # another hook moved it first
    except OSError:
        target = ""  # cannot move it: still log it, and callers ignore the file anyway
    line = _fastjson.dumps({"at": time.time_ns() // 1_000_000_000, "file": os.path.relpath(path, state_dir),
                            "problem": problem[:300], "moved_to": target}) + "\n"
    try:
        fd = os.open(os.path.join(directory, QUARANTINE_LOG), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:
        pass
    return target
