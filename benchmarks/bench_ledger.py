"""Benchmark: ledger appends per second (single writer) and verification of 100,000 records.

Run: .venv/bin/python benchmarks/bench_ledger.py [--appends 5000] [--records 100000] [--jobs 2000]

Each figure is also printed as a ratio to a baseline measured in the same run:

- append (goal >= 5,000/s): `Ledger.append` one record per call (lock, head pointer, seal,
  redact, write; no fsync), the same with an fsync per record, and `append_many` batches of
  256 with one fsync (what the worker does), vs a bare
  `os.write` of each record's canonical JSON (the floor of "writing a JSON line");
- verify (goal <= 3 s for 100,000 records): `Ledger.verify` (hash, chain and HMAC of every
  record plus checkpoints) vs reading the file and `json.loads` of every line;
- worker drain: spooled jobs applied per second by `guidance.jobs.worker.drain` (ledger
  batch append with fsync, job removal, trust and session summaries).

The post-event hook's wall time vs `python -S -c pass` is measured by bench_hook.py
("post-bash" row): the hook only spools; it never takes the ledger lock.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cf_guidance.jobs import spool, worker  # noqa: E402
from cf_guidance.ledger.store import Ledger  # noqa: E402


def entry(i: int) -> dict[str, Any]:
    """A typical decision record: a Bash PreToolUse payload and a deny with one finding."""
    return {
        "kind": "decision",
        "session_id": "3f1e0c52-8a51-4f7e-9d7c-2b7a8c1f0e44",
        "agent_id": "",
        "job": f"{time.time_ns():020d}-4242-{i:08x}",
        "event": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/work/project",
                  "tool_input": {"command": f"git status --short && npm test -- --runInBand shard-{i}", "description": "Run tests"},
                  "tool_use_id": f"toolu_{i:024d}", "session_id": "3f1e0c52-8a51-4f7e-9d7c-2b7a8c1f0e44"},
        "decision": {"decision": "allow", "rule": "", "reason": "", "findings": [], "hook": "pre-bash"},
    }


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def bench_append(root: Path, n: int) -> dict[str, float]:
    out: dict[str, float] = {}
    ledger = Ledger(root / "a", checkpoint_every=1000)
    ledger.append(entry(-1))  # key and origin exist, as after `cf-guidance init`
    start = time.perf_counter()
    for i in range(n):
        ledger.append(entry(i), sync=False)
    out["append"] = n / (time.perf_counter() - start)

    synced = Ledger(root / "b", checkpoint_every=1000)
    synced.append(entry(-1))
    m = max(200, n // 10)
    start = time.perf_counter()
    for i in range(m):
        synced.append(entry(i), sync=True)
    out["append_fsync"] = m / (time.perf_counter() - start)

    batched = Ledger(root / "c", checkpoint_every=1000)
    batched.append(entry(-1))
    start = time.perf_counter()
    for base in range(0, n, 256):
        batched.append_many([entry(i) for i in range(base, min(n, base + 256))], sync=True)
    out["append_many"] = n / (time.perf_counter() - start)

    # floor: encode each record as canonical JSON and os.write it (no lock, hash, HMAC or redaction)
    encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
    fd = os.open(root / "floor.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    start = time.perf_counter()
    for i in range(n):
        os.write(fd, encode(entry(i)).encode() + b"\n")
    out["floor_write"] = n / (time.perf_counter() - start)
    os.close(fd)
    return out


def bench_verify(root: Path, n: int) -> dict[str, float]:
    ledger = Ledger(root / "v", checkpoint_every=1000)
    for base in range(0, n, 1000):
        ledger.append_many([entry(i) for i in range(base, min(n, base + 1000))], sync=False)
    start = time.perf_counter()
    report = ledger.verify()
    verify_s = time.perf_counter() - start
    assert report.ok and report.records == n, report.to_dict()
    start = time.perf_counter()
    for line in ledger.path.read_bytes().splitlines():
        json.loads(line)
    floor_s = time.perf_counter() - start
    return {"verify_s": verify_s, "floor_s": floor_s, "checkpoints": report.checkpoints}


def bench_drain(root: Path, n: int) -> float:
    state = str(root / "w")
    for i in range(n):
        spool.enqueue(state, spool.DECISION, entry(i)["event"], entry(i)["decision"])
    start = time.perf_counter()
    result = worker.drain(state)
    seconds = time.perf_counter() - start
    assert result.applied == n
    return n / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--appends", type=int, default=5000)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        a = bench_append(root, args.appends)
        print(f"append, one record per call, no fsync: {rate(1, 1 / a['append'])}  (goal >= 5,000/s; "
              f"{a['append'] / a['floor_write']:.2f}x the encode+os.write floor of {rate(1, 1 / a['floor_write'])})")
        print(f"append, fsync per record:              {rate(1, 1 / a['append_fsync'])}  ({a['append_fsync'] / a['floor_write']:.3f}x the floor)")
        print(f"append_many, 256 per batch + fsync:    {rate(1, 1 / a['append_many'])}  ({a['append_many'] / a['floor_write']:.2f}x the floor)")
        v = bench_verify(root, args.records)
        print(f"verify {args.records:,} records: {v['verify_s']:.2f} s  (goal <= 3 s; {v['verify_s'] / v['floor_s']:.2f}x reading + "
              f"json.loads of every line, {v['floor_s']:.2f} s; {v['checkpoints']} checkpoints checked)")
        d = bench_drain(root, args.jobs)
        print(f"worker drain: {rate(1, 1 / d)} jobs ({args.jobs} spooled decision jobs)")


if __name__ == "__main__":
    main()
