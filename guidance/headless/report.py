"""Reports of a suite run: versioned JSON, one self-contained HTML file, JUnit XML, and the
structured text envelope for programmatic callers (ending in the completion signal).

The JSON report is the source: HTML, JUnit and the envelope are projections of it, so a
saved `report.json` can be re-rendered (`render_html(json.load(...))`).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import shlex
import subprocess
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from pydantic import BaseModel, ConfigDict, Field

from cf_guidance import __version__
from cf_guidance.errors import ConfigError
from cf_guidance.headless.claude import DEFAULT_ALLOWED_TOOLS
from cf_guidance.headless.htmlreport import render_html, suite_status
from cf_guidance.headless.runner import (
    Attempt,
    RunOptions,
    SuiteResult,
    TaskResult,
    exit_code,
    pass_at_k,
    pass_hat_k,
    verdict,
    wilson,
)

SCHEMA_VERSION = "cf-guidance.headless/1"
#: The last line of the text envelope: callers wait for it.
COMPLETION_SIGNAL = "Run complete"
#: Stream-json messages kept per attempt in the debug section.
MAX_DEBUG_MESSAGES = 2000
#: Transcript records that hold the client's own prompt machinery (system prompt, tool schemas,
#: skill and agent listings): the same in every run and most of a transcript's bytes (134 KB of
#: 300 KB in a one-call run), so the report keeps their type, size and digest only.
CLIENT_MACHINERY = {"record": frozenset({"api-request-shape", "api-request-blob"}),
                    "attachment": frozenset({"prompt_snapshot", "skill_listing", "agent_listing_delta"})}
#: Any other transcript record larger than this is shortened the same way.
MAX_TRANSCRIPT_RECORD_CHARS = 20_000
#: Order in which tasks appear: what needs attention first.
VERDICT_ORDER = {"error": 0, "fail": 1, "inconclusive": 2, "pass": 3}


class Summary(BaseModel):
    """ADR-G009's SuiteRunSummary, plus the verdicts repeats and infrastructure add."""

    model_config = ConfigDict(populate_by_name=True)

    total_tasks: int = Field(alias="totalTasks")
    tasks_passed: int = Field(alias="tasksPassed")
    tasks_failed: int = Field(alias="tasksFailed")
    tasks_inconclusive: int = Field(alias="tasksInconclusive")
    tasks_errored: int = Field(alias="tasksErrored")
    total_violations: int = Field(alias="totalViolations")
    total_assertions: int = Field(alias="totalAssertions")
    assertions_passed: int = Field(alias="assertionsPassed")
    pass_rate: float = Field(alias="passRate")
    duration_ms: int = Field(alias="durationMs")
    exit_code: int = Field(alias="exitCode")


class Report(BaseModel):
    schema_version: str = SCHEMA_VERSION
    generator: dict[str, str]
    suite: dict[str, Any]
    run: dict[str, Any]
    summary: Summary
    tasks: list[dict[str, Any]]


def build_report(result: SuiteResult, *, argv: list[str] | None = None) -> dict[str, Any]:
    """The JSON report as a plain dict (validated against `Report`)."""
    options = result.options
    tasks = []
    for task_result in result.tasks:
        task = task_result.task
        attempts = [_attempt(a, task_result, result) for a in task_result.attempts]
        meta = {"test_id": task.id, "test_name": task.description or task.id, "description": task.description,
                "tags": task.tags, "executor": options.executor or task.executor}
        tasks.append(task_entry(meta, task.threshold, attempts))
    run = {
        "started": _iso(result.started),
        "duration_ms": result.duration_ms,
        "executor": options.executor or "per task",
        "mode": options.mode,
        "repeat": options.repeat,
        "jobs": options.jobs,
        "retries": options.retries,
        "tags": options.tags,
        "ids": options.ids,
        "shard": f"{options.shard[0]}/{options.shard[1]}" if options.shard else None,
        "sandbox": options.sandbox,
        "command": shlex.join(argv) if argv else "",
        "preflight_errors": result.preflight_errors,
        "planned_runs": result.planned,
        "partial": bool(result.interrupted),
        "interrupted_by": result.interrupted,
        "unfinished": [{"task": task_id, "repeat": repeat} for task_id, repeat in result.unfinished],
        "git_state": suite_git_state(result.suite.path),
        "merged_from": [],
    }
    suite = {"name": result.suite.name, "path": str(result.suite.path), "description": result.suite.description,
             "sha256": suite_sha256(result.suite.path)}
    return _finish(suite, run, tasks)


