"""Effects of database and cache clients beyond the statements they run (those are
cf_guidance.gates.commands.db's): dropping databases, flushing caches, mass deletes of keys,
and writes to a database whose host or name looks production."""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates.commands import Args
from cf_guidance.gates.commands.db import sql_texts
from cf_guidance.gates.commands.effects import (
    CHANGE, DELETE, DESTROY, READ, Entry, Parsed, Table, is_local_host, looks_shared, target_marks, url_host,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.shell.model import Command, ShellAnalysis

#: Statements that change data or schema (SQL keywords, MongoDB methods), upper case.
_WRITE_WORDS = ("INSERT", "UPDATE", "DELETE", "ALTER", "CREATE", "GRANT", "REVOKE", "MERGE", "UPSERT", "REPLACE", "COPY", "DROP",
                "TRUNCATE", "RENAME")
_MONGO_WRITES = (".INSERT", ".UPDATE", ".DELETE", ".REPLACE", ".BULKWRITE", ".CREATE", ".DROP", ".RENAME", ".FINDONEANDUPDATE",
                 ".FINDONEANDDELETE", ".FINDANDMODIFY")


def _writes(text: str) -> bool:
    upper = text.upper()
    words = upper.replace("(", " ").replace(";", " ").split()
    return any(word in _WRITE_WORDS for word in words) or any(marker in upper for marker in _MONGO_WRITES)


def _target(parsed: Parsed, cmd: Command) -> list[str]:
    """Where a client connects: hosts, database names, connection URIs."""
    args = parsed.args
    found = args.value("-h", "--host", "-d", "--dbname", "-D", "--database", "-u", "--uri")
    found += parsed.words[:2]
    found += [v for name, v in cmd.assignments if name in ("PGHOST", "PGDATABASE", "MYSQL_HOST", "DATABASE_URL", "MONGODB_URI", "REDIS_URL")]
    return found


#: Environment variables that say where a database client connects.
_CONNECTION_VARIABLES = ("PGHOST", "PGDATABASE", "MYSQL_HOST", "DATABASE_URL", "MONGODB_URI", "MONGO_URL", "REDIS_URL")


def _database_hosts(parsed: Parsed, cmd: Command) -> list[str]:
    """The hosts a database client connects to: `-h`, hosts of connection URIs, PGHOST and the like."""
    args = parsed.args
    hosts = args.value("-h", "--host")
    for value in args.value("-d", "--dbname", "--uri", "-D", "--database") + parsed.words:
        if "://" in value:
            hosts.append(url_host(value))
        elif "$" in value:
            hosts.append(value)  # `psql "$DATABASE_URL"`: connects to whatever the variable says
    for name, value in cmd.assignments:
        if name in ("PGHOST", "MYSQL_HOST"):
            hosts.append(value)
        elif name in _CONNECTION_VARIABLES and "://" in value:
            hosts.append(url_host(value))
    return hosts


def _database_local(parsed: Parsed, cmd: Command) -> bool:
    """True when the client connects to this machine: no host (the local socket) or localhost."""
    return all(is_local_host(host) and "$" not in host for host in _database_hosts(parsed, cmd))


def _database_names(parsed: Parsed) -> list[str]:
    """Hosts and database names: positionals (`dropdb app_test`, `psql app_dev`) and the host and
    database of a connection URI (`postgres://localhost/app_test`)."""
    out: list[str] = []
    for word in parsed.words:
        if "://" in word:
            rest = word.split("://", 1)[1]
            out.append(url_host(word))
            out.append(rest.split("/", 1)[1].split("?", 1)[0] if "/" in rest else "")
        else:
            out.append(word)
    return out


def database_target(cmd: Command) -> tuple[str, str, bool]:
    """Where a database client connects, as the effect model weighs a target: (why it looks
    production or shared, why it looks like development or tests, whether it is this machine)."""
    table = _MYSQLADMIN if cmd.program == "mysqladmin" else _SQL if cmd.program in _SQL.programs else _REDIS if cmd.program in _REDIS.programs else None
    if table is None:
        return "", "", False
    parsed = table.parse(cmd.args)
    shared, dev = target_marks(table, parsed, cmd)
    return shared, dev, table.local is not None and table.local(parsed, cmd)


def _production_write(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    for where in _target(parsed, cmd):
        word = looks_shared(where)
        if word:
            texts = sql_texts(cmd, analysis)
            if any(_writes(t) for t in texts):
                return f"{cmd.program} writes to {where}, which looks like a production database"
            return ""
    return ""


def _redis_local(parsed: Parsed, cmd: Command) -> bool:
    hosts = parsed.args.value("-h", "--host") + [url_host(u) for u in parsed.args.value("-u")]
    return all(is_local_host(h) for h in hosts)


def _redis_words(parsed: Parsed) -> list[str]:
    return [w.upper() for w in parsed.words]


def _flush(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    words = _redis_words(parsed)
    if "FLUSHALL" in words or "FLUSHDB" in words:
        return "redis FLUSHALL/FLUSHDB deletes every key"
    return ""


def _keys_from_pipe(cmd: Command, analysis: ShellAnalysis | None) -> Command | None:
    """The `redis-cli --scan`/`KEYS` whose output an `xargs redis-cli DEL` deletes."""
    if analysis is None or not cmd.origin.endswith("xargs"):
        return None
    commands = analysis.commands
    at = next((i for i, other in enumerate(commands) if other is cmd), 0)
    for other in reversed(commands[:at]):
        if other.program == "xargs" and other.pipe_prev:
            for producer in reversed(commands[:at]):
                if producer.program == other.pipe_prev and producer.pipe_next == "xargs":
                    return producer
    return None


def _scan_pattern(producer: Command) -> str | None:
    """The key pattern a `--scan`/`KEYS` producer lists ("" for every key), None when it lists no keys."""
    parsed = Args(producer.args, frozenset(("-h", "-p", "-a", "-n", "-u", "--pattern", "--user", "--pass")))
    words = [w.upper() for w in parsed.positionals]
    if "--scan" in parsed.long:
        pattern = parsed.value("--pattern")
        return pattern[-1] if pattern else ""
    if words[:1] == ["KEYS"]:
        return parsed.positionals[1] if len(parsed.positionals) > 1 else ""
    return None


def _mass_delete(kind: str) -> Callable[[Parsed, Command, ShellAnalysis | None], str]:
    def test(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        if _redis_words(parsed)[:1] not in (["DEL"], ["UNLINK"]):
            return ""
        producer = _keys_from_pipe(cmd, analysis)
        pattern = _scan_pattern(producer) if producer is not None else None
        if pattern is None:
            return ""
        every = pattern.strip("*") == ""
        if kind == "every" and every:
            return "every key listed by --scan/KEYS is deleted"
        if kind == "some" and not every:
            return f"every key matching {pattern} is deleted"
        return ""
    return test


def _config_set_dir(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    return "=" if _redis_words(parsed)[1:3] in (["SET", "DIR"], ["SET", "DBFILENAME"]) else ""


def _program(*names: str) -> Callable[[Parsed, Command, ShellAnalysis | None], str]:
    """A test: the command is one of these programs (the table covers several)."""
    def test(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        return "=" if cmd.program in names else ""
    return test


_REDIS = Table(
    ("redis-cli", "valkey-cli", "keydb-cli"),
    (
        Entry("", DESTROY, "DST032", test=_flush, verdict=DENY, block=("redis-cli FLUSHALL", "redis-cli -n 2 flushdb"),
              allow=("redis-cli DEL cache:key",)),
        Entry("", DESTROY, "DST032", test=_mass_delete("every"), verdict=DENY,
              block=("redis-cli --scan | xargs redis-cli DEL", "redis-cli KEYS '*' | xargs redis-cli DEL", "redis-cli --scan --pattern '*' | xargs -n 100 redis-cli UNLINK"),
              allow=("redis-cli --scan --pattern 'cache:*' | xargs redis-cli DEL",)),
        Entry("", DELETE, "EFF001", test=_mass_delete("some"),
              block=("redis-cli -h cache.prod.internal --scan --pattern 'session:*' | xargs redis-cli -h cache.prod.internal DEL",),
              allow=("redis-cli --scan --pattern 'test:*' | xargs redis-cli DEL",)),
        Entry("config|CONFIG", CHANGE, "EFF001", "redis CONFIG SET dir/dbfilename makes the server write files where it is told", verdict=ASK,
              test=_config_set_dir,
              block=("redis-cli CONFIG SET dir /root/.ssh",), allow=("redis-cli CONFIG GET maxmemory",)),
        Entry("", READ, allow=("redis-cli GET session:42", "redis-cli --scan --pattern 'user:*'", "redis-cli INFO memory", "redis-cli PING")),
    ),
    options=("-h", "-p", "-a", "-n", "-u", "--user", "--pass", "--pattern", "-i", "-r"),
    context=("-h", "--host", "-u"),
    local=_redis_local,
    instead="work against a local or development instance, or ask the user"
)

_SQL = Table(
    ("psql", "mysql", "mariadb", "mongosh", "mongo", "dropdb", "dropuser"),
    (
        Entry("", DESTROY, "DST030", "{program} deletes a database or role", test=_program("dropdb", "dropuser"),
              block=("dropdb production", "dropdb app", "dropuser legacy", "dropdb -h db.internal app_dev", "PGHOST=prod-db dropdb app_test"),
              allow=("createdb app_test", "dropdb app_test", "dropdb --if-exists app_test && createdb app_test", "dropdb -h localhost webapp_dev")),
        Entry("", CHANGE, "EFF002", test=_production_write, verdict=DENY,
              block=("psql -h db.prod.internal -U app -c \"UPDATE users SET plan = 'free'\"",
                     "PGHOST=prod-db psql -c 'ALTER TABLE orders ADD COLUMN x int'",
                     "mongosh 'mongodb+srv://prod-cluster.x.mongodb.net/app' --eval 'db.users.updateMany({}, {$set: {a: 1}})'"),
              allow=("psql -h db.prod.internal -U app -c 'SELECT count(*) FROM users'", "psql -h localhost -c \"UPDATE users SET plan = 'free'\"",
                     "psql \"$DATABASE_URL\" -c 'INSERT INTO t VALUES (1)'")),
        Entry("", READ, allow=("psql -l", "mysql -e 'SHOW TABLES' app", "mongosh --eval 'db.users.countDocuments()'")),
    ),
    options=("-c", "--command", "-e", "--execute", "--eval", "-h", "--host", "-U", "-u", "--user", "-d", "--dbname", "-p", "--port",
             "-P", "-D", "--database", "-f", "--file", "-W", "--uri", "--username", "--password"),
    context=("-h", "--host", "-d", "--dbname", "-D", "--database", "--uri"),
    env=_CONNECTION_VARIABLES,
    names=_database_names,
    local=_database_local,
    instead="work against a local or development database, or write a migration and ask the user"
)

_MYSQLADMIN = Table(
    ("mysqladmin",),
    (
        Entry("drop", DESTROY, "DST030", "mysqladmin drop deletes a database",
              block=("mysqladmin -u root drop app", "mysqladmin -f drop shop", "mysqladmin -h db.prod.internal -f drop shop"),
              allow=("mysqladmin status", "mysqladmin -u root -f drop shop_test")),
        Entry("", READ, allow=("mysqladmin -u root ping", "mysqladmin processlist")),
    ),
    options=("-h", "--host", "-u", "--user", "-P", "--port", "-S", "--socket", "-p", "--password", "-c", "--count", "-i", "--sleep"),
    context=("-h", "--host"),
    env=_CONNECTION_VARIABLES,
    names=_database_names,
    local=_database_local,
)

TABLES = (_REDIS, _SQL, _MYSQLADMIN)
