"""Cluster, cloud and container deletes; disk partitioning."""

from __future__ import annotations

from cf_guidance.gates.commands import Args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command

_KUBECTL_VALUE = frozenset(("-n", "--namespace", "-l", "--selector", "-f", "--filename", "--context", "--kubeconfig", "-o", "--output", "--field-selector", "--grace-period", "--timeout", "--cluster", "--user", "-c", "--container"))
_AWS_VALUE = frozenset(("--profile", "--region", "--output", "--endpoint-url", "--query"))
#: Every program `analyse` has a branch for (any other program yields nothing).
PROGRAMS = frozenset((
    "kubectl", "oc", "kubecolor", "helm", "terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "aws", "gsutil",
    "gcloud", "az", "docker", "podman", "fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "gparted",
))


def analyse(cmd: Command) -> list[tuple[str, str]]:
    """(code, detail) for cluster/cloud/container/disk operations that destroy state."""
    program = cmd.program
    args = cmd.args
    if program in ("kubectl", "oc", "kubecolor"):
        parsed = Args(args, _KUBECTL_VALUE)
        if parsed.positionals[:1] == ["delete"]:
            kinds = [p.lower() for p in parsed.positionals[1:]]
            if parsed.has("--all", "-A", "--all-namespaces") or any(k.split("/")[0] in ("namespace", "namespaces", "ns", "all", "pv", "persistentvolume", "persistentvolumes", "crd", "customresourcedefinition", "node", "nodes") for k in kinds):
                return [("DST040", "kubectl delete of a namespace, all resources or cluster objects")]
            return [("DST041", "kubectl delete removes cluster resources")]
        return []
    if program == "helm":
        sub = Args(args, frozenset(("-n", "--namespace", "--kube-context"))).positionals[:1]
        if sub in (["uninstall"], ["delete"], ["del"], ["un"]):
            return [("DST041", "helm uninstall removes a release")]
        return []
    if program in ("terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf"):
        parsed = Args(args, frozenset(("-var", "-var-file", "-target", "-chdir", "--stack", "-s")))
        sub = parsed.positionals[:1]
        if sub == ["destroy"] or (sub == ["apply"] and ("-destroy" in args or "--destroy" in args)):
            return [("DST042", f"{program} destroy deletes the managed infrastructure")]
        if sub == ["state"] and parsed.positionals[1:2] == ["rm"]:
            return [("DST044", f"{program} state rm forgets managed resources")]
        return []
    if program == "aws":
        parsed = Args(args, _AWS_VALUE)
        pos = parsed.positionals
        if pos[:2] == ["s3", "rm"] and parsed.has("--recursive"):
            return [("DST043", "aws s3 rm --recursive deletes every object under the prefix")]
        if pos[:2] == ["s3", "rb"] and parsed.has("--force"):
            return [("DST043", "aws s3 rb --force deletes the bucket and its objects")]
        if len(pos) >= 2 and (pos[1].startswith(("delete-", "terminate-", "remove-", "deregister-")) or pos[:2] in (["s3", "rm"], ["s3", "rb"], ["s3api", "delete-bucket"])):
            return [("DST044", f"aws {pos[0]} {pos[1]} deletes cloud resources")]
        return []
    if program in ("gsutil",):
        parsed = Args(args)
        pos = parsed.positionals
        if pos[:1] in (["rm"], ["rb"]) and (parsed.has("-r", "-R", "-a") or pos[:1] == ["rb"]):
            return [("DST043", "gsutil rm -r deletes every object under the path")]
        return []
    if program == "gcloud":
        parsed = Args(args, frozenset(("--project", "--zone", "--region", "--format", "--account", "--configuration")))
        pos = parsed.positionals
        if pos[:2] == ["projects", "delete"]:
            return [("DST045", "gcloud projects delete deletes a whole project")]
        if pos[:2] == ["storage", "rm"] and parsed.has("-r", "--recursive"):
            return [("DST043", "gcloud storage rm -r deletes every object under the path")]
        if "delete" in pos:
            return [("DST044", "gcloud ... delete deletes cloud resources")]
        return []
    if program == "az":
        parsed = Args(args, frozenset(("-n", "--name", "-g", "--resource-group", "--subscription", "-o", "--output")))
        pos = parsed.positionals
        if pos[:2] == ["group", "delete"]:
            return [("DST045", "az group delete deletes a resource group and everything in it")]
        if "delete" in pos:
            return [("DST044", "az ... delete deletes cloud resources")]
        return []
    if program in ("docker", "podman"):
        parsed = Args(args, frozenset(("-f", "--filter", "--format", "-H", "--host", "--context")))
        pos = parsed.positionals
        if pos[:2] in (["volume", "rm"], ["volume", "prune"], ["volume", "remove"]):
            return [("DST046", f"{program} volume {pos[1]} deletes the data in volumes")]
        if pos[:2] == ["system", "prune"] and parsed.has("--volumes"):
            return [("DST046", f"{program} system prune --volumes deletes the data in volumes")]
        if pos[:2] == ["system", "prune"] and parsed.has("-a", "--all"):
            return [("DST047", f"{program} system prune -a deletes every unused image, container and network")]
        removes = pos[:1] in (["rm"], ["rmi"]) or pos[:2] in (["container", "rm"], ["image", "rm"])
        if removes and any(_lists_everything(word) for word in args):  # every word: `rm -f` is not `--filter`
            return [("DST047", f"{program} removes every container or image the daemon lists")]
        return []
    if program in ("fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "gparted"):
        parsed = Args(args)
        if parsed.has("-l", "--list", "-s", "--summary") or parsed.positionals[:1] == ["-l"] or "print" in parsed.positionals:
            return []
        if parsed.positionals:
            return [("DST050", f"{program} changes the partition table")]
    return []


def _lists_everything(word: str) -> bool:
    """`$(docker ps -aq)`, `` `podman images -q` ``: a substitution that lists every container or image (no filter)."""
    if not (word.startswith("$(") or word.startswith("`")):
        return False
    inner = word.strip("$()`").split()
    return (inner[:1] in (["docker"], ["podman"]) and len(inner) > 1 and inner[1] in ("ps", "images", "container", "image")
            and not any(w.startswith(("-f", "--filter")) for w in inner))