def task_entry(meta: dict[str, Any], threshold: float, attempts: list[dict[str, Any]]) -> dict[str, Any]:
    """One task of the report from its attempts: verdict, pass rate, interval, pass@k, pass^k.

    Built from the attempts' JSON alone, so merged reports (`merge_reports`) compute exactly
    what one run would have.
    """
    attempts = sorted(attempts, key=lambda a: a["repeat"])
    statuses = [a["status"] for a in attempts]
    runs = sum(1 for status in statuses if status != "error")
    passes = statuses.count("pass")
    interval = wilson(passes, runs) if runs else None
    errors = [a for a in attempts if a["status"] == "error"]
    return {
        "meta": {
            **meta,
            "status": verdict(passes, runs, threshold),
            "pass_rate": f"{passes}/{runs}",
            "duration_ms": sum(a["duration_ms"] for a in attempts),
            "error": f"{errors[0]['error_kind']}: {errors[0]['error']}" if errors else "",
        },
        "stats": {
            "runs": runs,
            "passes": passes,
            "errors": len(errors),
            "pass_rate": round(passes / runs, 4) if runs else None,
            "threshold": threshold,
            "wilson_95": [_round(v) for v in interval] if interval else None,
            "pass_at_k": {str(k): _round(pass_at_k(runs, passes, k)) for k in range(1, runs + 1)},
            "pass_hat_k": {str(k): _round(pass_hat_k(runs, passes, k)) for k in range(1, runs + 1)},
        },
        "attempts": attempts,
    }


def _finish(suite: dict[str, Any], run: dict[str, Any], tasks: list[dict[str, Any]]) -> dict[str, Any]:
    """The report of `tasks`: ordered (what needs attention first), with the suite's totals."""
    tasks = sorted(tasks, key=lambda t: (VERDICT_ORDER.get(t["meta"]["status"], 9), t["meta"]["test_id"]))
    attempts = [a for t in tasks for a in t["attempts"]]
    expectations = [e for a in attempts for e in a["expectations"]]
    verdicts = [t["meta"]["status"] for t in tasks]
    summary = Summary(
        totalTasks=len(tasks),
        tasksPassed=verdicts.count("pass"),
        tasksFailed=verdicts.count("fail"),
        tasksInconclusive=verdicts.count("inconclusive"),
        tasksErrored=verdicts.count("error"),
        totalViolations=sum(len(a["violations"]) for a in attempts),
        totalAssertions=len(expectations),
        assertionsPassed=sum(1 for e in expectations if e["status"] == "pass"),
        passRate=round(verdicts.count("pass") / len(tasks), 4) if tasks else 0.0,
        durationMs=run["duration_ms"],
        # a report missing planned runs is not a pass
        exitCode=exit_code(verdicts) or (2 if run["partial"] else 0),
    )
    report = Report(generator={"name": "cf-guidance", "version": __version__}, suite=suite, run=run,
                    summary=summary, tasks=tasks)
    return report.model_dump(mode="json", by_alias=True)


