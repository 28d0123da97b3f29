"""Effects of the programs that reach other machines: ssh, scp, rsync, ssh-copy-id, and the HTTP
clients curl, wget and HTTPie (`http`, `https`, `xh`).

Fetching is reading. Sending a request that changes something (a method other than GET, a
body) to another host is a remote change; to this machine it is ordinary development. What
they send that is secret is the secrets gate's (SEC004), what they carry out of the project
the threat gate's (THR006)."""

from __future__ import annotations

from cf_guidance.decision import ASK
from cf_guidance.gates.commands.effects import CHANGE, DELETE, READ, RUN, SEND, Entry, Parsed, Table, is_local_host, remote_host, url_host
from cf_guidance.gates.commands.effects.cluster import remote_reads_only

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.shell.model import Command, ShellAnalysis


# -- ssh, scp, rsync ------------------------------------------------------------------------------


def _ssh_host(parsed: Parsed) -> list[str]:
    return [remote_host(w) for w in parsed.words[:1]]


def _ssh_local(parsed: Parsed, cmd: Command) -> bool:
    hosts = _ssh_host(parsed)
    return bool(hosts) and all(is_local_host(h) for h in hosts)


def _remote_changes(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    command = parsed.words[1:]
    if len(command) == 1:
        command = command[0].split()
    if remote_reads_only(command):
        return ""
    return f"ssh runs `{' '.join(command)[:60]}` on {parsed.words[0]}"


def _copy_target(parsed: Parsed) -> str:
    """The host a scp/rsync copies to ("" when the destination is on this machine)."""
    words = parsed.words
    if len(words) < 2:
        return ""
    host = remote_host(words[-1]) if ":" in words[-1] else ""
    return "" if not host or is_local_host(host) else host


def _copy_hosts(parsed: Parsed) -> list[str]:
    host = _copy_target(parsed)
    return [host] if host else []


def _copies_out(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    host = _copy_target(parsed)
    return f"{cmd.program} copies files to {host}" if host else ""


_SSH = Table(
    ("ssh",),
    (
        Entry("", SEND, "EFF006", "ssh -R opens a port of this machine to the other host", flags=("-R",), verdict=ASK,
              block=("ssh -R 80:localhost:3000 serveo.net",), allow=("ssh -L 5432:db.internal:5432 bastion -N",)),
        Entry("", RUN, "EFF001", test=_remote_changes,
              block=("ssh deploy@web-1 'sudo systemctl restart app'", "ssh prod-web-1 'sudo systemctl restart nginx'",
                     "ssh build-box 'cd app && git pull && make install'"),
              allow=("ssh web-1 uptime", "ssh web-1 'tail -n 100 /var/log/app.log'", "ssh prod-db-1 'df -h'", "ssh bastion")),
        Entry("", READ, allow=("ssh -T git@github.com",)),
    ),
    options=("-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-I", "-m", "-O", "-Q", "-S", "-w", "-B"),
    names=_ssh_host,
    local=_ssh_local,
    instead="run it on a development host, or ask the user to run it"
)

_SCP = Table(
    ("scp", "rsync"),
    (
        Entry("", DELETE, "EFF001", "rsync --delete removes the files on the other host that are not here",
              flags=("--delete", "--delete-after", "--delete-before", "--delete-during", "--delete-excluded", "--del"), test=_copies_out,
              block=("rsync -av --delete ./dist/ deploy@web-1:/srv/www/", "rsync -a --delete build/ prod-web:/var/www/"),
              allow=("rsync -av --delete ./a/ ./b/", "rsync -av --delete web-1:/srv/www/ ./mirror/")),
        Entry("", CHANGE, "EFF001", test=_copies_out,
              block=("scp app.tar.gz deploy@web-1:/tmp/", "rsync -avz ./dist/ web-1:/srv/www/", "scp .env.production prod-web:/srv/app/.env"),
              allow=("scp web-1:/var/log/app.log ./logs/", "rsync -av ./src/ ./backup/", "scp build.tgz localhost:/tmp/")),
    ),
    options=("-P", "-i", "-o", "-F", "-J", "-l", "-c", "-S", "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from",
             "--include-from", "--files-from", "-T", "--temp-dir", "--partial-dir", "--backup-dir", "--suffix", "--chmod", "--chown",
             "--log-file", "--password-file", "--rsync-path", "-B", "--bwlimit", "--timeout", "--port", "--compare-dest", "--link-dest",
             "--max-size", "--min-size"),
    names=_copy_hosts,
    instead="copy to a development host, or ask the user to deploy"
)

_SSH_COPY_ID = Table(
    ("ssh-copy-id",),
    (
        Entry("", CHANGE, "EFF001", "ssh-copy-id adds a key to the other host's authorized_keys",
              block=("ssh-copy-id -i ~/.ssh/id_ed25519.pub deploy@web-1",), allow=()),
    ),
    options=("-i", "-p", "-o", "-F"),
    names=lambda parsed: [remote_host(w) for w in parsed.words[-1:]],
    local=lambda parsed, cmd: all(is_local_host(remote_host(w)) for w in parsed.words[-1:]),
)


# -- curl, wget, HTTPie ---------------------------------------------------------------------------

_CURL_DATA = ("-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "-F", "--form", "--form-string", "--json")
_WGET_DATA = ("--post-data", "--post-file", "--body-data", "--body-file")
_HTTPIE_METHODS = frozenset(("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"))


def _urls(parsed: Parsed, cmd: Command) -> list[str]:
    urls = parsed.args.value("--url")
    for word in parsed.words:
        if "://" in word or (cmd.program in ("http", "https", "xh") and word[:1].isalpha() and "." in word.split("/", 1)[0] and "=" not in word and ":=" not in word):
            urls.append(word)
    if not urls and cmd.program in ("curl", "wget"):
        urls = [w for w in parsed.words if "." in w.split("/", 1)[0]][:1]  # `curl example.com/x`
    return urls


def _hosts(parsed: Parsed) -> list[str]:
    """The hosts a request goes to, as the entry's test found them (kept on the parsed arguments)."""
    return [url_host(u) for u in parsed.extra.get("urls", [])]


def _method(parsed: Parsed, cmd: Command) -> str:
    args = parsed.args
    program = cmd.program
    if program in ("http", "https", "xh"):
        words = parsed.words
        if words and words[0].upper() in _HTTPIE_METHODS and words[0].isupper():
            return words[0]
        items = [w for w in words[1:] if "=" in w or ":=" in w or "@" in w]
        return "POST" if items or args.has("-f", "--form") else "GET"
    explicit = args.value("-X", "--request", "--method")
    if explicit:
        return explicit[-1].upper()
    if args.has("-I", "--head", "--spider"):
        return "HEAD"
    if program == "curl":
        if args.value(*_CURL_DATA):
            return "GET" if args.has("-G", "--get") else "POST"
        if args.value("-T", "--upload-file"):
            return "PUT"
    elif args.value(*_WGET_DATA):
        return "POST"
    return "GET"


def _reads_by_post(parsed: Parsed, urls: list[str]) -> bool:
    """POSTs that only read: GraphQL queries, search APIs."""
    body = " ".join(parsed.args.value(*_CURL_DATA, *_WGET_DATA)).lower()
    for url in urls:
        path = url.split("?", 1)[0].rstrip("/").lower()
        if path.endswith("/graphql") and "mutation" not in body:
            return True
        if path.endswith(("/_search", "/_count", "/_msearch", "/_mget")):
            return True
    return False


def _request(kind: str) -> Callable[[Parsed, Command, ShellAnalysis | None], str]:
    """A test: a request that changes something (`kind` "delete": a DELETE, else any other) to another host."""
    def test(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        method = _method(parsed, cmd)
        if method in ("GET", "HEAD", "OPTIONS"):
            return ""
        urls = _urls(parsed, cmd)
        hosts = [url_host(u) for u in urls]
        if not hosts or all(is_local_host(h) for h in hosts) or _reads_by_post(parsed, urls):
            return ""
        parsed.extra["urls"] = urls
        if (method == "DELETE") != (kind == "delete"):
            return ""
        return f"{cmd.program} sends a {method} request to {hosts[0]}"
    return test


_HTTP_OPTIONS = (
    "-X", "--request", "--method", *_CURL_DATA, *_WGET_DATA, "-T", "--upload-file", "-H", "--header", "-u", "--user", "-A",
    "--user-agent", "-e", "--referer", "-b", "--cookie", "-c", "--cookie-jar", "-K", "--config", "-o", "--output", "-O",
    "--output-document", "-w", "--write-out", "--connect-timeout", "-m", "--max-time", "--retry", "--resolve", "--cacert", "--cert",
    "--key", "-x", "--proxy", "--oauth2-bearer", "-r", "--range", "-C", "--limit-rate", "-Y", "-y", "-z", "--url", "-E", "-P",
    "--directory-prefix", "-a", "--auth", "--session", "--verify", "--timeout", "-t", "--tries",
)

_HTTP = Table(
    ("curl", "wget", "http", "https", "xh"),
    (
        Entry("", DELETE, "EFF001", test=_request("delete"),
              block=("curl -X DELETE https://api.example.com/v1/users/42", "http DELETE api.prod.example.com/v1/cache"),
              allow=("curl -X DELETE http://localhost:8000/api/items/1",)),
        Entry("", CHANGE, "EFF001", test=_request("change"),
              block=("curl -X POST https://api.example.com/v1/deploy -d '{\"version\": \"1.4\"}'", "curl -d @payload.json https://hooks.example.com/in",
                     "curl -T backup.sql ftp://files.example.com/", "wget --post-data 'a=1' https://api.example.com/x",
                     "http POST api.example.com/items name=x", "curl -X PUT https://api.production.example.com/flags/new-ui -d on"),
              allow=("curl -X POST http://localhost:3000/api/users -d '{\"name\": \"x\"}'", "curl -s https://api.example.com/health",
                     "curl -fsSL -o install.sh https://example.com/install.sh", "curl -G https://api.example.com/search -d q=x",
                     "curl -X POST https://api.github.com/graphql -d '{\"query\": \"{ viewer { login } }\"}'",
                     "curl -s -X POST http://127.0.0.1:9200/logs/_search -d '{}'", "http :8000/api/items", "wget https://example.com/file.tar.gz")),
    ),
    options=_HTTP_OPTIONS,
    names=_hosts,
    instead="send it to a local or staging endpoint (`http://localhost:...`), or ask the user"
)

TABLES = (_SSH, _SCP, _SSH_COPY_ID, _HTTP)
