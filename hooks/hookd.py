"""The warm hook server: the same decisions without paying for Python imports on every call.

Hot path module (the client half): standard library only; `_socket` instead of `socket`
(which imports enum and selectors).

A hook process costs the interpreter's start (the floor, ~11 ms here) plus importing the
policy engine (~60 modules, another ~12-16 ms). So after answering a call in-process, the
launcher forks a copy of itself, with everything already imported, that serves later calls
of the same project over a Unix socket in the state directory; the next hook processes only
forward their argv, environment, cwd and stdin bytes, and print the answer.

Safety and correctness:
- The server runs the very same `dispatch.run` (built-in guard first, fail modes,
  self-timeout); the client forwards the variables the hook reads (GUIDANCE_*, CLAUDE_*,
  CODEX_*, HOME, TMPDIR, XDG_DATA_HOME) and its cwd, which the server applies per request. Secrets are
  never forwarded (GUIDANCE_LEDGER_KEY, and any name holding KEY, TOKEN, SECRET, PASSWORD or
  CREDENTIAL): the server does not need them, and the worker that does is started by the
  hook process itself, from its own environment.
- Any problem on the way (no server, a refused connection, a short answer, a server whose
  code changed on disk) makes the client answer in-process, as if there were no server: the
  server is an optimisation, never a dependency. A server that has not answered within a
  small part of the hook's budget (`wait_s`: 1/12 of it, 0.25 to 1.5 s) is killed (it is
  this user's, checked below) and the call answered in-process with the rest of the budget;
  the next call starts a fresh server. A stopped or wedged server costs one call that much.
- Nothing is trusted that another user could have written: the client talks to a server only
  when the state directory is private (cf_guidance._statefile.state_problem: ours, no one
  else may write it) and the process listening on the socket runs as this user
  (SO_PEERCRED); otherwise it answers in-process and the answer says why in one line. The
  server binds only in a private state directory (mode 0700, ours) and serves only this user.
  `GUIDANCE_HOOKD=0` turns the server off.
- The server exits after `IDLE_S` without a request, when its socket file disappears
  (uninstall removes it), or when any of its loaded modules changes on disk.
"""

from __future__ import annotations

import os
import sys
from time import monotonic

from cf_guidance._fnv import fnv1a32
from cf_guidance.limits import MAX_EVENT_BYTES

from . import settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    import _socket
    from collections.abc import Callable, Mapping
    from types import ModuleType

    from .protocol import Answer

MAGIC = b"CFGH1\0"
#: The server exits after this long without a request.
IDLE_S = 120
#: How long a new server waits for the lock of one that is exiting (it is detached: no one waits).
LOCK_WAIT_S = 3.0
#: The environment a request carries to the server...
FORWARDED_PREFIXES = ("GUIDANCE_", "CLAUDE_", "CODEX_")
FORWARDED_NAMES = ("HOME", "TMPDIR", "XDG_DATA_HOME")
#: ...except secrets: no name holding one of these (upper-cased) is ever sent.
SECRET_NAME_PARTS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH")
#: The part of the hook's budget the client waits for the server's answer, and its bounds.
WAIT_FRACTION = 1 / 12
WAIT_BOUNDS_S = (0.25, 1.5)
_STALE = b"stale"


def socket_path(state_dir: str) -> str:
    """One server per state directory, interpreter and installation (an upgrade gets a new one)."""
    launcher = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return os.path.join(state_dir, "hookd-" + fnv1a32(sys.executable + "\0" + launcher) + ".sock")


def _forwarded_name(name: str) -> bool:
    if not (name.startswith(FORWARDED_PREFIXES) or name in FORWARDED_NAMES):
        return False
    upper = name.upper()
    return not any(part in upper for part in SECRET_NAME_PARTS)


def _forwarded(environ: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in environ.items() if _forwarded_name(k)}


def _budget_s(environ: Mapping[str, str]) -> float:
    ms, _ = settings.timeout_ms(environ)
    return ms / 1000.0 if ms > 0 else 30.0


def wait_s(environ: Mapping[str, str]) -> float:
    """How long the client waits for the server before it answers in-process instead."""
    low, high = WAIT_BOUNDS_S
    return min(high, max(low, _budget_s(environ) * WAIT_FRACTION))


