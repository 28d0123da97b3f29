"""The append-only ledger file: appends under a lock, a head pointer, verify, repair, export.

Files in ``<state>/ledger/``::

    ledger.jsonl       one sealed record per line (cf_guidance.ledger.record)
    head.json          {"seq", "hash", "bytes"} of the last record: appends need not reread the file
    checkpoints.jsonl  one {"note", "offset"} per signed checkpoint (cf_guidance.ledger.checkpoint)
    origin             the ledger's origin line (cf-guidance/ledger/v1/<random id>)
    ledger.lock        the filelock every writer holds while appending
    quarantine/        torn tails cut off by `repair` (kept, never deleted)

Every writer holds the lock while it writes, so a line without its newline that a writer
sees under the lock was left by a writer that died mid-append: a torn tail, which the next
append quarantines (and `verify` reports as torn, not as tampering). The head pointer is a
cache: when it disagrees with the file's size it is rebuilt from the file's last line.

Outside the state directory a witness (cf_guidance.ledger.witness) keeps the latest signed
head; `witness()` advances it and `verify()` compares against it, so a ledger that was cut,
rolled back, replaced or wiped together with its head pointer and checkpoints is reported.
"""

from __future__ import annotations

import errno
import fcntl
import hmac
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from cf_guidance._atomic import write_atomic
from cf_guidance.errors import LedgerError, LedgerIntegrityError, StateError
from cf_guidance.ledger import checkpoint as cp
from cf_guidance.ledger import keys as keymod
from cf_guidance.ledger import witness as witness_mod
from cf_guidance.ledger.record import FORMAT, GENESIS, canonical, chain_fields, parse_body, parse_line, record_hash, record_mac, seal_raw, split
from cf_guidance.ledger.redact import maybe_secret_text, redact
from cf_guidance.state import StateLayout

#: A signed checkpoint is written every this many records (and at session end).
CHECKPOINT_EVERY = 1000
#: Seconds an appender waits for the lock before giving up with LedgerError.
LOCK_TIMEOUT = 30.0
#: How far back (records) an idempotent append looks for job ids already applied, at least;
#: the worker's batches are 256, so a killed worker's last batch is always inside it.
JOB_WINDOW = 1024
EXPORT_FORMAT = "cf-guidance-ledger-export/1"
#: Fixed size of head.json (JSON padded with spaces), rewritten in place on every append.
HEAD_BYTES = 160

#: A fault hook gets (stage, fd, data) before each write; tests use it to simulate ENOSPC
#: (raise OSError) or a crash mid-append (write part of `data` to `fd`, then SIGKILL).
FaultHook = Callable[[str, int, bytes], None]

TORN = "torn"
TAMPERED = "tampered"
OK = "ok"


def utc_now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".%03dZ" % int(now % 1 * 1000)


class Head:
    """The ledger's last record: its seq, hash and the file size after it."""

    __slots__ = ("seq", "hash", "bytes")

    def __init__(self, seq: int, digest: str, size: int) -> None:
        self.seq = seq
        self.hash = digest
        self.bytes = size

    @property
    def size(self) -> int:
        """Number of records."""
        return self.seq + 1


class Report:
    """What `verify` found. `status` is ok, torn or tampered; `problem` is one line."""

    __slots__ = ("status", "records", "problem", "problems", "bad_seq", "bad_line", "torn_bytes", "checkpoints", "last_checkpoint", "head",
                 "unanchored", "lost_records", "witnessed")

    def __init__(self) -> None:
        self.status = OK
        self.records = 0
        self.problem = ""
        #: every problem found, one line each (`problem` is the first that decided the status)
        self.problems: list[str] = []
        self.bad_seq: int | None = None
        self.bad_line: int | None = None
        self.torn_bytes = 0
        self.checkpoints = 0
        self.last_checkpoint: cp.Checkpoint | None = None
        self.head = GENESIS
        #: records after the last signed checkpoint (only the HMAC protects them)
        self.unanchored = 0
        #: records signed by a key the user declared lost: checked by chain and checkpoints only
        self.lost_records = 0
        #: the witnesses compared against: (path, records they saw); empty when there is none yet
        self.witnessed: list[tuple[str, int]] = []

    @property
    def ok(self) -> bool:
        return self.status == OK

    def fail(self, status: str, problem: str, *, seq: int | None = None, line: int | None = None) -> Report:
        self.problems.append(problem)
        if self.status == OK or (self.status == TORN and status == TAMPERED):
            self.status = status
            self.problem = problem
            self.bad_seq = seq
            self.bad_line = line
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "records": self.records,
            "head": self.head,
            "problem": self.problem,
            "problems": self.problems,
            "bad_seq": self.bad_seq,
            "bad_line": self.bad_line,
            "torn_bytes": self.torn_bytes,
            "checkpoints": self.checkpoints,
            "last_checkpoint": self.last_checkpoint.size if self.last_checkpoint else None,
            "unanchored": self.unanchored,
            "lost_records": self.lost_records,
            "witnessed": [{"path": path, "records": size} for path, size in self.witnessed],
        }


