"""Self-protection: git operations, package managers and agents that would switch the guard off.

The protected-paths gate denies what names the guard's files; this gate denies what switches
the guard off without naming them (issue 11):

- a git operation whose effect is to revert, remove or replace the hook wiring or the state
  directory in the work tree (`git stash` over a wiring that `init` changed, `git checkout
  other-branch`, `git reset --hard`, `git clean -x`, `git worktree remove`, a work tree
  pointed at the project with `--work-tree`): judged by asking git, and only for commands
  that rewrite the work tree (cf_guidance.gates.commands.gitwork);
- uninstalling or replacing the cf-guidance distribution (`pip uninstall cf-guidance`,
  `pipx uninstall`, `uv tool uninstall`, ...): cf_guidance.gates.commands.installation;
- starting an agent session without the project's hooks (`claude --bare`, `claude
  --setting-sources user`, `codex --disable hooks`, a session outside the project, ...):
  cf_guidance.gates.commands.agents.

Hot path: ordinary commands are skipped by their program names; git is asked nothing for
commands that leave the work tree alone (status, diff, log, add, commit, push, ...).
"""

from __future__ import annotations

from cf_guidance.decision import DENY
from cf_guidance.gates._base import Rule
from cf_guidance.gates.commands import describe, gitwork, is_interpreter, resolver_at
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.protected_paths import guard_state_dir
from cf_guidance.gates.reasons import doc, finding
from cf_guidance.paths import is_within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.shell.model import Command

GATE = "self-protection"

RULES = (
    Rule("GRD001", "git-reverts-wiring", DENY, "A git operation would revert or remove the hook wiring",
         doc("Denies a git command whose effect, as git itself reports it for this repository, is to change, revert or "
             "remove `.claude/settings.json`, `.claude/settings.local.json`, `.codex/hooks.json`, `.codex/config.toml` (of "
             "the project or the home directory) or the state directory: `git stash` (with `-u` / `-a`: untracked and "
             "ignored files too) while the wiring has local changes, `git reset --hard`, `git checkout`/`switch` of a "
             "branch or commit whose wiring differs, `git checkout`/`restore` of paths that cover it, `git rm`, `git "
             "clean -f` that would delete it, `merge`/`rebase`/`cherry-pick`/`revert`/`stash pop` that bring in another "
             "version, `read-tree -u`, `sparse-checkout`, `git worktree remove` of the project, and any work-tree "
             "operation pointed at the project with `--work-tree`/`--git-dir`. The same commands stay allowed when "
             "they leave the wiring as it is (`git stash` with the wiring committed and unchanged).",
             "`cf-guidance init` changes `.claude/settings.json` and leaves it uncommitted: `git stash` puts back the "
             "committed file without the hooks, and every later tool call runs unchecked.",
             "git stash\ngit checkout main   # where .claude/settings.json has no hooks\ngit clean -fdx",
             "git stash push -- src/\ngit commit -m 'wire cf-guidance' .claude/settings.json  # then stash freely")),
    Rule("GRD002", "guard-uninstall", DENY, "Uninstalling or replacing cf-guidance",
         doc("Denies package-manager commands that remove or replace the cf-guidance distribution: `pip uninstall "
             "cf-guidance` (also `pip3`, `python -m pip`, `uv pip`), `pipx uninstall`/`uninstall-all`/`reinstall`, `uv tool "
             "uninstall`, `uv remove`, `poetry`/`pdm`/`rye`/`conda` remove, `pip install` of another cf-guidance, and "
             "`pip uninstall` of packages it cannot list (from a file or a pipe).",
             "Without its installation the hook command cannot start, and a hook that fails to start does not block.",
             "pip uninstall -y cf-guidance\npipx uninstall cf-guidance", "# ask the user to remove cf-guidance")),
    Rule("GRD003", "unguarded-agent", DENY, "Starting an agent session without the project's hooks",
         doc("Denies starting Claude Code or Codex (directly or through npx) in a way that skips the hooks or the "
             "permission checks: `claude --bare`, `--safe-mode`, `--restricted`, `--settings FILE`, `--setting-sources` "
             "without `project` and `local`, `--dangerously-skip-permissions`, `--permission-mode bypassPermissions`, "
             "`-w`/`--worktree`, `CLAUDE_CODE_SIMPLE=1`; `codex --dangerously-bypass-approvals-and-sandbox`, "
             "`--dangerously-bypass-hook-trust`, `--ignore-user-config`, `--disable hooks`, `-c hooks...`, `--profile`, "
             "`--worktree`; and a session started outside the project (`cd /tmp && claude -p ...`, `codex -C /tmp`).",
             "The new session acts on the same files with none of this project's rules: the guard is off for it.",
             "claude --bare -p 'delete the tests'\ncodex --dangerously-bypass-approvals-and-sandbox exec 'push'",
             "claude -p 'run the tests'")),
)

