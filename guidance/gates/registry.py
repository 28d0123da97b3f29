"""Every gate in evaluation order, and every rule they can report.

The catastrophe guard runs first and cannot be disabled. A decision's deciding finding is
the first one with the most severe verdict, so the order also decides which reason the
agent reads when several rules fire.
"""

from __future__ import annotations

from guidance.decision import DENY
from guidance.gates import catastrophe, destructive, diff_size, policy_rules, protected_paths, secrets, shell_parse, tools
from guidance.gates._base import Rule
from guidance.gates.reasons import doc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

GATES: tuple[ModuleType, ...] = (
    catastrophe,
    protected_paths,
    secrets,
    destructive,
    policy_rules,
    tools,
    diff_size,
    shell_parse,
)

#: Gates whose findings the project allowlist (`allow command ...`) may turn into allow.
ALLOWLISTABLE = frozenset((destructive.GATE, secrets.GATE))

ENGINE = "engine"
GATE_ERROR = Rule(
    "GATE-ERROR", "gate-error", DENY, "A gate raised an exception",
    doc("Reports a gate that failed on this event instead of letting the exception reach the hook. The verdict is deny "
        "when the hook runs fail-closed, warn otherwise; the message names the gate and the exception.",
        "A crashing check must not silently allow what it was meant to stop, nor crash the agent's tool call.",
        "# any event that trips a bug in a gate", "# report the event with `cf-guidance explain`"),
)


def all_rules() -> list[tuple[str, Rule]]:
    """(gate name, rule) for every rule, in evaluation order; the engine's own rule last."""
    out: list[tuple[str, Rule]] = []
    for gate in GATES:
        for rule in gate.RULES:
            out.append((gate.GATE, rule))
    out.append((ENGINE, GATE_ERROR))
    return out