class LockTimeout(LedgerError):
    """The ledger lock was held by another process for longer than the timeout."""


class _FileLock:
    """An exclusive flock on a lock file, re-entrant within one process.

    A plain `fcntl.flock` on a descriptor kept open costs microseconds; the appender takes it
    once per append. A thread lock in front keeps threads of one process apart (flock is
    per open file description, so it would not).
    """

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None
        self._depth = 0
        self._thread = threading.RLock()

    def __enter__(self) -> _FileLock:
        self._thread.acquire()
        if self._depth == 0:
            try:
                self._acquire()
            except BaseException:
                self._thread.release()
                raise
        self._depth += 1
        return self

    def _acquire(self) -> None:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        deadline = time.monotonic() + self.timeout
        delay = 0.0005
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(f"{self.path} stayed locked for {self.timeout:.0f} s; is a writer stuck? see `cf-guidance status`") from None
                time.sleep(delay)
                delay = min(delay * 2, 0.02)

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._thread.release()


def _write_all(fd: int, data: bytes, fault: FaultHook | None, stage: str) -> None:
    if fault is not None:
        fault(stage, fd, data)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _os_error(action: str, path: Path, exc: OSError) -> LedgerError:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        hint = "free disk space"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        hint = "make the state directory writable (or set GUIDANCE_STATE_DIR)"
    else:
        hint = "check the state directory"
    return LedgerError(f"cannot {action} {path}: {reason}; {hint}")


