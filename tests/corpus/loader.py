"""The labelled corpus: one case per line, semgrep style.

A line is a Bash command, or (when it starts with `{"`) a PreToolUse hook event as JSON,
followed by its label: `# deny: CODE`, `# ask: CODE`, `# warn: CODE` or `# allow`.
The label is the last `  # ` (two spaces, hash) on the line. Lines starting with `#` are
comments; `#! level: strict` sets the level for the lines after it (default: the policy's), `#! policy: FILE` the
CLAUDE.md (relative to this directory) compiled into the bundle.

Every case runs with HOME=/home/dev, project root /home/dev/project and cwd = the root
(a JSON event may set its own cwd).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
HOME = "/home/dev"
ROOT = "/home/dev/project"
LABELS = ("deny", "ask", "warn", "allow")


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    text: str
    verdict: str
    code: str
    level: str
    policy: str

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"

    def payload(self) -> dict[str, object]:
        if self.text.startswith("{\""):
            event = json.loads(self.text)
            event.setdefault("cwd", ROOT)
            event.setdefault("hook_event_name", "PreToolUse")
            return dict(event)
        return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": self.text}, "cwd": ROOT}


def parse_line(raw: str) -> tuple[str, str, str] | None:
    at = raw.rfind("  # ")
    if at == -1:
        return None
    label = raw[at + 4 :].strip()
    verdict, _, code = label.partition(":")
    verdict = verdict.strip()
    if verdict not in LABELS:
        return None
    return raw[:at].rstrip(), verdict, code.strip()


def load(path: Path) -> list[Case]:
    cases: list[Case] = []
    level = ""  # the bundle's level unless a `#! level:` line says otherwise
    policy = ""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if raw.startswith("#! level:"):
            level = raw.split(":", 1)[1].strip()
            continue
        if raw.startswith("#! policy:"):
            policy = raw.split(":", 1)[1].strip()
            continue
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parsed = parse_line(raw)
        if parsed is None:
            raise ValueError(f"{path.name}:{number}: no label (`  # deny: CODE`, `  # ask: CODE`, `  # warn: CODE`, `  # allow`)")
        text, verdict, code = parsed
        if verdict != "allow" and not code:
            raise ValueError(f"{path.name}:{number}: `{verdict}` needs a rule code")
        cases.append(Case(path.name, number, text, verdict, code, level, policy))
    return cases


def all_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(HERE.glob("*.txt")):
        cases.extend(load(path))
    return cases


_bundles: dict[str, dict[str, object]] = {}


def bundle_for(policy: str) -> dict[str, object]:
    if policy not in _bundles:
        from cf_guidance.policy.compiler import compile_sources

        if policy:
            source = (HERE / policy) if not policy.startswith("/") else Path(policy)
            if not source.exists():
                source = HERE.parent.parent / policy
            text = source.read_text(encoding="utf-8")
        else:
            text = ""
        bundle = compile_sources(text, None, root=ROOT)
        bundle["root"] = ROOT
        _bundles[policy] = bundle
    return _bundles[policy]


def run(case: Case, *, part: str = "full") -> object:
    """The decision for `case`; `part="decide"` evaluates against only the bundle's decision
    part (what the pre-tool hook loads from decide.json)."""
    from cf_guidance.engine import evaluate
    from cf_guidance.event import normalise
    from cf_guidance.policy.cache import decision_part

    old_home = os.environ.get("HOME")
    os.environ["HOME"] = HOME
    try:
        event = normalise(case.payload(), project_dir=ROOT)
        bundle = bundle_for(case.policy)
        if part == "decide":
            bundle = decision_part(bundle)
        return evaluate(bundle, event, level=case.level or None)
    finally:
        if old_home is not None:
            os.environ["HOME"] = old_home
