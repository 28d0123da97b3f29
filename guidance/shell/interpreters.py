"""Interpreter one-liners (`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, ...).

Hot path module: standard library only, no `typing` or `re` at run time.

`inline_code` finds the inline program of an interpreter command line (or its heredoc).
`translate` reads that program with a small tokenizer (string literals, names, punctuation;
no evaluation) and turns the calls it understands into shell-equivalent actions, so gates
see `os.system("rm -rf /")` as `rm -rf /` and `shutil.rmtree(p)` as `rm -rf p`. An argument
built at run time (a variable, a call) is not guessed: the result is marked dynamic and,
for calls that execute commands, a problem is reported. Literal parts of interpolated or
concatenated strings are kept, with `$_` standing for the unknown parts.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

PYTHON = "python"
JAVASCRIPT = "javascript"
PERL = "perl"
RUBY = "ruby"
PHP = "php"
AWK = "awk"
_AWKS = frozenset(("awk", "gawk", "mawk", "nawk"))

#: Stands for a value only known at run time; the shell analysis treats it as dynamic.
UNKNOWN = "$_"
#: Depth of `eval("...")` / `exec("...")` inside inline code that is followed.
_MAX_CODE_DEPTH = 3


def language_of(program: str) -> str:
    if program.startswith(("python", "pypy")):
        return PYTHON
    if program in ("node", "nodejs", "deno", "bun"):
        return JAVASCRIPT
    if program.startswith("perl"):
        return PERL
    if program.startswith("ruby"):
        return RUBY
    if program.startswith("php"):
        return PHP
    if program in _AWKS:
        return AWK
    return ""


# -- finding the code -------------------------------------------------------------------


def inline_code(program: str, argv: list[str], stdin: str | None) -> tuple[str, str, str] | None:
    """(language, code, origin label) of an interpreter command, or None (a script file,
    a module, an interactive session)."""
    language = language_of(program)
    if not language:
        return None
    if program == "deno":
        return _deno(argv, stdin)
    finder = _FINDERS[language]
    return finder(argv, stdin)


def _python(argv: list[str], stdin: str | None) -> tuple[str, str, str] | None:
    i = 1
    n = len(argv)
    while i < n:
        word = argv[i]
        if word == "-":
            break
        if not word.startswith("-") or word == "--":
            return None  # a script file runs: its text is not on the command line
        if word.startswith("--"):
            i += 1
            continue
        for k in range(1, len(word)):
            letter = word[k]
            if letter == "c":
                code = word[k + 1 :] if k + 1 < len(word) else (argv[i + 1] if i + 1 < n else "")
                return PYTHON, code, "python -c"
            if letter == "m":
                return None
            if letter in "WXQ":
                if k == len(word) - 1:
                    i += 1
                break
        i += 1
    if stdin is not None:
        return PYTHON, stdin, "python <<"
    return None


def _node(argv: list[str], stdin: str | None) -> tuple[str, str, str] | None:
    i = 1
    n = len(argv)
    while i < n:
        word = argv[i]
        if word in ("-e", "--eval", "-p", "--print", "-pe"):
            return JAVASCRIPT, argv[i + 1] if i + 1 < n else "", "node -e"
        if word.startswith(("--eval=", "--print=")):
            return JAVASCRIPT, word.split("=", 1)[1], "node -e"
        if word == "-":
            break
        if not word.startswith("-"):
            if word == "eval" and i + 1 < n:  # `bun eval CODE`
                return JAVASCRIPT, argv[i + 1], "node -e"
            return None
        i += 2 if word in ("-r", "--require", "--import", "--loader", "-C", "--conditions") else 1
    if stdin is not None:
        return JAVASCRIPT, stdin, "node <<"
    return None


def _deno(argv: list[str], stdin: str | None) -> tuple[str, str, str] | None:
    if len(argv) > 1 and argv[1] == "eval":
        operands = [w for w in argv[2:] if not w.startswith("-")]
        if operands:
            return JAVASCRIPT, operands[0], "deno eval"
    if len(argv) > 1 and argv[1] == "run" and argv[-1] == "-" and stdin is not None:
        return JAVASCRIPT, stdin, "deno <<"
    return None


def _perl_like(language: str, code_letters: str, arg_letters: str, rest_letters: str, label: str) -> Callable[[list[str], str | None], tuple[str, str, str] | None]:
    """Perl and Ruby accept repeated `-e CODE`, also bundled (`-lne`, `-pe`)."""

    def find(argv: list[str], stdin: str | None) -> tuple[str, str, str] | None:
        lines: list[str] = []
        i = 1
        n = len(argv)
        while i < n:
            word = argv[i]
            if word == "--" or not word.startswith("-") or word == "-":
                break
            i += 1
            for k in range(1, len(word)):
                letter = word[k]
                if letter in code_letters:
                    if k + 1 < len(word):
                        lines.append(word[k + 1 :])
                    elif i < n:
                        lines.append(argv[i])
                        i += 1
                    break
                if letter in arg_letters:
                    if k == len(word) - 1:
                        i += 1
                    break
                if letter in rest_letters:
                    break
        if lines:
            return language, "\n".join(lines), label
        if stdin is not None and (i >= n or argv[i] == "-"):
            return language, stdin, label.split()[0] + " <<"
        return None

    return find


def _php(argv: list[str], stdin: str | None) -> tuple[str, str, str] | None:
    for k in range(1, len(argv)):
        word = argv[k]
        if word in ("-r", "-R", "-B", "-E") and k + 1 < len(argv):
            return PHP, argv[k + 1], "php -r"
        if word.startswith("-r") and len(word) > 2:
            return PHP, word[2:], "php -r"
        if not word.startswith("-"):
            return None
    if stdin is not None:
        return PHP, stdin, "php <<"
    return None


def _awk(argv: list[str], stdin: str | None) -> tuple[str, str, str] | None:
    """`awk [-F fs] [-v var=val] 'program' [file...]`; `-f progfile` is a file, not followed."""
    i = 1
    n = len(argv)
    while i < n:
        word = argv[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or word == "-":
            break
        if word in ("-f", "--file") or word.startswith("-f"):
            return None
        i += 2 if word in ("-F", "-v", "--assign", "--field-separator") else 1
    return (AWK, argv[i], "awk") if i < n else None


_FINDERS: dict[str, Callable[[list[str], str | None], tuple[str, str, str] | None]] = {
    PYTHON: _python,
    JAVASCRIPT: _node,
    PERL: _perl_like(PERL, "eE", "I", "iMmxdDC", "perl -e"),
    RUBY: _perl_like(RUBY, "e", "rIECK", "x", "ruby -e"),
    PHP: _php,
    AWK: _awk,
}


# -- tokenizer --------------------------------------------------------------------------

NAME = 1
STRING = 2
PUNCT = 3
SHELL = 4  # backticks, qx{}, %x() : the text is shell code

_IDENT_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$@")
_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789$")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"', "`": "`", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b", "$": "$"}
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}


class Tok:
    __slots__ = ("kind", "text", "dynamic")

    def __init__(self, kind: int, text: str, dynamic: bool = False) -> None:
        self.kind = kind
        self.text = text
        self.dynamic = dynamic

    def __repr__(self) -> str:
        return f"Tok({self.kind}, {self.text!r})"


def tokenize(language: str, code: str) -> list[Tok]:
    tokens: list[Tok] = []
    n = len(code)
    i = 0
    hash_comments = language in (PYTHON, PERL, RUBY, PHP, AWK)
    slash_comments = language in (JAVASCRIPT, PHP)
    while i < n:
        c = code[i]
        if c in " \t\r":
            i += 1
        elif c == "\n":
            if language == RUBY:
                tokens.append(Tok(PUNCT, ";"))
            i += 1
        elif c == "#" and hash_comments and not (language == RUBY and code.startswith("#{", i)):
            j = code.find("\n", i)
            i = n if j == -1 else j
        elif c == "/" and slash_comments and code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j == -1 else j
        elif c == "/" and slash_comments and code.startswith("/*", i):
            j = code.find("*/", i + 2)
            i = n if j == -1 else j + 2
        elif c in "'\"":
            i = _string(language, code, i, "", tokens)
        elif c == "`":
            if language == JAVASCRIPT:
                i = _template(code, i, tokens)
            else:
                j = code.find("`", i + 1)
                end = n if j == -1 else j
                tokens.append(Tok(SHELL, code[i + 1 : end], _interpolates(language, code[i + 1 : end])))
                i = end + 1
        elif c == "%" and language == RUBY and i + 2 < n and code[i + 1] in "xwqQ" and not code[i + 2].isalnum() and code[i + 2] not in " =":
            i = _quote_like(language, code, i + 2, code[i + 1], tokens)
        elif c in _IDENT_START:
            j = i + 1
            while j < n and code[j] in _IDENT:
                j += 1
            word = code[i:j]
            if language == PYTHON and word.lower() in ("r", "b", "f", "rb", "br", "fr", "rf", "u") and j < n and code[j] in "'\"":
                i = _string(language, code, j, word.lower(), tokens)
                continue
            if language == PERL and word in ("q", "qq", "qw", "qx") and j < n and not code[j].isalnum() and code[j] not in " ,;=_":
                i = _quote_like(language, code, j, word, tokens)
                continue
            # join dotted / scoped names: os.path.join, Net::HTTP.get, $ua->get
            while j < n:
                sep = 2 if code.startswith(("::", "->"), j) else 1 if code[j] == "." else 0
                if not sep or j + sep >= n or code[j + sep] not in _IDENT_START:
                    break
                k = j + sep + 1
                while k < n and code[k] in _IDENT:
                    k += 1
                word += "." + code[j + sep : k]
                j = k
            tokens.append(Tok(NAME, word))
            i = j
        elif c.isdigit():
            j = i + 1
            while j < n and (code[j].isalnum() or code[j] == "."):
                j += 1
            tokens.append(Tok(PUNCT, "0"))
            i = j
        else:
            if c == "." and language in (PERL, PHP):
                tokens.append(Tok(PUNCT, "+"))  # string concatenation
            else:
                tokens.append(Tok(PUNCT, c))
            i += 1
    return tokens


def _interpolates(language: str, text: str) -> bool:
    if language == RUBY:
        return "#{" in text
    if language in (PERL, PHP):
        return any(text[k] in "$@" and k + 1 < len(text) and (text[k + 1].isalnum() or text[k + 1] in "_{") for k in range(len(text) - 1))
    return False


def _string(language: str, code: str, i: int, prefix: str, tokens: list[Tok]) -> int:
    """A quoted literal starting at `code[i]`; returns the index after it."""
    quote = code[i]
    n = len(code)
    if language == PYTHON and code.startswith(quote * 3, i):
        end = code.find(quote * 3, i + 3)
        body = code[i + 3 : n if end == -1 else end]
        after = n if end == -1 else end + 3
    else:
        j = i + 1
        while j < n and code[j] != quote and not (code[j] == "\n" and language == PYTHON):
            j += 2 if code[j] == "\\" else 1
        body = code[i + 1 : min(j, n)]
        after = min(j + 1, n)
    raw = "r" in prefix or (quote == "'" and language in (PERL, PHP, RUBY))
    text = _unescape(body, quote, raw)
    dynamic = False
    if "f" in prefix:
        text, dynamic = _placeholders(text, "{", "}")
    elif quote == '"' and language in (PERL, PHP):
        dynamic = _interpolates(language, text)
    elif quote == '"' and language == RUBY and "#{" in text:
        text, dynamic = _placeholders(text, "#{", "}")
    tokens.append(Tok(STRING, text, dynamic))
    return after


def _template(code: str, i: int, tokens: list[Tok]) -> int:
    j = i + 1
    n = len(code)
    while j < n and code[j] != "`":
        j += 2 if code[j] == "\\" else 1
    text, dynamic = _placeholders(_unescape(code[i + 1 : min(j, n)], "`", False), "${", "}")
    tokens.append(Tok(STRING, text, dynamic))
    return min(j + 1, n)


def _quote_like(language: str, code: str, i: int, kind: str, tokens: list[Tok]) -> int:
    """Perl q// qq// qw// qx//, Ruby %q() %Q() %w[] %x(): `code[i]` is the delimiter."""
    opener = code[i]
    closer = _PAIRS.get(opener, opener)
    depth = 1
    j = i + 1
    n = len(code)
    while j < n:
        c = code[j]
        if c == "\\":
            j += 2
            continue
        if c == closer:
            depth -= 1
            if depth == 0:
                break
        elif c == opener and closer != opener:
            depth += 1
        j += 1
    body = code[i + 1 : min(j, n)]
    if kind in ("qx", "x"):
        tokens.append(Tok(SHELL, body, _interpolates(language, body)))
    elif kind in ("qw", "w"):
        tokens.append(Tok(PUNCT, "["))
        for k, item in enumerate(body.split()):
            if k:
                tokens.append(Tok(PUNCT, ","))
            tokens.append(Tok(STRING, item))
        tokens.append(Tok(PUNCT, "]"))
    else:
        tokens.append(Tok(STRING, body, kind in ("qq", "Q") and _interpolates(language, body)))
    return min(j + 1, n)