# -- client --------------------------------------------------------------------------------


def launch(argv: list[str] | None = None) -> int:
    """The launcher's entry: answer through the project's server when there is one.

    Without a usable server the call is answered in-process (cf_guidance.hooks.dispatch), and
    this now warm process forks into the server for the calls that follow. Only this module,
    the command table and cf_guidance.state are imported before the server answers.
    """
    from cf_guidance import state

    from .commands import COMMANDS, INFO

    args = sys.argv[1:] if argv is None else argv
    command = COMMANDS.get(args[0]) if args else None
    environ: Mapping[str, str] = os.environ
    if command is None or command.kind == INFO or not settings.hookd_enabled(environ):
        from . import dispatch

        return dispatch.main(args)
    from cf_guidance._statefile import state_problem

    started = monotonic()
    state_dir = state.state_dir(state.project_dir(environ), environ)
    stdin = sys.stdin.buffer
    read_input: Callable[[], bytes] = lambda: stdin.read(MAX_EVENT_BYTES + 1)  # noqa: E731
    forwarded = None
    notes: list[str] = []
    if not state_problem(state_dir):  # else in-process, where the answer says why
        try:
            forwarded = forward(command.name, environ, read_input, state_dir)
        except Fallback as failed:
            data = failed.data
            read_input = lambda: data  # noqa: E731  (the attempt consumed stdin)
            if failed.note:
                notes.append(failed.note)
            environ = _remaining_budget(environ, monotonic() - started)
    if forwarded is not None:
        code, out, err, worker = forwarded
        for fd, chunk in ((1, out), (2, err)):
            _write_all(fd, chunk)
        if worker is not None:
            from cf_guidance.jobs import spool

            spool.spawn_worker(*worker)
        return code
    from . import dispatch

    answer = dispatch.run(command.name, read_input, environ)
    for note in notes:
        answer = answer.with_warning(note)
    code = dispatch.write_answer(answer, sys.stdout.buffer, sys.stderr.buffer)
    if answer.worker is not None:
        from cf_guidance.jobs import spool

        spool.spawn_worker(*answer.worker)
    start(state_dir)
    return code


def _remaining_budget(environ: Mapping[str, str], spent_s: float) -> Mapping[str, str]:
    """`environ` with the hook's own deadline cut by what the server attempt spent, so that
    the in-process answer still comes within the budget the user set."""
    ms, _ = settings.timeout_ms(environ)
    if ms <= 0 or spent_s <= 0:
        return environ
    return dict(environ, **{settings.TIMEOUT_ENV: str(max(1, ms - int(spent_s * 1000)))})


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass  # the client closed the pipe: nothing left to tell it


def encode_request(name: str, environ: Mapping[str, str], cwd: str, data: bytes) -> bytes:
    fields = [name, cwd] + [f"{k}={v}" for k, v in _forwarded(environ).items()]
    if any("\0" in field for field in fields):
        raise ValueError("NUL in a forwarded field")
    return MAGIC + "\0".join(fields).encode("utf-8", "surrogateescape") + b"\0\0" + data


def decode_request(raw: bytes) -> tuple[str, str, dict[str, str], bytes]:
    if not raw.startswith(MAGIC):
        raise ValueError("not a hook request")
    head, sep, data = raw[len(MAGIC):].partition(b"\0\0")
    if not sep:
        raise ValueError("truncated hook request")
    fields = head.decode("utf-8", "surrogateescape").split("\0")
    if len(fields) < 2:
        raise ValueError("truncated hook request")
    env = {}
    for field in fields[2:]:
        key, _, value = field.partition("=")
        env[key] = value
    return fields[0], fields[1], env, data


def encode_answer(answer: Answer) -> bytes:
    """``<exit> <len(out)> <len(err)>\n`` + out + err + the worker to start (project \0 state) or nothing."""
    out = answer.stdout.encode("utf-8", "replace")
    err = answer.stderr.encode("utf-8", "replace")
    worker = "\0".join(answer.worker).encode("utf-8", "surrogateescape") if answer.worker else b""
    return b"%d %d %d\n" % (answer.exit_code, len(out), len(err)) + out + err + worker


