"""Effects of the Kubernetes CLIs: kubectl (and oc, kubecolor) and helm."""

from __future__ import annotations

from cf_guidance.decision import DENY
from cf_guidance.gates.commands.effects import (
    CHANGE, CREDENTIAL, DELETE, DESTROY, GRANT, READ, RUN, SUPPLY, Entry, Parsed, Table, is_local_host, url_host,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command, ShellAnalysis

#: Contexts of clusters that run on this machine.
_LOCAL_CONTEXTS = ("kind-", "k3d-", "minikube", "docker-desktop", "docker-for-desktop", "rancher-desktop", "colima", "orbstack", "microk8s")


def local_context(name: str) -> bool:
    """True for the context of a cluster on this machine (`kind-dev`, `minikube`, `docker-desktop`)."""
    return name.lower().startswith(_LOCAL_CONTEXTS)


def local_cluster(parsed: Parsed, cmd: Command) -> bool:
    """True when the command names a cluster on this machine (`--context kind-dev`, `--server https://127.0.0.1:6443`)."""
    args = parsed.args
    contexts = args.value("--context", "--kube-context")
    if contexts:
        return all(local_context(c) for c in contexts)
    servers = args.value("--server", "-s")
    return bool(servers) and all(is_local_host(url_host(s)) for s in servers)


# -- kubectl --------------------------------------------------------------------------------------

#: Kinds whose deletion takes everything in them, or the cluster's own structure, with it.
_WIDE_KINDS = frozenset(("namespace", "namespaces", "ns", "all", "pv", "persistentvolume", "persistentvolumes", "crd", "crds",
                         "customresourcedefinition", "customresourcedefinitions", "node", "nodes", "no"))


def _wide_delete(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if parsed.args.has("--all", "-A", "--all-namespaces"):
        return "kubectl delete --all removes every resource of the kind"
    for word in parsed.words[1:]:
        for kind in word.lower().split(","):
            if kind.split("/")[0].split(".")[0] in _WIDE_KINDS:
                return f"kubectl delete {kind} removes a namespace, all resources or cluster objects"
    return ""


#: Roles that give every right in a namespace or the whole cluster.
_ADMIN_ROLES = frozenset(("cluster-admin", "admin", "system:masters"))


def _admin_binding(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if parsed.words[1:2] not in (["clusterrolebinding"], ["rolebinding"]):
        return ""
    for role in parsed.args.value("--clusterrole", "--role", "--group"):
        if role.lower() in _ADMIN_ROLES:
            return f"{cmd.program} create {parsed.words[1]} gives the {role} role: every right in the cluster or namespace"
    return ""


_SECRET_KINDS = ("secret", "secrets")
_DUMP_FORMATS = ("yaml", "json", "jsonpath", "go-template", "custom-columns", "template")


def _secret_dump(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    kinds = [w.lower().split("/")[0] for w in parsed.words[1:2]]
    if not kinds or kinds[0] not in _SECRET_KINDS and not kinds[0].startswith("secret"):
        return ""
    formats = [f.lower() for f in parsed.args.value("-o", "--output")]
    if any(f.startswith(_DUMP_FORMATS) for f in formats):
        return "kubectl get secret -o ... prints the secret's values"
    return ""


#: Programs that only look, run inside a pod or on another host (`kubectl exec pod -- ls`).
READ_ONLY = frozenset((
    "ls", "cat", "head", "tail", "grep", "ps", "df", "du", "free", "uptime", "date", "whoami", "id", "hostname", "uname", "echo",
    "stat", "wc", "which", "nslookup", "dig", "ping", "netstat", "ss", "mount", "top", "pwd", "true", "journalctl", "dmesg", "lsblk",
    "printf", "sort", "jq", "curl", "wget", "nproc", "lscpu", "getent", "less", "file", "find", "tree", "test",
))


def remote_reads_only(words: list[str]) -> bool:
    """True when the command words run elsewhere only look: a known read-only program, and
    `find` without -delete/-exec, `systemctl status`, `docker ps`/`logs`, `kubectl get`/`logs`."""
    if not words:
        return True
    program = words[0].rsplit("/", 1)[-1]
    if program == "find":
        return not any(w in ("-delete", "-exec", "-execdir", "-ok", "-fprint") for w in words)
    if program == "systemctl":
        return words[1:2] in (["status"], ["is-active"], ["list-units"], ["show"])
    if program in ("docker", "podman", "kubectl"):
        return words[1:2] in (["ps"], ["logs"], ["get"], ["describe"], ["images"], ["inspect"], ["top"])
    return program in READ_ONLY


def _exec_changes(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    args = cmd.args
    inner = args[args.index("--") + 1 :] if "--" in args else []
    if remote_reads_only(inner):
        return ""
    return f"kubectl exec runs `{' '.join(inner)[:60]}` in a container of the cluster"


def _copies_into_pod(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    words = parsed.words[1:]
    if len(words) >= 2 and ":" in words[-1] and not words[-1].startswith(("/", ".")):
        return "kubectl cp copies files into a pod"
    return ""


_KUBECTL = Table(
    ("kubectl", "oc", "kubecolor"),
    (
        Entry("delete", DESTROY, "DST040", test=_wide_delete,
              block=("kubectl delete ns staging", "kubectl delete namespace payments", "kubectl delete pods --all -n ci",
                     "kubectl delete pod a --all-namespaces", "kubectl delete pv data-0", "kubectl delete ns scratch --context dev"),
              allow=("kubectl get ns", "kubectl delete ns scratch --context kind-dev")),
        Entry("delete", DELETE, "DST041", "kubectl delete removes cluster resources",
              block=("kubectl delete pod my-debug-pod", "kubectl -n x delete pod a", "kubectl --context prod-eu delete pod web-7d9f",
                     "kubectl delete deployment api -n production"),
              allow=("kubectl delete pod my-debug-pod --context kind-dev", "kubectl delete -f k8s/job.yaml --context minikube")),
        Entry("get", CREDENTIAL, "EFF004", test=_secret_dump,
              block=("kubectl get secret db-credentials -o yaml", "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d"),
              allow=("kubectl get secrets", "kubectl get secret db-credentials", "kubectl describe secret db-credentials")),
        Entry("config view", CREDENTIAL, "EFF004", "kubectl config view --raw prints the cluster credentials", flags=("--raw", "--flatten"),
              block=("kubectl config view --raw", "kubectl config view --minify --flatten"), allow=("kubectl config view",)),
        Entry("create token", CREDENTIAL, "EFF004", "kubectl create token prints a service account token",
              block=("kubectl create token deploy-bot --duration=8760h",), allow=()),
        Entry("create", GRANT, "EFF008", test=_admin_binding, verdict=DENY,
              block=("kubectl create clusterrolebinding ci-admin --clusterrole=cluster-admin --serviceaccount=default:ci",
                     "kubectl -n dev create rolebinding dev-admin --clusterrole=admin --user=someone@example.com"),
              allow=("kubectl create rolebinding viewer --clusterrole=view --user=dev@example.com --context kind-dev",)),
        Entry("run|debug", RUN, "EFF001", "{program} {verb} starts a container with a command in the cluster", unless=("--dry-run",),
              block=("kubectl run pwn --image=alpine -- sh -c 'id'", "kubectl --context staging debug node/worker-1 -it --image=busybox"),
              allow=("kubectl run tmp --image=alpine --context kind-dev -- true", "kubectl run x --image=nginx --dry-run=client -o yaml")),
        Entry("apply|create|replace|patch|edit|scale|set|label|annotate|taint|cordon|uncordon|drain|expose|autoscale", CHANGE,
              "EFF001", "{program} {verb} changes the cluster", unless=("--dry-run",),
              block=("kubectl apply -f k8s/", "kubectl scale deploy web --replicas=0", "kubectl apply -f k8s/ --context prod",
                     "kubectl -n kube-system patch ds kube-proxy -p '{}'", "KUBECONFIG=~/.kube/prod.yaml kubectl apply -f app.yaml",
                     "kubectl --context staging apply -f k8s/", "kubectl apply -f k8s/ -n preview-142"),
              allow=("kubectl apply -f k8s/ --dry-run=client", "kubectl apply -f k8s/ --context kind-dev", "kubectl create deployment x --image=nginx --context minikube",
                     "kubectl --context docker-desktop scale deploy web --replicas=2")),
        Entry("rollout restart|undo|pause|resume", CHANGE, "EFF001", "kubectl rollout changes running workloads",
              block=("kubectl rollout restart deployment/web", "kubectl rollout undo deploy/api -n prod"),
              allow=("kubectl rollout status deployment/web",)),
        Entry("exec|attach", RUN, "EFF001", test=_exec_changes,
              block=("kubectl exec deploy/db -- psql -c 'UPDATE users SET admin = true'", "kubectl exec -it web-1 -- sh",
                     "kubectl --context staging exec db-0 -- psql -c 'DELETE FROM orders'"),
              allow=("kubectl exec web-1 -- ls /app", "kubectl exec web-1 -- cat /etc/nginx/nginx.conf")),
        Entry("cp", CHANGE, "EFF001", test=_copies_into_pod, block=("kubectl cp ./fix.py web-1:/app/fix.py",),
              allow=("kubectl cp web-1:/var/log/app.log ./app.log",)),
        Entry("get|describe|logs|top|explain|api-resources|api-versions|version|cluster-info|diff|auth|wait|events|port-forward|proxy|kustomize|config|rollout|plugin|completion|cp|exec",
              READ, allow=("kubectl get pods", "kubectl logs -f web-1", "kubectl describe deployment web", "kubectl get pods -A",
                           "kubectl config use-context kind-dev", "kubectl port-forward svc/web 8080:80", "kubectl diff -f k8s/")),
    ),
    options=("-n", "--namespace", "-l", "--selector", "-f", "--filename", "--context", "--kubeconfig", "-o", "--output",
             "--field-selector", "--grace-period", "--timeout", "--cluster", "--user", "-c", "--container", "--server", "-s", "--as",
             "--token", "--image", "--replicas", "-p", "--patch", "--type", "--for", "--duration", "--since", "--tail", "-k", "--kustomize",
             "--clusterrole", "--role", "--group", "--serviceaccount"),
    context=("--context", "--cluster", "-n", "--namespace", "--kubeconfig"),
    env=("KUBECONFIG",),
    wide=("--all", "-A", "--all-namespaces"),
    local=local_cluster,
    local_name=local_context,
    dev_passes=False,
    instead="preview with `{program} diff` or `--dry-run=server`, use a local cluster (`--context kind-dev`, minikube), or ask the user"
)


# -- helm -----------------------------------------------------------------------------------------

_HELM = Table(
    ("helm",),
    (
        Entry("uninstall|delete|del|un", DELETE, "DST041", "helm uninstall removes a release and its resources",
              block=("helm uninstall web", "helm uninstall payments -n prod", "helm --kube-context prod-eu uninstall api"),
              allow=("helm uninstall web --kube-context kind-dev", "helm list")),
        Entry("install|upgrade|rollback", CHANGE, "EFF001", "helm {verb} changes what runs in the cluster", unless=("--dry-run",),
              block=("helm upgrade --install web ./chart", "helm rollback web 3", "helm upgrade api ./chart -n production -f values-prod.yaml"),
              allow=("helm upgrade --install web ./chart --dry-run", "helm install web ./chart --kube-context kind-dev",
                     "minikube start && helm upgrade --install web ./chart -n staging")),
        Entry("push", CHANGE, "EFF001", "helm push uploads a chart to a registry", block=("helm push web-1.2.0.tgz oci://registry.example.com/charts",),
              allow=("helm package ./chart",)),
        Entry("plugin install", SUPPLY, "SUP001", "helm plugin install runs code from a repository", verdict="ask",
              block=("helm plugin install https://github.com/someone/helm-x",), allow=("helm plugin list",)),
        Entry("template|lint|list|ls|status|get|history|show|inspect|search|repo|dependency|dep|package|version|env|verify|pull|fetch|create|registry|plugin|completion",
              READ, allow=("helm template web ./chart", "helm lint ./chart", "helm dependency update ./chart", "helm repo add bitnami https://charts.bitnami.com/bitnami")),
    ),
    options=("-n", "--namespace", "--kube-context", "-f", "--values", "--set", "--set-string", "--set-file", "--version", "--repo",
             "-o", "--output", "--timeout", "--kubeconfig", "--post-renderer", "--description"),
    context=("--kube-context", "-n", "--namespace", "--kubeconfig", "-f", "--values"),
    env=("KUBECONFIG", "HELM_KUBECONTEXT"),
    local=local_cluster,
    local_name=local_context,
    dev_passes=False,
    instead="preview with `helm template` or `helm upgrade --dry-run`, use a local cluster (kind, minikube), or ask the user"
)

TABLES = (_KUBECTL, _HELM)