def _unescape(body: str, quote: str, raw: bool) -> str:
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if raw:
            out.append(e if e in (quote, "\\") else "\\" + e)
        elif e in _ESCAPES:
            out.append(_ESCAPES[e])
        elif e in "xu" and i + 2 < n:
            width = 2 if e == "x" else 4
            digits = body[i + 2 : i + 2 + width]
            try:
                out.append(chr(int(digits, 16)))
                i += 2 + width
                continue
            except ValueError:
                out.append("\\" + e)
        else:
            out.append("\\" + e)
        i += 2
    return "".join(out)


def _placeholders(text: str, opener: str, closer: str) -> tuple[str, bool]:
    """Replace `{expr}` (f-strings), `${expr}` (templates), `#{expr}` (Ruby) with UNKNOWN."""
    if opener not in text:
        return text, False
    out: list[str] = []
    i = 0
    dynamic = False
    while True:
        j = text.find(opener, i)
        if j == -1:
            out.append(text[i:])
            break
        if opener == "{" and text.startswith("{{", j):
            out.append(text[i : j + 1])
            i = j + 2
            continue
        out.append(text[i:j])
        k = text.find(closer, j + len(opener))
        out.append(UNKNOWN)
        dynamic = True
        if k == -1:
            break
        i = k + len(closer)
    return "".join(out).replace("{{", "{").replace("}}", "}") if opener == "{" else "".join(out), dynamic


