"""Effects of the container CLIs: docker, podman, nerdctl.

Most of what they do changes only this machine; what leaves it is `push` (a registry) and
commands sent to a daemon on another host (`-H ssh://...`, `DOCKER_HOST`). What destroys local
state is asked about or denied: volumes (their data), every container or image at once."""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates.commands.effects import (
    CHANGE, DELETE, DESTROY, LOCAL, Entry, Parsed, Table, is_local_host, looks_shared, remote_host, url_host,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command, ShellAnalysis


def _registry_of(image: str) -> str:
    """The registry host of an image reference (`ghcr.io/org/app:1`), "docker.io" when it names none."""
    first = image.split("/", 1)[0]
    if "/" in image and ("." in first or ":" in first or first == "localhost"):
        return first.split(":", 1)[0]
    return "docker.io"


def _pushes(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    words = parsed.words
    if words[:1] in (["push"],) or words[:2] in (["image", "push"], ["manifest", "push"]):
        images = words[1:] if words[0] == "push" else words[2:]
    elif words[:1] == ["build"] or words[:2] == ["buildx", "build"]:
        if not parsed.args.has("--push"):
            return ""
        images = parsed.args.value("-t", "--tag") or ["docker.io"]
    else:
        return ""
    for image in images:
        registry = _registry_of(image)
        if not is_local_host(registry):
            return f"{cmd.program} push uploads the image to {registry}"
    return ""


def _daemon(parsed: Parsed, cmd: Command) -> str:
    """The host of the daemon the command talks to when it is another machine, else ""."""
    hosts = parsed.args.value("-H", "--host") + [v for name, v in cmd.assignments if name in ("DOCKER_HOST", "CONTAINER_HOST")]
    for host in hosts:
        where = url_host(host) if "://" in host else remote_host(host)
        if not host.startswith(("unix://", "npipe://")) and where and not is_local_host(where):
            return where
    return ""


def _lists_everything(word: str) -> bool:
    """`$(docker ps -aq)`, `` `podman images -q` ``: a substitution that lists every container or image (no filter)."""
    if not (word.startswith("$(") or word.startswith("`")):
        return False
    inner = word.strip("$()`").split()
    return (inner[:1] in (["docker"], ["podman"], ["nerdctl"]) and len(inner) > 1 and inner[1] in ("ps", "images", "container", "image")
            and not any(w.startswith(("-f", "--filter")) for w in inner))


def _removes_everything(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if any(_lists_everything(word) for word in cmd.args):  # every word: `rm -f` is not `--filter`
        return f"{cmd.program} removes every container or image the daemon lists"
    return ""


def _shared_compose_volumes(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    """`docker compose -f docker-compose.prod.yml down -v`: the volumes of a production setup."""
    words = parsed.words
    if "down" not in words or not parsed.args.has("-v", "--volumes"):
        return ""
    for name in parsed.args.value("-f", "--file") + [v for n, v in cmd.assignments if n == "COMPOSE_FILE"]:
        word = looks_shared(name)
        if word:
            return f"{cmd.program} compose down -v deletes the volumes of {name}, a production setup"
    return ""


_DAEMON_READS = frozenset(("ps", "images", "logs", "inspect", "info", "version", "stats", "top", "events", "port", "diff", "history", "search", "context", "login", "logout"))


def _remote_daemon(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    host = _daemon(parsed, cmd)
    if not host or parsed.words[:1] and parsed.words[0] in _DAEMON_READS:
        return ""
    return f"{cmd.program} {' '.join(parsed.words[:2])} runs on the daemon of {host}"


#: Docker contexts of a daemon on this machine.
_LOCAL_DAEMONS = ("default", "desktop-linux", "desktop-windows", "colima", "orbstack", "rootless", "rancher-desktop", "podman-machine")


def _local_daemon(name: str) -> bool:
    return name.lower().startswith(_LOCAL_DAEMONS)


_DOCKER = Table(
    ("docker", "podman", "nerdctl"),
    (
        Entry("volume rm|prune|remove", DESTROY, "DST046", "{program} volume deletes the data in volumes", verdict=DENY,
              block=("docker volume rm pgdata", "docker volume prune -f", "podman volume rm -a"), allow=("docker volume ls",)),
        Entry("system prune", DESTROY, "DST046", "{program} system prune --volumes deletes the data in volumes", flags=("--volumes",), verdict=DENY,
              block=("docker system prune -a --volumes -f",), allow=("docker system prune",)),
        Entry("system prune", DESTROY, "DST047", "{program} system prune -a deletes every unused image, container and network",
              flags=("-a", "--all"), verdict=ASK, block=("docker system prune -a", "podman system prune -a"), allow=("docker image prune",)),
        Entry("rm|rmi", DESTROY, "DST047", test=_removes_everything, verdict=ASK,
              block=("docker rm -f $(docker ps -aq)", "docker rmi $(docker images -q)", "podman rm -f `podman ps -aq`"),
              allow=("docker rm -f web-dev", "docker rm $(docker ps -aq --filter status=exited)")),
        Entry("container|image rm|prune", DESTROY, "DST047", test=_removes_everything, verdict=ASK,
              block=("docker container rm -f $(docker container ls -aq)",), allow=("docker image rm api:old",)),
        Entry("system reset", DESTROY, "DST046", "{program} system reset deletes every container, image and volume", verdict=DENY,
              block=("podman system reset --force",), allow=("podman system df",)),
        Entry("compose", DESTROY, "DST046", test=_shared_compose_volumes, verdict=DENY,
              block=("docker compose -f docker-compose.prod.yml down -v", "docker compose -f compose.production.yaml down --volumes"),
              allow=("docker compose down -v", "docker compose -f docker-compose.dev.yml down -v", "docker compose -f docker-compose.prod.yml config")),
        Entry("stack rm|remove|down", DELETE, "DST041", "{program} stack rm removes every service of the stack",
              block=("docker stack rm webapp", "docker --context prod stack rm webapp"), allow=("docker stack ls", "docker stack ps webapp")),
        Entry("service rm|remove", DELETE, "DST041", "{program} service rm removes a running service",
              block=("docker service rm api",), allow=("docker service ls", "docker service logs api")),
        Entry("stack|service|swarm|node|secret|config deploy|up|create|update|scale|rollback|leave|init|join|demote|promote|rm",
              CHANGE, "EFF001", "{program} {words} changes the swarm's services",
              block=("docker stack deploy -c stack.yml webapp", "docker service update --image api:2 api", "docker swarm leave --force"),
              allow=("docker service ps api", "docker node ls")),
        Entry("", CHANGE, "EFF001", test=_pushes,
              block=("docker push ghcr.io/org/api:1.4.0", "docker buildx build --push -t org/api:latest .", "podman push quay.io/org/app"),
              allow=("docker push localhost:5000/api:dev", "docker build -t api:dev .", "docker tag api:dev api:test")),
        Entry("", CHANGE, "EFF001", test=_remote_daemon,
              block=("docker -H ssh://deploy@prod-web-1 compose up -d", "DOCKER_HOST=ssh://ops@build-box docker run --rm alpine true"),
              allow=("docker -H ssh://ops@build-box ps", "docker -H unix:///var/run/docker.sock run --rm alpine true")),
        Entry("", LOCAL, allow=("docker ps -a", "docker run --rm -it python:3.12 bash", "docker compose up -d", "docker logs -f web",
                                 "docker exec -it db psql -U postgres", "docker login ghcr.io", "docker pull postgres:16")),
    ),
    options=("-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "-f", "--file", "--filter", "--format", "-t", "--tag",
             "-v", "--volume", "-e", "--env", "-p", "--publish", "--name", "-w", "--workdir", "-u", "--user", "--network",
             "--platform", "--entrypoint", "--env-file", "--project-name", "--profile", "-m", "--memory", "--build-arg", "--target",
             "--cache-from", "--label", "--mount", "--restart"),
    context=("--context", "-c"),
    env=("DOCKER_CONTEXT",),
    local_name=_local_daemon,
    instead="push to a local registry (`localhost:5000`) or run it on this machine's daemon; ask the user before changing a shared one"
)

TABLES = (_DOCKER,)