def decode_answer(raw: bytes) -> tuple[int, bytes, bytes, tuple[str, str] | None]:
    head, sep, rest = raw.partition(b"\n")
    if not sep:
        raise ValueError("truncated answer")
    code_text, out_len_text, err_len_text = head.split(b" ")
    out_len, err_len = int(out_len_text), int(err_len_text)
    if out_len + err_len > len(rest):
        raise ValueError("truncated answer")
    worker_text = rest[out_len + err_len:]
    worker = None
    if worker_text:
        project, divider, state = worker_text.decode("utf-8", "surrogateescape").partition("\0")
        if not divider:
            raise ValueError("truncated answer")
        worker = (project, state)
    return int(code_text), rest[:out_len], rest[out_len:out_len + err_len], worker


def forward(name: str, environ: Mapping[str, str], read_input: Callable[[], bytes],
            state_dir: str) -> tuple[int, bytes, bytes, tuple[str, str] | None] | None:
    """The server's answer to this call, or None (answer in-process) for any problem on the way.

    `read_input` is a zero-argument callable returning the stdin bytes; it is only called once
    a server of this user has accepted the connection, so that a fallback can still read stdin
    itself. Raises Fallback (with the bytes read, and a note for the user when there is
    something to say) when the server failed after that, was not this user's, or did not
    answer within `wait_s` (then it is killed, to be replaced by the next call).
    """
    import _socket

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(wait_s(environ))
        try:
            cwd = os.getcwd()
            _in_directory(state_dir, sock.connect, os.path.basename(socket_path(state_dir)))
        except OSError:
            return None
        pid, uid = peer(sock)
        if uid is not None and uid != os.getuid():
            raise Fallback(read_input(), f"the hook server socket in {state_dir} is served by uid {uid}, not this user; "
                                         "it was ignored and this call decided in-process (remove the socket, run `cf-guidance init`)")
        data = read_input()
        try:
            sock.sendall(encode_request(name, environ, cwd, data))
            sock.shutdown(_socket.SHUT_WR)
            chunks = []
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            raw = b"".join(chunks)
            if raw == _STALE:
                raise ValueError("stale server")
            return decode_answer(raw)
        except TimeoutError:
            _kill(pid)
            raise Fallback(data) from None
        except (OSError, ValueError):
            # The server failed after stdin was read: answer in-process from the same bytes.
            raise Fallback(data) from None
    finally:
        sock.close()


def peer(sock: _socket.socket) -> tuple[int | None, int | None]:
    """(pid, uid) of the process at the other end of a connected Unix socket, where the system
    says (Linux SO_PEERCRED); (None, None) elsewhere."""
    import _socket

    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return None, None
    try:
        cred = sock.getsockopt(_socket.SOL_SOCKET, option, 12)  # struct ucred: pid, uid, gid
    except OSError:
        return None, None
    return int.from_bytes(cred[0:4], sys.byteorder), int.from_bytes(cred[4:8], sys.byteorder)


def _kill(pid: int | None) -> None:
    """Stop a server of this user that does not answer (stopped, wedged, swamped): the next
    call starts a fresh one. Its requests in flight are answered in-process by their clients."""
    if pid is None or pid <= 1 or pid == os.getpid():
        return
    import _signal  # type: ignore[import-not-found]  # `signal` imports enum

    try:
        os.kill(pid, _signal.SIGKILL)
    except OSError:
        pass


def _in_directory(directory: str, operation: Callable[[str], None], name: str) -> None:
    """bind/connect by a name relative to `directory`: a socket address holds at most ~100
    bytes, fewer than a project's absolute path may need."""
    here = os.getcwd()
    os.chdir(directory)
    try:
        operation(name)
    finally:
        os.chdir(here)


class Fallback(Exception):
    """The server took stdin and then failed: the in-process answer must use these bytes (and
    add `note`, if any, as a warning)."""

    def __init__(self, data: bytes, note: str = "") -> None:
        super().__init__("hook server failed")
        self.data = data
        self.note = note


# -- server --------------------------------------------------------------------------------