# -- calls ------------------------------------------------------------------------------

SHELL_CALL = "shell"  # string: shell code; list: argv
EXEC_ARGS = "exec-args"  # os.execl(path, arg0, arg1...): argv from the 2nd argument on
SPAWN = "spawn"  # spawn(cmd, [args]) / execFile(cmd, [args])
RM_RF = "rm-rf"
RM = "rm"
RMDIR = "rmdir"
READ = "read"
WRITE = "write"
APPEND = "append"
OPEN = "open"
URL = "url"
COPY = "cp"
MOVE = "mv"
CODE = "code"  # eval / exec of code in the same language

_PY_CALLS = {
    "os.system": SHELL_CALL, "os.popen": SHELL_CALL, "subprocess.run": SHELL_CALL,
    "subprocess.call": SHELL_CALL, "subprocess.Popen": SHELL_CALL, "subprocess.check_output": SHELL_CALL,
    "subprocess.check_call": SHELL_CALL, "subprocess.getoutput": SHELL_CALL, "subprocess.getstatusoutput": SHELL_CALL,
    "os.execv": SPAWN, "os.execvp": SPAWN, "os.execve": SPAWN, "os.execvpe": SPAWN,
    "os.execl": EXEC_ARGS, "os.execlp": EXEC_ARGS, "os.execle": EXEC_ARGS, "os.execlpe": EXEC_ARGS,
    "pty.spawn": SHELL_CALL,
    "shutil.rmtree": RM_RF, "os.remove": RM, "os.unlink": RM, "os.rmdir": RMDIR, "os.removedirs": RMDIR,
    "open": OPEN, "io.open": OPEN, "codecs.open": OPEN,
    "shutil.copy": COPY, "shutil.copy2": COPY, "shutil.copyfile": COPY, "shutil.copytree": COPY,
    "shutil.move": MOVE, "os.rename": MOVE, "os.replace": MOVE,
    "requests.get": URL, "requests.post": URL, "requests.put": URL, "requests.patch": URL,
    "requests.delete": URL, "requests.head": URL, "urllib.request.urlopen": URL,
    "urllib.request.urlretrieve": URL, "urllib.request.Request": URL, "httpx.get": URL, "httpx.post": URL,
    "httpx.put": URL, "exec": CODE, "eval": CODE,
}
_PY_PATH_METHODS = {"read_text": READ, "read_bytes": READ, "open": READ, "write_text": WRITE, "write_bytes": WRITE, "unlink": RM, "rmdir": RMDIR}
_JS_CALLS = {
    "child_process.exec": SHELL_CALL, "child_process.execSync": SHELL_CALL,
    "child_process.spawn": SPAWN, "child_process.spawnSync": SPAWN,
    "child_process.execFile": SPAWN, "child_process.execFileSync": SPAWN, "child_process.fork": SPAWN,
    "fs.rmSync": RM, "fs.rm": RM, "fs.rmdirSync": RMDIR, "fs.rmdir": RMDIR, "fs.promises.rm": RM,
    "fs.unlinkSync": RM, "fs.unlink": RM, "fs.promises.unlink": RM,
    "fs.readFileSync": READ, "fs.readFile": READ, "fs.promises.readFile": READ, "fs.createReadStream": READ,
    "fs.writeFileSync": WRITE, "fs.writeFile": WRITE, "fs.promises.writeFile": WRITE, "fs.createWriteStream": WRITE,
    "fs.appendFileSync": APPEND, "fs.appendFile": APPEND,
    "fs.copyFileSync": COPY, "fs.cpSync": COPY, "fs.renameSync": MOVE,
    "fetch": URL, "axios.get": URL, "axios.post": URL, "axios.put": URL, "axios": URL,
    "http.get": URL, "https.get": URL, "http.request": URL, "https.request": URL,
    "Deno.remove": RM, "Deno.removeSync": RM, "Deno.readTextFile": READ, "Deno.readTextFileSync": READ,
    "Deno.readFile": READ, "Deno.writeTextFile": WRITE, "Deno.writeTextFileSync": WRITE,
    "Deno.Command": SPAWN, "Deno.run": SHELL_CALL, "Bun.spawn": SHELL_CALL, "Bun.spawnSync": SHELL_CALL,
    "eval": CODE, "Function": CODE,
}
_JS_MODULES = {"child_process": "child_process", "node:child_process": "child_process", "fs": "fs", "node:fs": "fs", "fs/promises": "fs.promises", "node:fs/promises": "fs.promises"}
_PERL_CALLS = {
    "system": SHELL_CALL, "exec": SHELL_CALL, "unlink": RM, "rmdir": RMDIR,
    "rmtree": RM_RF, "remove_tree": RM_RF, "File.Path.rmtree": RM_RF, "File.Path.remove_tree": RM_RF,
    "open": OPEN, "read_file": READ, "File.Slurp.read_file": READ, "write_file": WRITE,
    "File.Copy.copy": COPY, "copy": COPY, "move": MOVE, "rename": MOVE,
    "get": URL, "getstore": URL, "LWP.Simple.get": URL, "eval": CODE,
}
_RUBY_CALLS = {
    "system": SHELL_CALL, "exec": SHELL_CALL, "spawn": SHELL_CALL, "Kernel.system": SHELL_CALL,
    "Kernel.exec": SHELL_CALL, "Process.spawn": SHELL_CALL, "IO.popen": SHELL_CALL,
    "Open3.capture2": SHELL_CALL, "Open3.capture2e": SHELL_CALL, "Open3.capture3": SHELL_CALL,
    "Open3.popen3": SHELL_CALL, "Open3.popen2": SHELL_CALL,
    "FileUtils.rm_rf": RM_RF, "FileUtils.rm_r": RM_RF, "FileUtils.remove_dir": RM_RF, "FileUtils.rmtree": RM_RF,
    "FileUtils.remove_entry": RM_RF, "rm_rf": RM_RF,
    "FileUtils.rm": RM, "FileUtils.rm_f": RM, "FileUtils.remove": RM, "File.delete": RM, "File.unlink": RM,
    "Dir.rmdir": RMDIR, "Dir.delete": RMDIR,
    "File.read": READ, "File.readlines": READ, "IO.read": READ, "IO.readlines": READ, "File.foreach": READ,
    "File.binread": READ, "File.open": OPEN, "File.write": WRITE, "File.binwrite": WRITE,
    "FileUtils.cp": COPY, "FileUtils.cp_r": COPY, "FileUtils.mv": MOVE, "File.rename": MOVE,
    "Net.HTTP.get": URL, "Net.HTTP.post_form": URL, "URI.open": URL, "eval": CODE,
}
_PHP_CALLS = {
    "system": SHELL_CALL, "exec": SHELL_CALL, "shell_exec": SHELL_CALL, "passthru": SHELL_CALL,
    "popen": SHELL_CALL, "proc_open": SHELL_CALL, "pcntl_exec": SPAWN,
    "unlink": RM, "rmdir": RMDIR, "file_get_contents": READ, "readfile": READ, "file": READ,
    "fopen": OPEN, "file_put_contents": WRITE, "copy": COPY, "rename": MOVE, "curl_init": URL, "eval": CODE,
}
_CALLS = {PYTHON: _PY_CALLS, JAVASCRIPT: _JS_CALLS, PERL: _PERL_CALLS, RUBY: _RUBY_CALLS, PHP: _PHP_CALLS, AWK: {"system": SHELL_CALL}}


