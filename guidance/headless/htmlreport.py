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

_STATUS_ICON = {"pass": "✔", "fail": "✘", "error": "⚠", "inconclusive": "?", "partial": "◐"}
_JSON_TOKEN = re.compile(r'(&quot;(?:[^&]|&(?!quot;))*?&quot;)(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)')

_CSS = """
:root{--pass:#1a7f37;--fail:#cf222e;--error:#9a6700;--inc:#6639ba;--bg:#f6f8fa;--line:#d0d7de;--text:#1f2328}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:var(--text);background:#fff}
header{padding:18px 24px;border-bottom:1px solid var(--line);background:var(--bg)}
h1{margin:0 0 6px;font-size:20px}h2{font-size:16px;margin:18px 0 8px}h3{font-size:14px;margin:12px 0 6px}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600;font-size:12px;text-transform:uppercase}
.s-pass{background:var(--pass)}.s-fail{background:var(--fail)}.s-error{background:var(--error)}.s-inconclusive{background:var(--inc)}
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


def _json_block(value: Any, ids: _Ids, *, copy: bool = True) -> str:
    text = html.escape(json.dumps(value, indent=2, ensure_ascii=False, default=str), quote=True)

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


def render_html(report: dict[str, Any]) -> str:
    ids = _Ids()
    summary, run, suite = report["summary"], report["run"], report["suite"]
    overall = "error" if summary["tasksErrored"] else "fail" if summary["tasksFailed"] else (
        "inconclusive" if summary["tasksInconclusive"] else "pass")
    counts = "".join(
        f'<div><b>{summary[key]}</b>{label}</div>'
        for key, label in (("totalTasks", "tasks"), ("tasksPassed", "passed"), ("tasksFailed", "failed"),
                           ("tasksInconclusive", "inconclusive"), ("tasksErrored", "errors"),
                           ("assertionsPassed", f"of {summary['totalAssertions']} assertions passed"),
                           ("totalViolations", "violations"))
    )
    head = (
        f'<header id="summary"><h1>Suite {_e(suite["name"])} '
        f'<span class="badge s-{overall}">{_STATUS_ICON.get(overall, "")} {_e(overall)}</span></h1>'
        f'<div class="muted">pass rate {summary["passRate"] * 100:.0f}% · {summary["durationMs"] / 1000:.1f}s · '
        f'executor {_e(run["executor"])} · mode {_e(run["mode"])} · repeat {run["repeat"]} · jobs {run["jobs"]} · '
        f'started {_e(run["started"])} · exit code {summary["exitCode"]} · schema {_e(report["schema_version"])}</div>'
        f'<div class="counts">{counts}</div></header>'
    )
    cards = "".join(_task_card(task, ids) for task in report["tasks"])
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f'<title>{_e(suite["name"])}: {_e(overall)} (cf-guidance headless)</title><style>{_CSS}</style></head>'
        f'<body>{head}<main><h2>Tasks (failures first)</h2>{cards}</main><script>{_JS}</script></body></html>\n'
    )


def _task_card(task: dict[str, Any], ids: _Ids) -> str:
    meta, stats = task["meta"], task["stats"]
    status = meta["status"]
    wilson = stats["wilson_95"]
    stat_line = f'pass rate {_e(meta["pass_rate"])}'
    if wilson and stats["runs"] > 1:
        stat_line += f' · Wilson 95% [{wilson[0]:.2f}, {wilson[1]:.2f}] · threshold {stats["threshold"]:g}'
        stat_line += " · " + ", ".join(f"pass@{k} {v:.2f}" for k, v in stats["pass_at_k"].items())
        stat_line += " · " + ", ".join(f"pass^{k} {v:.2f}" for k, v in stats["pass_hat_k"].items())
    runs = "".join(_attempt(task, attempt, ids) for attempt in task["attempts"])
    return (
        f'<details class="task" id="task-{_e(meta["test_id"])}"{" open" if status != "pass" else ""}>'
        f'<summary><span class="badge s-{_e(status)}">{_STATUS_ICON.get(status, "")} {_e(status)}</span>'
        f'<span class="tid">{_e(meta["test_id"])}</span><span class="muted">{_e(meta["description"])}</span>'
        f'<span class="muted" style="margin-left:auto">{stat_line} · {meta["duration_ms"] / 1000:.1f}s</span></summary>'
        f'<div class="task-body"><div class="muted">tags: {_e(", ".join(meta["tags"]) or "none")} · '
        f'executor {_e(meta["executor"])}</div>{runs}</div></details>'
    )


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


def _debug_panel(attempt: dict[str, Any], ids: _Ids) -> str:
    debug = attempt["debug"]
    parts = []
    if debug["leaks"]:
        parts.append("<h3>Isolation leaks</h3>" + _json_block(debug["leaks"], ids))
    parts.append("<h3>Hook events</h3>" + _json_block(attempt["hooks"], ids))
    parts.append("<h3>Tool calls</h3>" + _json_block(attempt["tool_calls"], ids))
    if attempt["interactions"]:
        parts.append("<h3>Questions and permission prompts</h3>" + _json_block(attempt["interactions"], ids))
    if attempt["side_effects"]["patch"]:
        parts.append("<h3>Workspace diff</h3>" + _pre(attempt["side_effects"]["patch"], ids))
    parts.append(f'<h3>stderr</h3>{_pre(debug["stderr"] or "(empty)", ids)}')
    parts.append(f'<div class="muted">transcript: {_e(debug["transcript_path"] or "none")} '
                 f'({debug["transcript_records"]} records) · workspace: {_e(attempt["workspace"] or "removed")}</div>')
    if debug["server_log"]:
        parts.append("<details><summary>Model server requests</summary>" + _json_block(debug["server_log"], ids) + "</details>")
    parts.append("<details><summary>Raw stream-json messages</summary>" + _json_block(debug["messages"], ids) + "</details>")
    return "".join(parts)
