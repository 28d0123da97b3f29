"""Reason texts in one place: the hint every blocking rule offers, and the rule-doc layout.

A finding's message says what was seen; its hint says what to do instead. Gates look hints up
here by rule code so that wording is reviewed in one file.
"""

from __future__ import annotations

from cf_guidance.decision import Finding
from cf_guidance.limits import MAX_EVIDENCE_CHARS

#: rule code -> what to do instead (shown after "Instead:" in the hook's reason)
HINTS = {
    "CAT001": "delete a specific path inside the project or a temp directory",
    "CAT002": "never disable rm's root protection; delete a specific path",
    "CAT003": "work on an image file inside the project, never on a device",
    "CAT004": "do not start unbounded process loops",
    "CAT005": "change permissions of specific files inside the project",
    "CAT006": "move specific files inside the project",
    "DST001": "delete inside the project or a temp directory, or ask the user to do it",
    "DST002": "spell the path out so it can be checked",
    "DST003": "delete the specific subdirectories you mean",
    "DST004": "leave system files to the user",
    "DST005": "delete files inside the project, or ask the user",
    "DST006": "limit find -delete to a path inside the project",
    "DST010": "commit or `git stash` first, or use `git reset --keep`",
    "DST011": "preview with `git clean -n`, then delete the specific files",
    "DST012": "use `git push --force-with-lease`",
    "DST013": "use `git branch -d` (refuses unmerged branches)",
    "DST014": "ask the user; history rewrites need coordination",
    "DST015": "leave the reflog and unreachable objects alone",
    "DST016": "rebase only commits that were never pushed",
    "DST017": "keep the stash, or `git stash show -p` it first",
    "DST018": "ask the user before deleting remote branches",
    "DST019": "commit or `git stash` first; restore specific files only",
    "DST020": "make sure those changes are not needed (git diff) first",
    "DST021": "do the work on a new branch; ask the user before moving a shared branch",
    "DST030": "write a reversible migration, or ask the user",
    "DST031": "add a WHERE clause",
    "DST032": "delete specific keys",
    "DST040": "delete specific resources by name",
    "DST041": "confirm with the user which resources go",
    "DST042": "plan with `terraform plan -destroy` and let the user apply",
    "DST043": "delete specific objects",
    "DST044": "confirm with the user which resources go",
    "DST045": "leave whole projects and resource groups to the user",
    "DST046": "back up the volume, or ask the user",
    "DST047": "prune without -a/--volumes, or remove specific images",
    "DST050": "ask the user to partition disks",
    "DST051": "write images inside the project or a temp directory",
    "DST060": "download the script, read it, then run it",
    "DST061": "ask the user to change system files",
    "DST062": "save it first with `crontab -l > crontab.bak`; edit with `crontab -e`",
    "DST063": "decode to a file, show it to the user, then run it",
    "DST065": "stop the specific process by its id or name",
    "DST066": "deprecate the version (`npm deprecate`) and publish a fix; ask the user to unpublish",
    "DST064": "write the commands on the line (or in a script the user can read) instead of reading them from input",
    "SEC001": "read `.env.example` or ask the user for the value you need",
    "SEC002": "read `.env.example` or ask the user for the value you need",
    "SEC003": "read the value from the environment or a secret store at run time",
    "SEC004": "never send environment variables or secret files over the network",
    "SEC005": "pass secrets through the environment, not the command line",
    "SEC006": "ask the user whether this file holds tokens before reading it",
    "PTH001": "the guard's settings are changed by the user (`cf-guidance init`), never by the agent",
    "PTH002": "the guard's keys are never read by the agent",
    "PTH003": "this path is protected by the project's settings; ask the user",
    "PTH004": "this path is protected by the project's settings; ask the user",
    "PTH005": "ask the user before changing git hooks or git config",
    "PTH006": "write inside the project or a temp directory",
    "PTH007": "propose the change to the user; the policy files are theirs",
    "PTH008": "write to paths spelled out in the code, so they can be checked",
    "PTH009": "ask the user to reinstall or remove cf-guidance",
    "PTH010": "write the patch to a file first, so its files can be checked",
    "GRD001": "commit the hook wiring first (then stash and switch freely), or name the paths you mean",
    "GRD002": "ask the user to reinstall or remove cf-guidance",
    "GRD003": "start the agent with the project's settings and its permission checks",
    "TLS001": "use another tool, or ask the user to allow this one",
    "TLS002": "use one of the allowed tools",
    "TLS003": "ask the user to allow this MCP tool in CLAUDE.md",
    "DIF001": "split the change into smaller steps",
    "SHL001": "write the command in plain shell the guard can read",
    "SHL002": "name the program literally",
    "GATE-ERROR": "report this as a bug in cf-guidance",
}


def hint(code: str) -> str:
    return HINTS.get(code, "")


def doc(what: str, why: str, example: str, instead: str) -> str:
    """A rule doc with the four fixed headings (checked by tests/gates/test_registry.py)."""
    return (
        f"## What it does\n{what}\n\n## Why is this bad?\n{why}\n\n"
        f"## Example\n```sh\n{example}\n```\n\n## Use instead\n```sh\n{instead}\n```\n"
    )


def finding(gate: str, code: str, verdict: str, message: str, *, segment: str = "", evidence: str = "") -> Finding:
    """A Finding with the rule's hint attached and evidence capped at MAX_EVIDENCE_CHARS."""
    if len(evidence) > MAX_EVIDENCE_CHARS:
        evidence = evidence[: MAX_EVIDENCE_CHARS - 1] + "…"
    if len(segment) > MAX_EVIDENCE_CHARS:
        segment = segment[: MAX_EVIDENCE_CHARS - 1] + "…"
    return Finding(gate, code, verdict, message, evidence=evidence, segment=segment, hint=HINTS.get(code, ""))
