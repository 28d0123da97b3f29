"""The hook entrypoint: command table, stdin, self-timeout, fail-open / fail-closed.

Hot path module: standard library only. `_signal` (loaded with the interpreter) instead
of `signal`, which imports `enum` (about 10 ms).

`run(name, data, environ)` answers one hook call; `main(argv)` wires it to the process.
Nothing a caller sends makes either raise: an internal error or our own timeout
(`GUIDANCE_EVENT_SYNC_TIMEOUT_MS`; a client-side timeout never blocks, so we enforce
our own) becomes an answer by the fail mode (`GUIDANCE_EVENT_FAIL_CLOSED`). For a
pre-tool command fail-open goes on with a visible warning and fail-closed denies; other
commands cannot deny and always warn. Every failure writes one line on stderr.

Fail-open means only "this project's compiled CLAUDE.md rules could not be applied": the
built-in guard (the gates that need no bundle, handlers._builtin) runs before the bundle
is loaded, and a deny it gave stands in every mode, as does an ask (under fail-closed the
failure itself denies).
"""

from __future__ import annotations

import os
import sys

import _signal  # type: ignore[import-not-found]  # `signal` imports enum: 10 ms

from cf_guidance.decision import ALLOW, ASK, DENY
from cf_guidance.errors import GuidanceError
from cf_guidance.jobs import spool
from cf_guidance.limits import MAX_EVENT_BYTES


from . import handlers, protocol, settings
from .commands import COMMANDS, INFO, PRE, Command, usage

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import BinaryIO

    from .handlers import Call

__all__ = ["COMMANDS", "PRE", "Command", "main", "run", "usage", "write_answer"]


class SelfTimeout(BaseException):
    """Raised by SIGALRM in the main thread when the hook overruns its own budget.

    A BaseException so that no `except Exception` on the way can swallow it.
    """


def _on_alarm(signum: int, frame: object) -> None:
    raise SelfTimeout


def _arm(timeout_ms: int) -> bool:
    """Start our own timer; False where signals are unavailable (not the main thread)."""
    if timeout_ms <= 0:
        return False
    try:
        _signal.signal(_signal.SIGALRM, _on_alarm)
        _signal.setitimer(_signal.ITIMER_REAL, timeout_ms / 1000.0)
    except (ValueError, OSError, AttributeError):
        return False
    return True


def _disarm() -> None:
    _signal.setitimer(_signal.ITIMER_REAL, 0)
    _signal.signal(_signal.SIGALRM, _signal.SIG_DFL)


def run(
    name: str,
    read_input: Callable[[], bytes],
    environ: Mapping[str, str],
) -> protocol.Answer:
    """Answer one hook call; never raises (except KeyboardInterrupt / SystemExit).

    The answer may ask for the detached worker (`Answer.worker`): the process that writes the
    answer starts it afterwards (`spool.spawn_worker`), from the agent's own environment.
    """
    notes: list[str] = []
    fail_closed = settings.fail_closed(environ)
    command = COMMANDS.get(name)
    if command is None:
        known = ", ".join(COMMANDS)
        message = f"unknown hook command {name!r}; use one of: {known}"
        answer = protocol.block(message) if fail_closed else protocol.notice(message)
        return answer
    call = handlers.Call(command.name, command.hook_event, environ, fail_closed)
    timeout_ms, problem = settings.timeout_ms(environ)
    if problem:
        notes.append(problem)
    armed = _arm(timeout_ms)
    try:
        try:
            if command.kind != INFO:
                call.data = _read_bounded(read_input)
            answer = getattr(handlers, command.handler)(call)
        finally:
            if armed:
                _disarm()
    except SelfTimeout:
        answer = _failure(command, call, f"timed out after {timeout_ms} ms ({settings.TIMEOUT_ENV})", timed_out=True)
    except GuidanceError as exc:
        answer = _failure(command, call, str(exc))
    except Exception as exc:  # the last line of defence: a bug must not become a traceback
        answer = _failure(command, call, f"internal error {type(exc).__name__}: {exc}")
    for line in notes + call.warnings:
        answer = answer.with_warning(line)
    if call.notices:
        answer = protocol.with_notice(answer, " ".join(call.notices))
    return answer


def _read_bounded(read_input: Callable[[], bytes]) -> bytes:
    data = read_input()
    if len(data) > MAX_EVENT_BYTES:
        raise handlers.BadInput(f"hook event is larger than {MAX_EVENT_BYTES} bytes; it was not read")
    return data


def _failure(command: Command, call: Call, what: str, *, timed_out: bool = False) -> protocol.Answer:
    """The answer when the handler could not finish, by the command's kind and the fail mode."""
    what = " ".join(what.split())[:500]  # one line, bounded
    if command.kind != PRE:
        return protocol.notice(f"{command.name}: {what}")
    guard = call.builtin
    if guard is not None and (guard.verdict == DENY or (guard.verdict == ASK and not call.fail_closed)):
        if not timed_out:
            handlers.record_decision(call, dict(guard.to_dict(), hook=call.name))
        return protocol.for_decision(guard).with_warning(what)
    if call.fail_closed:
        reason = (
            f"[fail-closed] cf-guidance could not check this call: {what}. Instead: retry; if it persists run "
            f"`cf-guidance verify`, or set {settings.FAIL_CLOSED_ENV}=0 to let unchecked calls through."
        )
        if call.payload is not None:
            answer = protocol.permission(DENY, reason, command.hook_event).with_warning(what)
        else:
            # The event could not be read, so its name is unknown: exit 2 blocks whatever it is.
            answer = protocol.block(reason)
        verdict = DENY
    else:
        if guard is not None:  # "could not check this call" is what the A/B harness looks for
            message = f"could not check this call against this project's CLAUDE.md rules ({what}); the built-in checks passed"
        else:
            message = f"could not check this call ({what})"
        answer = protocol.notice(f"{message}; allowed because {settings.FAIL_CLOSED_ENV} is off")
        verdict = ALLOW
    if not timed_out:  # after a timeout the file system may be what hangs
        rule = "fail-closed" if call.fail_closed else "fail-open"
        handlers.record_decision(call, {"decision": verdict, "rule": rule, "reason": what, "findings": [], "hook": call.name})
    return answer


def _stdin_reader(stream: BinaryIO) -> Callable[[], bytes]:
    def read() -> bytes:
        return stream.read(MAX_EVENT_BYTES + 1)

    return read


def write_answer(answer: protocol.Answer, stdout: BinaryIO, stderr: BinaryIO) -> int:
    """Write UTF-8 bytes whatever the locale (`python -S` under a C locale is ASCII)."""
    for stream, text in ((stdout, answer.stdout), (stderr, answer.stderr)):
        if not text:
            continue
        try:
            stream.write(text.encode("utf-8", "replace"))
            stream.flush()
        except OSError:
            pass  # the client closed the pipe: nothing left to tell it
    return answer.exit_code


def main(argv: list[str] | None = None) -> int:
    """Run `argv[0]` as a hook command on this process's stdin, in-process; return the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(usage())
        return 0 if args else 2
    answer = run(args[0], _stdin_reader(sys.stdin.buffer), os.environ)
    code = write_answer(answer, sys.stdout.buffer, sys.stderr.buffer)
    if answer.worker is not None:
        spool.spawn_worker(*answer.worker)
    return code
