"""What `cf-guidance status` reports: state paths, ledger, spool, worker, trust, and every
environment variable and file the tool reads or writes.

The two tables below are the single list of the tool's inputs and outputs;
tests/ledger/test_status.py checks that every `GUIDANCE_*` / `CF_GUIDANCE_*` name in the
sources is in ENV_VARS.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path
from typing import Any

from cf_guidance import trust
from cf_guidance._statefile import read_bytes
from cf_guidance.errors import GuidanceError
from cf_guidance.jobs import spool
from cf_guidance.ledger import keys as keymod
from cf_guidance.ledger import witness as witness_mod
from cf_guidance.ledger.store import Ledger
from cf_guidance.state import StateLayout

#: (name, what it does). Read by the hook, the worker or the CLI.
ENV_VARS: tuple[tuple[str, str], ...] = (
    ("CLAUDE_PROJECT_DIR", "project root of a hook call (set by Claude Code)"),
    ("GUIDANCE_PROJECT_DIR", "project root when CLAUDE_PROJECT_DIR is not set (Codex, scripts)"),
    ("GUIDANCE_STATE_DIR", "moves the state directory (default <project>/.claude-flow/guidance)"),
    ("GUIDANCE_LEDGER_KEY", "ledger HMAC key (64 hex or base64 of 32 bytes) instead of keys/ledger.key"),
    ("GUIDANCE_EVENT_FAIL_CLOSED", "1: deny when the hook cannot decide or record (default 0: fail open)"),
    ("GUIDANCE_EVENT_SYNC_TIMEOUT_MS", "the hook's own deadline for a decision"),
    ("GUIDANCE_HOOKD", "0: no warm decision helper process (the hook decides in-process)"),
    ("GUIDANCE_RATE_LIMIT_PER_MIN", "base tool calls per minute for each agent of a session (default 240; 0: off)"),
    ("GUIDANCE_AUTOPILOT_ENABLED", "1: session end starts `cf-guidance autopilot --once` detached"),
    ("GUIDANCE_AUTOPILOT_APPLY", "1: the autopilot rewrites CLAUDE.md when its gates pass (default: propose)"),
    ("GUIDANCE_AUTOPILOT_AB", "1: the autopilot runs its A/B gate through the headless runner"),
    ("GUIDANCE_AUTOPILOT_MIN_DELTA", "least analyzer gain for a promotion (default 0.5)"),
    ("GUIDANCE_AUTOPILOT_MIN_AB_GAIN", "least A/B gain of a rule's own probes, live A/B (default 0.05)"),
    ("GUIDANCE_AUTOPILOT_REPLAY", "0: the autopilot does not replay past sessions per rule (default 1)"),
    ("GUIDANCE_AUTOPILOT_MAX_FP_RATE", "most likely false positives in a rule's replay, as a share of what it would stop (default 0.2)"),
    ("CF_GUIDANCE_CLAUDE_BIN", "the claude binary the headless runner starts"),
    ("CF_GUIDANCE_HEADLESS_RUN", "set by the headless runner on each run's client (the run's directory): how it finds the run's processes"),
    ("CLAUDE_CONFIG_DIR", "Claude Code's config dir (headless runs isolate it; replay reads its projects/ transcripts; init --scope user)"),
    ("CODEX_HOME", "Codex's config dir (init --agent codex and --scope user; replay reads its sessions/ rollouts)"),
    ("ANTHROPIC_API_KEY", "credentials of a live A/B (`ab --executor claude --live`; or ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN)"),
    ("ANTHROPIC_BASE_URL", "model server for headless runs (the scripted server in tests)"),
    ("HOME", "home directory: ~ in paths, user-level settings, ~/.local/bin for cf-guidance-hook"),
    ("PATH", "where the portable hook command finds cf-guidance-hook (then ~/.local/bin)"),
    ("XDG_DATA_HOME", "where the ledger's witness lives (default ~/.local/share): cf-guidance/witness/<id>"),
    ("TMPDIR", "temp directory: deletes inside it are scratch"),
)

#: (path relative to the state dir, or <project>/..., who writes it, what it is)
FILES: tuple[tuple[str, str, str], ...] = (
    ("<project>/CLAUDE.md", "user", "shared policy (read by the compiler)"),
    ("<project>/CLAUDE.local.md", "user, autopilot", "local experiments (read by the compiler; rules promoted from it)"),
    ("<project>/.claude/settings.json", "cf-guidance init", "Claude Code hook wiring, portable (committed)"),
    ("<project>/.codex/hooks.json", "cf-guidance init --agent codex", "Codex hook wiring, portable (committed)"),
    ("<project>/.claude/settings.local.json", "cf-guidance init --scope local", "Claude Code hook wiring, this machine's paths"),
    ("~/.claude/settings.json", "cf-guidance init --scope user", "Claude Code hook wiring for every project ($CLAUDE_CONFIG_DIR)"),
    ("~/.codex/hooks.json", "cf-guidance init --scope user --agent codex", "Codex hook wiring for every project ($CODEX_HOME)"),
    ("install.json", "cf-guidance init", "what init added, so uninstall removes exactly that"),
    ("cache/", "hook", "compiled policy bundles keyed by the sources' hash"),
    ("keys/ledger.key", "init / first ledger write", "ledger HMAC key, 32 random bytes, mode 0600"),
    ("keys/checkpoint.ed25519", "first ledger write", "Ed25519 seed that signs checkpoints (not derived from the HMAC key), mode 0600"),
    ("keys/retired/<kid>.key, <id>.ed25519", "cf-guidance ledger rotate-key", "old keys, kept so old records and checkpoints verify"),
    ("keys/lost.json", "ledger rotate-key --replace-lost", "HMAC key ids the user declared lost"),
    ("$XDG_DATA_HOME/cf-guidance/witness/<id>", "worker, ledger CLI", "the ledger's witness: latest signed head, outside the state dir"),
    ("ledger/ledger.jsonl", "worker", "the append-only hash-chained ledger"),
    ("ledger/head.json", "worker", "seq, hash and size of the last record (a cache)"),
    ("ledger/checkpoints.jsonl", "worker", "Ed25519 signed checkpoints"),
    ("ledger/origin", "worker", "the ledger's origin line"),
    ("ledger/ledger.lock", "worker, CLI", "the appenders' lock file"),
    ("ledger/quarantine/", "ledger repair", "torn tails cut off after a crash"),
    ("spool/", "hook", "jobs waiting for the worker, one file each"),
    ("spool/.worker.lock", "worker", "held while a worker drains"),
    ("spool/.worker-spawned", "hook", "rate-limits worker spawns"),
    ("spool/rejected/", "worker", "job files that could not be read"),
    ("sessions/<session>.json", "worker", "per-session history, recent decisions and per-agent trust, read by the hook (pruned after 30 days)"),
    ("spool/.unrecorded", "hook", "when (and why) a hook last could not record an event"),
    ("cursor.json", "worker", "how far the ledger is folded into the session summaries"),
    ("quarantine/", "hook, worker", "derived files that failed validation, set aside (rebuilt from the ledger)"),
    ("quarantine/log.jsonl", "hook, worker", "one line per file set aside: when, which, why"),
    ("logs/worker.json", "worker", "the last worker run: pid, state, counts"),
    ("logs/worker.log", "worker", "one line per worker run"),
    ("logs/autopilot.log", "worker", "output of autopilot runs started at session end"),
    ("proposals/", "autopilot", "rule promotions waiting for review"),
    ("backups/", "init, autopilot", "files as they were before cf-guidance changed them"),
)


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def worker_state(state_dir: str) -> dict[str, Any]:
    """The last worker run (logs/worker.json) and whether a worker holds the lock now."""
    from cf_guidance.jobs.derived import load_worker_state
    from cf_guidance.jobs.worker import LOCK_NAME

    info = load_worker_state(state_dir)
    lock = Path(spool.spool_dir(state_dir)) / LOCK_NAME
    running = False
    try:
        fd = os.open(lock, os.O_RDWR)
    except OSError:
        fd = -1
    if fd != -1:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            running = True
        finally:
            os.close(fd)
    info["running"] = running
    return info


def spool_state(state_dir: str) -> dict[str, Any]:
    pending = spool.pending(state_dir)
    oldest_age = None
    if pending:
        try:
            oldest_age = round(time.time() - os.stat(pending[0]).st_mtime, 1)
        except OSError:
            oldest_age = None
    rejected_dir = Path(spool.spool_dir(state_dir)) / "rejected"
    rejected = len(list(rejected_dir.iterdir())) if rejected_dir.is_dir() else 0
    return {"path": spool.spool_dir(state_dir), "pending": len(pending), "oldest_age_s": oldest_age, "rejected": rejected,
            "stranded": len(spool.stranded(state_dir, 0.0)), "unrecorded": unrecorded(state_dir)}


def unrecorded(state_dir: str) -> dict[str, Any] | None:
    """The last event a hook could not spool (spool/.unrecorded), or None: when, and why if it fit."""
    path = StateLayout(state_dir).unrecorded
    try:
        st = os.lstat(path)
    except OSError:
        return None
    info: dict[str, Any] = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(st.st_mtime)), "problem": ""}
    try:
        note = json.loads(Path(path).read_text(encoding="utf-8")) if st.st_size else {}
        if isinstance(note, dict) and isinstance(note.get("problem"), str):
            info["problem"] = note["problem"]
    except (OSError, ValueError):
        pass
    return info


def quarantined(state_dir: str) -> dict[str, Any]:
    from cf_guidance.jobs.derived import quarantined as count

    return count(state_dir)


def quarantine_line(info: dict[str, Any]) -> str:
    """One line for `status` / `jobs status` when derived files were set aside, else ""."""
    last = info.get("last")
    if not info.get("count") or not isinstance(last, dict):
        return ""
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(last.get("at") or 0))
    return (f"quarantine: {info['count']} bad state file(s) set aside and rebuilt from the ledger; last {when}: "
            f"{last.get('problem', '')}")


def unrecorded_line(spooled: dict[str, Any]) -> str:
    """One line for `status` / `jobs status` when a hook could not record an event, else ""."""
    note = spooled.get("unrecorded")
    if not note:
        return ""
    why = note["problem"] or "the spool could not be written (disk full?)"
    return (f"NOT RECORDED: a hook could not record an event at {note['at']}: {why}; free space or fix the state "
            f"directory, then delete {os.path.join(spooled['path'], '.unrecorded')}")


#: Sessions `status` and `cf-guidance trust` list, most recently active first.
MAX_TRUST_SESSIONS = 20


def trust_summary(state_dir: str, now: float | None = None) -> list[dict[str, Any]]:
    """One row per agent of the most recent sessions: score now (recovered), tier, per-minute
    limit, decision counts. Read from the session summaries, where the worker keeps them."""
    from cf_guidance import session as sessions
    from cf_guidance.gates.rate_limit import limit_for
    from cf_guidance.jobs.derived import SessionSummary

    now = time.time() if now is None else now
    base = sessions.rate_base()
    directory = Path(state_dir) / sessions.SESSIONS_DIR
    try:
        files = sorted((p for p in directory.iterdir() if p.suffix == ".json" and p.is_file()),
                       key=lambda p: p.stat().st_mtime, reverse=True)[:MAX_TRUST_SESSIONS]
    except OSError:
        return []
    rows = []
    for path in files:
        try:
            summary = SessionSummary.model_validate_json(read_bytes(str(path), sessions.MAX_SUMMARY_BYTES))
        except (OSError, ValueError):
            continue  # the worker quarantines and rebuilds it on its next run
        agents = {name: entry.model_dump() for name, entry in summary.agents.items()}
        for agent in sorted(agents):
            entry = agents[agent]
            score, tier_name = trust.current(agents, agent, now)
            rows.append({
                "session": summary.session_id,
                "agent": agent,
                "score": round(score, 4),
                "tier": tier_name,
                "limit_per_min": limit_for(base, tier_name) if base > 0 else None,
                "allow": entry["allow"],
                "warn": entry["warn"] + entry["ask"],
                "deny": entry["deny"],
            })
    return rows


def ledger_state(state_dir: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    try:
        keyring = keymod.load(state_dir, create=False)  # status never creates a key
    except GuidanceError as exc:
        keyring = None
        out["key_error"] = str(exc)
    ledger = Ledger(state_dir, keyring=keyring)
    out.update(path=str(ledger.path), bytes=_size(ledger.path) or 0)
    try:
        head = ledger.head()
        out.update(records=head.size, head=head.hash)
    except GuidanceError as exc:
        out.update(records=None, head=None, error=str(exc))
    try:
        checkpoints = ledger.checkpoints()
        last = checkpoints[-1][0] if checkpoints else None
        out["checkpoints"] = len(checkpoints)
        out["last_checkpoint"] = {"size": last.size, "head": last.head} if last else None
        out["verifier_keys"] = ledger.verifier_keys()
    except GuidanceError as exc:
        out.update(checkpoints=None, last_checkpoint=None, checkpoint_error=str(exc))
    out.update(witness_state(state_dir))
    return out


def witness_state(state_dir: str) -> dict[str, Any]:
    """Where the ledger's witness is, and what it saw (or why it cannot be read)."""
    path = witness_mod.witness_path(state_dir)
    try:
        found = witness_mod.load(path)
    except GuidanceError as exc:
        return {"witness": {"path": path, "error": str(exc)}}
    if found is None:
        return {"witness": {"path": path, "records": None}}
    return {"witness": {"path": path, "records": found.size, "time": found.time, "origin": found.origin}}


def collect(project: str, state_dir: str) -> dict[str, Any]:
    layout = StateLayout(state_dir)
    return {
        "project": project,
        "state_dir": state_dir,
        "state_exists": os.path.isdir(state_dir),
        "paths": {name: getattr(layout, name) for name in ("cache", "keys", "ledger", "spool", "proposals", "backups", "logs")},
        "ledger": ledger_state(state_dir) if os.path.isdir(layout.ledger) else {"path": str(Path(layout.ledger) / "ledger.jsonl"), "records": 0, **witness_state(state_dir)},
        "spool": spool_state(state_dir),
        "worker": worker_state(state_dir),
        "quarantine": quarantined(state_dir),
        "trust": trust_summary(state_dir),
        "env": [{"name": name, "set": name in os.environ, "what": what} for name, what in ENV_VARS],
        "files": [{"path": path, "writer": writer, "what": what} for path, writer, what in FILES],
    }
