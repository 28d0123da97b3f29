"""The HTML report: one self-contained file (inline CSS and JS, no network), failures first.

Per task a card; per run four tabs (Summary, Expectations, Timeline, Debug); copy buttons on
the reproduce commands, tool commands, the response and raw data. Rendered from the JSON
report dict alone, so an old report.json can be rendered again.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from typing import Any

from cf_guidance.headless.workspace import workspace_prefix

_STATUS_ICON = {"pass": "✔", "fail": "✘", "error": "⚠", "inconclusive": "?", "partial": "◐"}
_JSON_TOKEN = re.compile(r'(&quot;(?:[^&]|&(?!quot;))*?&quot;)(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)')

_CSS = """
:root{--pass:#1a7f37;--fail:#cf222e;--error:#9a6700;--inc:#6639ba;--bg:#f6f8fa;--line:#d0d7de;--text:#1f2328}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:var(--text);background:#fff}
header{padding:18px 24px;border-bottom:1px solid var(--line);background:var(--bg)}
h1{margin:0 0 6px;font-size:20px}h2{font-size:16px;margin:18px 0 8px}h3{font-size:14px;margin:12px 0 6px}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600;font-size:12px;text-transform:uppercase}
.s-pass{background:var(--pass)}.s-fail{background:var(--fail)}.s-error{background:var(--error)}.s-inconclusive{background:var(--inc)}.s-partial{background:#59636e}
table.tasks td{vertical-align:middle}a.tid{color:inherit}
.counts{display:flex;gap:14px;flex-wrap:wrap;margin-top:8px}.counts div{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 12px}
.counts b{font-size:18px;display:block}main{padding:12px 24px 40px}
details.task{border:1px solid var(--line);border-radius:8px;margin:10px 0;background:#fff}
details.task>summary{cursor:pointer;padding:10px 14px;display:flex;gap:10px;align-items:center;list-style:none}
details.task>summary::-webkit-details-marker{display:none}
details.task[open]>summary{border-bottom:1px solid var(--line);background:var(--bg)}
.task-body{padding:6px 14px 14px}.muted{color:#59636e}.tid{font-weight:600;font-family:ui-monospace,monospace}
.tabs{display:flex;gap:4px;border-bottom:1px solid var(--line);margin:10px 0}
.tabs button{border:1px solid transparent;border-bottom:none;background:none;padding:6px 12px;cursor:pointer;border-radius:6px 6px 0 0;font:inherit}
.tabs button.active{border-color:var(--line);background:#fff;font-weight:600;margin-bottom:-1px}
pre{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;margin:4px 0}
table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}th{background:var(--bg)}
.exp{border-left:4px solid var(--line);padding:4px 10px;margin:6px 0}.exp.fail{border-color:var(--fail);background:#fff5f5}.exp.pass{border-color:var(--pass)}
.why{color:var(--fail);font-weight:600}.copy{font-size:11px;padding:1px 8px;border:1px solid var(--line);border-radius:4px;background:#fff;cursor:pointer;margin-left:6px}
ol.timeline{padding-left:22px}ol.timeline li{margin:4px 0}.tl-hook{color:#6639ba}.tl-denied{color:var(--fail);font-weight:600}.tl-response{color:#0550ae}
.k{color:#0550ae}.str{color:#0a3069}.num{color:#953800}.lit{color:#cf222e}
.run{border-top:1px dashed var(--line);margin-top:10px;padding-top:6px}
@media print{.tabs,.copy{display:none}.panel{display:block!important}details{open:true}}
"""

_JS = """
function showTab(t){
  var run=t.closest('.run');
  run.querySelectorAll('.tabs button').forEach(function(b){b.classList.toggle('active',b===t)});
  run.querySelectorAll('.panel').forEach(function(p){p.hidden=p.dataset.tab!==t.dataset.tab});
}
var wanted=(location.hash||'').slice(1).toLowerCase();
if(wanted){document.querySelectorAll('.tabs button').forEach(function(b){if(b.dataset.tab.toLowerCase()===wanted)showTab(b)})}
document.addEventListener('click',function(ev){
  var t=ev.target;
  if(t.matches('.tabs button')){showTab(t)}
  if(t.matches('button.copy')){
    var src=document.getElementById(t.dataset.target);var text=src?src.innerText:'';
    var done=function(){var o=t.textContent;t.textContent='Copied';setTimeout(function(){t.textContent=o},1200)};
    if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(text).then(done)}
    else{var a=document.createElement('textarea');a.value=text;document.body.appendChild(a);a.select();try{document.execCommand('copy')}catch(e){}a.remove();done()}
  }
});
"""


class _Ids:
    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> str:
        return f"c{next(self._counter)}"


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


#: JSON longer than this is shown without highlighting: a coloured token costs three times its
#: text, and the raw dumps of the Debug tab (messages, transcript) are read by search, not by eye.
MAX_HIGHLIGHTED_CHARS = 8_000


def _json_block(value: Any, ids: _Ids, *, copy: bool = True) -> str:
    text = html.escape(json.dumps(value, indent=2, ensure_ascii=False, default=str), quote=True)
    if len(text) > MAX_HIGHLIGHTED_CHARS:
        return _pre(text, ids, copy=copy, escaped=True)

    def paint(match: re.Match[str]) -> str:
        string, colon, literal, number = match.groups()
        if string is not None:
            return f'<span class="{"k" if colon else "str"}">{string}</span>{colon or ""}'
        if literal is not None:
            return f'<span class="lit">{literal}</span>'
        return f'<span class="num">{number}</span>'

    return _pre(_JSON_TOKEN.sub(paint, text), ids, copy=copy, escaped=True)


def _pre(text: str, ids: _Ids, *, copy: bool = True, escaped: bool = False) -> str:
    ident = ids.next()
    button = f'<button class="copy" data-target="{ident}">Copy</button>' if copy else ""
    body = text if escaped else _e(text)
    return f'<div>{button}<pre id="{ident}">{body}</pre></div>'


def suite_status(summary: dict[str, Any]) -> str:
    """The suite's one-word status: a real failure outranks a task that could not run."""
    if summary["tasksFailed"]:
        return "fail"
    if summary["tasksErrored"]:
        return "error"
    return "inconclusive" if summary["tasksInconclusive"] else "pass"


def render_html(report: dict[str, Any]) -> str:
    ids = _Ids()
    summary, run, suite = report["summary"], report["run"], report["suite"]
    overall = suite_status(summary)
    counts = "".join(
        f'<div><b>{summary[key]}</b>{label}</div>'
        for key, label in (("totalTasks", "tasks"), ("tasksPassed", "passed"), ("tasksFailed", "failed"),
                           ("tasksInconclusive", "inconclusive"), ("tasksErrored", "errors"),
                           ("assertionsPassed", f"of {summary['totalAssertions']} assertions passed"),
                           ("totalViolations", "violations"))
    )
    where = f' · shard {_e(run["shard"])}' if run.get("shard") else ""
    if run.get("merged_from"):
        where = f' · merged from {len(run["merged_from"])} reports'
    head = (
        f'<header id="summary"><h1>Suite {_e(suite["name"])} '
        f'<span class="badge s-{overall}">{_STATUS_ICON.get(overall, "")} {_e(overall)}</span>'
        + (' <span class="badge s-partial">partial</span>' if run.get("partial") else "") + '</h1>'
        f'<div class="muted">pass rate {summary["passRate"] * 100:.0f}% · {summary["durationMs"] / 1000:.1f}s · '
        f'executor {_e(run["executor"])} · mode {_e(run["mode"])} · repeat {run["repeat"]} · jobs {run["jobs"]}{where}'
        + (" · sandbox" if run.get("sandbox") else "")
        + f' · started {_e(run["started"])} · exit code {summary["exitCode"]} · schema {_e(report["schema_version"])}</div>'
        f'{_git_line(run.get("git_state") or {})}<div class="counts">{counts}</div>{_partial_note(report)}</header>'
    )
    cards = "".join(_task_card(task, ids) for task in report["tasks"])
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f'<title>{_e(suite["name"])}: {_e(overall)} (cf-guidance headless)</title><style>{_CSS}</style></head>'
        f'<body>{head}<main>{_task_table(report["tasks"])}{_shards_table(run.get("merged_from") or [])}'
        f'<h2>Tasks (failures first)</h2>{cards}</main><script>{_JS}</script></body></html>\n'
    )


def _git_line(state: dict[str, Any]) -> str:
    if not state:
        return ""
    dirty = state.get("modified_files") or []
    return (f'<div class="muted">suite repository: {_e(state.get("branch") or "detached")} at '
            f'<code>{_e(str(state.get("commit", ""))[:12])}</code>'
            + (f', {len(dirty)} modified file(s): {_e(", ".join(dirty[:10]))}' if dirty else ", clean") + "</div>")


def _partial_note(report: dict[str, Any]) -> str:
    run = report["run"]
    if not run.get("unfinished"):
        return ""
    names = ", ".join(f'{u["task"]}#{u["repeat"] + 1}' for u in run["unfinished"][:30])
    by = f' by {_e(run["interrupted_by"])}' if run.get("interrupted_by") else ""
    return (f'<p class="why">Interrupted{by}: {len(run["unfinished"])} run(s) did not finish ({_e(names)}). '
            f'Resume: <code>cf-guidance headless run {_e(report["suite"]["path"])} --resume REPORT_DIR</code></p>')


def _task_table(tasks: list[dict[str, Any]]) -> str:
    """Every task on one screen: status, runs, time, and the first reason, each linking to its card."""
    rows = []
    for task in tasks:
        meta, stats = task["meta"], task["stats"]
        status = meta["status"]
        why = meta.get("error") if status == "error" else next(
            (f'{e["description"]}: {e["reason"]}' for a in task["attempts"] for e in a["expectations"] if e["status"] == "fail"), "")
        rows.append(
            f'<tr><td><span class="badge s-{_e(status)}">{_STATUS_ICON.get(status, "")} {_e(status)}</span></td>'
            f'<td><a href="#task-{_e(meta["test_id"])}" class="tid">{_e(meta["test_id"])}</a></td>'
            f'<td>{_e(meta["description"])}</td><td>{_e(meta["pass_rate"])}'
            + (f' <span class="muted">+{stats["errors"]} error(s)</span>' if stats["errors"] else "")
            + f'</td><td>{meta["duration_ms"] / 1000:.1f}s</td><td class="why">{_e((why or "")[:200])}</td></tr>'
        )
    return ('<h2>All tasks</h2><table class="tasks"><tr><th>status</th><th>task</th><th>description</th>'
            f'<th>passed/runs</th><th>time</th><th>first reason</th></tr>{"".join(rows)}</table>')


def _shards_table(parts: list[dict[str, Any]]) -> str:
    if not parts:
        return ""
    rows = "".join(f'<tr><td>{_e(p.get("shard") or "-")}</td><td>{_e(p["source"])}</td><td>{p["runs"]}</td>'
                   f'<td>{p["duration_ms"] / 1000:.1f}s</td><td>{_e(p["started"])}</td>'
                   f'<td>{"partial" if p.get("partial") else ""}</td></tr>' for p in parts)
    return ('<h2>Merged reports</h2><table><tr><th>shard</th><th>report</th><th>runs</th><th>time</th><th>started</th>'
            f'<th></th></tr>{rows}</table>')


def _task_card(task: dict[str, Any], ids: _Ids) -> str:
    meta, stats = task["meta"], task["stats"]
    status = meta["status"]
    wilson = stats["wilson_95"]
    stat_line = f'pass rate {_e(meta["pass_rate"])}' if stats["runs"] else _e(meta.get("error") or "no run finished")
    if wilson and stats["runs"] > 1:
        stat_line += f' · Wilson 95% [{wilson[0]:.2f}, {wilson[1]:.2f}] · threshold {stats["threshold"]:g}'
        stat_line += " · " + ", ".join(f"pass@{k} {v:.2f}" for k, v in stats["pass_at_k"].items())
        stat_line += " · " + ", ".join(f"pass^{k} {v:.2f}" for k, v in stats["pass_hat_k"].items())
    runs = "".join(_attempt_group(task, group, ids) for group in _identical_groups(meta["test_id"], task["attempts"]))
    return (
        f'<details class="task" id="task-{_e(meta["test_id"])}"{" open" if status != "pass" else ""}>'
        f'<summary><span class="badge s-{_e(status)}">{_STATUS_ICON.get(status, "")} {_e(status)}</span>'
        f'<span class="tid">{_e(meta["test_id"])}</span><span class="muted">{_e(meta["description"])}</span>'
        f'<span class="muted" style="margin-left:auto">{stat_line} · {meta["duration_ms"] / 1000:.1f}s</span></summary>'
        f'<div class="task-body"><div class="muted">tags: {_e(", ".join(meta["tags"]) or "none")} · '
        f'executor {_e(meta["executor"])}</div>{runs}</div></details>'
    )


def _identical_groups(task_id: str, attempts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Attempts grouped by what they did (status, expectations, tool calls, hooks' verdicts, side
    effects, answer), with each run's own directory left out: repeats of a deterministic run
    are shown once."""
    own_directory = re.compile(re.escape(workspace_prefix(task_id)) + r"[A-Za-z0-9_]{8}")
    groups: dict[str, list[dict[str, Any]]] = {}
    for attempt in attempts:
        groups.setdefault(own_directory.sub("<run>", _signature(attempt)), []).append(attempt)
    return list(groups.values())


def _signature(attempt: dict[str, Any]) -> str:
    effects = attempt["side_effects"]
    return json.dumps([
        attempt["status"], attempt["error_kind"], attempt["error"],
        [(e["id"], e["status"], e["reason"]) for e in attempt["expectations"]],
        [(c["tool"], c["input"], c["ran"], c["denied_by"], c["rule"]) for c in attempt["tool_calls"]],
        [(h["name"], h["decision"], h["rule"]) for h in attempt["hooks"]],
        [effects[k] for k in ("files_created", "files_modified", "files_deleted")], effects.get("outside_workspace"),
        attempt["claude_response"]["full_text"], attempt["interactions"],
    ], sort_keys=True, default=str)


def _attempt_group(task: dict[str, Any], group: list[dict[str, Any]], ids: _Ids) -> str:
    first = _attempt(task, group[0], ids)
    if len(group) == 1:
        return first
    others = ", ".join(str(a["repeat"] + 1) for a in group[1:])
    rows = "".join(f'<tr><td>{a["repeat"] + 1}</td><td>{a["duration_ms"] / 1000:.1f}s</td>'
                   f'<td><code>{_e(a["execution"]["session_id"])}</code></td></tr>' for a in group)
    return (f'{first}<div class="muted">Run{"s" if len(group) > 2 else ""} {others}: identical to run '
            f'{group[0]["repeat"] + 1} (same status, expectations, tool calls, hook verdicts, side effects and answer); '
            f'not repeated here.</div><table><tr><th>run</th><th>time</th><th>session</th></tr>{rows}</table>')


def _attempt(task: dict[str, Any], attempt: dict[str, Any], ids: _Ids) -> str:
    tabs = ("Summary", "Expectations", "Timeline", "Debug")
    buttons = "".join(
        f'<button type="button" data-tab="{name}"{" class=active" if name == "Summary" else ""}>{name}</button>'
        for name in tabs
    )
    failed = sum(1 for e in attempt["expectations"] if e["status"] == "fail")
    panels = {
        "Summary": _summary_panel(attempt, ids),
        "Expectations": _expectations_panel(attempt, ids),
        "Timeline": _timeline_panel(attempt, ids),
        "Debug": _debug_panel(attempt, ids),
    }
    body = "".join(
        f'<section class="panel" data-tab="{name}"{"" if name == "Summary" else " hidden"}>{content}</section>'
        for name, content in panels.items()
    )
    label = f'Run {attempt["repeat"] + 1}: <span class="badge s-{_e(attempt["status"])}">{_e(attempt["status"])}</span>'
    if failed:
        label += f' <span class="why">{failed} failed expectation{"s" if failed != 1 else ""}</span>'
    if attempt["retries"]:
        label += f' <span class="muted">after {attempt["retries"]} infrastructure retr{"ies" if attempt["retries"] > 1 else "y"}</span>'
    return f'<div class="run"><h3>{label}</h3><div class="tabs">{buttons}</div>{body}</div>'


def _summary_panel(attempt: dict[str, Any], ids: _Ids) -> str:
    parts = []
    if attempt["status"] == "error":
        parts.append(f'<p class="why">{_e(attempt["error_kind"])}: {_e(attempt["error"])}</p>')
    if attempt["hook_failures"]:
        first = attempt["hook_failures"][0]
        parts.append(f'<p class="why">{len(attempt["hook_failures"])} hook error(s): the guard fails open on these. '
                     f'First: {_e(first["hook"])} exit {_e(first["exit_code"])}: {_e(first["stderr_tail"])}</p>')
    failures = [e for e in attempt["expectations"] if e["status"] == "fail"]
    if failures:
        items = "".join(f'<li><b>{_e(e["description"])}</b>: <span class="why">{_e(e["reason"])}</span></li>' for e in failures)
        parts.append(f"<h3>Failed expectations</h3><ul>{items}</ul>")
    execution = attempt["execution"]
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v if not isinstance(v, dict) else json.dumps(v))}</td></tr>"
                   for k, v in execution.items() if k != "prompt")
    parts.append("<h3>Prompt</h3>" + _pre(execution["prompt"], ids))
    parts.append(f"<h3>Execution</h3><table>{rows}</table>")
    if attempt.get("provenance"):
        rows = "".join(f"<tr><th>{_e(name)}</th><td><code>{_e(digest[:16])}</code></td></tr>"
                       for name, digest in attempt["provenance"].items())
        parts.append(f'<h3>Policy under test <span class="muted">(SHA-256)</span></h3><table>{rows}</table>')
    reproduce = attempt["reproduce"]
    parts.append("<h3>Reproduce</h3>" + _pre(reproduce["rerun_command"], ids))
    if reproduce["test_command"]:
        parts.append('<div class="muted">the client command this run used</div>' + _pre(reproduce["test_command"], ids))
    effects = attempt["side_effects"]
    rows = "".join(f"<tr><th>{label}</th><td>{_e(', '.join(effects[key]) or '-')}</td></tr>"
                   for key, label in (("files_created", "created"), ("files_modified", "modified"), ("files_deleted", "deleted")))
    commits = "".join(f"<li><code>{_e(c['sha'][:10])}</code> {_e(c['subject'])} ({_e(', '.join(c['files']))})</li>"
                      for c in effects["commits"])
    parts.append(f"<h3>Side effects</h3><table>{rows}</table>" + (f"<ul>{commits}</ul>" if commits else ""))
    outside = effects.get("outside_workspace") or []
    if outside:
        items = "".join(f'<li><code>{_e(w["path"])}</code> by {_e(w["tool"])} ({_e(w["scope"])}'
                        f'{"" if w["ran"] else ", denied"})</li>' for w in outside)
        parts.append(f'<h3>Writes outside the workspace</h3><ul class="why">{items}</ul>')
    git_state = reproduce.get("git_state") or {}
    if git_state:
        rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(', '.join(v) if isinstance(v, list) else v) or '-'}</td></tr>"
                       for k, v in git_state.items())
        parts.append(f"<h3>Git state of the workspace</h3><table>{rows}</table>")
    hygiene = attempt.get("hygiene") or {}
    ended = (hygiene.get("ended_after_exit") or []) + (hygiene.get("ended_at_cleanup") or [])
    if ended or hygiene.get("left") or hygiene.get("temp_removed"):
        items = "".join(f"<li><code>{_e(line)}</code></li>" for line in ended)
        left = "".join(f'<li class="why">still running: <code>{_e(line)}</code></li>' for line in hygiene.get("left") or [])
        temp = "".join(f"<li>removed <code>{_e(path)}</code></li>" for path in hygiene.get("temp_removed") or [])
        parts.append(f'<h3>Left behind by the run, cleaned up <span class="muted">(tracked by '
                     f'{_e(hygiene.get("tracked_by") or "-")})</span></h3><ul>{items}{left}{temp}</ul>')
    response = attempt["claude_response"]
    parts.append(f'<h3>Response ({response["word_count"]} words)</h3>' + _pre(response["full_text"], ids))
    if attempt["violations"]:
        parts.append("<h3>Violations</h3>" + _json_block(attempt["violations"], ids))
    return "".join(parts)


def _expectations_panel(attempt: dict[str, Any], ids: _Ids) -> str:
    if not attempt["expectations"]:
        return '<p class="muted">No expectations were checked.</p>'
    ordered = sorted(attempt["expectations"], key=lambda e: e["status"] != "fail")
    out = []
    for exp in ordered:
        status = exp["status"]
        reason = f'<div class="why">Why: {_e(exp["reason"])}</div>' if status == "fail" else ""
        out.append(
            f'<div class="exp {status}"><details{" open" if status == "fail" else ""}><summary>'
            f'<span class="badge s-{status}">{_STATUS_ICON.get(status, "")} {status}</span> '
            f'<b>{_e(exp["description"])}</b> <span class="muted">{_e(exp["type"])} · {_e(exp["id"])}</span></summary>'
            f'{reason}<div><b>Expected</b>{_json_block(exp["expected"], ids)}</div>'
            f'<div><b>Actual</b>{_json_block(exp["actual"], ids)}</div></details></div>'
        )
    return "".join(out)


def _timeline_panel(attempt: dict[str, Any], ids: _Ids) -> str:
    if not attempt["timeline"]:
        return '<p class="muted">No timeline (the run did not start).</p>'
    items = []
    for entry in attempt["timeline"]:
        kind, detail = entry["type"], entry["detail"]
        css = {"hook": "tl-hook", "response": "tl-response"}.get(kind, "")
        if kind == "tool_result" and detail.get("denied_by"):
            css = "tl-denied"
        extra = ""
        if kind == "tool_call":
            command = detail.get("input", {}).get("command") if isinstance(detail.get("input"), dict) else None
            extra = _pre(command, ids) if isinstance(command, str) else _json_block(detail.get("input"), ids)
        elif kind in ("tool_result", "hook") and (detail.get("output") or detail.get("reason")):
            extra = f'<details><summary class="muted">output</summary>{_pre(detail.get("output") or detail.get("reason"), ids)}</details>'
        elif kind in ("prompt", "response"):
            extra = f'<details><summary class="muted">full text</summary>{_pre(detail.get("content", ""), ids)}</details>'
        when = f'+{entry["offset_ms"] / 1000:.2f}s' if entry.get("offset_ms") is not None else entry["timestamp"]
        took = f' · {entry["duration_ms"]} ms' if entry.get("duration_ms") is not None else ""
        stamp = f' <span class="muted">{_e(when)}{_e(took)}</span>' if when or took else ""
        items.append(f'<li class="{css}"><b>{_e(kind)}</b> {_e(entry["summary"])}{stamp}{extra}</li>')
    return f'<ol class="timeline">{"".join(items)}</ol>'


def _offset(offset_ms: int | None) -> str:
    return "" if offset_ms is None else f"+{offset_ms / 1000:.3f}s"


def _hook_table(hooks: list[dict[str, Any]]) -> str:
    if not hooks:
        return '<p class="muted">No hook ran.</p>'
    rows = "".join(
        f'<tr><td>{h["seq"]}</td><td>{_e(h["name"])}</td><td><code>{_e(h["tool_use_id"])}</code></td>'
        f'<td>{_e(h["decision"] or h["outcome"])}</td><td>{_e(h["rule"])}</td>'
        f'<td>{_e(h.get("timestamp") or "-")}</td>'
        f'<td>{_offset(h.get("offset_ms"))}</td>'
        f'<td>{_e(h["duration_ms"])}</td><td>{_e(h["exit_code"])}</td></tr>'
        for h in hooks)
    return ('<table><tr><th>#</th><th>hook</th><th>for call</th><th>verdict</th><th>rule</th><th>started at</th>'
            f'<th>after start</th><th>ms</th><th>exit</th></tr>{rows}</table>')


def _debug_panel(attempt: dict[str, Any], ids: _Ids) -> str:
    debug = attempt["debug"]
    parts = []
    if debug["leaks"]:
        parts.append("<h3>Isolation leaks</h3>" + _json_block(debug["leaks"], ids))
    parts.append("<h3>Hook events</h3>" + _hook_table(attempt["hooks"]))
    parts.append("<h3>Tool calls</h3>" + _json_block(attempt["tool_calls"], ids))
    if attempt["interactions"]:
        parts.append("<h3>Questions and permission prompts</h3>" + _json_block(attempt["interactions"], ids))
    if attempt["side_effects"]["patch"]:
        parts.append("<h3>Workspace diff</h3>" + _pre(attempt["side_effects"]["patch"], ids))
    parts.append(f'<h3>stderr</h3>{_pre(debug["stderr"] or "(empty)", ids)}')
    parts.append(f'<div class="muted">transcript: {_e(debug["transcript_path"] or "none")} '
                 f'({debug["transcript_records"]} records) · workspace: {_e(attempt["workspace"] or "removed")}</div>')
    if debug.get("transcript"):
        parts.append(f'<details><summary>Transcript ({debug["transcript_records"]} records, as read from '
                     f'{_e(debug["transcript_path"])})</summary>{_json_block(debug["transcript"], ids)}</details>')
    if debug["server_log"]:
        parts.append("<details><summary>Model server requests</summary>" + _json_block(debug["server_log"], ids) + "</details>")
    parts.append("<details><summary>Raw stream-json messages</summary>" + _json_block(debug["messages"], ids) + "</details>")
    return "".join(parts)