def merge_reports(reports: list[dict[str, Any]], sources: list[str] | None = None) -> dict[str, Any]:
    """One report of several runs of one suite: the shards of a CI matrix, or a run and its resume.

    The runs must be of the same suite file (same SHA-256) with the same repeat, mode,
    executor and sandbox; shards must be K/N of one N, all present (or all one shard: a shard
    and its resume); a (task, repeat) run may appear in one report only. Verdicts and totals are computed again
    from the attempts, so the merge of the shards of a run equals the unsharded run.
    """
    if not reports:
        raise ConfigError("nothing to merge; give report directories")
    names = sources or [f"report {i + 1}" for i in range(len(reports))]
    first = reports[0]
    for report, name in zip(reports, names):
        if report.get("schema_version") != SCHEMA_VERSION:
            raise ConfigError(f"{name}: schema {report.get('schema_version')!r}, expected {SCHEMA_VERSION}; "
                              "merge reports written by the same cf-guidance")
        if report["suite"].get("sha256") != first["suite"].get("sha256"):
            raise ConfigError(f"{name}: a different suite file than {names[0]} (SHA-256 differs); "
                              "merge only runs of the same suite")
        for key in MERGE_KEYS:
            if report["run"].get(key) != first["run"].get(key):
                raise ConfigError(f"{name}: {key} {report['run'].get(key)!r} differs from {names[0]}'s "
                                  f"{first['run'].get(key)!r}; merge only runs made with the same options")
    shard = _check_shards(reports, names)
    tasks: dict[str, tuple[dict[str, Any], float, list[dict[str, Any]]]] = {}
    owner: dict[tuple[str, int], str] = {}
    for report, name in zip(reports, names):
        for task in report["tasks"]:
            task_id = task["meta"]["test_id"]
            meta = {key: task["meta"][key] for key in ("test_id", "test_name", "description", "tags", "executor")}
            entry = tasks.setdefault(task_id, (meta, task["stats"]["threshold"], []))
            for attempt in task["attempts"]:
                run_key = (task_id, int(attempt["repeat"]))
                if run_key in owner:
                    raise ConfigError(f"{name}: run {task_id}#{attempt['repeat'] + 1} is also in {owner[run_key]}; "
                                      "merge reports of disjoint runs (the shards of one run, or a run and its resume)")
                owner[run_key] = name
                entry[2].append(attempt)
    unfinished = sorted({(u["task"], u["repeat"]) for r in reports for u in r["run"]["unfinished"]} - set(owner))
    run = dict(first["run"])
    run.update(
        started=min(r["run"]["started"] for r in reports),
        duration_ms=sum(r["run"]["duration_ms"] for r in reports),
        jobs=max(r["run"]["jobs"] for r in reports),
        shard=shard,
        command="",
        planned_runs=len(owner) + len(unfinished),
        preflight_errors={k: v for r in reports for k, v in r["run"]["preflight_errors"].items()},
        partial=bool(unfinished),
        interrupted_by=next((r["run"]["interrupted_by"] for r in reports if r["run"]["interrupted_by"] and unfinished), ""),
        unfinished=[{"task": task_id, "repeat": repeat} for task_id, repeat in unfinished],
        merged_from=[part for r, name in zip(reports, names) for part in _parts(r, name)],
    )
    return _finish(first["suite"], run, [task_entry(meta, threshold, attempts) for meta, threshold, attempts in tasks.values()])


#: Run options that must agree between merged reports (they decide what each run did).
MERGE_KEYS = ("repeat", "mode", "executor", "sandbox")


def _check_shards(reports: list[dict[str, Any]], names: list[str]) -> str | None:
    """The shard of the merged report: one shared K/N (a shard and its resume), else None when
    the reports are the shards 1..N of one run (each at least once) or unsharded."""
    shards = [r["run"].get("shard") for r in reports]
    if not any(shards):
        return None
    if not all(shards):
        raise ConfigError("sharded and unsharded reports cannot be merged; give the N reports of one --shard K/N run")
    if len(set(shards)) == 1:
        return str(shards[0])
    parsed = [tuple(int(x) for x in str(s).split("/")) for s in shards]
    counts = {n for _, n in parsed}
    if len(counts) != 1:
        raise ConfigError(f"the reports split the suite differently ({', '.join(sorted(set(map(str, shards))))}); "
                          "merge the shards of one --shard K/N run")
    count = counts.pop()
    present = {k for k, _ in parsed}
    missing = [f"{k}/{count}" for k in range(1, count + 1) if k not in present]
    if missing:
        raise ConfigError(f"shard {', '.join(missing)} missing; merge all {count} shards of the run")
    return None


def _parts(report: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """What each merged report contributed (a merged report passes its own parts on)."""
    if report["run"].get("merged_from"):
        return list(report["run"]["merged_from"])
    run = report["run"]
    return [{"source": name, "shard": run.get("shard"), "started": run["started"], "duration_ms": run["duration_ms"],
             "command": run["command"], "runs": sum(len(t["attempts"]) for t in report["tasks"]),
             "partial": run["partial"]}]


def finished_runs(report: dict[str, Any]) -> frozenset[tuple[str, int]]:
    """(task id, repeat) of every run a report holds (what --resume does not run again)."""
    return frozenset((t["meta"]["test_id"], a["repeat"]) for t in report["tasks"] for a in t["attempts"])


def load_report(directory: Path) -> dict[str, Any]:
    """`directory/report.json`, checked; ConfigError (one line) when it is missing or not a report."""
    path = directory / "report.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path} not found; give the --report-dir of a headless run") from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path} cannot be read as a report ({exc}); give the --report-dir of a headless run") from None
    if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION:
        found = data.get("schema_version") if isinstance(data, dict) else None
        raise ConfigError(f"{path}: schema {found!r}, expected {SCHEMA_VERSION}; it was written by another cf-guidance")
    return data


