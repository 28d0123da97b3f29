"""The data statements given to database clients: SQL to psql/mysql/sqlite3/..., JavaScript to
mongosh, Redis commands to redis-cli -- where a command line carries them, and which destroy data.

What the clients do besides (dropdb, FLUSHALL, writes to a production database) is in the
effect model's table (cf_guidance.gates.commands.effects.data)."""

from __future__ import annotations

from cf_guidance.gates.commands import Args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command, ShellAnalysis

SQL_CLIENTS = frozenset(("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "clickhouse-client", "cockroach", "sqlcmd", "mongo", "mongosh", "cqlsh", "pgcli", "mycli", "litecli", "usql"))
_SQL_OPTS = {
    "psql": ("-c", "--command"),
    "pgcli": ("-c", "--command"),
    "mysql": ("-e", "--execute"),
    "mariadb": ("-e", "--execute"),
    "mycli": ("-e", "--execute"),
    "clickhouse-client": ("-q", "--query"),
    "sqlcmd": ("-Q", "-q"),
    "mongo": ("--eval",),
    "mongosh": ("--eval",),
    "cqlsh": ("-e", "--execute"),
    "duckdb": ("-c",),
    "usql": ("-c", "--command"),
}
_VALUE_OPTS = frozenset(("-c", "--command", "-e", "--execute", "-q", "--query", "-Q", "--eval", "-h", "--host", "-U", "-u", "--user", "-d", "--dbname", "-p", "--port", "-P", "-D", "--database", "-f", "--file", "-W"))


def _words(sql: str) -> list[str]:
    out: list[str] = []
    word: list[str] = []
    for ch in sql.upper():
        if ch.isalnum() or ch in "_.":
            word.append(ch)
        else:
            if word:
                out.append("".join(word))
                word = []
            if ch == ";":
                out.append(";")
    if word:
        out.append("".join(word))
    return out


def _empty_filter(sql: str, word: str) -> bool:
    """`db.users.deleteMany({})` / `.remove({})` / `.deleteMany()`: the call after `word` matches everything."""
    at = sql.upper().find(word)
    rest = "".join(sql[at + len(word) :].split())
    return rest.startswith(("({})", "()", "({},"))


def sql_findings(sql: str) -> list[tuple[str, str]]:
    """(code, detail) for destructive statements in SQL text (DST030 drop/truncate, DST031 unbounded delete)."""
    out: list[tuple[str, str]] = []
    words = _words(sql)
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if word == "DROP" and nxt in ("DATABASE", "TABLE", "SCHEMA", "KEYSPACE", "COLLECTION", "OWNED"):
            out.append(("DST030", f"DROP {nxt} deletes the data for good"))
        elif word == "TRUNCATE":
            out.append(("DST030", "TRUNCATE deletes every row"))
        elif word == "DROPDATABASE" or (word == "DB.DROPDATABASE"):
            out.append(("DST030", "dropDatabase() deletes the database"))
        elif word.endswith(".DROP") and word.startswith("DB."):
            out.append(("DST030", "collection.drop() deletes the collection"))
        elif word.startswith("DB.") and word.endswith((".DELETEMANY", ".REMOVE")) and _empty_filter(sql, word):
            out.append(("DST031", f"{word.rsplit('.', 1)[1].lower()} with an empty filter deletes every document"))
        elif word == "DELETE" and nxt == "FROM":
            end = words.index(";", i) if ";" in words[i:] else len(words)
            if "WHERE" not in words[i:end]:
                out.append(("DST031", "DELETE FROM without WHERE deletes every row"))
        elif word == "FLUSHALL" or word == "FLUSHDB":
            out.append(("DST032", f"{word} deletes every key"))
    return out


def sql_texts(cmd: Command, analysis: ShellAnalysis | None) -> list[str]:
    """The statements a database client is given on its command line, stdin or a heredoc."""
    program = cmd.program
    parsed = Args(cmd.args, _VALUE_OPTS)
    texts = parsed.value(*_SQL_OPTS.get(program, ("-c", "-e")))
    if program in ("sqlite3", "sqlite", "duckdb", "litecli"):
        texts.extend(parsed.positionals[1:])
    # heredocs and here-strings carry SQL text
    texts.extend(target for op, target in cmd.redirects if op == "<<<")
    if cmd.stdin:
        texts.append(cmd.stdin)
    elif analysis is not None and any(op in ("<<", "<<-") for op, _ in cmd.redirects):
        texts.append(analysis.source)  # the heredoc body is only in the source text
    # SQL piped in: `echo "DROP TABLE x" | psql`
    if analysis is not None and cmd.pipe_prev:
        for other in analysis.commands:
            if other.pipe_next == program and other.program in ("echo", "printf", "cat"):
                texts.extend(other.args)
    return texts


def analyse(cmd: Command, analysis: ShellAnalysis | None) -> list[tuple[str, str]]:
    """(code, detail) for destructive statements given to a database client."""
    if cmd.program not in SQL_CLIENTS:
        return []
    out: list[tuple[str, str]] = []
    for text in sql_texts(cmd, analysis):
        out.extend(sql_findings(text))
    return out


#: Words of a GRANT that give every right, or the right to give any (upper case, matched in the
#: statement's text with blanks squeezed).
_ADMIN_GRANTS = ("ON*.*", "WITHGRANTOPTION", "GRANTSUPER", "RDS_SUPERUSER", "CLOUDSQLSUPERUSER", "AZURE_PG_ADMIN", "SYSADMIN", "DB_OWNER")


def admin_grants(sql: str) -> list[str]:
    """What in SQL text makes someone a database administrator: `ALTER ROLE x SUPERUSER`,
    `CREATE USER ... SUPERUSER`, `GRANT ALL ON *.*`, `... WITH GRANT OPTION`, `GRANT rds_superuser TO x`."""
    out: list[str] = []
    for statement in sql.split(";"):
        words = _words(statement)
        if not words:
            continue
        if words[0] in ("ALTER", "CREATE") and "SUPERUSER" in words and words[1:2] in (["ROLE"], ["USER"]):
            out.append(f"{words[0]} {words[1]} ... SUPERUSER makes a database superuser")
        elif words[0] == "GRANT" or (words[0] == "ALTER" and "ROLE" in words and "ADD" in words):
            squeezed = "".join(statement.upper().split())
            for marker in _ADMIN_GRANTS:
                if marker in squeezed:
                    out.append(f"GRANT ... {marker.replace('ON*.*', 'ON *.*').replace('WITHGRANTOPTION', 'WITH GRANT OPTION')} gives every right on the database server")
                    break
    return out
