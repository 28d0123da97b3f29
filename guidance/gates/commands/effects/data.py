"""Effects of database and cache clients beyond the statements they run (those are
cf_guidance.gates.commands.db's): dropping databases, flushing caches, mass deletes of keys,
and writes to a database whose host or name looks production."""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates.commands import Args
from cf_guidance.gates.commands.db import sql_texts
from cf_guidance.gates.commands.effects import CHANGE, DELETE, DESTROY, READ, Entry, Parsed, Table, is_local_host, looks_shared, url_host

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
)

_SQL = Table(
    ("psql", "mysql", "mariadb", "mongosh", "mongo", "dropdb", "dropuser", "mysqladmin"),
    (
        Entry("", DESTROY, "DST030", "{program} deletes a database or role", verdict=DENY,
              test=_program("dropdb", "dropuser"),
              block=("dropdb app_dev", "dropuser legacy"), allow=("createdb app_test",)),
        Entry("drop", DESTROY, "DST030", "mysqladmin drop deletes a database", verdict=DENY,
              test=_program("mysqladmin"),
              block=("mysqladmin -u root drop app",), allow=("mysqladmin status",)),
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
)

TABLES = (_REDIS, _SQL)