def suite_git_state(path: Path) -> dict[str, Any]:
    """Branch, commit and changed files of the repository holding the suite ({} outside git)."""
    def git(*args: str) -> str:
        try:
            done = subprocess.run(["git", *args], cwd=path.parent, capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return ""
        return done.stdout if done.returncode == 0 else ""

    commit = git("rev-parse", "--verify", "-q", "HEAD").strip()
    if not commit:
        return {}
    status = git("status", "--porcelain", "--untracked-files=no", "--", ".")
    return {"branch": git("symbolic-ref", "--short", "-q", "HEAD").strip(), "commit": commit,
            "modified_files": [line[3:] for line in status.splitlines() if line.strip()]}


def suite_sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def _round(value: float) -> float:
    """4 decimals: an interval bound of 5.55e-17 is 0."""
    return round(value, 4) + 0.0


def _attempt(attempt: Attempt, task_result: TaskResult, result: SuiteResult) -> dict[str, Any]:
    task = task_result.task
    run, execution = attempt.run, attempt.exec
    out: dict[str, Any] = {
        "repeat": attempt.repeat,
        "status": attempt.status,
        "error_kind": attempt.error_kind,
        "error": attempt.error,
        "retries": attempt.retries,
        "duration_ms": attempt.duration_ms,
        "phases_ms": attempt.phases,
        "provenance": attempt.provenance,
        "workspace": attempt.workspace,
        "reproduce": _reproduce(attempt, result),
        "expectations": [vars(e) for e in attempt.expectations],
        "violations": attempt.violations,
    }
    tokens = run.tokens() if run else {"input": 0, "output": 0, "total": 0}
    out["execution"] = {
        "prompt": task.prompt,
        "model": (run.init.get("model") if run else None) or task.model,
        "session_id": run.session_id if run else "",
        "tools_allowed": task.allowed_tools or (list(DEFAULT_ALLOWED_TOOLS) if execution and execution.argv[:1] != ["(fake)"] else []),
        "max_turns": task.max_turns,
        "num_turns": run.num_turns if run else 0,
        "cost_usd": round(run.cost_usd, 6) if run else 0.0,
        "token_usage": tokens,
        "exit_code": execution.exit_code if execution else None,
        "subtype": run.result.get("subtype") if run else None,
        "terminal_reason": run.result.get("terminal_reason") if run else None,
        "claude_code_version": run.init.get("claude_code_version") if run else None,
        "hook_latency_ms": run.hook_latency_ms() if run else {"count": 0},
        "sandbox": result.options.sandbox,
    }
    out["timeline"] = [vars(entry) for entry in run.timeline] if run else []
    out["tool_calls"] = [
        {"seq": c.seq, "tool_use_id": c.id, "tool": c.name, "input": c.input, "ran": c.ran, "is_error": c.is_error,
         "duration_ms": c.duration_ms,
         "denied_by": c.denied_by, "rule": c.rule, "output_preview": c.result[:500], "recorded_decision": c.recorded,
         "hooks": [h.hook_id for h in c.hooks]}
        for c in (run.tool_calls if run else [])
    ]
    out["hooks"] = [vars(h) for h in run.hook_events] if run else []
    out["hook_failures"] = [
        {"hook": h.name, "tool_use_id": h.tool_use_id, "exit_code": h.exit_code, "outcome": h.outcome,
         "stderr_tail": (h.stderr.strip().splitlines() or [""])[-1][:300]}
        for h in (run.hook_failures if run else [])
    ]
    changes = run.changes if run else None
    out["side_effects"] = {
        "files_created": changes.created if changes else [],
        "files_modified": changes.modified if changes else [],
        "files_deleted": changes.deleted if changes else [],
        "git_changes": bool(changes and (changes.touched or changes.commits)),
        "commits": [vars(c) for c in changes.commits] if changes else [],
        "patch": changes.patch if changes else "",
        "outside_workspace": run.outside_writes if run else [],
    }
    out["hygiene"] = {
        "tracked_by": attempt.processes.get("tracked_by", ""),
        "client_pid": attempt.processes.get("client_pid"),
        "ended_after_exit": attempt.processes.get("ended", []),
        "ended_at_cleanup": attempt.cleanup.get("ended", []),
        "left": attempt.cleanup.get("left", attempt.processes.get("left", [])),
        "temp_removed": attempt.cleanup.get("temp_removed", []),
    }
    text = run.final_text if run else ""
    out["claude_response"] = {"preview": text[:200], "full_text": text, "word_count": len(text.split())}
    out["interactions"] = [vars(i) for i in execution.interactions] if execution else []
    out["debug"] = {
        "stderr": execution.stderr[-20000:] if execution else "",
        "stray_output": run.stray_output[:200] if run else [],
        "transcript_path": run.transcript_path if run else "",
        "transcript_records": len(run.transcript) if run else 0,
        "transcript": [transcript_record(r) for r in run.transcript[:MAX_DEBUG_MESSAGES]] if run else [],
        "leaks": run.leaks if run else [],
        "server_log": execution.server_log if execution else [],
        "messages": run.messages[:MAX_DEBUG_MESSAGES] if run else [],
    }
    return out


def transcript_record(record: dict[str, Any]) -> dict[str, Any]:
    """A transcript record as the report keeps it: whole, unless it is the client's prompt
    machinery or too large (then its type, size and SHA-256)."""
    attachment = record.get("attachment")
    kind = attachment.get("type") if isinstance(attachment, dict) else None
    text = json.dumps(record, ensure_ascii=False, default=str)
    machinery = record.get("type") in CLIENT_MACHINERY["record"] or kind in CLIENT_MACHINERY["attachment"]
    if not machinery and len(text) <= MAX_TRANSCRIPT_RECORD_CHARS:
        return record
    why = "the client's prompt machinery, the same in every run" if machinery else "too large"
    return {"type": record.get("type"), **({"attachment_type": kind} if kind else {}),
            "omitted": f"{len(text)} characters ({why})", "sha256": hashlib.sha256(text.encode()).hexdigest()}


def _reproduce(attempt: Attempt, result: SuiteResult) -> dict[str, Any]:
    execution = attempt.exec
    env = execution.env if execution else {}
    command = ""
    if execution and execution.argv and execution.argv[0] != "(fake)":
        task = next(t.task for t in result.tasks if t.task.id == attempt.task_id)
        message = json.dumps({"type": "user", "message": {"role": "user", "content": task.prompt}})
        assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(env.items()))
        command = f"printf '%s\\n' {shlex.quote(message)} | env {assignments} {shlex.join(execution.argv)}"
    return {
        "rerun_command": shlex.join(rerun_argv(result.suite.path, result.options, attempt.task_id)),
        "test_command": command,
        "note": "the client command needs the run's workspace (--keep-workspaces) and, for the scripted "
                "executor, a model server at ANTHROPIC_BASE_URL (cf-guidance model-server --script ...)",
        "environment": env,
        "git_state": attempt.git_state,
    }