class Ledger:
    """One state directory's ledger. Safe to use from many processes at once."""

    def __init__(
        self,
        state_dir: str | os.PathLike[str],
        *,
        checkpoint_every: int = CHECKPOINT_EVERY,
        fault: FaultHook | None = None,
        lock_timeout: float = LOCK_TIMEOUT,
        keyring: keymod.Keyring | None = None,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.dir = Path(StateLayout(str(state_dir)).ledger)
        self.path = self.dir / "ledger.jsonl"
        self.head_path = self.dir / "head.json"
        self.checkpoints_path = self.dir / "checkpoints.jsonl"
        self.origin_path = self.dir / "origin"
        self.quarantine_dir = self.dir / "quarantine"
        self.checkpoint_every = checkpoint_every
        self._fault = fault
        self._lock = _FileLock(self.dir / "ledger.lock", lock_timeout)
        self._ready = False
        self._keyring = keyring
        self._cache: Head | None = None

    # -- keys and origin -------------------------------------------------------------------

    @property
    def keyring(self) -> keymod.Keyring:
        if self._keyring is None:
            self._keyring = self._load_keys()
        return self._keyring

    def _load_keys(self) -> keymod.Keyring:
        """The keys; a missing one is created only while nothing was made with it yet.

        A key that disappears from a ledger with records (or checkpoints) is reported, never
        replaced: records or checkpoints made under a fresh key would verify, and the
        deletion would go unseen.
        """
        has_records = _holds_data(self.path)
        try:
            return keymod.load(self.state_dir, create=not has_records, create_signing=not _holds_data(self.checkpoints_path))
        except keymod.MissingKeyError:
            if not has_records:
                raise
            raise keymod.MissingKeyError(
                f"ledger key {keymod.keys_dir(self.state_dir) / keymod.KEY_FILE} is missing but {self.path} holds records made "
                "with it; restore it from a backup, or run `cf-guidance ledger rotate-key --replace-lost` to go on under a new key"
            ) from None

    def _signer(self) -> cp.Signer:
        seed = self.keyring.signing
        if seed is None:
            raise keymod.MissingKeyError(
                f"checkpoint signing key {keymod.keys_dir(self.state_dir) / keymod.SIGNING_FILE} is missing but "
                f"{self.checkpoints_path} holds checkpoints signed with it; restore it from a backup, "
                "or run `cf-guidance ledger rotate-key --replace-lost`"
            )
        return cp.Signer(seed)

    def origin(self, *, create: bool = False) -> str:
        try:
            return self.origin_path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            if not create:
                return ""
        origin = cp.ORIGIN_PREFIX + os.urandom(8).hex()
        self.origin_path.write_text(origin + "\n", encoding="utf-8")
        return origin

    # -- appending -----------------------------------------------------------------------------

    def append(self, entry: dict[str, Any], *, sync: bool = True) -> dict[str, Any]:
        """Append one entry; returns the record written (with seq and hash)."""
        return self.append_many([entry], sync=sync)[0]

    def append_many(self, entries: Iterable[dict[str, Any]], *, sync: bool = True, skip_applied_jobs: bool = False) -> list[dict[str, Any]]:
        """Append entries in order under one lock hold and one fsync.

        With `skip_applied_jobs`, entries whose `job` id is already among the last
        JOB_WINDOW records are skipped (the worker's idempotence after a crash).
        """
        items = list(entries)
        try:
            self._prepare()
            with self._lock:
                return self._append_locked(items, sync, skip_applied_jobs)
        except OSError as exc:
            raise _os_error("append to ledger", self.path, exc) from None

    def _prepare(self) -> None:
        if not self._ready:
            self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            self._ready = True

    def _append_locked(self, items: list[dict[str, Any]], sync: bool, skip_applied_jobs: bool) -> list[dict[str, Any]]:
        keyring = self.keyring
        if self._cache is None:
            self.origin(create=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            head = self._current_head(fd)
            if skip_applied_jobs:
                applied = self._recent_jobs(fd, head, max(JOB_WINDOW, 4 * len(items)))
                items = [item for item in items if not (item.get("job") and item["job"] in applied)]
            if not items:
                return []
            chunks: list[bytes] = []
            written: list[dict[str, Any]] = []
            seq, prev = head.seq, head.hash
            for item in items:
                seq += 1
                body = self._body(item, seq, prev, keyring.kid)
                raw = canonical(body)
                if maybe_secret_text(raw):  # encode once; redact and re-encode only when needed
                    body = redact(body)
                    raw = canonical(body)
                line, prev = seal_raw(raw, keyring.key)
                chunks.append(line)
                body["hash"] = prev
                written.append(body)
            data = b"".join(chunks)
            _write_all(fd, data, self._fault, "append")
            if sync:
                os.fsync(fd)
            new_head = Head(seq, prev, head.bytes + len(data))
            self._store_head(new_head)
            if new_head.size // self.checkpoint_every > head.size // self.checkpoint_every:
                self._checkpoint_locked(fd, new_head)
            return written
        finally:
            os.close(fd)

    @staticmethod
    def _body(item: dict[str, Any], seq: int, prev: str, kid: str) -> dict[str, Any]:
        body = {k: v for k, v in item.items() if k not in ("hash", "mac", "prev", "seq", "kid", "v")}
        body.setdefault("kind", "event")
        body.setdefault("session_id", "")
        body.setdefault("agent_id", "")
        body.setdefault("ts", utc_now())
        body.update(v=FORMAT, seq=seq, prev=prev, kid=kid)
        return body

    def _store_head(self, head: Head) -> None:
        self._cache = head
        data = f'{{"seq": {head.seq}, "hash": "{head.hash}", "bytes": {head.bytes}}}'.encode()
        fd = os.open(self.head_path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            # always HEAD_BYTES at offset 0: no truncate needed; a torn write fails to parse and
            # the head is then rebuilt from the ledger's last line
            _write_all(fd, data.ljust(HEAD_BYTES), self._fault, "head")
        finally:
            os.close(fd)

    def _current_head(self, fd: int) -> Head:
        """The head for the file open at `fd` (under the lock); repairs a torn tail."""
        size = os.fstat(fd).st_size
        cached = self._cache
        if cached is not None and cached.bytes == size:
            return cached
        try:
            stored = json.loads(self.head_path.read_bytes())
            head = Head(int(stored["seq"]), str(stored["hash"]), int(stored["bytes"]))
            if head.bytes == size:
                self._cache = head
                return head
        except (OSError, ValueError, KeyError, TypeError):
            pass
        head = self._head_from_tail(fd, size, repair=True)
        self._store_head(head)
        return head

    def _read_tail(self, fd: int, size: int, want_lines: int) -> tuple[bytes, int]:
        """The last bytes of the file holding at least `want_lines` full lines (or all), and their offset."""
        chunk = 64 * 1024
        while True:
            start = max(0, size - chunk)
            data = os.pread(fd, size - start, start)
            if start == 0 or data.count(b"\n") > want_lines:
                return data, start
            chunk *= 4

    def _head_from_tail(self, fd: int, size: int, *, repair: bool) -> Head:
        if size == 0:
            return Head(-1, GENESIS, 0)
        data, start = self._read_tail(fd, size, 1)
        cut = data.rfind(b"\n") + 1
        if cut < len(data):  # torn tail: a writer died mid-append
            if not repair:
                raise LedgerIntegrityError("ledger ends in a torn record; run `cf-guidance ledger repair`")
            self._quarantine_tail(fd, start + cut, data[cut:])
            size = start + cut
            data = data[:cut]
            if size == 0:
                return Head(-1, GENESIS, 0)
        last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1]
        body, digest, mac = split(last)
        record = parse_body(body)
        self._check_mac(record, body, mac)
        if record_hash(body) != digest:
            raise LedgerIntegrityError(f"last ledger record (seq {record['seq']}) does not hash; run `cf-guidance ledger verify`")
        return Head(record["seq"], digest, size)

    def _check_mac(self, record: dict[str, Any], body: bytes, mac: str) -> None:
        if record["kid"] in self.keyring.lost:
            return  # the user declared this key lost: its records are checked by hash and chain
        key = self.keyring.by_id.get(record["kid"])
        if key is None:
            raise LedgerIntegrityError(f"record seq {record['seq']} names unknown key {record['kid']}; restore keys/retired/ or check for tampering")
        if not hmac.compare_digest(record_mac(key, body), mac):
            raise LedgerIntegrityError(f"record seq {record['seq']} has a bad HMAC; run `cf-guidance ledger verify`")

    def _quarantine_tail(self, fd: int, offset: int, tail: bytes) -> Path:
        """Move a torn tail to quarantine/ (fsynced) and cut it off the ledger."""
        self.quarantine_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = self.quarantine_dir / f"torn-{offset}-{time.time_ns()}.bin"
        qfd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            _write_all(qfd, tail, None, "quarantine")
            os.fsync(qfd)
        finally:
            os.close(qfd)
        os.ftruncate(fd, offset)
        os.fsync(fd)
        self._cache = None
        return target

    def _recent_jobs(self, fd: int, head: Head, window: int) -> set[str]:
        """Job ids among the last `window` records (the `job` member sits right before `kid`)."""
        if head.bytes == 0:
            return set()
        data, _ = self._read_tail(fd, head.bytes, window)
        jobs: set[str] = set()
        for line in data.split(b"\n")[-window - 1 :]:
            k = line.rfind(b'","kid":"')
            j = line.rfind(b',"job":"', 0, k) if k != -1 else -1
            if j != -1 and b'"' not in line[j + 8 : k]:
                jobs.add(line[j + 8 : k].decode("utf-8", "replace"))
            elif b'"job":' in line:
                try:
                    job = json.loads(line).get("job")
                except ValueError:
                    continue  # the first, partial line of the chunk
                if isinstance(job, str):
                    jobs.add(job)
        return jobs

    def head(self) -> Head:
        """The current head (reads only the head pointer or the last line)."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return Head(-1, GENESIS, 0)
        try:
            size = os.fstat(fd).st_size
            try:
                stored = json.loads(self.head_path.read_bytes())
                if int(stored["bytes"]) == size:
                    return Head(int(stored["seq"]), str(stored["hash"]), size)
            except (OSError, ValueError, KeyError, TypeError):
                pass
            return self._head_from_tail(fd, size, repair=False)
        finally:
            os.close(fd)

    # -- checkpoints ---------------------------------------------------------------------------

    def checkpoint(self) -> cp.Checkpoint | None:
        """Sign a checkpoint at the current head (e.g. at session end); None if already covered."""
        try:
            self._prepare()
            with self._lock:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
                try:
                    return self._checkpoint_locked(fd, self._current_head(fd))
                finally:
                    os.close(fd)
        except OSError as exc:
            raise _os_error("write a checkpoint for", self.path, exc) from None

    def _checkpoint_locked(self, fd: int, head: Head) -> cp.Checkpoint | None:
        if head.size == 0:
            return None
        origin = self.origin(create=True)
        signer = self._signer()
        stored = self.checkpoints()
        last: tuple[cp.Checkpoint, int] | None = stored[-1] if stored else None
        if last is not None:
            previous, offset = last
            if previous.size == head.size and previous.head == head.hash:
                return None
            self._check_consistent(fd, previous, offset, head)
        note = cp.sign(origin, head.size, head.hash, signer)
        line = json.dumps({"note": note, "offset": head.bytes}, ensure_ascii=False).encode() + b"\n"
        cfd = os.open(self.checkpoints_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            _write_all(cfd, line, self._fault, "checkpoint")
            os.fsync(cfd)
        finally:
            os.close(cfd)
        return cp.parse(note, [signer.verifier])

    def _check_consistent(self, fd: int, previous: cp.Checkpoint, offset: int, head: Head) -> None:
        """Refuse to sign a head that does not extend the previously signed one (C2SP rule)."""
        if previous.size > head.size:
            raise LedgerIntegrityError(f"ledger has {head.size} records but checkpoint {previous.size} was signed; refusing to sign an inconsistent checkpoint")
        data = os.pread(fd, head.bytes - offset, offset) if offset <= head.bytes else b""
        last_line = os.pread(fd, min(offset, 1 << 20), max(0, offset - (1 << 20))).rstrip(b"\n").rsplit(b"\n", 1)[-1]
        try:
            body, digest, _ = split(last_line)
            ok = parse_body(body)["seq"] == previous.size - 1 and digest == previous.head and record_hash(body) == digest
        except LedgerIntegrityError:
            ok = False
        prev = previous.head
        for raw in data.split(b"\n")[:-1] if ok else []:
            # hash every record and find the previous hash in its prev member; `verify` does the
            # full parse, this only has to refuse a head that does not extend the signed one
            body, digest, _ = split(raw)
            if b'"prev":"' + prev.encode() + b'"' not in body or record_hash(body) != digest:
                ok = False
                break
            prev = digest
        if not ok or prev != head.hash:
            raise LedgerIntegrityError(f"records after checkpoint {previous.size} do not extend it; refusing to sign; run `cf-guidance ledger verify`")

    def checkpoints(self, verifiers: list[cp.Verifier] | None = None) -> list[tuple[cp.Checkpoint, int]]:
        """Every stored checkpoint, verified, with its offset hint; LedgerIntegrityError on a bad one."""
        if verifiers is None:
            verifiers = self._verifiers(self.keyring.seeds)
        out: list[tuple[cp.Checkpoint, int]] = []
        for number, note, offset in self._checkpoint_notes():
            try:
                out.append((cp.parse(note, verifiers), offset))
            except LedgerIntegrityError as exc:
                raise type(exc)(f"checkpoint {number}: {exc}") from None
        return out

    def _checkpoint_notes(self) -> Iterator[tuple[int, str, int]]:
        try:
            raw = self.checkpoints_path.read_bytes()
        except FileNotFoundError:
            return
        for number, line in enumerate(raw.split(b"\n")[:-1], 1):
            try:
                item = json.loads(line)
                note, offset = item["note"], item["offset"]
                if not isinstance(note, str) or type(offset) is not int:
                    raise TypeError
            except (ValueError, KeyError, TypeError):
                raise LedgerIntegrityError(f"checkpoint {number} is not a {{note, offset}} line") from None
            yield number, note, offset

    # -- reading and verifying -----------------------------------------------------------------

    def lines(self) -> Iterator[bytes]:
        """Raw lines (without newline) of every complete record."""
        try:
            handle = open(self.path, "rb")
        except FileNotFoundError:
            return
        with handle:
            for line in handle:
                if line.endswith(b"\n"):
                    yield line[:-1]

    def records(self) -> Iterator[dict[str, Any]]:
        for line in self.lines():
            yield parse_line(line)

    def verify(self, witnesses: Iterable[str] = ()) -> Report:
        """Check every record's hash, chain link and HMAC, the head pointer, every checkpoint, and
        the ledger against its witness (when there is one yet) and each file in `witnesses`.

        Every problem is one line in `Report.problems`. A missing key is one of them: the
        records are then still checked by their hash chain and signed checkpoints.
        """
        report = Report()
        hmac_keys: dict[str, bytes] | None
        try:
            keyring = self.keyring
            hmac_keys, seeds, lost = keyring.by_id, keyring.seeds, frozenset(keyring.lost)
            signing = keyring.signing
        except keymod.MissingKeyError as exc:
            report.fail(TAMPERED, str(exc))
            hmac_keys, lost = None, frozenset()
            signing, retired = keymod.load_seeds(self.state_dir)
            seeds = ([signing] if signing is not None else []) + retired
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            data = b""
        problems_before = len(report.problems)
        hashes = _verify_records(data, report, hmac_keys, lost)
        if len(report.problems) > problems_before and report.status == TAMPERED:
            return report  # the first bad record is named; what follows it proves nothing
        present = report.records
        if report.status == TORN and _is_next_record(data[len(data) - report.torn_bytes :], report, hmac_keys or {}):
            present += 1  # a whole record that lost only its newline still counts
        try:
            stored = json.loads(self.head_path.read_bytes())
            if int(stored["seq"]) + 1 > present:
                report.fail(TAMPERED, f"head pointer says {int(stored['seq']) + 1} records but the ledger has {report.records}: records were removed", seq=report.records)
        except FileNotFoundError:
            if report.records:
                report.fail(TAMPERED, f"{self.head_path} is missing but the ledger has {report.records} records: it was deleted "
                                      "(with it, cut records leave no trace in the state directory)")
        except (OSError, ValueError, KeyError, TypeError):
            pass  # the head pointer is a cache; a torn one is rebuilt on the next append
        if signing is None and _holds_data(self.checkpoints_path) and hmac_keys is not None:
            report.fail(TAMPERED, f"checkpoint signing key {keymod.keys_dir(self.state_dir) / keymod.SIGNING_FILE} is missing but "
                                  "checkpoints were signed with it; restore it from a backup, or run `cf-guidance ledger rotate-key --replace-lost`")
        found = self._witnesses(report, witnesses)
        try:
            checkpoints = [c for c, _ in self.checkpoints(self._verifiers(seeds, found))]
        except LedgerIntegrityError as exc:
            report.fail(TAMPERED, str(exc))
            checkpoints = []
        _check_checkpoints(checkpoints, hashes, self.origin(), report)
        seen = witness_mod.Seen(
            self.origin(), len(hashes), hashes[-1] if hashes else GENESIS, hashes[0] if hashes else "", self._checkpoint_count(),
            lambda seq: hashes[seq] if 0 <= seq < len(hashes) else None,
        )
        for item in found:
            report.witnessed.append((item.path, item.size))
            for problem in witness_mod.compare(item, seen):
                report.fail(TAMPERED, problem)
        return report

    def _verifiers(self, seeds: list[bytes], witnesses: list[witness_mod.Witness] | None = None) -> list[cp.Verifier]:
        """The public keys of `seeds`, and those the witnesses pinned: a seed that was deleted (and
        is reported) leaves the checkpoints it signed verifiable, and `--replace-lost` can go on."""
        if witnesses is None:
            try:
                default = witness_mod.load(witness_mod.witness_path(self.state_dir))
            except StateError:
                default = None  # verify() reports a damaged witness; signing needs only the seeds
            witnesses = [default] if default is not None else []
        verifiers = {v.text(): v for v in (cp.Signer(seed).verifier for seed in seeds)}
        for item in witnesses:
            for text in item.verifier_keys:
                verifiers.setdefault(text, cp.parse_verifier(text))
        return list(verifiers.values())

    def _witnesses(self, report: Report, extra: Iterable[str]) -> list[witness_mod.Witness]:
        """The default witness (when there is one yet) and each file in `extra`; a damaged one is a problem."""
        found: list[witness_mod.Witness] = []
        for path, required in [(witness_mod.witness_path(self.state_dir), False), *((str(p), True) for p in extra)]:
            try:
                item = witness_mod.load(path)
            except StateError as exc:
                report.fail(TAMPERED, str(exc))
                continue
            if item is not None:
                found.append(item)
            elif required:
                report.fail(TAMPERED, f"no witness at {path}; check the path")
        return found

    def _checkpoint_count(self) -> int:
        try:
            return self.checkpoints_path.read_bytes().count(b"\n")
        except FileNotFoundError:
            return 0

    # -- the witness ----------------------------------------------------------------------------

    def witness(self, *, reset: bool = False, accept_keys: bool = False) -> list[str]:
        """Advance the witness to the current head when the ledger extends what it saw.

        Returns the problems that kept it from moving ([] when it moved or nothing was new):
        a ledger that was cut, rolled back, replaced or wiped never overwrites its witness.
        `reset` (the user's `ledger witness --reset`) starts the witness afresh from the
        current ledger; `accept_keys` (after `rotate-key`) pins the current checkpoint key.
        """
        path = witness_mod.witness_path(self.state_dir)
        try:
            previous = None if reset else witness_mod.load(path)
        except LedgerIntegrityError as exc:
            return [str(exc)]
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            if previous is None:
                return []
            return witness_mod.compare(previous, witness_mod.Seen(self.origin(), 0, GENESIS, "", self._checkpoint_count(), lambda seq: None))
        except OSError as exc:
            raise _os_error("read", self.path, exc) from None
        try:
            with self._lock:
                return self._witness_locked(fd, path, previous, accept_keys)
        except OSError as exc:
            raise _os_error("update the witness of", self.path, exc) from None
        finally:
            os.close(fd)

    def _witness_locked(self, fd: int, path: str, previous: witness_mod.Witness | None, accept_keys: bool) -> list[str]:
        head = self._current_head(fd)
        origin = self.origin()
        checkpoints = self._checkpoint_count()
        first = _first_hash(fd) if head.size else ""
        offset = previous.offset if previous is not None else 0
        seen = witness_mod.Seen(origin, head.size, head.hash, first, checkpoints, lambda seq: _hash_ending_at(fd, seq, offset))
        signer = self._signer()
        current = signer.verifier.text()
        if previous is None:
            if head.size == 0:
                return []
            pinned = [current]
        else:
            problems = witness_mod.compare(previous, seen)
            if problems:
                return problems
            pinned = list(previous.verifier_keys)
            if current not in pinned:
                if not accept_keys:
                    return [f"the checkpoint key {signer.name} is not one the witness {path} pinned: the keys were replaced; "
                            "if you rotated them yourself, run `cf-guidance ledger witness --reset`"]
                pinned.append(current)
            elif head.size == previous.size and checkpoints == previous.checkpoints:
                return []
        note = cp.sign(origin, head.size, head.hash, signer)
        witness_mod.advance(path, previous, seen, note, pinned, head.bytes)
        return []

    # -- repair and export ---------------------------------------------------------------------

    def repair(self) -> tuple[str, Path | None]:
        """Fix a torn tail: complete a whole record missing its newline, else quarantine the bytes.

        Returns (what was done, quarantine file). Never touches a ledger that was tampered with.
        """
        report = self.verify()
        if report.status == TAMPERED:
            raise LedgerIntegrityError(f"cannot repair: {report.problem} (record seq {report.bad_seq}); repair only fixes a torn tail after a crash")
        if report.status == OK:
            return "nothing to repair", None
        with self._lock:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
            try:
                size = os.fstat(fd).st_size
                data, start = self._read_tail(fd, size, 1)
                cut = data.rfind(b"\n") + 1
                tail = data[cut:]
                if _is_next_record(tail, report, self.keyring.by_id):
                    os.write(fd, b"\n")
                    os.fsync(fd)
                    self._cache = None
                    self._store_head(self._head_from_tail(fd, size + 1, repair=False))
                    return "completed the last record's missing newline", None
                target = self._quarantine_tail(fd, start + cut, tail)
                self._store_head(self._head_from_tail(fd, start + cut, repair=False))
                return f"moved {len(tail)} torn bytes to {target}", target
            finally:
                os.close(fd)

    def verifier_keys(self) -> list[str]:
        return [v.text() for v in cp.verifiers_for(self.keyring)]

    def export(self, out: str | os.PathLike[str]) -> dict[str, Any]:
        """Write records, checkpoints and public keys to `out` (after a final checkpoint)."""
        report = self.verify()
        if report.status != OK:
            raise LedgerIntegrityError(f"cannot export: ledger is {report.status}: {report.problem}")
        self.checkpoint()
        notes = [note for _, note, _ in self._checkpoint_notes()]
        payload = {
            "format": EXPORT_FORMAT,
            "origin": self.origin(),
            "verifier_keys": self.verifier_keys(),
            "checkpoints": notes,
            "records": [line.decode("utf-8") for line in self.lines()],
        }
        target = Path(out)
        write_atomic(target, (json.dumps(payload, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
        return {"records": len(payload["records"]), "checkpoints": len(notes), "path": str(target)}


def _is_next_record(tail: bytes, report: Report, keys: dict[str, bytes]) -> bool:
    try:
        body, digest, mac = split(tail)
        record = parse_body(body)
    except LedgerIntegrityError:
        return False
    key = keys.get(record["kid"])
    return (
        key is not None
        and record["seq"] == report.records
        and record["prev"] == report.head
        and record_hash(body) == digest
        and hmac.compare_digest(record_mac(key, body), mac)
    )


def _holds_data(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except FileNotFoundError:
        return False


def _first_hash(fd: int) -> str:
    """The hash of the ledger's first record ("" when it cannot be read as one)."""
    data = b""
    while b"\n" not in data:
        chunk = os.pread(fd, 1 << 16, len(data))
        if not chunk:
            return ""
        data += chunk
    try:
        return split(data[: data.index(b"\n")])[1]
    except LedgerIntegrityError:
        return ""


def _hash_ending_at(fd: int, seq: int, offset: int) -> str | None:
    """The hash of record `seq` when the line that ends at byte `offset` is that record, else None."""
    if offset <= 0:
        return None
    chunk = 1 << 16
    while True:
        start = max(0, offset - chunk)
        tail = os.pread(fd, offset - start, start)
        if len(tail) != offset - start or not tail.endswith(b"\n"):
            return None  # the file is shorter, or no record ends there
        if start == 0 or b"\n" in tail[:-1]:
            break
        chunk *= 4
    try:
        body, digest, _ = split(tail[:-1].rsplit(b"\n", 1)[-1])
        found_seq, _, _ = chain_fields(body)
    except LedgerIntegrityError:
        return None
    return digest if found_seq == seq and record_hash(body) == digest else None


def _verify_records(data: bytes, report: Report, keys: dict[str, bytes] | None, lost: frozenset[str] = frozenset()) -> list[str]:
    """Walk the records; `keys` None skips HMACs (export verification without the secret), and so
    does a key id in `lost` (counted in `report.lost_records`)."""
    hashes: list[str] = []
    prev = GENESIS
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline

    def bad(problem: str) -> list[str]:
        report.records = len(hashes)
        report.fail(TAMPERED, problem, seq=len(hashes), line=len(hashes) + 1)
        return hashes

    for number, line in enumerate(lines, 1):
        seq = number - 1
        try:
            body, digest, mac = split(line)
            found_seq, found_prev, kid = chain_fields(body)
        except LedgerIntegrityError as exc:
            return bad(f"line {number}: {exc}")
        if found_seq != seq:
            return bad(f"line {number}: seq {found_seq} where {seq} was expected (a record was removed, inserted or moved)")
        if found_prev != prev:
            return bad(f"record seq {seq}: prev does not match the previous record's hash (chain broken)")
        if record_hash(body) != digest:
            return bad(f"record seq {seq}: content does not match its hash (edited)")
        if kid in lost:
            report.lost_records += 1
        elif keys is not None:
            key = keys.get(kid)
            if key is None:
                return bad(f"record seq {seq}: signed with unknown key {kid}")
            if not hmac.compare_digest(record_mac(key, body), mac):
                return bad(f"record seq {seq}: bad HMAC (rewritten without the key)")
        hashes.append(digest)
        prev = digest
    report.records = len(hashes)
    report.head = prev
    if tail:
        report.torn_bytes = len(tail)
        report.fail(TORN, f"the last {len(tail)} bytes are an incomplete record (a writer crashed mid-append); run `cf-guidance ledger repair`", seq=len(hashes), line=len(lines) + 1)
    return hashes


def _check_checkpoints(checkpoints: list[cp.Checkpoint], hashes: list[str], origin: str, report: Report) -> None:
    last_size = 0
    for number, checkpoint in enumerate(checkpoints, 1):
        if origin and checkpoint.origin != origin:
            report.fail(TAMPERED, f"checkpoint {number} is for {checkpoint.origin}, not this ledger ({origin}): files were swapped")
            return
        if checkpoint.size <= last_size:
            report.fail(TAMPERED, f"checkpoint {number} (size {checkpoint.size}) does not grow past the previous one ({last_size}): an old checkpoint was replayed")
            return
        if checkpoint.size > len(hashes):
            report.fail(TAMPERED, f"checkpoint {number} covers {checkpoint.size} records but the ledger has {len(hashes)}: records were removed", seq=len(hashes))
            return
        if hashes[checkpoint.size - 1] != checkpoint.head:
            report.fail(TAMPERED, f"checkpoint {number}: record seq {checkpoint.size - 1} does not have the signed head hash", seq=checkpoint.size - 1)
            return
        last_size = checkpoint.size
        report.checkpoints = number
        report.last_checkpoint = checkpoint
    report.unanchored = len(hashes) - last_size


def verify_export(path: str | os.PathLike[str], verifier_keys: list[str] | None = None) -> Report:
    """Verify an export without the secret: hashes, chain and signed checkpoints.

    `verifier_keys` pins the public keys to trust (an auditor's copy); by default the keys
    inside the export are used, which proves integrity only relative to those keys.
    Records after the last checkpoint are not covered by any signature and fail the check.
    """
    report = Report()
    try:
        payload = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return report.fail(TAMPERED, f"cannot read export {path}: {exc}")
    if not isinstance(payload, dict) or payload.get("format") != EXPORT_FORMAT:
        return report.fail(TAMPERED, f"{path} is not a {EXPORT_FORMAT} file")
    try:
        verifiers = [cp.parse_verifier(text) for text in (verifier_keys if verifier_keys is not None else payload["verifier_keys"])]
        records = payload["records"]
        notes = payload["checkpoints"]
        if not all(isinstance(r, str) for r in records) or not all(isinstance(n, str) for n in notes):
            raise TypeError
    except (KeyError, TypeError):
        return report.fail(TAMPERED, "export lacks records, checkpoints or verifier keys")
    except LedgerIntegrityError as exc:
        return report.fail(TAMPERED, str(exc))
    data = "".join(r + "\n" for r in records).encode("utf-8")
    hashes = _verify_records(data, report, None)
    if report.status != OK:
        return report
    try:
        checkpoints = [cp.parse(note, verifiers) for note in notes]
    except LedgerIntegrityError as exc:
        return report.fail(TAMPERED, f"checkpoint: {exc}")
    _check_checkpoints(checkpoints, hashes, str(payload.get("origin", "")), report)
    if report.ok and report.unanchored:
        report.fail(TAMPERED, f"{report.unanchored} records after the last signed checkpoint are not covered by a signature")
    return report
