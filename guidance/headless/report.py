"""Reports of a suite run: versioned JSON, one self-contained HTML file, JUnit XML, and the
structured text envelope for programmatic callers (ending in the completion signal).

The JSON report is the source: HTML, JUnit and the envelope are projections of it, so a
saved `report.json` can be re-rendered (`render_html(json.load(...))`).
"""

from __future__ import annotations

import datetime as _dt
import json
import shlex
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from pydantic import BaseModel, ConfigDict, Field

from cf_guidance import __version__
from cf_guidance.headless.claude import DEFAULT_ALLOWED_TOOLS
from cf_guidance.headless.htmlreport import render_html
from cf_guidance.headless.runner import Attempt, SuiteResult, TaskResult

SCHEMA_VERSION = "cf-guidance.headless/1"
#: The last line of the text envelope: callers wait for it.
COMPLETION_SIGNAL = "Run complete"
#: Stream-json messages kept per attempt in the debug section.
MAX_DEBUG_MESSAGES = 2000
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
    tasks = sorted(result.tasks, key=lambda t: (VERDICT_ORDER.get(t.verdict, 9), t.task.id))
    attempts = [a for t in result.tasks for a in t.attempts]
    expectations = [e for a in attempts for e in a.expectations]
    passed = result.count("pass")
    summary = Summary(
        totalTasks=len(result.tasks),
        tasksPassed=passed,
        tasksFailed=result.count("fail"),
        tasksInconclusive=result.count("inconclusive"),
        tasksErrored=result.count("error"),
        totalViolations=sum(len(a.violations) for a in attempts),
        totalAssertions=len(expectations),
        assertionsPassed=sum(1 for e in expectations if e.status == "pass"),
        passRate=round(passed / len(result.tasks), 4) if result.tasks else 0.0,
        durationMs=result.duration_ms,
        exitCode=result.exit_code,
    )
    options = result.options
    report = Report(
        generator={"name": "cf-guidance", "version": __version__},
        suite={"name": result.suite.name, "path": str(result.suite.path), "description": result.suite.description},
        run={
            "started": _iso(result.started),
            "duration_ms": result.duration_ms,
            "executor": options.executor or "per task",
            "mode": options.mode,
            "repeat": options.repeat,
            "jobs": options.jobs,
            "retries": options.retries,
            "tags": options.tags,
            "command": shlex.join(argv) if argv else "",
            "preflight_errors": result.preflight_errors,
        },
        summary=summary,
        tasks=[_task(t, result) for t in tasks],
    )
    return report.model_dump(mode="json", by_alias=True)


def _task(task_result: TaskResult, result: SuiteResult) -> dict[str, Any]:
    task = task_result.task
    interval = task_result.interval
    runs = len(task_result.runs)
    return {
        "meta": {
            "test_id": task.id,
            "test_name": task.description or task.id,
            "description": task.description,
            "tags": task.tags,
            "executor": result.options.executor or task.executor,
            "status": task_result.verdict,
            "pass_rate": f"{task_result.passes}/{runs}",
            "duration_ms": sum(a.duration_ms for a in task_result.attempts),
        },
        "stats": {
            "runs": runs,
            "passes": task_result.passes,
            "errors": len(task_result.attempts) - runs,
            "pass_rate": task_result.pass_rate,
            "threshold": task.threshold,
            "wilson_95": list(interval) if interval else None,
            "pass_at_k": {str(k): round(v, 4) for k, v in task_result.pass_at().items()},
            "pass_hat_k": {str(k): round(v, 4) for k, v in task_result.pass_hat().items()},
        },
        "attempts": [_attempt(a, task_result, result) for a in task_result.attempts],
    }


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
    }
    text = run.final_text if run else ""
    out["claude_response"] = {"preview": text[:200], "full_text": text, "word_count": len(text.split())}
    out["interactions"] = [vars(i) for i in execution.interactions] if execution else []
    out["debug"] = {
        "stderr": execution.stderr[-20000:] if execution else "",
        "stray_output": run.stray_output[:200] if run else [],
        "transcript_path": run.transcript_path if run else "",
        "transcript_records": len(run.transcript) if run else 0,
        "leaks": run.leaks if run else [],
        "server_log": execution.server_log if execution else [],
        "messages": run.messages[:MAX_DEBUG_MESSAGES] if run else [],
    }
    return out