def rerun_argv(suite_path: Path, options: RunOptions, task_id: str) -> list[str]:
    """The command that runs `task_id` again exactly as this run did (its repeats, shard, mode, ...)."""
    argv = ["cf-guidance", "headless", "run", str(suite_path), "--ids", task_id, "--keep-workspaces",
            "--mode", options.mode]
    if options.executor:
        argv += ["--executor", options.executor]
    if options.repeat != 1:
        argv += ["--repeat", str(options.repeat)]
    if options.shard:
        argv += ["--shard", f"{options.shard[0]}/{options.shard[1]}"]
    if options.retries != RunOptions().retries:
        argv += ["--retries", str(options.retries)]
    if options.sandbox:
        argv.append("--sandbox")
    return argv


def _iso(timestamp: float) -> str:
    return _dt.datetime.fromtimestamp(timestamp, tz=_dt.timezone.utc).isoformat(timespec="seconds")


# -- JUnit --------------------------------------------------------------------------------------


def render_junit(report: dict[str, Any]) -> str:
    """JUnit XML: one testcase per task; inconclusive is skipped, infrastructure is an error."""
    summary = report["summary"]
    suite = ET.Element("testsuite", {
        "name": report["suite"]["name"],
        "tests": str(summary["totalTasks"]),
        "failures": str(summary["tasksFailed"]),
        "errors": str(summary["tasksErrored"]),
        "skipped": str(summary["tasksInconclusive"]),
        "time": f"{summary['durationMs'] / 1000:.3f}",
        "timestamp": report["run"]["started"],
    })
    for task in report["tasks"]:
        meta, stats = task["meta"], task["stats"]
        case = ET.SubElement(suite, "testcase", {
            "classname": report["suite"]["name"], "name": meta["test_id"], "time": f"{meta['duration_ms'] / 1000:.3f}",
        })
        props = ET.SubElement(case, "properties")
        for name in ("pass_rate", "threshold", "wilson_95", "pass_at_k", "pass_hat_k"):
            ET.SubElement(props, "property", {"name": name, "value": json.dumps(stats[name])})
        status = meta["status"]
        if status == "fail":
            reason = _first_failure(task)
            node = ET.SubElement(case, "failure", {"message": reason, "type": "AssertionFailed"})
            node.text = "\n".join(_failure_lines(task))
        elif status == "error":
            attempt = next((a for a in task["attempts"] if a["status"] == "error"), None)
            message = f"{attempt['error_kind']}: {attempt['error']}" if attempt else "no run finished"
            node = ET.SubElement(case, "error", {"message": message, "type": attempt["error_kind"] if attempt else "error"})
            node.text = "\n".join(_error_line(a) for a in task["attempts"] if a["status"] == "error")
        elif status == "inconclusive":
            ET.SubElement(case, "skipped", {"message": f"inconclusive: pass rate {meta['pass_rate']}, "
                                                       f"Wilson 95% {stats['wilson_95']} straddles {stats['threshold']}"})
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