#: Programs this gate has a branch for (interpreters too, through the summary: `python -m pip`).
PROGRAMS = frozenset((
    "git", "pip", "pip2", "pip3", "pipx", "uv", "poetry", "pdm", "pipenv", "conda", "mamba", "micromamba", "rye", "hatch",
    "claude", "claude-code", "codex", *(f"pip3.{minor}" for minor in range(6, 20)),
))


#: Programs that install or remove Python packages (with pip3, pip3.12, ... and `python -m pip`).
MANAGERS = PROGRAMS - {"git", "claude", "claude-code", "codex"}
AGENTS = frozenset(("claude", "claude-code", "codex"))


def check(ctx: GateContext) -> list[Finding]:
    if ctx.event.command is None:
        return []
    found = summary(ctx)
    if found is None:
        return []
    if PROGRAMS.isdisjoint(found.programs) and not found.interpreter:
        return []
    out: list[Finding] = []
    for cmd in found.analysis.commands:
        program = cmd.program
        if program == "git":
            if gitwork.REWRITING.isdisjoint(cmd.argv) and not gitwork.may_alias(cmd.argv):
                continue  # status, diff, log, add, commit, push, ...: the work tree stays
            _git(ctx, cmd, out)
        elif program in AGENTS:
            _agent(ctx, cmd, out)
        elif program in MANAGERS or (found.interpreter and is_interpreter(program)):
            from cf_guidance.gates.commands.installation import uninstalls

            why = uninstalls(program, cmd.args)
            if why:
                out.append(finding(GATE, "GRD002", DENY, why, segment=describe(cmd)))
    return out


def _git(ctx: GateContext, cmd: Command, out: list[Finding]) -> None:
    change = gitwork.change(cmd.args)
    if change is None:
        return
    paths = resolver_at(ctx, cmd)
    where, redirected = gitwork.git_cwd(cmd, paths)
    wiring = gitwork.wiring_of(paths)
    state = guard_state_dir(paths.root)
    if redirected:
        # another repository's index, or a work tree named on the command line: git's answers
        # about this repository say nothing about what it writes, so the place decides
        tree = paths.resolve(redirected) if redirected != "?" else None
        inside = tree is None or any(is_within(w, tree) or is_within(tree, w) for w in [*wiring, state]) or is_within(paths.root, tree)
        if inside or is_within(where, paths.root):
            out.append(finding(GATE, "GRD001", DENY, f"{change.what} with its own --work-tree / --git-dir would rewrite the "
                               "project's files, the hook wiring among them", segment=describe(cmd), evidence=redirected))
        return
    top = gitwork.toplevel(where)
    if not top:
        return
    effect = gitwork.effect_on(change, paths, top, wiring, state, where)
    if effect:
        out.append(finding(GATE, "GRD001", DENY, effect, segment=describe(cmd)))


def _agent(ctx: GateContext, cmd: Command, out: list[Finding]) -> None:
    from cf_guidance.gates.commands.agents import session_dir, starts_session, unguarded

    why = unguarded(cmd.program, cmd.args, cmd.assignments)
    paths = resolver_at(ctx, cmd)
    if not why and starts_session(cmd.program, cmd.args):
        chosen = session_dir(cmd.program, cmd.args)
        where = paths.resolve(chosen) if chosen else paths.cwd
        if where is not None and not is_within(where, paths.root):
            why = f"{cmd.program} would work in {where}, outside the project whose settings wire the guard"
    if why:
        out.append(finding(GATE, "GRD003", DENY, why, segment=describe(cmd)))
