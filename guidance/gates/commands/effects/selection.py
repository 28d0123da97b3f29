"""Commands that choose the target of the commands after them on the same line, kept as data.

`kubectl config use-context prod-eu && kubectl apply -f k8s/` applies to prod-eu although the
apply names no context; `minikube start && kubectl apply -f k8s/` applies to the cluster just
started on this machine; `terraform workspace select prod && terraform apply` changes the prod
workspace. A selector says which command chooses (its program and subcommand words), which
programs it chooses for, and where the chosen name is (the positional after the words, an
option's value, or a fixed name such as `minikube`). The effect model (`_weigh` in
cf_guidance.gates.commands.effects) weighs the chosen names like a context option of the later
command, unless that command names its own target. Each selector carries the lines it must
block and the look-alikes it must leave alone; tests/gates/commands/test_effect_tables.py runs
them through the whole guard.

Hot path module: standard library only, imported only when a line with more than one command
changes something remote.
"""

from __future__ import annotations

from cf_guidance.gates.commands import Args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command, ShellAnalysis

_KUBE = ("kubectl", "oc", "kubecolor", "helm")
#: Options of kubectl and helm that name the cluster, and those that name the namespace too.
_KUBE_CONTEXT = ("--context", "--kube-context", "--kubeconfig", "--server", "-s")
_KUBE_NAMESPACE = (*_KUBE_CONTEXT, "-n", "--namespace")
_TERRAFORM = ("terraform", "tofu", "terragrunt")


class Selector:
    """`words` (the program and its subcommand words) choose a target for `programs`: the
    positional after the words, else the value of one of `options`, else `fixed` (`{name}` is
    replaced by the value of `--name`, or `default` when there is none). A later command that
    gives one of `overridden` (its own `--context`) is not affected."""

    __slots__ = ("program", "path", "programs", "overridden", "options", "fixed", "default", "block", "allow")

    def __init__(
        self,
        words: str,
        programs: tuple[str, ...],
        overridden: tuple[str, ...],
        *,
        options: tuple[str, ...] = (),
        fixed: str = "",
        default: str = "",
        block: tuple[str, ...] = (),
        allow: tuple[str, ...] = (),
    ) -> None:
        program, *path = words.split()
        self.program = program
        self.path = tuple(path)
        self.programs = frozenset(programs)
        self.overridden = overridden
        self.options = options
        self.fixed = fixed
        self.default = default
        self.block = block
        self.allow = allow

    def chosen(self, cmd: Command) -> str:
        """The name `cmd` chooses when it is this selector's command, else ""."""
        parsed = Args(cmd.args, frozenset((*self.options, "--name", "-n", "--kubeconfig", "--context", "--profile")))
        words = parsed.positionals
        if tuple(words[: len(self.path)]) != self.path:
            return ""
        if self.fixed:
            name = (parsed.value("--name") or [self.default])[-1]
            return self.fixed.replace("{name}", name)
        if len(words) > len(self.path):
            return words[len(self.path)]
        found = parsed.value(*self.options)
        return found[-1] if found else ""


SELECTORS = (
    Selector("kubectl config use-context", _KUBE, _KUBE_CONTEXT,
             block=("kubectl config use-context prod-eu && kubectl apply -f k8s/",
                    "kubectl config use-context production; helm upgrade api ./chart"),
             allow=("kubectl config use-context kind-dev && kubectl apply -f k8s/",
                    "kubectl config use-context docker-desktop && kubectl rollout restart deploy/api")),
    Selector("kubectl config set-context", _KUBE, _KUBE_NAMESPACE, options=("--namespace",),
             block=("kubectl config set-context --current --namespace=production && kubectl delete deploy api",), allow=()),
    Selector("kubectx", _KUBE, _KUBE_CONTEXT, block=("kubectx prod && kubectl scale deploy web --replicas=0",), allow=("kubectx minikube && kubectl apply -f k8s/",)),
    Selector("kubens", _KUBE, _KUBE_NAMESPACE, block=("kubens production && kubectl delete pod web-1",), allow=("kubens dev && kubectl get pods -w",)),
    Selector("minikube start", _KUBE, _KUBE_CONTEXT, fixed="minikube", block=(),
             allow=("minikube start && kubectl apply -f k8s/", "minikube start --driver=docker && helm install web ./chart")),
    Selector("kind create cluster", _KUBE, _KUBE_CONTEXT, fixed="kind-{name}", default="kind", block=(),
             allow=("kind create cluster --name webapp && kubectl apply -f k8s/",)),
    Selector("k3d cluster create", _KUBE, _KUBE_CONTEXT, fixed="k3d-{name}", default="k3s-default", block=(),
             allow=("k3d cluster create dev && kubectl apply -f k8s/",)),
    Selector("terraform workspace select", _TERRAFORM, (),
             block=("terraform workspace select prod && terraform apply -auto-approve",), allow=("terraform workspace select dev && terraform plan -out=dev.tfplan",)),
    Selector("terraform workspace new", _TERRAFORM, (), block=(), allow=("terraform workspace new preview-142 && terraform plan -out=preview.tfplan",)),
    Selector("tofu workspace select", _TERRAFORM, (), block=("tofu workspace select production && tofu apply",), allow=()),
    Selector("pulumi stack select", ("pulumi",), ("-s", "--stack"), options=("-s", "--stack"),
             block=("pulumi stack select acme/prod && pulumi up --yes",), allow=("pulumi stack select dev && pulumi preview --diff",)),
    Selector("docker context use", ("docker",), ("--context", "-c", "-H", "--host"),
             block=("docker context use prod && docker stack rm webapp", "docker context use prod-swarm; docker service update --force api"),
             allow=("docker context use default && docker compose up -d",)),
    Selector("gcloud config set project", ("gcloud",), ("--project",),
             block=("gcloud config set project acme-prod && gcloud run deploy api --source .",),
             allow=("gcloud config set project acme-dev && gcloud run deploy api --source .",)),
    Selector("az account set", ("az",), ("--subscription",), options=("--subscription", "-s"),
             block=("az account set --subscription prod-subscription && az webapp restart -g rg -n api",),
             allow=("az account set --subscription dev-sandbox && az webapp restart -g rg -n api",)),
)

_BY_PROGRAM: dict[str, tuple[Selector, ...]] = {}
for _selector in SELECTORS:
    _BY_PROGRAM[_selector.program] = (*_BY_PROGRAM.get(_selector.program, ()), _selector)
#: Programs one of whose commands may choose a target.
SELECTING = frozenset(_BY_PROGRAM)


def selected(cmd: Command, analysis: ShellAnalysis, program: str, args: Args) -> str:
    """The name chosen for `program` by the last selector that runs before `cmd` on the line, ""
    when none does or `cmd` names its own target (`args`: its arguments as its table reads them)."""
    found = ""
    for other in analysis.commands:
        if other is cmd:
            break
        for selector in _BY_PROGRAM.get(other.program, ()):
            if program in selector.programs:
                name = selector.chosen(other)
                if name:
                    found = "" if any(args.value(option) for option in selector.overridden) else name
    return found