def _error_line(attempt: dict[str, Any]) -> str:
    retried = f" (after {attempt['retries']} retries)" if attempt["retries"] else ""
    return f"run {attempt['repeat'] + 1}: {attempt['error_kind']}: {attempt['error']}{retried}"


def _first_failure(task: dict[str, Any]) -> str:
    for attempt in task["attempts"]:
        for exp in attempt["expectations"]:
            if exp["status"] == "fail":
                return f"{exp['description']}: {exp['reason']}"
    return "failed"


def _failure_lines(task: dict[str, Any]) -> list[str]:
    lines = []
    for attempt in task["attempts"]:
        for exp in attempt["expectations"]:
            if exp["status"] == "fail":
                lines.append(f"run {attempt['repeat'] + 1}: {exp['description']} -- {exp['reason']}")
    return lines


# -- text envelope ---------------------------------------------------------------------------------


def render_envelope(report: dict[str, Any], *, report_path: str = "") -> str:
    """The structured text a calling program reads; always ends with COMPLETION_SIGNAL."""
    summary, run = report["summary"], report["run"]
    total = summary["totalTasks"]
    finished = total - summary["tasksErrored"]
    suite = report["suite"]["name"]
    lines = []
    if run["partial"]:
        done = sum(len(t["attempts"]) for t in report["tasks"])
        by = f" by {run['interrupted_by']}" if run["interrupted_by"] else ""
        lines.append(f"Headless run interrupted{by} (suite: {suite}). Partial: {done} of "
                     f"{done + len(run['unfinished'])} runs finished.")
    elif total and finished == 0:
        lines.append(f"Headless run degraded (suite: {suite}). Reason: 0 of {total} tasks produced a verdict.")
    else:
        lines.append(f"Headless run complete (suite: {suite}).")
    where = f"  Shard: {run['shard']}" if run["shard"] else ""
    if run["merged_from"]:
        where = f"  Merged: {len(run['merged_from'])} reports"
    lines += [
        "",
        f"Executor: {run['executor']}  Mode: {run['mode']}  Repeat: {run['repeat']}  Jobs: {run['jobs']}{where}"
        + ("  Sandbox: bubblewrap" if run["sandbox"] else ""),
        f"Tasks: {total} ({summary['tasksPassed']} passed, {summary['tasksFailed']} failed, "
        f"{summary['tasksInconclusive']} inconclusive, {summary['tasksErrored']} errors)",
        f"Assertions: {summary['assertionsPassed']}/{summary['totalAssertions']} passed",
        f"Violations: {summary['totalViolations']}",
        f"Verdict: {_suite_verdict(summary, total)}",
    ]
    broken = [t["meta"]["test_id"] for t in report["tasks"] if any(a["hook_failures"] for a in t["attempts"])]
    if broken:
        lines.append(f"Hook errors: in {len(broken)} task(s) ({', '.join(broken[:5])}); the guard fails open on these")
    if report_path:
        lines.append(f"Report: {report_path}")
    if run["unfinished"]:
        names = [f"{u['task']}#{u['repeat'] + 1}" for u in run["unfinished"]]
        lines += ["", f"Unfinished runs: {', '.join(names[:20])}{' ...' if len(names) > 20 else ''}"]
        if report_path:
            lines.append(f"Resume: cf-guidance headless run {shlex.quote(report['suite']['path'])} "
                         f"--resume {shlex.quote(str(Path(report_path).parent))}")
    for status, heading in (("fail", "Failed tasks"), ("inconclusive", "Inconclusive tasks"), ("error", "Errored tasks")):
        tasks = [t for t in report["tasks"] if t["meta"]["status"] == status]
        if not tasks:
            continue
        lines += ["", f"{heading}:", ""]
        for task in tasks:
            lines += _envelope_task(task, status)
    lines += ["", COMPLETION_SIGNAL]
    return "\n".join(lines) + "\n"


