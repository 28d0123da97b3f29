"""A compiled bundle as human-readable text (what `cf-guidance compile` prints without --json)."""

from __future__ import annotations

from typing import Any


def _check_text(check: dict[str, Any]) -> str:
    kind = check.get("kind", "")
    if kind == "sequence":
        return f"{check['verdict']} {' '.join(check.get('then') or [])} unless {' '.join(check.get('before') or [])} ran first"
    pattern = check.get("pattern")
    shown = " ".join(pattern) if isinstance(pattern, list) else str(pattern)
    return f"{check['verdict']} {kind} {shown}"


def _source_lines(bundle: dict[str, Any]) -> list[str]:
    """Every policy file found (absent ones left out): what was done with it, and why."""
    lines = []
    for source in bundle.get("sources") or []:
        if source.get("status") == "absent" and not source.get("imported_by"):
            continue
        details = []
        if source.get("imported_by"):
            details.append(f"imported by {source['imported_by']}")
        if source.get("scope"):
            details.append(f"applies to {source['scope']}/")
        shown = f"  {source.get('status', 'read'):<9} {source['name']}" + (f" ({', '.join(details)})" if details else "")
        lines.append(shown + (f": {source['note']}" if source.get("note") else ""))
    return ["Sources:", *lines, ""] if lines else []


def render_bundle_text(bundle: dict[str, Any]) -> str:
    """Every rule with its enforcement, checks and source, then settings and diagnostics."""
    shards = bundle.get("shards") or []
    checks = {c["id"]: c for c in bundle.get("checks") or []}
    enforced = sum(1 for s in shards if s.get("enforcement") == "enforced")
    sources = ", ".join(s["name"] for s in bundle.get("sources") or [] if s.get("exists") and s.get("status", "read") == "read") or "no policy files"
    lines = [
        f"Policy of {bundle.get('root') or '(in memory)'} from {sources}",
        f"{len(shards)} rules: {enforced} enforced, {len(shards) - enforced} advisory; "
        f"{len((bundle.get('constitution') or {}).get('rules') or [])} in the constitution",
        "",
        *_source_lines(bundle),
    ]
    for shard in shards:
        flags = [shard.get("enforcement", ""), shard.get("risk", "")]
        if shard.get("constitution"):
            flags.append("constitution")
        lines.append(f"[{shard['id']}] {shard['text']}")
        where = f" · applies to {shard['scope']}/" if shard.get("scope") else ""
        lines.append(f"    {', '.join(flags)} · {shard['source']}{where}" + (f" · {shard['section']}" if shard.get("section") else ""))
        for check_id in shard.get("checks") or []:
            check = checks.get(check_id)
            if check is not None:
                lines.append(f"    → {_check_text(check)}")
    settings = bundle.get("settings") or {}
    if shards:
        lines.append("")
    lines.append(f"Settings: level {settings.get('level', 'standard')}, max diff lines {settings.get('max_diff_lines', 300)}")
    for key in ("tools_allow", "tools_deny", "protect_write", "protect_read"):
        if settings.get(key):
            lines.append(f"  {key.replace('_', ' ')}: {', '.join(settings[key])}")
    for words in settings.get("allow_commands") or []:
        lines.append(f"  allow command: {' '.join(words)}")
    diagnostics = bundle.get("diagnostics") or []
    if diagnostics:
        lines.append("")
        lines.append("Diagnostics:")
        for diag in diagnostics:
            lines.append(f"  {diag['source']}: {diag['level']}: {diag['message']}")
    return "\n".join(lines) + "\n"