class Action:
    """What a call does, in shell terms: kind "shell" (value is shell code) or "argv"
    (argv, with an optional redirect `op` to `value`)."""

    __slots__ = ("kind", "value", "argv", "op", "dynamic")

    def __init__(self, kind: str, value: str = "", argv: list[str] | None = None, op: str = "", dynamic: bool = False) -> None:
        self.kind = kind
        self.value = value
        self.argv = argv if argv is not None else []
        self.op = op
        self.dynamic = dynamic

    def __repr__(self) -> str:
        return f"Action({self.kind}, {self.value!r}, {self.argv!r}, {self.op!r})"


class Translation:
    __slots__ = ("actions", "problems", "dynamic")

    def __init__(self) -> None:
        self.actions: list[Action] = []
        self.problems: list[str] = []
        self.dynamic = False


class _Value:
    """An argument: `text` (None if unknown), `items` for a list literal, `dynamic`."""

    __slots__ = ("text", "items", "dynamic", "tokens")

    def __init__(self, tokens: list[Tok]) -> None:
        self.tokens = tokens
        self.text: str | None = None
        self.items: list[str] | None = None
        self.dynamic = False
        _evaluate(self)


def translate(language: str, code: str, _depth: int = 0) -> Translation:
    result = Translation()
    tokens = tokenize(language, code)
    table = _CALLS.get(language, {})
    aliases = _aliases(language, tokens)
    k = 0
    n = len(tokens)
    while k < n:
        tok = tokens[k]
        if tok.kind == SHELL:
            result.actions.append(Action("shell", tok.text, dynamic=tok.dynamic))
            if tok.dynamic:
                result.dynamic = True
            k += 1
            continue
        if language == AWK and tok.kind == PUNCT and tok.text == "|":
            _awk_pipe(tokens, k, result)
        if tok.kind != NAME:
            k += 1
            continue
        name = _resolve(tok.text, aliases)
        # require("child_process").execSync(...) / __import__("os").system(...)
        if name in ("require", "__import__") and k + 4 < n and tokens[k + 2].kind == STRING and tokens[k + 3].text == ")" and tokens[k + 4].text == ".":
            module = _JS_MODULES.get(tokens[k + 2].text, tokens[k + 2].text)
            if k + 5 < n and tokens[k + 5].kind == NAME:
                name = module + "." + tokens[k + 5].text
                k += 5
        # pathlib.Path("x").unlink()
        if language == PYTHON and name in ("pathlib.Path", "Path") and k + 5 < n and tokens[k + 1].text == "(":
            args, after = _arguments(tokens, k + 1)
            if after + 1 < n and tokens[after].text == "." and tokens[after + 1].kind == NAME:
                method = _PY_PATH_METHODS.get(tokens[after + 1].text.split(".")[0])
                if method is not None and args:
                    _file_action(method, args[0], [], result)
            k += 1
            continue
        kind = table.get(name)
        if kind is None:
            k += 1
            continue
        if k + 1 < n and tokens[k + 1].text == "(":
            args = _arguments(tokens, k + 1)[0]
        elif language in (PERL, RUBY) and k + 1 < n and (tokens[k + 1].kind == STRING or tokens[k + 1].text == "["):
            args = _bare_arguments(tokens, k + 1)[0]  # `system "rm -rf /"`
        else:
            k += 1
            continue
        _call(language, name, kind, args, result, _depth)
        k += 1  # calls nested in the arguments are read too: post(url, data=open(".env"))
    return result


