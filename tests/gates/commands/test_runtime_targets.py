"""Inline programs whose write targets are only known at run time: each entry of the tables in
cf_guidance.gates.commands.runtime_targets with code it must and must not flag."""

from __future__ import annotations

import pytest

from cf_guidance.gates.commands.runtime_targets import GUARD, HIDDEN, runtime_write
from cf_guidance.shell import analyze

MUST_FLAG = [
    # a guard directory spelled in pieces
    ("python3 -c \"import os; p=os.path.join('.cla'+'ude','settings.json'); open(p,'w').write('{}')\"", GUARD),
    ("python3 -c \"open('.claude/'+'settings.json','w').write('{}')\"", GUARD),
    ("python3 -c \"from pathlib import Path; Path('.claude/settings.json').open('w').write('{}')\"", GUARD),
    ("python3 -c \"import sys; open(sys.argv[1], 'w').write('{}')\" .claude/settings.json", GUARD),
    ("python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~') + '/.local/share/cf-guidance')\"", GUARD),
    ("node -e \"require('fs').writeFileSync(['.claude','settings.json'].join('/'),'{}')\"", GUARD),
    ("node -e \"const fs=require('fs'); fs.rmSync(process.cwd()+'/.claude-flow', {recursive: true})\"", GUARD),
    ("ruby -e \"d='.cla'+'ude'; File.write(d + '/settings.json', '{}')\"", GUARD),
    ("perl -e '$d=\".co\".\"dex\"; unlink \"$d/hooks.json\"'", GUARD),
    ("php -r '$d=\".cla\".\"ude\"; file_put_contents($d.\"/settings.json\", \"{}\");'", GUARD),
    ("awk 'BEGIN { f = \".cla\" \"ude/settings.json\"; print \"{}\" > f }'", GUARD),
    # hidden in another spelling
    ("python3 -c \"p='nosj.sgnittes/edualc.'[::-1]; open(p,'w').write('{}')\"", GUARD),
    ("python3 -c \"import base64; p=base64.b64decode('LmNsYXVkZS9zZXR0aW5ncy5qc29u').decode(); open(p,'w').write('{}')\"", GUARD),
    # a glob that reaches into a dot directory
    ("python3 -c \"import glob; [open(f,'w').write('{}') for f in glob.glob('.*/settings*.json')]\"", GUARD),
    ("python3 -c \"from pathlib import Path; [f.write_text('{}') for f in Path('.').glob('*/settings.json')]\"", GUARD),
    # targets no literal shows
    ("python3 -c \"p=''.join(chr(c) for c in [46,99,108]); open(p,'w').write('x')\"", HIDDEN),
    ("python3 -c \"import os; [os.remove(os.path.join(r, f)) for r, _, fs in os.walk('.') for f in fs]\"", HIDDEN),
    ("node -e \"const fs=require('fs'); for (const f of fs.readdirSync('.')) fs.rmSync(f, {recursive: true})\"", HIDDEN),
]

MUST_NOT_FLAG = [
    "python3 -c \"import json; print(json.load(open('.claude/settings.json')))\"",  # reading is allowed
    "python3 -c \"import json, sys; print(json.load(open(sys.argv[1])))\" .claude/settings.json",
    "python3 -c \"import sys; open(sys.argv[1], 'w').write('x')\" build/out.txt",
    "python3 -c \"import glob; [open(f,'w').write('') for f in glob.glob('src/*.py')]\"",
    "python3 -c \"import glob; [open(f,'w').write('') for f in glob.glob('src/**/*.py', recursive=True)]\"",
    "python3 -c \"import os; print(os.listdir('.'))\"",
    "node -e \"console.log(require('fs').readFileSync(process.argv[1], 'utf8'))\" .claude/settings.json",
    "python3 -c \"print(chr(65))\"",
]


def _interpreter(command: str):  # type: ignore[no-untyped-def]
    analysis = analyze(command)
    return next(cmd for cmd in analysis.commands if cmd.language)


@pytest.mark.parametrize(("command", "kind"), MUST_FLAG)
def test_flags(command: str, kind: str) -> None:
    found = runtime_write(_interpreter(command))
    assert found is not None and found[0] == kind, found


@pytest.mark.parametrize("command", MUST_NOT_FLAG)
def test_does_not_flag(command: str) -> None:
    assert runtime_write(_interpreter(command)) is None