def _suite_verdict(summary: dict[str, Any], total: int) -> str:
    status = suite_status(summary)
    if status == "fail":
        errored = summary["tasksErrored"]
        return "Failing" + (f" ({errored} more task{'s' if errored != 1 else ''} could not run)" if errored else "")
    if status == "error":
        return "Could not run every task"
    if status == "inconclusive":
        return "Inconclusive"
    return "Passing" if total else "Nothing to run"


def _envelope_task(task: dict[str, Any], status: str) -> list[str]:
    meta, stats = task["meta"], task["stats"]
    if status == "error":  # no run finished, so no pass rate: say why
        retries = sum(a["retries"] for a in task["attempts"])
        head = f"[ERROR] {meta['test_id']} -- {meta['error'] or 'no run finished'}"
        head += f" ({len(task['attempts'])} run{'s' if len(task['attempts']) != 1 else ''}"
        head += f", {retries} retr{'ies' if retries != 1 else 'y'})" if retries else ")"
    else:
        head = f"[{status.upper()}] {meta['test_id']} -- pass rate {meta['pass_rate']}"
        if stats["wilson_95"] and stats["runs"] > 1:
            low, high = stats["wilson_95"]
            head += f", Wilson 95% [{low:.2f}, {high:.2f}], threshold {stats['threshold']:g}"
        if stats["errors"]:
            head += f"; {stats['errors']} run(s) could not finish: {meta['error']}"
    lines = [head]
    failures = [f for attempt in task["attempts"] for f in attempt["hook_failures"]]
    if failures:
        lines.append(f"  Hook errors: {len(failures)} (the guard fails open on these): "
                     f"{failures[0]['hook']} exit {failures[0]['exit_code']}: {failures[0]['stderr_tail']}")
    seen: set[str] = set()
    for attempt in task["attempts"]:
        for exp in attempt["expectations"]:
            if exp["status"] == "fail" and exp["id"] not in seen:
                seen.add(exp["id"])
                lines.append(f"  Expectation: {exp['description']} ({exp['type']})")
                lines.append(f"    Why: {exp['reason'] or 'failed'}")
    if task["attempts"]:
        lines.append(f"  Rerun: {task['attempts'][0]['reproduce']['rerun_command']}")
    return lines


# -- writing -------------------------------------------------------------------------------------------


def write_reports(report: dict[str, Any], directory: Path) -> dict[str, Path]:
    """Write report.json, report.html, junit.xml and envelope.txt into `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": directory / "report.json",
        "html": directory / "report.html",
        "junit": directory / "junit.xml",
        "envelope": directory / "envelope.txt",
    }
    paths["json"].write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    paths["html"].write_text(render_html(report), encoding="utf-8")
    paths["junit"].write_text(render_junit(report), encoding="utf-8")
    paths["envelope"].write_text(render_envelope(report, report_path=str(paths["json"])), encoding="utf-8")
    return paths