def _awk_pipe(tokens: list[Tok], k: int, result: Translation) -> None:
    """awk runs `"cmd" | getline` and `print ... | "cmd"` through the shell (not `||`)."""
    before = tokens[k - 1] if k else None
    after = tokens[k + 1] if k + 1 < len(tokens) else None
    if before is None or after is None or before.text == "|" or after.text == "|":
        return
    if after.kind == STRING:
        command = after
    elif before.kind == STRING and after.kind == NAME and after.text == "getline":
        command = before
    elif after.kind == NAME and after.text != "getline" or before.kind == NAME and after.text == "getline":
        _unknown("awk pipe", result)
        return
    else:
        return
    result.actions.append(Action("shell", command.text, dynamic=command.dynamic))


def _resolve(name: str, aliases: dict[str, str]) -> str:
    head, dot, rest = name.partition(".")
    target = aliases.get(head)
    if target is None:
        return name
    return target + dot + rest if dot else target


def _aliases(language: str, tokens: list[Tok]) -> dict[str, str]:
    """Local names bound to modules or functions: `import subprocess as sp`,
    `from os import system`, `const cp = require('child_process')`, `const {execSync} = ...`."""
    aliases: dict[str, str] = {}
    n = len(tokens)
    if language == PYTHON:
        for k in range(n):
            text = tokens[k].text
            if text == "from" and k + 3 < n and tokens[k + 2].text == "import":
                module = tokens[k + 1].text
                j = k + 3
                while j < n and tokens[j].kind in (NAME, PUNCT) and tokens[j].text not in (";",):
                    if tokens[j].kind == NAME and tokens[j].text != "as":
                        local = tokens[j].text
                        if j + 2 < n and tokens[j + 1].text == "as":
                            aliases[tokens[j + 2].text] = module + "." + local
                            j += 3
                            continue
                        aliases[local] = module + "." + local
                    elif tokens[j].text == "*":
                        for qualified in _PY_CALLS:
                            if qualified.startswith(module + ".") and "." not in qualified[len(module) + 1 :]:
                                aliases.setdefault(qualified[len(module) + 1 :], qualified)
                    elif tokens[j].text not in (",", "(", ")"):
                        break
                    j += 1
            elif text == "import" and k + 3 < n and tokens[k + 2].text == "as" and (k < 2 or tokens[k - 2].text != "from"):
                aliases[tokens[k + 3].text] = tokens[k + 1].text
    elif language == JAVASCRIPT:
        modules = [t.text for t in tokens if t.kind == STRING and t.text in _JS_MODULES]
        for module in modules:
            prefix = _JS_MODULES[module] + "."
            for qualified in _JS_CALLS:
                if qualified.startswith(prefix) and "." not in qualified[len(prefix) :]:
                    aliases.setdefault(qualified[len(prefix) :], qualified)
        for k in range(n - 4):
            if tokens[k].kind == NAME and tokens[k + 1].text == "=" and tokens[k + 2].text in ("require", "await") and tokens[k + 4].kind == STRING:
                target = _JS_MODULES.get(tokens[k + 4].text)
                if target is not None:
                    aliases[tokens[k].text] = target
            if tokens[k].text == "import" and tokens[k + 1].text == "*" and tokens[k + 2].text == "as":
                for j in range(k + 3, min(n, k + 7)):
                    if tokens[j].kind == STRING and tokens[j].text in _JS_MODULES:
                        aliases[tokens[k + 3].text] = _JS_MODULES[tokens[j].text]
            elif tokens[k].text == "import" and tokens[k + 1].kind == NAME and tokens[k + 2].text == "from" and tokens[k + 3].text in _JS_MODULES:
                aliases[tokens[k + 1].text] = _JS_MODULES[tokens[k + 3].text]
    return aliases


