"""A compiled bundle as human-readable text (what `cf-guidance compile` prints without --json)."""

from __future__ import annotations

from typing import Any

#: checks under this confidence are listed for review (a pronoun's antecedent, a category, a noun's files)
REVIEW_BELOW = 0.9


def _check_text(check: dict[str, Any]) -> str:
    from cf_guidance.policy.checkform import short

    text = short(check)
    if check.get("source"):
        text += f"  ({check['source']})"
    return text


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
        if shard.get("why"):
            lines.append(f"    advisory: {shard['why']}")
    review = [c for c in checks.values() if isinstance(c.get("confidence"), (int, float)) and c["confidence"] < REVIEW_BELOW]
    if review:
        lines.append("")
        lines.append(f"Review ({len(review)} checks inferred rather than read from a named command or path; under "
                     "confidence 0.8 they ask instead of denying; `cf-guidance compile --explain FILE:LINE` shows why):")
        for check in sorted(review, key=lambda c: (str(c.get("source", "")).rsplit(":", 1)[0],
                                                    int(str(c.get("source", ":0")).rsplit(":", 1)[-1] or 0))):
            lines.append(f"  {check.get('source', '')}: {_check_text(dict(check, source=''))}  "
                         f"confidence {check['confidence']:.2f}: {check.get('message', '')}")
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
