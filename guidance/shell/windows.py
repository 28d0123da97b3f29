"""Windows command lines an agent on a mixed machine may run: PowerShell and cmd.exe.

Hot path module: standard library only, no `typing` or `re` at run time.

`powershell -Command "Remove-Item -Recurse -Force C:\\Users"` and `cmd /c rd /s /q C:\\` are
read as the commands they are in shell terms (`rm -rf /Users`, `rm -rf /`), so the gates
judge them like any delete. Windows paths become paths the resolver classifies: a drive root
is `/`, `C:\\Users\\x` is `/Users/x`, `$env:USERPROFILE` / `%USERPROFILE%` / `$HOME` / `~` is the
home directory, `$env:TEMP` / `%TEMP%` the temp directory, `.\\build` is `./build`. Commands not
translated are passed on as they are (`git status`, `bash -c ...`, `cmd /c ...`), so the shell
analysis follows them in turn. Code downloaded and run (`iex (iwr URL)`, `irm URL | iex`)
becomes `curl URL | sh`.
"""

from __future__ import annotations

#: PowerShell names (cmdlets and aliases, lower case) that delete.
_PS_REMOVE = frozenset(("remove-item", "rm", "del", "erase", "rd", "rmdir", "ri"))
_PS_COPY = frozenset(("copy-item", "copy", "cp", "cpi"))
_PS_MOVE = frozenset(("move-item", "move", "mv", "mi"))
_PS_WRITE = frozenset(("set-content", "sc", "out-file", "add-content", "ac", "new-item", "ni"))
_PS_FETCH = frozenset(("invoke-webrequest", "iwr", "invoke-restmethod", "irm", "curl", "wget", "start-bitstransfer"))
_PS_RUN = frozenset(("invoke-expression", "iex"))
#: PowerShell names that erase a disk or volume (read as mkfs of a disk device: CAT003).
_PS_FORMAT = frozenset(("format-volume", "clear-disk", "initialize-disk"))
#: Parameters of the file cmdlets that take a value (the value is not a path operand).
_PS_VALUE_PARAMS = frozenset(("-include", "-exclude", "-filter", "-credential", "-stream", "-encoding", "-value", "-itemtype", "-name", "-erroraction", "-ea"))
_PS_PATH_PARAMS = frozenset(("-path", "-literalpath", "-lp", "-pspath", "-destination"))

_HOME_PREFIXES = ("$env:userprofile", "${env:userprofile}", "$home", "%userprofile%", "$env:homepath", "%homepath%", "~")
_TEMP_PREFIXES = ("$env:temp", "$env:tmp", "%temp%", "%tmp%")


def posix_path(word: str) -> str:
    """A Windows path in the form the path resolver reads."""
    lowered = word.lower()
    for prefix in _HOME_PREFIXES:
        if lowered.startswith(prefix):
            return ("~" + word[len(prefix) :]).replace("\\", "/")
    for prefix in _TEMP_PREFIXES:
        if lowered.startswith(prefix):
            return ("$TMPDIR" + word[len(prefix) :]).replace("\\", "/")
    if len(word) >= 2 and word[1] == ":" and word[0].isalpha():
        rest = word[2:]
        word = rest if rest[:1] in ("\\", "/") else "\\" + rest  # `C:` and `C:foo` count as the drive's root
    return word.replace("\\", "/")


def _split_statements(code: str, separators: tuple[str, ...], quotes: str, escape: str) -> list[list[str]]:
    """Words of each statement of `code` (PowerShell or cmd), split at `separators` outside quotes."""
    statements: list[list[str]] = []
    words: list[str] = []
    word: list[str] = []
    started = False
    i = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c == escape and i + 1 < n:
            word.append(code[i + 1])
            started = True
            i += 2
            continue
        if c in quotes:
            j = code.find(c, i + 1)
            end = n if j == -1 else j
            word.append(code[i + 1 : end])
            started = True
            i = end + 1
            continue
        matched = next((s for s in separators if code.startswith(s, i)), "")
        if matched or c in " \t\r":
            if started:
                words.append("".join(word))
                word = []
                started = False
            if matched:
                if words:
                    statements.append(words)
                words = []
                i += len(matched)
            else:
                i += 1
            continue
        word.append(c)
        started = True
        i += 1
    if started:
        words.append("".join(word))
    if words:
        statements.append(words)
    return statements