def _arguments(tokens: list[Tok], open_index: int) -> tuple[list[_Value], int]:
    """Arguments of a call whose `(` is at `open_index`; returns them and the index after `)`."""
    args: list[_Value] = []
    current: list[Tok] = []
    depth = 0
    k = open_index + 1
    n = len(tokens)
    while k < n:
        tok = tokens[k]
        if tok.kind == PUNCT and tok.text in "([{":
            depth += 1
        elif tok.kind == PUNCT and tok.text in ")]}":
            if depth == 0:
                if current:
                    args.append(_Value(current))
                return args, k + 1
            depth -= 1
        elif tok.kind == PUNCT and tok.text == "," and depth == 0:
            args.append(_Value(current))
            current = []
            k += 1
            continue
        current.append(tok)
        k += 1
    if current:
        args.append(_Value(current))
    return args, n


def _bare_arguments(tokens: list[Tok], start: int) -> tuple[list[_Value], int]:
    """Perl/Ruby call without parentheses: arguments up to `;`, `}` or a keyword."""
    args: list[_Value] = []
    current: list[Tok] = []
    depth = 0
    k = start
    n = len(tokens)
    while k < n:
        tok = tokens[k]
        if tok.kind == PUNCT and tok.text in "([{":
            depth += 1
        elif tok.kind == PUNCT and tok.text in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (tok.text == ";" or (tok.kind == NAME and tok.text in ("or", "and", "if", "unless"))):
            break
        elif tok.kind == PUNCT and tok.text == "," and depth == 0:
            args.append(_Value(current))
            current = []
            k += 1
            continue
        current.append(tok)
        k += 1
    if current:
        args.append(_Value(current))
    return args, k