def _private(directory: str) -> bool:
    try:
        info = os.stat(directory)
    except OSError:
        return False
    return info.st_uid == os.getuid() and info.st_mode & 0o077 == 0


def _module_stamps() -> dict[str, int]:
    stamps = {}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        name = getattr(module, "__name__", "")
        if path and name.startswith("cf_guidance"):
            try:
                stamps[path] = os.stat(path).st_mtime_ns
            except OSError:
                stamps[path] = -1
    return stamps


def _changed(stamps: dict[str, int]) -> bool:
    for path, stamp in stamps.items():
        try:
            if os.stat(path).st_mtime_ns != stamp:
                return True
        except OSError:
            return True
    return False


def start(state_dir: str) -> None:
    """Fork a detached server from this (warm) process; the caller carries on at once.

    Call only after the answer was written and flushed: the child must not repeat it.
    """
    path = socket_path(state_dir)
    if not _private(state_dir):
        return
    try:
        pid = os.fork()
    except OSError:
        return
    if pid:
        return
    try:  # the child: never return into the hook
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        serve(path)
    finally:
        os._exit(0)


def serve(path: str) -> None:
    """Answer hook requests on the socket at `path` until idle, removed or stale."""
    import _socket
    import fcntl
    import time

    from . import dispatch

    lock = os.open(path + ".lock", os.O_WRONLY | os.O_CREAT, 0o600)
    # A stale server that just refused a request may still be exiting: wait a little for its
    # lock (this process is detached, nobody waits on it); a live server keeps it and wins.
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except OSError:
            if time.monotonic() >= deadline:
                return  # another server owns this socket
            time.sleep(0.05)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    old_umask = os.umask(0o077)
    listener = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        _in_directory(os.path.dirname(path), listener.bind, os.path.basename(path))
    finally:
        os.umask(old_umask)
    listener.listen(64)
    listener.settimeout(5.0)
    stamps = _module_stamps()
    stamps[path] = os.stat(path).st_mtime_ns  # our socket removed or replaced: exit
    last = time.monotonic()
    try:
        while time.monotonic() - last < IDLE_S:
            _reap()
            try:
                fd, _ = listener._accept()  # type: ignore[attr-defined]  # the C socket: accept gives a descriptor
            except TimeoutError:
                if _changed(stamps):
                    return
                continue
            last = time.monotonic()
            conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM, 0, fd)
            try:
                if not _handle(conn, stamps, dispatch):
                    return
            finally:
                conn.close()
    finally:
        listener.close()
        try:
            if os.stat(path).st_mtime_ns == stamps.get(path):
                os.unlink(path)
        except OSError:
            pass


def _reap() -> None:
    """Collect exited children (the workers this server started), never waiting."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _handle(sock: _socket.socket, stamps: dict[str, int], dispatch: ModuleType) -> bool:
    """Answer one request; False when the server must exit (its code changed on disk)."""
    import _socket

    sock.settimeout(5.0)
    _, uid = peer(sock)
    if uid is not None and uid != os.getuid():
        return True  # only this user's hooks are served (the private directory already says so)
    if _changed(stamps):
        try:
            sock.sendall(_STALE)
        except OSError:
            pass
        return False
    chunks = []
    size = 0
    try:
        while size <= MAX_EVENT_BYTES + 1_000_000:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        name, cwd, env, data = decode_request(b"".join(chunks))
        _apply_env(env)
        os.chdir(cwd)
    except (OSError, ValueError):
        return True  # the client sees a short answer and answers in-process
    answer = dispatch.run(name, lambda: data, env)
    try:
        sock.sendall(encode_answer(answer))
        sock.shutdown(_socket.SHUT_RDWR)  # the client may go on now
    except OSError:
        pass
    for module_path, stamp in _module_stamps().items():  # modules this request imported (a compile)
        stamps.setdefault(module_path, stamp)
    return True


def _apply_env(env: dict[str, str]) -> None:
    """Make this process's environment the caller's, for the variables hooks read."""
    for key in [k for k in os.environ if k.startswith(FORWARDED_PREFIXES) or k in FORWARDED_NAMES]:
        if key not in env:
            del os.environ[key]
    for key, value in env.items():
        if os.environ.get(key) != value:
            os.environ[key] = value
