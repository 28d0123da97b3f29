"""What commands do beyond this machine: remote changes, deletes of whole repositories,
credentials printed or handed on, data sent to new places, things made public.

The knowledge is the effect model (cf_guidance.gates.commands.effects: one table per program);
this gate reports the model's EFF findings and decides where a printed credential goes. The
model's other codes are reported by the gates that register them: DST by destructive, SUP by
supply-chain, REP by repo-security, HST by host, SEC004 (a credential sent out) by secrets.
"""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates.commands import SENDERS, db, describe, resolver_at
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.commands.effects import (
    CAPTURED, CREDENTIAL, REPOSITORY, TRANSCRIPT, credential_route, event_hits, on_issuer, program_and_args, stdout_file, url_host,
)
from cf_guidance.gates.reasons import finding, rule
from cf_guidance.paths import PROJECT, PROJECT_ROOT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.effects import Hit
    from cf_guidance.shell.model import Command

GATE = "effects"



RULES = (
    rule("EFF001", "remote-change", ASK, "A command changes something on another machine",
       "Asks before a command changes cloud resources, a cluster, a package or image registry, the Git host or a server: "
       "`terraform apply`, `kubectl apply`, `helm upgrade`, `aws ... create-*`, `gcloud run deploy`, `docker push`, "
       "`npm publish`, `gh pr merge`, `gh workflow run`, `scp`/`rsync` to a host, `ssh HOST CMD` that changes something, "
       "`curl -X POST` to a host other than this machine. Reading stays allowed (`kubectl get`, `terraform plan`, "
       "`helm template`, `aws s3 ls`, `gh pr view`), and so does ordinary collaboration (pushing a branch, opening or "
       "commenting on a pull request). A local target (a kind/minikube context, localhost, LocalStack) is not remote.",
       "A change to shared infrastructure is not undone by `git checkout`; the user should see it before it happens.",
       "terraform apply -auto-approve\nkubectl apply -f k8s/\ndocker push ghcr.io/org/api:1.4.0",
       "terraform plan\nkubectl apply -f k8s/ --dry-run=client\nhelm template web ./chart"),
    rule("EFF002", "shared-or-production-change", DENY, "A remote change to something that looks shared or production",
       "Denies the changes of EFF001, and deletes of named cluster or cloud resources (DST041, DST044), when the target looks "
       "shared or production: a context, profile, namespace, project, stack, host, working directory or resource name with "
       "the word prod, production, prd or shared (`--context prod-eu`, `AWS_PROFILE=production`, `-n kube-system`, "
       "`db.prod.internal`, `envs/prod`), or a command that acts on everything (`--all`, `terragrunt run-all apply`). SQL "
       "that writes to a database whose host or name looks production is denied too.",
       "Production is where a mistake reaches customers; the agent should not be the one to change it.",
       "kubectl --context prod-eu apply -f k8s/\nAWS_PROFILE=prod aws s3 sync ./dist s3://site --delete\ngit push production main",
       "kubectl --context kind-dev apply -f k8s/\n# ask the user to deploy to production"),
    rule("EFF003", "repository-delete", DENY, "Deleting a repository on the Git host",
       "Denies `gh repo delete` and `gh api -X DELETE repos/OWNER/REPO`.",
       "A deleted repository takes its issues, pull requests, wiki and releases with it.",
       "gh repo delete org/service --yes", "gh repo archive org/service"),
    rule("EFF004", "credential-print", DENY, "Printing a credential where the transcript or the project keeps it",
       "Denies a command that prints a credential (`aws configure get aws_secret_access_key`, `gh auth token`, `gcloud auth "
       "print-access-token`, `az account get-access-token`, `kubectl get secret -o yaml`, `kubectl config view --raw`, "
       "`aws secretsmanager get-secret-value`, `terraform state pull`, ...) when its output reaches the agent (printed, "
       "or passed through `base64 -d`, `jq`, `tee`) or a file in the project.",
       "What the agent reads lands in the transcript and the model provider's logs; a file in the project lands in a commit.",
       "gh auth token\nkubectl get secret db -o jsonpath='{.data.password}' | base64 -d",
       "gh auth status\nkubectl describe secret db"),
    rule("EFF005", "credential-capture", ASK, "A credential handed to another program",
       "Asks before a credential printed by a CLI is captured in a variable, piped to a local program or written outside "
       "the project (`export T=$(gh auth token)`, `aws ecr get-login-password | docker login ...`). Sent to another "
       "host it is the secrets gate's SEC004.",
       "The credential is out of its store; what the program does with it is not visible here.",
       "export GH_TOKEN=$(gh auth token)", "# let the tool use its own login (`gh`, `gcloud`, credential helpers)"),
    rule("EFF006", "data-send", ASK, "Project data sent to a new place",
       "Asks before a command sends the project's code or data somewhere that is not its own remote: `git push URL`, "
       "`gh gist create`, `git send-email`, `git daemon`, `ssh -R` (opens a port of this machine).",
       "Code pushed or pasted to a new place is public or out of the owners' hands for good.",
       "git push https://github.com/someone-else/copy.git HEAD:main\ngh gist create debug.log", "git push origin feature/x"),
    rule("EFF007", "public-exposure", DENY, "Making a repository, bucket, package or gist public",
       "Denies commands that publish to everyone: `gh repo create --public`, `gh gist create --public`, "
       "`aws s3api put-bucket-acl --acl public-read`, `aws s3api delete-public-access-block`, IAM bindings for `allUsers`, "
       "`gsutil iam ch allUsers:...`, `az storage container set-permission --public-access`, `npm access set status=public`.",
       "What is public is copied within minutes; it cannot be taken back.",
       "gh repo create my-tool --public --source=. --push\naws s3api put-bucket-acl --bucket data --acl public-read",
       "gh repo create my-tool --private"),
    rule("EFF008", "admin-grant", DENY, "Giving someone administrator rights",
       "Denies giving a person, a group or a service account every right, or the right to give any: AWS "
       "`AdministratorAccess`/`IAMFullAccess` or a policy allowing `\"Action\": \"*\"`, an `Admins` group, Google Cloud "
       "`roles/owner`, `roles/editor`, IAM and resource-manager roles and `*.admin` roles, Azure `Owner`, `Contributor` "
       "and `User Access Administrator`, Kubernetes `cluster-admin`/`admin` bindings, GitHub `admin` permission or "
       "membership, and database superusers (`ALTER ROLE ... SUPERUSER`, `GRANT ALL ON *.*`, `WITH GRANT OPTION`). "
       "Narrower roles are remote changes (EFF001) or access grants (REP005).",
       "An administrator can undo every other control, and an agent's mistake with one has no bound.",
       "aws iam attach-user-policy --user-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess\n"
       "kubectl create clusterrolebinding ci --clusterrole=cluster-admin --serviceaccount=default:ci",
       "# give the narrowest role that does the job, and ask the user to grant it"),
)
_OWN = frozenset(rule.code for rule in RULES)