def _evaluate(value: _Value) -> None:
    tokens = value.tokens
    # keyword argument (python `cmd=...`, ruby `key: v`) evaluates its value
    if len(tokens) > 2 and tokens[0].kind == NAME and tokens[1].text in ("=", ":"):
        tokens = tokens[2:]
    if not tokens:
        return
    if tokens[0].text == "[" and tokens[-1].text == "]":
        items: list[str] = []
        dynamic = False
        for k, tok in enumerate(tokens[1:-1]):
            if k % 2 == 1:
                if tok.text != ",":
                    return
                continue
            if tok.kind != STRING:
                items.append(UNKNOWN)
                dynamic = True
                continue
            items.append(tok.text)
            dynamic = dynamic or tok.dynamic
        value.items = items
        value.dynamic = dynamic
        return
    # "a b".split()
    if len(tokens) == 5 and tokens[0].kind == STRING and tokens[1].text == "." and tokens[2].text == "split" and tokens[3].text == "(":
        value.items = tokens[0].text.split()
        value.dynamic = tokens[0].dynamic
        return
    if len(tokens) == 1 and tokens[0].kind == STRING:
        value.text = tokens[0].text
        value.dynamic = tokens[0].dynamic
        return
    # concatenation: "rm -rf " + path  (implicit concatenation of literals too)
    if tokens[0].kind == STRING and all(t.kind == STRING or t.text == "+" or t.kind == NAME for t in tokens):
        parts: list[str] = []
        dynamic = False
        expect_operand = True
        for tok in tokens:
            if tok.text == "+" and tok.kind == PUNCT:
                expect_operand = True
                continue
            if tok.kind == STRING:
                parts.append(tok.text)
                dynamic = dynamic or tok.dynamic
            else:
                parts.append(UNKNOWN)
                dynamic = True
            if not expect_operand and tok.kind == NAME:
                value.dynamic = True
                return
            expect_operand = tok.kind == STRING
        value.text = "".join(parts)
        value.dynamic = dynamic
        return
    value.dynamic = True


