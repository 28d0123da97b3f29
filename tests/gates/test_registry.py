from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cf_guidance.gates import registry
from cf_guidance.gates.registry import GATES, all_rules, rules_markdown

REPO = Path(__file__).resolve().parents[2]
HEADINGS = ("## What it does", "## Why is this bad?", "## Example", "## Use instead")


def test_codes_are_unique() -> None:
    codes = [rule.code for _, rule in all_rules()]
    assert len(codes) == len(set(codes))


def test_names_are_unique_and_kebab_case() -> None:
    names = [rule.name for _, rule in all_rules()]
    assert len(names) == len(set(names))
    for name in names:
        assert name == name.lower() and " " not in name and "_" not in name


@pytest.mark.parametrize(("gate", "rule"), all_rules(), ids=[r.code for _, r in all_rules()])
def test_every_doc_has_the_four_headings(gate: str, rule: object) -> None:
    doc = rule.doc  # type: ignore[attr-defined]
    positions = [doc.find(h) for h in HEADINGS]
    assert all(p >= 0 for p in positions), rule.code  # type: ignore[attr-defined]
    assert positions == sorted(positions)
    assert rule.verdict in ("deny", "ask", "warn")  # type: ignore[attr-defined]


def test_every_gate_module_is_registered() -> None:
    gate_dir = REPO / "guidance" / "gates"
    modules = {p.stem for p in gate_dir.glob("*.py") if not p.stem.startswith("_") and p.stem not in ("registry", "reasons", "patterns", "scope")}
    registered = {gate.__name__.rsplit(".", 1)[-1] for gate in GATES}
    assert modules <= registered, modules - registered


def test_every_code_a_gate_emits_is_registered() -> None:
    """Every rule code literal in the gate sources (`"DST012"`) belongs to a registered rule."""
    known = {rule.code for _, rule in all_rules()}
    gates = REPO / "guidance" / "gates"
    own = ("catastrophe", "destructive", "secrets", "protected_paths", "policy_rules", "tools", "diff_size", "shell_parse", "reasons",
           "effects", "supply_chain", "repo_security", "host")
    sources = [gates / f"{name}.py" for name in own] + list((gates / "commands").glob("**/*.py")) + [REPO / "guidance" / "engine.py"]
    seen = set()
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                value = node.value
                if len(value) == 6 and value[:3] in OWN_PREFIXES and value[3:].isdigit():
                    seen.add(value)
    assert seen <= known, seen - known
    assert {code for code in known if code.startswith(OWN_PREFIXES)} - {"GATE-ERROR"} <= seen


OWN_PREFIXES = ("CAT", "DST", "SEC", "PTH", "TLS", "DIF", "SHL", "EFF", "SUP", "REP", "HST", "GATE-ERROR")


def test_every_rule_of_the_core_gates_has_a_hint() -> None:
    from cf_guidance.gates.reasons import HINTS

    for _, rule in all_rules():
        if rule.code.startswith(OWN_PREFIXES):
            assert HINTS.get(rule.code), rule.code


def test_docs_rules_md_is_up_to_date() -> None:
    committed = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(), "regenerate with: cf-guidance rules --markdown > docs/rules.md"


def test_catastrophe_runs_first() -> None:
    assert GATES[0].GATE == "catastrophe"
    assert registry.all_rules()[-1][1].code == "GATE-ERROR"


class _Watched(dict):  # type: ignore[type-arg]
    """A bundle that records which top-level keys a gate reads."""

    def __init__(self, read: set[str]) -> None:
        super().__init__()
        self.read = read

    def get(self, key: str, default: object = None) -> object:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> object:
        self.read.add(key)
        return super().__getitem__(key)


@pytest.mark.parametrize("command", ["rm -rf ../x", "cat .env", "git push --force", "echo x > .claude/settings.json", "$X y"])
def test_built_in_gates_need_no_compiled_rules_or_session(command: str) -> None:
    """The hook runs registry.BUILTIN before the bundle is loaded: they may read settings, root and
    the list of policy sources only (the files the policy came from are paths, not compiled rules)."""
    from cf_guidance.event import Event
    from cf_guidance.gates._base import GateContext

    assert GATES[:1] == registry.BUILTIN[:1] and set(registry.BUILTIN) <= set(GATES)
    for gate in registry.BUILTIN:
        read: set[str] = set()
        extras: set[str] = set()
        event = Event(tool="Bash", tool_input={"command": command}, command=command, cwd="/srv/p")
        gate.check(GateContext(event, _Watched(read), extras=_Watched(extras)))
        assert read <= {"settings", "root", "sources"} and not extras, gate.GATE