def check(ctx: GateContext) -> list[Finding]:
    if ctx.event.command is None:
        statement = ctx.event.statement
        return _admin_grants(f"{ctx.event.tool} {statement[:80]}", [statement]) if statement else []
    found = event_hits(ctx)
    out: list[Finding] = _database_grants(ctx)
    if not found:
        return out  # the usual event: no command the model has anything to say about
    for cmd, hit in found:
        if hit.code not in _OWN:
            continue
        if hit.effect == CREDENTIAL:
            _credential(ctx, cmd, hit, out)
        else:
            out.append(finding(GATE, hit.code, hit.verdict, hit.detail, segment=describe(cmd), hint=hit.instead))
    return out


def _database_grants(ctx: GateContext) -> list[Finding]:
    """EFF008 for SQL given to a database client that makes someone a database administrator."""
    seen = summary(ctx)
    if seen is None or seen.programs.isdisjoint(db.SQL_CLIENTS):
        return []
    out: list[Finding] = []
    for cmd in seen.analysis.commands:
        if cmd.program in db.SQL_CLIENTS:
            out.extend(_admin_grants(describe(cmd), db.sql_texts(cmd, seen.analysis)))
    return out


def _admin_grants(segment: str, texts: list[str]) -> list[Finding]:
    return [finding(GATE, "EFF008", DENY, detail, segment=segment) for text in texts for detail in db.admin_grants(text)]


#: Programs that log in to a registry with a password read on stdin (`docker login --password-stdin HOST`).
_REGISTRY_LOGINS = frozenset(("docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane", "finch"))


def _issuer_login(taker: Command, issuer: str) -> bool:
    """True when `taker` logs in with the credential (on stdin) to a registry of the program that issued it."""
    if taker.program not in _REGISTRY_LOGINS or "login" not in taker.args[:3] or "--password-stdin" not in taker.args:
        return False
    hosts = [url_host(arg) for arg in taker.args if not arg.startswith("-") and "." in arg]
    return bool(hosts) and all(on_issuer(host, issuer) for host in hosts)


def _credential(ctx: GateContext, cmd: Command, hit: Hit, out: list[Finding]) -> None:
    """EFF004 or EFF005 by where the credential goes (sent out: the secrets gate's SEC004)."""
    analysis = ctx.shell
    if analysis is None:
        return
    route, taker = credential_route(cmd, analysis, SENDERS)
    segment = describe(cmd)
    if route == TRANSCRIPT:
        out.append(finding(GATE, "EFF004", DENY, f"{hit.detail}; the output reaches the transcript", segment=segment))
    elif route == REPOSITORY and taker is not None:
        target = stdout_file(taker) or ""
        paths = resolver_at(ctx, taker)
        where, kind = paths.where(target)
        if kind in (PROJECT, PROJECT_ROOT) or not kind:
            out.append(finding(GATE, "EFF004", DENY, f"{hit.detail} into {target}, a file in the project", segment=segment, evidence=target))
        else:
            out.append(finding(GATE, "EFF005", ASK, f"{hit.detail} into {where}", segment=segment, evidence=target))
    elif route == CAPTURED and taker is not None and _issuer_login(taker, program_and_args(cmd)[0]):
        return  # `aws ecr get-login-password | docker login --password-stdin ACCT.dkr.ecr...`: the documented login
    elif route == CAPTURED:
        who = f"`{describe(taker)[:60]}`" if taker is not None else "a variable"
        out.append(finding(GATE, "EFF005", ASK, f"{hit.detail}; {who} takes it", segment=segment))
    # NETWORK: the secrets gate weighs where it is sent (SEC004); DISCARDED: nothing to report
