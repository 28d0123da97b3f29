"""Reason texts in one place: the hint every blocking rule offers, and the rule-doc layout.

A finding's message says what was seen; its hint says what to do instead. Gates look hints up
here by rule code so that wording is reviewed in one file.
"""

from __future__ import annotations

from cf_guidance.decision import Finding
from cf_guidance.gates._base import Rule
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
    "SEC007": "fetch the URL without the credential, or ask the user to fetch it",
    "EFF001": "ask the user to make the change, or make it against a local or development target",
    "EFF002": "leave changes to production and shared targets to the user; work against a dev or local target",
    "EFF003": "archive it (`gh repo archive`) or ask the user",
    "EFF004": "let the tool authenticate its own calls (its login, a credential helper); never print the credential",
    "EFF005": "let the tool authenticate its own calls (its login, a credential helper), or ask the user",
    "EFF006": "push to the project's own remotes; ask the user before sending code or data elsewhere",
    "EFF007": "keep it private; ask the user before publishing anything",
    "EFF008": "give the narrowest role that does the job, and ask the user to grant it",
    "REP001": "pass the secret through `env:` to the step that needs it, and never print it",
    "REP002": "use the `pull_request` trigger; pass untrusted text through `env:` and quote it in the script",
    "REP003": "grant the job only the permissions it needs (`contents: read`) and keep its environment",
    "REP004": "propose the change to the user; protection rules are the owners' decision",
    "REP005": "ask the user to grant the access",
    "REP006": "ask the user to change git settings that run commands",
    "REP007": "add a new remote (`git remote add`) instead of redirecting an existing one, or ask the user",
    "SUP001": "install a released version from the registry, or ask the user to review the source first",
    "SUP002": "install from the usual registry, or ask the user whether this index is trusted",
    "SUP003": "pass the source for one command, or ask the user to change the package configuration",
    "SUP004": "change the dependency in the manifest and let the package manager rewrite the lockfile",
    "HST001": "tell the user the line to add to their shell profile",
    "HST002": "run the job in the foreground, or give the user the unit or crontab line to install",
    "HST003": "pass ssh options on the command line (`ssh -o ...`), or ask the user",
    "HST004": "write inside the project or a temp directory, or ask the user",
    "HST005": "grant only what is needed (`chmod -R u+rwX,go+rX`), inside the project",
    "HST006": "leave the machine's firewall and security services to the user",
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


def rule(code: str, name: str, verdict: str, summary: str, what: str, why: str, example: str, instead: str) -> Rule:
    """A Rule whose doc has the four fixed headings (`doc`)."""
    return Rule(code, name, verdict, summary, doc(what, why, example, instead))


def finding(gate: str, code: str, verdict: str, message: str, *, segment: str = "", evidence: str = "", hint: str = "") -> Finding:
    """A Finding with the rule's hint (or `hint`, advice that fits the program) attached and
    evidence capped at MAX_EVIDENCE_CHARS."""
    if len(evidence) > MAX_EVIDENCE_CHARS:
        evidence = evidence[: MAX_EVIDENCE_CHARS - 1] + "…"
    if len(segment) > MAX_EVIDENCE_CHARS:
        segment = segment[: MAX_EVIDENCE_CHARS - 1] + "…"
    return Finding(gate, code, verdict, message, evidence=evidence, segment=segment, hint=hint or HINTS.get(code, ""))