def _call(language: str, name: str, kind: str, args: list[_Value], result: Translation, depth: int) -> None:
    label = name.rsplit(".", 1)[-1] if language != PYTHON else name
    if not args:
        return
    first = args[0]
    if kind == SHELL_CALL:
        if first.items is not None:
            result.actions.append(Action("argv", argv=first.items, dynamic=first.dynamic))
        elif language in (PERL, RUBY) and len(args) > 1 and all(a.text is not None for a in args):
            result.actions.append(Action("argv", argv=[a.text or "" for a in args], dynamic=any(a.dynamic for a in args)))
        elif first.text is not None:
            result.actions.append(Action("shell", first.text, dynamic=first.dynamic))
        else:
            _unknown(label, result)
            return
        if first.dynamic:
            result.dynamic = True
    elif kind == SPAWN:
        rest = args[1] if len(args) > 1 else None
        if first.text is None:
            _unknown(label, result)
            return
        if (rest is None or rest.items is None) and " " in first.text and not name.startswith("os.exec"):
            result.actions.append(Action("shell", first.text, dynamic=first.dynamic))
            return
        argv = [first.text]
        if rest is not None and rest.items is not None:
            argv.extend(rest.items[1:] if name.startswith("os.exec") else rest.items)
        elif name.startswith("os.exec") and rest is not None and rest.items is None:
            _unknown(label, result)
            return
        if name.startswith("os.exec") and rest is not None and rest.items:
            argv = rest.items[:1] + argv[1:]
        dynamic = first.dynamic or (rest is not None and rest.dynamic)
        result.actions.append(Action("argv", argv=argv, dynamic=dynamic))
        result.dynamic = result.dynamic or dynamic
    elif kind == EXEC_ARGS:
        operands = args[1:]
        if not operands or any(a.text is None for a in operands):
            _unknown(label, result)
            return
        result.actions.append(Action("argv", argv=[a.text or "" for a in operands], dynamic=any(a.dynamic for a in operands)))
    elif kind == CODE:
        if first.text is None or first.dynamic:
            _unknown(label, result)
        elif depth < _MAX_CODE_DEPTH:
            inner = translate(language, first.text, depth + 1)
            result.actions.extend(inner.actions)
            result.problems.extend(inner.problems)
            result.dynamic = result.dynamic or inner.dynamic
    elif kind == OPEN:
        _open(language, args, result)
    else:
        _file_action(kind, first, args[1:], result)


def _unknown(label: str, result: Translation) -> None:
    result.dynamic = True
    message = f"{label} with an argument computed at run time"
    if message not in result.problems:
        result.problems.append(message)


def _file_action(kind: str, first: _Value, rest: list[_Value], result: Translation) -> None:
    if first.text is None:
        if first.items is not None and kind == URL and first.items:
            first_text = first.items[0]
        else:
            result.dynamic = True
            return
    else:
        first_text = first.text
    dynamic = first.dynamic
    if dynamic:
        result.dynamic = True
    if kind == RM and any(tok.text == "recursive" for arg in rest for tok in arg.tokens):
        kind = RM_RF
    if kind == RM_RF:
        result.actions.append(Action("argv", argv=["rm", "-rf", first_text], dynamic=dynamic))
    elif kind == RM:
        result.actions.append(Action("argv", argv=["rm", first_text], dynamic=dynamic))
    elif kind == RMDIR:
        result.actions.append(Action("argv", argv=["rmdir", first_text], dynamic=dynamic))
    elif kind == READ:
        if first_text.startswith(("http://", "https://")):
            result.actions.append(Action("argv", argv=["curl", first_text], dynamic=dynamic))
        else:
            result.actions.append(Action("argv", argv=["cat", first_text], dynamic=dynamic))
    elif kind == WRITE or kind == APPEND:
        op = ">" if kind == WRITE else ">>"
        result.actions.append(Action("argv", first_text, argv=["true"], op=op, dynamic=dynamic))
    elif kind == URL:
        url = first_text
        if not url.startswith(("http://", "https://", "ftp://")) and rest and rest[0].text is not None:
            url = rest[0].text  # requests.request("POST", url)
        result.actions.append(Action("argv", argv=["curl", url], dynamic=dynamic))
    elif kind == COPY or kind == MOVE:
        target = rest[0].text if rest and rest[0].text is not None else UNKNOWN
        result.actions.append(Action("argv", argv=[kind, first_text, target], dynamic=dynamic or target == UNKNOWN))


def _open(language: str, args: list[_Value], result: Translation) -> None:
    """open(path[, mode]) in Python/Ruby/PHP; open(FH, MODE, PATH) / open(FH, "<path") in Perl."""
    if language == PERL:
        if len(args) >= 3:
            mode, path = args[1].text or "", args[2]
        elif len(args) == 2 and args[1].text is not None:
            spec = args[1].text.strip()
            if spec.endswith("|") or spec.startswith("|"):
                result.actions.append(Action("shell", spec.strip("|").strip(), dynamic=args[1].dynamic))
                return
            mode = spec[: len(spec) - len(spec.lstrip("<>+"))]
            path = _Value([Tok(STRING, spec[len(mode) :].strip(), args[1].dynamic)])
        else:
            result.dynamic = True
            return
        if mode in ("-|", "|-"):
            if path.text is not None:
                result.actions.append(Action("shell", path.text, dynamic=path.dynamic))
            return
    else:
        path = args[0]
        mode = "r"
        if len(args) > 1:
            mode = args[1].text if args[1].text is not None else "r"
    if "a" in mode or ">>" in mode:
        kind = APPEND
    elif "w" in mode or "x" in mode or mode.startswith((">", "+>")):
        kind = WRITE
    else:
        kind = READ
    _file_action(kind, path, [], result)
