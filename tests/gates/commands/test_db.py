from __future__ import annotations

import pytest

from cf_guidance.gates.commands.db import sql_findings


@pytest.mark.parametrize(
    ("sql", "codes"),
    [
        ("DROP TABLE users", ["DST030"]),
        ("drop   database prod;", ["DST030"]),
        ("TRUNCATE orders", ["DST030"]),
        ("DELETE FROM users", ["DST031"]),
        ("DELETE FROM users WHERE id = 1; SELECT 1", []),
        ("DELETE FROM a WHERE x; DELETE FROM b", ["DST031"]),
        ("db.dropDatabase()", ["DST030"]),
        ("SELECT 'DROP TABLE' AS text", ["DST030"]),
        ("SELECT * FROM droptable", []),
        ("FLUSHALL", ["DST032"]),
    ],
)
def test_sql(sql: str, codes: list[str]) -> None:
    assert [code for code, _ in sql_findings(sql)] == codes
