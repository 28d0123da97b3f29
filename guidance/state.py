"""Where cf-guidance keeps its per-repository state: the one module that names every path.

Hot path module: standard library only (os), no `pathlib` or `typing` at run time.

Layout under ``<project>/.claude-flow/guidance/`` (or ``$GUIDANCE_STATE_DIR``)::

    cache/        compiled policy bundles (cf_guidance.policy.cache)
    keys/         ledger.key: 32 random bytes, mode 0600 (HMAC key of the ledger)
    ledger/       the append-only ledger and its checkpoints (cf_guidance.ledger)
    spool/        jobs written by hooks for the detached worker (cf_guidance.jobs.spool)
    proposals/    autopilot proposals waiting for review
    backups/      settings files as they were before `cf-guidance init` changed them
    logs/         worker and autopilot logs
    install.json  what `cf-guidance init` added, so `uninstall` removes exactly that

The project root of a hook call is ``$CLAUDE_PROJECT_DIR``, else ``$GUIDANCE_PROJECT_DIR``,
else the root found from the event's ``cwd`` (or the process's working directory) by
`find_root`. Codex sets no project variable and may run in a subdirectory, hence the walk up.
Every CLI command finds its project the same way from ``--target`` or its working directory.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

#: Environment variable that moves the whole state directory (absolute, or relative to the project).
#: Session id of the installer's smoke test: its decisions are recorded but never change trust.
SMOKE_SESSION = "cf-guidance-verify"

STATE_DIR_ENV = "GUIDANCE_STATE_DIR"
#: Environment variables naming the project root, in order of preference.
PROJECT_DIR_ENVS = ("CLAUDE_PROJECT_DIR", "GUIDANCE_PROJECT_DIR")
#: The state directory relative to the project root.
STATE_RELATIVE = os.path.join(".claude-flow", "guidance")
#: The top-level directory git must ignore (it holds the key and the ledger).
STATE_TOP = ".claude-flow"

SUBDIRS = ("cache", "keys", "ledger", "spool", "proposals", "backups", "logs")
#: The ledger's witness lives outside the state directory, under the user's data directory.
DATA_HOME_ENV = "XDG_DATA_HOME"


#: What marks a project root, strongest evidence first (`find_root`): our state directory (the
#: project was initialised), Claude Code's and Codex's project settings folders, the policy, git.
ROOT_EVIDENCE = (STATE_TOP, ".claude", ".codex", "CLAUDE.md", ".git")


def find_root(start: str, environ: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(project root, the evidence that marks it) for a path inside a project, as git finds its
    repository: for each kind of evidence in `ROOT_EVIDENCE` order, the nearest directory at or
    above `start` that holds it wins. The user's own config folders (``~/.claude``,
    ``$CLAUDE_CONFIG_DIR``, ``~/.codex``, ``$CODEX_HOME``) are not evidence. No evidence at all:
    `start` itself, and "" as the evidence."""
    env = os.environ if environ is None else environ
    start = os.path.abspath(start)
    home = env.get("HOME") or os.path.expanduser("~")
    not_projects = {os.path.join(home, ".claude"), os.path.join(home, ".codex")}
    not_projects.update(os.path.abspath(env[name]) for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME") if env.get(name))
    for evidence in ROOT_EVIDENCE:
        here = start
        while True:
            candidate = os.path.join(here, evidence)
            if os.path.lexists(candidate) and candidate not in not_projects:
                return here, evidence
            parent = os.path.dirname(here)
            if parent == here:
                break
            here = parent
    return start, ""


def project_dir(environ: Mapping[str, str] | None = None, event_cwd: str = "") -> str:
    """The project root for a hook call or a command (absolute): the environment's, else found."""
    env = os.environ if environ is None else environ
    for name in PROJECT_DIR_ENVS:
        value = env.get(name, "")
        if value:
            return os.path.abspath(value)
    return find_root(event_cwd or os.getcwd(), env)[0]


def state_dir(project: str, environ: Mapping[str, str] | None = None) -> str:
    """The state directory of `project` (absolute); `$GUIDANCE_STATE_DIR` wins."""
    env = os.environ if environ is None else environ
    override = env.get(STATE_DIR_ENV, "")
    if override:
        return os.path.abspath(os.path.join(project, os.path.expanduser(override)))
    return os.path.join(os.path.abspath(project), STATE_RELATIVE)


def witness_dir(environ: Mapping[str, str] | None = None) -> str:
    """`$XDG_DATA_HOME/cf-guidance/witness`, or `~/.local/share/cf-guidance/witness`: where the
    ledger's witnesses are kept (cf_guidance.ledger.witness), out of reach of a rolled-back or
    wiped state directory."""
    env = os.environ if environ is None else environ
    base = env.get(DATA_HOME_ENV, "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is invalid and ignored
        base = os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "cf-guidance", "witness")


class StateLayout:
    """Every path inside one state directory. Creating them is `ensure()`'s job, not the constructor's."""

    __slots__ = ("root", "cache", "keys", "ledger", "spool", "proposals", "backups", "logs")

    def __init__(self, root: str) -> None:
        self.root = root
        self.cache = os.path.join(root, "cache")
        self.keys = os.path.join(root, "keys")
        self.ledger = os.path.join(root, "ledger")
        self.spool = os.path.join(root, "spool")
        self.proposals = os.path.join(root, "proposals")
        self.backups = os.path.join(root, "backups")
        self.logs = os.path.join(root, "logs")

    @classmethod
    def for_project(cls, project: str, environ: Mapping[str, str] | None = None) -> StateLayout:
        return cls(state_dir(project, environ))

    @property
    def ledger_key(self) -> str:
        """The ledger's HMAC key: 32 random bytes, mode 0600, created by `cf-guidance init`."""
        return os.path.join(self.keys, "ledger.key")

    @property
    def worker_marker(self) -> str:
        """Touched when a hook starts the detached worker; its mtime rate-limits spawns."""
        return os.path.join(self.spool, ".worker-spawned")

    @property
    def worker_status(self) -> str:
        """The last worker run: pid, state (draining, idle, failed), counts, error."""
        return os.path.join(self.logs, "worker.json")

    @property
    def unrecorded(self) -> str:
        """Written (or at least touched) when a hook could not spool an event; `status` reports it."""
        return os.path.join(self.spool, ".unrecorded")

    @property
    def install_manifest(self) -> str:
        """What `cf-guidance init` added (files created, lines appended), read by `uninstall`."""
        return os.path.join(self.root, "install.json")

    def ensure(self) -> None:
        """Create the state directory and its subdirectories, private to the user (0700), and
        make existing ones of this user private again (a hook distrusts a state directory
        others can write: cf_guidance._statefile.state_problem)."""
        for path in (self.root, *(getattr(self, name) for name in SUBDIRS), os.path.join(self.root, "sessions")):
            os.makedirs(path, mode=0o700, exist_ok=True)
            info = os.stat(path)
            if info.st_uid == os.getuid() and info.st_mode & 0o077:
                os.chmod(path, 0o700)
