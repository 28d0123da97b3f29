"""Processes and published packages: killing every process of the user, unpublishing."""

from __future__ import annotations

from cf_guidance.gates.commands import Args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command

KILLERS = frozenset(("kill", "pkill", "killall", "killall5"))
#: Package managers with an `unpublish` (`yarn npm unpublish` too).
PUBLISHERS = frozenset(("npm", "pnpm", "yarn"))
#: pkill/killall patterns that match every process name.
_EVERY_NAME = frozenset((".", ".*", "^", "^.*", "*", ".+"))


def kills_everything(cmd: Command) -> bool:
    """`kill -9 -1`, `killall5`, `pkill -u dev`, `pkill .`: every process the user may signal."""
    program = cmd.program
    args = cmd.args
    if program == "killall5":
        return True
    if program == "kill":
        signal_given = False
        k = 0
        while k < len(args):
            word = args[k]
            if word == "--":
                return "-1" in args[k + 1 :]
            if word in ("-s", "-n", "--signal"):
                signal_given = True
                k += 2
                continue
            if word == "-1" and signal_given:
                return True
            if word.startswith("-") and not signal_given and word not in ("-l", "-L", "--list"):
                signal_given = True  # `kill -9`, `kill -KILL`: the first dash word is the signal
            k += 1
        return False
    parsed = Args(args, frozenset(("-u", "--user", "-U", "--uid", "-s", "--signal", "-g", "--pgroup", "-P", "--parent", "-t", "--terminal", "-G", "--group")))
    patterns = [p for p in parsed.positionals if not p.lstrip("-").isdigit()]
    if any(p in _EVERY_NAME for p in patterns):
        return True
    return not patterns and bool(parsed.value("-u", "--user", "-U", "--uid"))


def unpublishes(cmd: Command) -> bool:
    """`npm unpublish ...`, `pnpm unpublish`, `yarn npm unpublish`."""
    if cmd.program not in PUBLISHERS or "unpublish" not in cmd.argv:
        return False  # most npm commands stop here: a membership test, no list built
    words = [a for a in cmd.args if not a.startswith("-")]
    return words[:1] == ["unpublish"] or (cmd.program == "yarn" and words[:2] == ["npm", "unpublish"])
