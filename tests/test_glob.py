from __future__ import annotations

import pytest

from cf_guidance._glob import glob_match

CASES = [
    (".env", "a/b/.env", True),
    (".env", ".env", True),
    (".env", ".envrc", False),
    (".env.*", "x/.env.local", True),
    ("*.pem", "k/a.pem", True),
    ("*.key", "a.keys", False),
    ("secrets/**", "secrets/a/b", True),
    ("secrets/**", "secrets", True),
    ("secrets/**", "other/secrets/a", False),
    ("src/*.py", "src/a.py", True),
    ("src/*.py", "src/x/a.py", False),
    ("src/**/*.py", "src/x/y/a.py", True),
    ("src/**/*.py", "src/a.py", True),
    (".claude/settings.json", ".claude/settings.json", True),
    (".claude/settings.json", "x/.claude/settings.json", False),
    ("migrations/", "migrations/001.sql", True),
    ("migrations", "db/migrations/001.sql", True),
    ("id_rsa*", "home/.ssh/id_rsa.pub", True),
    ("[!a]b", "cb", True),
    ("[!a]b", "ab", False),
    ("file[0-9].txt", "file7.txt", True),
    ("file[0-9].txt", "filex.txt", False),
    ("?.md", "a.md", True),
    ("?.md", "ab.md", False),
    ("", "anything", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), CASES)
def test_glob_match(pattern: str, path: str, expected: bool) -> None:
    assert glob_match(pattern, path) is expected