def powershell(code: str) -> list[list[str]]:
    """The commands a PowerShell script runs, as argv lists in shell terms."""
    statements = _split_statements(code, ("&&", "||", ";", "\n", "|", "{", "}", "(", ")"), "'\"", "`")
    out: list[list[str]] = []
    url = _first_url(code)
    lowered = code.lower()
    if url is not None and any(name in lowered for name in ("iex", "invoke-expression", "scriptblock]::create", ".invoke(")):
        out.append(["sh", "-c", f"curl '{url}' | sh"])  # downloaded and run: the pipe-to-shell shape
    for words in statements:
        if words[0] in ("&", "."):
            words = words[1:]
        if not words:
            continue
        name = words[0].lower()
        args = words[1:]
        if name in _PS_REMOVE:
            out.extend(_ps_remove(args))
        elif name in _PS_COPY or name in _PS_MOVE:
            paths = _ps_paths(args)
            if len(paths) >= 2:
                out.append(["cp" if name in _PS_COPY else "mv", "-r", *(posix_path(p) for p in paths)])
        elif name in _PS_WRITE:
            paths = _ps_paths(args)
            if paths:
                out.append(["tee", posix_path(paths[0])])
        elif name in _PS_FETCH:
            fetched = _first_url(" ".join(args))
            if fetched is not None:
                out.append(["curl", fetched])
        elif name in _PS_FORMAT:
            out.append(["mkfs", _disk(args)])
        elif name in _PS_RUN:
            if args:
                out.extend(powershell(" ".join(args)))
        else:
            out.append(words)  # passed on: `git status`, `cmd /c ...`, `bash -c ...`
    return out


def _ps_paths(args: list[str]) -> list[str]:
    paths: list[str] = []
    k = 0
    while k < len(args):
        word = args[k]
        lowered = word.lower().rstrip(":")
        if lowered in _PS_PATH_PARAMS and k + 1 < len(args):
            paths.extend(p for p in args[k + 1].split(",") if p)
            k += 2
            continue
        if lowered in _PS_VALUE_PARAMS:
            k += 2
            continue
        if word[:1] != "-":
            paths.extend(p for p in word.split(",") if p)
        k += 1
    return paths


def _ps_remove(args: list[str]) -> list[list[str]]:
    switches = [a.lower() for a in args if a[:1] == "-"]
    if any(s.startswith("-wh") for s in switches):
        return []  # -WhatIf: nothing is deleted
    recurse = any(len(s) >= 2 and "-recurse".startswith(s.rstrip(":")) for s in switches)
    paths = _ps_paths(args)
    return [["rm", "-rf" if recurse else "-f", *(posix_path(p) for p in paths)]] if paths else []


def _disk(args: list[str]) -> str:
    """A disk device standing for what `Format-Volume -DriveLetter D` / `format D:` erases."""
    letter = next((a.rstrip(":") for a in args if len(a.rstrip(":")) == 1 and a[0].isalpha()), "x")
    return "/dev/disk" + letter.lower()


def _first_url(text: str) -> str | None:
    for start in ("https://", "http://"):
        at = text.find(start)
        if at != -1:
            end = at
            while end < len(text) and text[end] not in " \t\n'\")|;,`":
                end += 1
            return text[at:end]
    return None


def cmd(code: str) -> list[list[str]]:
    """The commands a cmd.exe command line runs, as argv lists in shell terms."""
    out: list[list[str]] = []
    for words in _split_statements(code, ("&&", "||", "&", "|", "\n"), '"', "^"):
        name = words[0].lower()
        if name.endswith(".exe"):
            name = name[:-4]
        args = words[1:]
        switches = [a.lower() for a in args if a[:1] == "/" and len(a) <= 4]
        paths = [a for a in args if a.lower() not in switches]
        if name in ("del", "erase"):
            if paths:
                out.append(["rm", "-rf" if "/s" in switches else "-f", *(posix_path(p) for p in paths)])
        elif name in ("rd", "rmdir"):
            if paths:
                out.append(["rm", "-rf" if "/s" in switches else "-d", *(posix_path(p) for p in paths)])
        elif name == "robocopy" and len(paths) >= 2 and ("/mir" in switches or "/purge" in switches):
            # a mirror deletes whatever the source lacks: from an empty source, everything
            out.append(["rm", "-rf", posix_path(paths[1])])
        elif name == "format" and paths:
            out.append(["mkfs", _disk(paths)])
        elif name in ("copy", "xcopy", "move"):
            if len(paths) >= 2:
                out.append(["mv" if name == "move" else "cp", posix_path(paths[0]), posix_path(paths[-1])])
        else:
            out.append(words)
    return out


def decode_encoded_command(text: str) -> str | None:
    """PowerShell's -EncodedCommand: base64 of UTF-16LE text."""
    import binascii

    try:
        data = binascii.a2b_base64(text.encode("ascii", "ignore"))
        return data.decode("utf-16-le") if data else None
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