def _reproduce(attempt: Attempt, result: SuiteResult) -> dict[str, Any]:
    execution = attempt.exec
    suite_path = str(result.suite.path)
    rerun = ["cf-guidance", "headless", "run", suite_path, "--ids", attempt.task_id, "--keep-workspaces"]
    if result.options.executor:
        rerun += ["--executor", result.options.executor]
    env = execution.env if execution else {}
    command = ""
    if execution and execution.argv and execution.argv[0] != "(fake)":
        task = next(t.task for t in result.tasks if t.task.id == attempt.task_id)
        message = json.dumps({"type": "user", "message": {"role": "user", "content": task.prompt}})
        assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(env.items()))
        command = f"printf '%s\\n' {shlex.quote(message)} | env {assignments} {shlex.join(execution.argv)}"
    return {
        "rerun_command": shlex.join(rerun),
        "test_command": command,
        "note": "the client command needs the run's workspace (--keep-workspaces) and, for the scripted "
                "executor, a model server at ANTHROPIC_BASE_URL (cf-guidance model-server --script ...)",
        "environment": env,
    }


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
            ET.SubElement(case, "error", {"message": message, "type": attempt["error_kind"] if attempt else "error"})
        elif status == "inconclusive":
            ET.SubElement(case, "skipped", {"message": f"inconclusive: pass rate {meta['pass_rate']}, "
                                                       f"Wilson 95% {stats['wilson_95']} straddles {stats['threshold']}"})
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


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
    lines = []
    if finished == 0:
        lines.append(f"Headless run degraded (suite: {report['suite']['name']}). "
                     f"Reason: 0 of {total} tasks produced a verdict.")
    else:
        lines.append(f"Headless run complete (suite: {report['suite']['name']}).")
    lines += [
        "",
        f"Executor: {run['executor']}  Mode: {run['mode']}  Repeat: {run['repeat']}  Jobs: {run['jobs']}",
        f"Tasks: {total} ({summary['tasksPassed']} passed, {summary['tasksFailed']} failed, "
        f"{summary['tasksInconclusive']} inconclusive, {summary['tasksErrored']} errors)",
        f"Assertions: {summary['assertionsPassed']}/{summary['totalAssertions']} passed",
        f"Violations: {summary['totalViolations']}",
        f"Verdict: {_suite_verdict(summary)}",
    ]
    broken = [t["meta"]["test_id"] for t in report["tasks"] if any(a["hook_failures"] for a in t["attempts"])]
    if broken:
        lines.append(f"Hook errors: in {len(broken)} task(s) ({', '.join(broken[:5])}); the guard fails open on these")
    if report_path:
        lines.append(f"Report: {report_path}")
    for status, heading in (("fail", "Failed tasks"), ("inconclusive", "Inconclusive tasks"), ("error", "Errored tasks")):
        tasks = [t for t in report["tasks"] if t["meta"]["status"] == status]
        if not tasks:
            continue
        lines += ["", f"{heading}:", ""]
        for task in tasks:
            lines += _envelope_task(task, status)
    lines += ["", COMPLETION_SIGNAL]
    return "\n".join(lines) + "\n"


def _suite_verdict(summary: dict[str, Any]) -> str:
    if summary["tasksErrored"]:
        return "Could not run every task"
    if summary["tasksFailed"]:
        return "Failing"
    if summary["tasksInconclusive"]:
        return "Inconclusive"
    return "Passing"


def _envelope_task(task: dict[str, Any], status: str) -> list[str]:
    meta, stats = task["meta"], task["stats"]
    head = f"[{status.upper()}] {meta['test_id']} -- pass rate {meta['pass_rate']}"
    if stats["wilson_95"] and stats["runs"] > 1:
        low, high = stats["wilson_95"]
        head += f", Wilson 95% [{low:.2f}, {high:.2f}], threshold {stats['threshold']:g}"
    lines = [head]
    if status == "error":
        for attempt in task["attempts"]:
            if attempt["status"] == "error":
                lines.append(f"  Error: {attempt['error_kind']}: {attempt['error']}")
                break
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
