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
    """A token: `dynamic` strings interpolate something; `parts` then holds the literal text
    and the source of each interpolated expression, alternating (f-strings, template
    literals, Ruby `#{}`), so a value the code computes can still be read."""

    __slots__ = ("kind", "text", "dynamic", "parts")

    def __init__(self, kind: int, text: str, dynamic: bool = False, parts: list[str] | None = None) -> None:
        self.kind = kind
        self.text = text
        self.dynamic = dynamic
        self.parts = parts

    def __repr__(self) -> str:
        return f"Tok({self.kind}, {self.text!r})"


def tokenize(language: str, code: str) -> list[Tok]:
    tokens: list[Tok] = []
    n = len(code)
    i = 0
    hash_comments = language in (PYTHON, PERL, RUBY, PHP, AWK)
    slash_comments = language in (JAVASCRIPT, PHP)
    # A line end outside brackets ends a statement in Python and (mostly) JavaScript; in Ruby always.
    line_ends = language in (PYTHON, JAVASCRIPT)
    depth = 0
    while i < n:
        c = code[i]
        if c in " \t\r":
            i += 1
        elif c == "\n":
            if language == RUBY or (line_ends and depth == 0 and tokens and tokens[-1].text != ";" and code[i - 1 : i] != "\\"):
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
                if c in "([{":
                    depth += 1
                elif c in ")]}" and depth:
                    depth -= 1
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
    parts = None
    if "f" in prefix:
        text, dynamic, parts = _placeholders(text, "{", "}")
    elif quote == '"' and language in (PERL, PHP):
        dynamic = _interpolates(language, text)
    elif quote == '"' and language == RUBY and "#{" in text:
        text, dynamic, parts = _placeholders(text, "#{", "}")
    tokens.append(Tok(STRING, text, dynamic, parts))
    return after


def _template(code: str, i: int, tokens: list[Tok]) -> int:
    j = i + 1
    n = len(code)
    while j < n and code[j] != "`":
        j += 2 if code[j] == "\\" else 1
    text, dynamic, parts = _placeholders(_unescape(code[i + 1 : min(j, n)], "`", False), "${", "}")
    tokens.append(Tok(STRING, text, dynamic, parts))
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


def _placeholders(text: str, opener: str, closer: str) -> tuple[str, bool, list[str] | None]:
    """Replace `{expr}` (f-strings), `${expr}` (templates), `#{expr}` (Ruby) with UNKNOWN; also
    the pieces: literal text and expression source, alternating (None when nothing is interpolated)."""
    if opener not in text:
        return text, False, None
    out: list[str] = []
    parts: list[str] = []
    literal: list[str] = []
    i = 0
    dynamic = False
    while True:
        j = text.find(opener, i)
        if j == -1:
            out.append(text[i:])
            literal.append(text[i:])
            break
        if opener == "{" and text.startswith("{{", j):
            out.append(text[i : j + 1])
            literal.append(text[i : j + 1])
            i = j + 2
            continue
        out.append(text[i:j])
        literal.append(text[i:j])
        k = text.find(closer, j + len(opener))
        out.append(UNKNOWN)
        parts.append("".join(literal))
        literal = []
        parts.append(text[j + len(opener) : k if k != -1 else len(text)])
        dynamic = True
        if k == -1:
            break
        i = k + len(closer)
    parts.append("".join(literal))
    if opener == "{":
        parts = [p if k % 2 else p.replace("{{", "{").replace("}}", "}") for k, p in enumerate(parts)]
        return "".join(out).replace("{{", "{").replace("}}", "}"), dynamic, parts
    return "".join(out), dynamic, parts


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
_JS_MODULES = {
    "child_process": "child_process", "node:child_process": "child_process", "fs": "fs", "node:fs": "fs", "fs/promises": "fs.promises",
    "node:fs/promises": "fs.promises", "os": "os", "node:os": "os", "path": "path", "node:path": "path",
}
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
    """What an expression of the inline code is, as far as it can be known without running it.

    `text` is its string (None when unknown; UNKNOWN stands for unknown parts of a known text),
    `others` further strings it may be (a variable assigned in several places), `items` a
    list literal's strings, `element` what iterating it yields (`glob.glob(p)` -> p,
    `os.listdir(d)` -> `*`), `module` the module an import expression names (`require("os")`)
    or a marker (`os.environ`), `fetched` the URL whose response it holds
    (`urlopen(u).read()`), `dynamic` whether any part is unknown. `tokens` are an argument's
    own tokens (for flags such as `recursive`).
    """

    __slots__ = ("tokens", "text", "others", "items", "element", "module", "fetched", "dynamic")

    def __init__(self) -> None:
        self.tokens: list[Tok] = []
        self.text: str | None = None
        self.others: list[str] = []
        self.items: list[str] | None = None
        self.element: str | None = None
        self.module = ""
        self.fetched: str | None = None
        self.dynamic = False

    def copy(self, tokens: list[Tok]) -> _Value:
        other = _Value()
        other.tokens = tokens
        other.text = self.text
        other.others = self.others
        other.items = self.items
        other.element = self.element
        other.module = self.module
        other.fetched = self.fetched
        other.dynamic = self.dynamic
        return other


def _known(text: str, dynamic: bool = False) -> _Value:
    value = _Value()
    value.text = text
    value.dynamic = dynamic
    return value


def _unknown_value(fetched: str | None = None) -> _Value:
    value = _Value()
    value.dynamic = True
    value.fetched = fetched
    return value


def _marker(module: str) -> _Value:
    value = _Value()
    value.module = module
    return value


def _texts(value: _Value) -> list[str]:
    """Every string `value` may be; [UNKNOWN] when nothing is known."""
    return [value.text, *value.others] if value.text is not None else [UNKNOWN]


def _choices(texts: list[str], dynamic: bool, fetched: str | None = None) -> _Value:
    """A value that is one of `texts` (more than _MAX_CHOICES is unknown)."""
    unique = list(dict.fromkeys(texts))
    if not unique or len(unique) > _MAX_CHOICES or unique == [UNKNOWN]:
        return _unknown_value(fetched)
    value = _known(unique[0], dynamic or UNKNOWN in unique)
    value.others = unique[1:]
    value.fetched = fetched
    return value


#: Strings one value may be (a variable assigned in several places, joined with others).
_MAX_CHOICES = 8
#: Nesting of expressions, calls and variables one evaluation follows.
_MAX_NESTING = 48
#: Tokens a look back for the `with` of an `as` or for a chain's start reads (beyond: not read,
#: so the name is unknown).
_MAX_LOOK = 64


def _brackets(tokens: list[Tok]) -> list[int]:
    """For each bracket token the index of its partner (-1 for unmatched and other tokens)."""
    match = [-1] * len(tokens)
    stack: list[int] = []
    for k, tok in enumerate(tokens):
        if tok.kind == PUNCT:
            text = tok.text
            if text in "([{":
                stack.append(k)
            elif text in ")]}" and stack:
                j = stack.pop()
                match[j] = k
                match[k] = j
    return match


def _ends(tokens: list[Tok], match: list[int], stops: frozenset[str]) -> list[int]:
    """For each token the index where an expression starting there ends (`;`, `,`, a closing
    bracket of an enclosing level, or a word in `stops`), in one pass: no expression is
    scanned twice."""
    n = len(tokens)
    ends = [n] * (n + 1)
    for k in range(n - 1, -1, -1):
        tok = tokens[k]
        text = tok.text
        if tok.kind == PUNCT:
            if text in ")]};,":
                ends[k] = k
            elif text in "([{":
                ends[k] = ends[match[k] + 1] if match[k] > k else n
            else:
                ends[k] = ends[k + 1]
        elif tok.kind == NAME and text in stops:
            ends[k] = k
        else:
            ends[k] = ends[k + 1]
    return ends


# -- what the code binds ------------------------------------------------------------------

#: Words that declare the variable after them.
_DECLARE = frozenset(("const", "let", "var", "my", "our", "local", "state"))
#: Words after which the names of the header are parameters or names bound in a way not
#: read here (`def f(d)`, `lambda d:`, `global d`).
_PARAMETERS = frozenset(("def", "lambda", "function", "global", "nonlocal"))
#: Methods whose block or callback receives each element of the receiver.
_ITERATORS = frozenset(("forEach", "map", "filter", "some", "every", "flatMap", "each", "each_child", "each_entry", "select", "reject", "each_with_index", "find_all"))
#: Words that end an expression in Ruby and Perl (blocks, statement modifiers).
_ENDS_EXPRESSION = frozenset(("do", "then", "if", "unless", "while", "until", "or", "and"))


class _Scope:
    """What one inline program binds: module aliases, and for each variable the expressions
    assigned to it (`bindings`: ("=", tokens), or ("in", tokens) for each element of a loop's
    sequence) and whether it is also bound in a way not read (`tainted`: parameters, tuple
    targets, augmented assignments). A variable is any of the values assigned to it anywhere
    in the code (flow-insensitive), plus unknown when tainted: no branch or loop can hide a
    value."""

    __slots__ = ("language", "aliases", "bindings", "tainted", "values", "busy", "nesting", "depth", "matches")

    def __init__(self, language: str, tokens: list[Tok], depth: int) -> None:
        self.language = language
        self.aliases = _aliases(language, tokens)
        self.bindings: dict[str, list[tuple[str, list[Tok], int, int]]] = {}
        self.tainted: set[str] = set()
        self.values: dict[str, _Value] = {}
        self.busy: set[str] = set()
        self.nesting = 0
        #: how deep `exec("...")` nesting is (translate's `_depth`)
        self.depth = depth
        #: for each token list read (by id): the list, its bracket partners (see _brackets) and,
        #: once asked, its expression ends (see _ends)
        self.matches: dict[int, tuple[list[Tok], list[int], list[list[int]]]] = {}
        _bind(self, tokens)

    def _read(self, tokens: list[Tok]) -> tuple[list[Tok], list[int], list[list[int]]]:
        found = self.matches.get(id(tokens))
        if found is None or found[0] is not tokens:
            found = self.matches[id(tokens)] = (tokens, _brackets(tokens), [])
        return found

    def match(self, tokens: list[Tok]) -> list[int]:
        return self._read(tokens)[1]

    def end(self, tokens: list[Tok], start: int) -> int:
        """Index after the expression starting at `start`."""
        if start >= len(tokens):
            return len(tokens)
        _, match, ends = self._read(tokens)
        if not ends:
            ends.append(_ends(tokens, match, _ENDS_EXPRESSION if self.language in (RUBY, PERL) else frozenset()))
        return ends[0][start]

    def closer(self, tokens: list[Tok], k: int, end: int) -> int:
        """Index of the bracket closing the one at k (before `end`), else `end`."""
        partner = self.match(tokens)[k]
        return partner if k < partner < end else end

    def bind(self, name: str, how: str, tokens: list[Tok], start: int, end: int) -> None:
        self.bindings.setdefault(name, []).append((how, tokens, start, end))

    def taint(self, tok: Tok) -> None:
        if tok.kind == NAME and "." not in tok.text:
            self.tainted.add(tok.text)


def _is_assignment(tokens: list[Tok], k: int) -> bool:
    """The `=` at k assigns (not `==`, `=>`, `=~`, `<=`, `!=`)."""
    if k + 1 < len(tokens) and tokens[k + 1].kind == PUNCT and tokens[k + 1].text in "=>~":
        return False
    before = tokens[k - 1].text if k and tokens[k - 1].kind == PUNCT else ""
    if before in ("=", "!"):
        return False
    if before in ("<", ">"):  # `<=` compares; `<<=` assigns
        return k > 1 and tokens[k - 2].text == before
    return True


def _bind(scope: _Scope, tokens: list[Tok]) -> None:
    language = scope.language
    depth = 0
    for k, tok in enumerate(tokens):
        text = tok.text
        if tok.kind == PUNCT:
            if text in "([{":
                depth += 1
            elif text in ")]}":
                depth = max(0, depth - 1)
            elif text == "=" and _is_assignment(tokens, k):
                _assignment(scope, tokens, k, depth)
            elif text == "|" and language == RUBY and k and tokens[k - 1].text in ("{", "do"):
                _block_parameters(scope, tokens, k)
            elif text == ">" and language == JAVASCRIPT and k > 1 and tokens[k - 1].text == "=":
                _arrow_parameters(scope, tokens, k - 1)
        elif tok.kind == NAME:
            if text in ("for", "foreach"):
                _loop(scope, tokens, k)
            elif text == "as" and k + 1 < len(tokens):
                _as(scope, tokens, k)
            elif text in _PARAMETERS or (text == "sub" and language == PERL):
                _parameters(scope, tokens, k)


def _assignment(scope: _Scope, tokens: list[Tok], k: int, depth: int) -> None:
    """`d = ...` binds d; `a, d = ...`, `d[0] = ...`, `d += ...`, `(a, d) = ...` taint."""
    if not k:
        return
    before = tokens[k - 1]
    if before.kind == PUNCT and before.text in "+-*/%&|^@:<>.?":
        j = k - 1
        while j >= 0 and tokens[j].kind == PUNCT and tokens[j].text in "+-*/%&|^@:<>.?":
            j -= 1
        if j >= 0:
            scope.taint(tokens[j])  # `d += x`, `d := x`, `d ||= x`
        return
    if before.kind == PUNCT and before.text in ")]}":
        opener = scope.match(tokens)[k - 1]
        for tok in tokens[max(opener, 0) : k]:
            scope.taint(tok)  # `(a, d) = ...`, `my ($x) = @_`, `d[0] = ...`
        if opener > 0:
            scope.taint(tokens[opener - 1])
        return
    if before.kind != NAME or "." in before.text:
        return  # `obj.attr = ...` binds no variable
    previous = tokens[k - 2].text if k > 1 else ""
    if scope.language == PYTHON and previous in ("(", ",") and depth > 0:
        return  # a keyword argument
    if previous == "," and scope.language != JAVASCRIPT:  # `a, d = ...` (JavaScript: `let a = 1, d = 2`)
        j = k - 1
        while True:
            scope.taint(tokens[j])
            if j < 2 or tokens[j - 1].text != ",":
                return
            j -= 2
    scope.bind(before.text, "=", tokens, k + 1, scope.end(tokens, k + 1))


def _loop(scope: _Scope, tokens: list[Tok], k: int) -> None:
    """`for d in X` (Python, Ruby), `for (const d of X)`, `for my $d (X)`: d is each element of X."""
    n = len(tokens)
    language = scope.language
    j = k + 1
    parenthesized = j < n and tokens[j].text == "(" and language in (JAVASCRIPT, PHP)
    if parenthesized:
        j += 1
    if j < n and tokens[j].text in _DECLARE:
        j += 1
    targets: list[Tok] = []
    while j < n and not (tokens[j].kind == NAME and tokens[j].text in ("in", "of", "for", "foreach")) and tokens[j].text not in ("(", ":", ";", "{"):
        targets.append(tokens[j])
        j += 1
    start = end = -1
    if j < n and tokens[j].text == "(" and language == PERL:  # for my $d (LIST)
        start, end = j + 1, scope.closer(tokens, j, n)
    elif j < n and tokens[j].kind == NAME and tokens[j].text in ("in", "of"):
        start = j + 1
        end = scope.closer(tokens, k + 1, n) if parenthesized else scope.end(tokens, start)
        if language == PYTHON:
            end = _header_end(tokens, start, end)
        if tokens[j].text == "in" and language == JAVASCRIPT:
            end = -1  # `for (k in o)` gives keys: not read
    if end >= 0 and len(targets) == 1:
        scope.bind(targets[0].text, "in", tokens, start, end)
    else:
        for tok in targets:
            scope.taint(tok)


def _header_end(tokens: list[Tok], start: int, end: int) -> int:
    """A Python `for` header ends at its `:` (outside brackets)."""
    depth = 0
    for k in range(start, end):
        tok = tokens[k]
        if tok.kind != PUNCT:
            continue
        if tok.text in "([{":
            depth += 1
        elif tok.text in ")]}":
            depth -= 1
        elif tok.text == ":" and depth == 0:
            return k
    return end


def _as(scope: _Scope, tokens: list[Tok], k: int) -> None:
    """`with X as d` binds d to X, PHP `foreach (X as $d)` to each element of X; otherwise
    (`except E as d`, `import m as d`) d is bound in a way not read."""
    target = tokens[k + 1]
    match = scope.match(tokens)
    j = k - 1
    stop = max(-1, k - _MAX_LOOK)
    while j > stop and tokens[j].text not in ("with", ",", ";", ":", "("):
        if tokens[j].kind == PUNCT and tokens[j].text in ")]}" and match[j] >= 0:
            j = match[j]  # over a call's arguments: `with open(p) as f`
        j -= 1
    if j > stop:
        word = tokens[j].text
        if word == "(" and scope.language == PHP and j and tokens[j - 1].text == "foreach":
            scope.bind(target.text, "in", tokens, j + 1, k)
            return
        if scope.language == PYTHON and (word == "with" or (word == "," and _in_with(tokens, j))):
            scope.bind(target.text, "=", tokens, j + 1, k)
            return
    scope.taint(target)


def _in_with(tokens: list[Tok], k: int) -> bool:
    """The `,` at k separates the items of a `with` statement."""
    for j in range(k, max(-1, k - _MAX_LOOK), -1):
        text = tokens[j].text
        if text == "with":
            return True
        if text in (";", ":"):
            return False
    return False


def _parameters(scope: _Scope, tokens: list[Tok], k: int) -> None:
    """Names bound as parameters or declared elsewhere, not read (`def f(d)`, `lambda d:`)."""
    depth = 0
    lambda_ = tokens[k].text == "lambda"
    for j in range(k + 1, len(tokens)):
        tok = tokens[j]
        if tok.kind == NAME and tok.text in _PARAMETERS:
            return  # its own header is read from there
        if tok.kind == PUNCT:
            if tok.text in "([":
                depth += 1
            elif tok.text in ")]":
                depth -= 1
                if depth <= 0 and not lambda_:
                    return
            elif tok.text in (":", ";", "{") and depth <= 0:
                return
        else:
            scope.taint(tok)


def _block_parameters(scope: _Scope, tokens: list[Tok], k: int) -> None:
    """Ruby `X.each { |d| ... }` / `X.each do |d|`: d is each element of X; other block
    parameters are not read."""
    names: list[Tok] = []
    for j in range(k + 1, len(tokens)):
        if tokens[j].text in ("|", ";", "{", "}", "do"):
            break
        if tokens[j].kind == NAME:
            names.append(tokens[j])
    receiver = _receiver(scope, tokens, k - 2) if k > 1 else None
    if receiver is not None and names:
        scope.bind(names[0].text, "in", receiver, 0, len(receiver))
        names = names[1:]
    for tok in names:
        scope.taint(tok)


def _arrow_parameters(scope: _Scope, tokens: list[Tok], k: int) -> None:
    """JavaScript `d => ...` / `(d, i) => ...` (`=` of `=>` at k): in `X.forEach(d => ...)`
    d is each element of X; other parameters are not read."""
    before = tokens[k - 1]
    if before.kind == NAME:
        names, start = [before], k - 1
    elif before.text == ")":
        start = scope.match(tokens)[k - 1]
        names = [t for t in tokens[max(start, 0) : k] if t.kind == NAME]
    else:
        return
    call = start - 1  # the `(` of the iterator's call
    if call > 0 and tokens[call].text == "(" and names:
        receiver = _receiver(scope, tokens, call - 1)
        if receiver is not None:
            scope.bind(names[0].text, "in", receiver, 0, len(receiver))
            names = names[1:]
    for tok in names:
        scope.taint(tok)


def _receiver(scope: _Scope, tokens: list[Tok], k: int) -> list[Tok] | None:
    """The tokens of X in `X.forEach` / `X.each` when `tokens[k]` names an iterator method."""
    if k < 0 or tokens[k].kind != NAME:
        return None
    head, dot, method = tokens[k].text.rpartition(".")
    if method not in _ITERATORS:
        return None
    after_dot = k and tokens[k - 1].kind == PUNCT and tokens[k - 1].text == "."
    if dot:
        prefix = [Tok(NAME, head)]
        return tokens[_chain_start(scope, tokens, k - 1) : k] + prefix if after_dot else prefix
    return tokens[_chain_start(scope, tokens, k - 1) : k - 1] if after_dot else None


def _chain_start(scope: _Scope, tokens: list[Tok], dot: int) -> int:
    """Index of the first token of the call/attribute chain that ends before the `.` at `dot`."""
    match = scope.match(tokens)
    k = dot - 1
    for _ in range(_MAX_LOOK):
        if k < 0:
            return dot
        tok = tokens[k]
        if tok.kind == PUNCT and tok.text in ")]":
            k = match[k]
            if k < 0:
                return dot
            if k and tokens[k - 1].kind == NAME:
                k -= 1
        elif tok.kind not in (NAME, STRING):
            return dot
        if k and tokens[k - 1].kind == PUNCT and tokens[k - 1].text == ".":
            k -= 2
            continue
        return k
    return dot


# -- evaluating expressions ---------------------------------------------------------------

HOME = "home"
SAME = "same"
JOIN = "join"
CWD = "cwd"
TEMP = "temp"
MKTEMP = "mktemp"
ENV = "env"
ENV_MAP = "env-map"
DIRNAME = "dirname"
GLOB = "glob"
LISTDIR = "listdir"
SCANDIR = "scandir"

#: Calls and names that compute paths: name -> how the path follows from the arguments.
_PY_PATHS = {
    "pathlib.Path.home": HOME, "Path.home": HOME, "os.path.expanduser": SAME, "os.path.abspath": SAME,
    "os.path.realpath": SAME, "os.path.normpath": SAME, "os.path.expandvars": SAME, "os.fspath": SAME, "str": SAME,
    "os.path.join": JOIN, "pathlib.Path": JOIN, "Path": JOIN, "pathlib.PurePath": JOIN, "pathlib.PosixPath": JOIN,
    "os.getcwd": CWD, "pathlib.Path.cwd": CWD, "Path.cwd": CWD, "os.path.dirname": DIRNAME,
    "tempfile.mkdtemp": MKTEMP, "tempfile.TemporaryDirectory": MKTEMP, "tempfile.gettempdir": TEMP,
    "os.getenv": ENV, "os.environ.get": ENV, "os.environ": ENV_MAP, "glob.glob": GLOB, "glob.iglob": GLOB,
    "os.listdir": LISTDIR, "os.scandir": SCANDIR,
}
_JS_PATHS = {
    "os.homedir": HOME, "path.join": JOIN, "path.resolve": JOIN, "path.normalize": SAME, "path.dirname": DIRNAME,
    "process.cwd": CWD, "os.tmpdir": TEMP, "fs.mkdtempSync": MKTEMP, "fs.readdirSync": LISTDIR, "String": SAME,
    "process.env": ENV_MAP, "Deno.env.get": ENV, "Deno.cwd": CWD, "Deno.makeTempDirSync": MKTEMP, "Deno.makeTempDir": MKTEMP,
}
_RUBY_PATHS = {
    "Dir.home": HOME, "File.expand_path": SAME, "File.absolute_path": SAME, "File.join": JOIN, "Pathname.new": JOIN,
    "Pathname": JOIN, "Dir.pwd": CWD, "Dir.getwd": CWD, "Dir.tmpdir": TEMP, "Dir.mktmpdir": MKTEMP, "Dir.glob": GLOB,
    "Dir": GLOB, "Dir.children": LISTDIR, "Dir.entries": LISTDIR, "File.dirname": DIRNAME, "ENV.fetch": ENV, "ENV": ENV_MAP,
}
_PERL_PATHS = {
    "glob": GLOB, "File.Spec.catfile": JOIN, "File.Spec.catdir": JOIN, "catfile": JOIN, "catdir": JOIN,
    "File.Temp.tempdir": MKTEMP, "tempdir": MKTEMP, "getcwd": CWD, "cwd": CWD, "Cwd.getcwd": CWD, "Cwd.cwd": CWD,
    "dirname": DIRNAME, "File.Basename.dirname": DIRNAME, "File.HomeDir.my_home": HOME, "$ENV": ENV_MAP,
}
_PHP_PATHS = {"getenv": ENV, "sys_get_temp_dir": TEMP, "getcwd": CWD, "glob": GLOB, "dirname": DIRNAME, "$_ENV": ENV_MAP, "$_SERVER": ENV_MAP}
_PATHS: dict[str, dict[str, str]] = {PYTHON: _PY_PATHS, JAVASCRIPT: _JS_PATHS, RUBY: _RUBY_PATHS, PERL: _PERL_PATHS, PHP: _PHP_PATHS, AWK: {}}
#: Methods of a path object that give a path (Python pathlib; `toString` in JavaScript).
_PATH_METHODS = {
    "expanduser": SAME, "resolve": SAME, "absolute": SAME, "as_posix": SAME, "toString": SAME, "joinpath": JOIN,
    "iterdir": SCANDIR, "glob": GLOB, "rglob": GLOB,
}
#: Where a new temporary directory is made when the call does not say.
_TEMP_DIR = "$TMPDIR"
#: The program that runs code a program in each language downloads and runs.
_RUNNERS = {PYTHON: "python3", JAVASCRIPT: "node", RUBY: "ruby", PERL: "perl", PHP: "php", AWK: "sh"}


def _expression(tokens: list[Tok], start: int, end: int, scope: _Scope, result: Translation | None = None) -> _Value:
    """The value of `tokens[start:end]`; unknown unless all of it is read. With `result`, the
    calls the expression's chains make are recorded as actions."""
    if start >= end or scope.nesting > _MAX_NESTING:
        return _unknown_value()
    # keyword argument (python `cmd=...`, ruby `key: v`): its value
    if end - start > 2 and tokens[start].kind == NAME and tokens[start + 1].text in ("=", ":") and tokens[start + 2].text != "=":
        start += 2
    scope.nesting += 1
    try:
        value, k = _operand(tokens, start, end, scope, result)
        previous_string = tokens[start].kind == STRING
        while k < end:
            tok = tokens[k]
            if tok.kind == PUNCT and (tok.text == "+" or (tok.text == "/" and scope.language == PYTHON)) and k + 1 < end:
                separator = tok.text == "/"
                right, k = _operand(tokens, k + 1, end, scope, result)
            elif (previous_string and tok.kind == STRING) or (scope.language == AWK and tok.kind in (STRING, NAME)):
                separator = False  # "a" "b": implicit concatenation (awk: of any operands)
                right, k = _operand(tokens, k, end, scope, result)
            else:
                return _unknown_value(value.fetched)  # an operator or syntax not read here
            previous_string = tok.kind == STRING
            value = _concatenate(value, right, separator)
        return value
    finally:
        scope.nesting -= 1


def _concatenate(left: _Value, right: _Value, path: bool) -> _Value:
    """`left + right`, or the path `left / right`."""
    texts = [_join_path(a, b) if path else a + b for a in _texts(left) for b in _texts(right)]
    unknown = left.dynamic or right.dynamic or left.text is None or right.text is None
    return _choices(texts, unknown, left.fetched or right.fetched)


def _join_path(base: str, part: str) -> str:
    """os.path.join of two pieces: an absolute or home piece starts over."""
    if not base or part.startswith(("/", "~")):
        return part
    return base + part if base.endswith("/") else base + "/" + part


def _operand(tokens: list[Tok], k: int, end: int, scope: _Scope, result: Translation | None) -> tuple[_Value, int]:
    """One operand and its chain of members, calls and subscripts; returns it and the index after."""
    tok = tokens[k]
    if tok.kind == STRING:
        value = _string_value(tok, scope)
        k += 1
    elif tok.kind == NAME:
        value, k = _name(tokens, k, end, scope, result)
    elif tok.kind == PUNCT and tok.text == "(":
        close = scope.closer(tokens, k, end)
        value = _expression(tokens, k + 1, close, scope, result)
        k = close + 1
    elif tok.kind == PUNCT and tok.text == "[":
        close = scope.closer(tokens, k, end)
        value = _list(tokens, k + 1, close, scope)
        k = close + 1
    else:
        return _unknown_value(), k
    while k < end:
        tok = tokens[k]
        if tok.kind != PUNCT:
            break
        if tok.text == "." and k + 1 < end and tokens[k + 1].kind == NAME:
            member = tokens[k + 1].text
            args, k = _call_arguments(tokens, k + 2, end, scope)
            value = _member(value, member, args, scope, result)
        elif tok.text == "[" or (tok.text == "{" and value.module == ENV_MAP):
            close = scope.closer(tokens, k, end)
            if tok.text == "{" and close == k + 2 and tokens[k + 1].kind == NAME:
                key = _known(tokens[k + 1].text)  # Perl $ENV{HOME}
            else:
                key = _expression(tokens, k + 1, close, scope)
            value = _subscript(value, key)
            k = close + 1
        elif tok.text == "(":  # a computed callee: `f()()`
            k = scope.closer(tokens, k, end) + 1
            value = _unknown_value(value.fetched)
        else:
            break
    return value, k


def _list(tokens: list[Tok], start: int, end: int, scope: _Scope) -> _Value:
    """A list literal `[a, b]`: its items' strings (UNKNOWN for any not known)."""
    value = _Value()
    items: list[str] = []
    k = start
    while k < end:
        stop = scope.end(tokens, k)
        item = _expression(tokens, k, min(stop, end), scope)
        if item.text is None or item.others:
            items.append(UNKNOWN)
            value.dynamic = True
        else:
            items.append(item.text)
            value.dynamic = value.dynamic or item.dynamic
        value.fetched = value.fetched or item.fetched
        k = stop + 1
    value.items = items
    return value


def _string_value(tok: Tok, scope: _Scope) -> _Value:
    if not tok.dynamic:
        return _known(tok.text)
    if tok.parts is not None:  # f"...{expr}...", `...${expr}...`, "...#{expr}..."
        texts = [""]
        dynamic = False
        for index, part in enumerate(tok.parts):
            if index % 2 == 0:
                texts = [t + part for t in texts]
                continue
            inner = tokenize(scope.language, part)
            piece = _expression(inner, 0, len(inner), scope)
            dynamic = dynamic or piece.dynamic or piece.text is None
            texts = [t + p for t in texts for p in _texts(piece)]
            if len(texts) > _MAX_CHOICES:
                return _known(tok.text, True)
        return _choices(texts, dynamic)
    if scope.language in (PERL, PHP):
        return _interpolate(tok.text, scope)
    return _known(tok.text, True)


def _interpolate(text: str, scope: _Scope) -> _Value:
    """A Perl or PHP double-quoted string: `$ENV{HOME}`, `$_ENV['HOME']` and known `$x` put
    in, anything else interpolated is UNKNOWN."""
    out: list[str] = []
    dynamic = False
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c not in "$@" or i + 1 >= n or not (text[i + 1].isalnum() or text[i + 1] in "_{"):
            out.append(c)
            i += 1
            continue
        j = i + 1
        braced = text[j] == "{"
        if braced:
            j += 1
        start = j
        while j < n and (text[j].isalnum() or text[j] == "_"):
            j += 1
        name = text[start:j]
        if braced and j < n and text[j] == "}":
            j += 1
        subscript = None
        if j < n and text[j] in "[{":
            close = text.find("]" if text[j] == "[" else "}", j)
            subscript = text[j + 1 : close if close != -1 else n].strip("'\"")
            j = close + 1 if close != -1 else n
        value = _variable(scope, "$" + name) if c == "$" and subscript is None else None
        if c == "$" and name in ("ENV", "_ENV", "_SERVER") and subscript:
            out.append("$" + subscript)
        elif value is not None and value.text is not None and not value.others:
            out.append(value.text)
            dynamic = dynamic or value.dynamic
        else:
            out.append(UNKNOWN)
            dynamic = True
        i = j
    return _known("".join(out), dynamic)


def _variable(scope: _Scope, name: str) -> _Value | None:
    """The value of a variable the code binds (None when it binds no such name)."""
    bound = scope.bindings.get(name)
    tainted = name in scope.tainted
    if bound is None and not tainted:
        return None
    found = scope.values.get(name)
    if found is not None:
        return found
    if name in scope.busy:
        return _unknown_value()
    scope.busy.add(name)
    values: list[_Value] = []
    for how, tokens, start, end in bound or ():
        value = _expression(tokens, start, end, scope)
        values.append(_element(value) if how == "in" else value)
    scope.busy.discard(name)
    if tainted:
        values.append(_unknown_value())
    if len(values) == 1:
        found = values[0]
    else:
        texts = [t for v in values for t in _texts(v)]
        fetched = next((v.fetched for v in values if v.fetched is not None), None)
        found = _choices(texts, any(v.dynamic for v in values), fetched)
    scope.values[name] = found
    return found


def _element(value: _Value) -> _Value:
    """What iterating `value` yields."""
    if value.items is not None:
        return _choices(value.items, value.dynamic) if value.items else _unknown_value()
    if value.element is not None:
        return _known(value.element, value.dynamic)
    return _unknown_value(value.fetched)


def _name(tokens: list[Tok], k: int, end: int, scope: _Scope, result: Translation | None) -> tuple[_Value, int]:
    """A name, called or not: a module, a variable, a path call, an action of the call table."""
    language = scope.language
    name = _resolve(tokens[k].text, scope.aliases)
    args, k = _call_arguments(tokens, k + 1, end, scope)
    if args is None and language in (PERL, RUBY) and k < end and _bare_call(tokens[k], name in _CALLS[language]) and (name in _CALLS[language] or name in _PATHS[language]):
        args, k = _bare_arguments(tokens, k, end, scope)  # `system "rm -rf /"`, `unlink glob("~/*")`
    return _named(name, args, scope, result), k


def _call_arguments(tokens: list[Tok], k: int, end: int, scope: _Scope) -> tuple[list[_Value] | None, int]:
    """The arguments of a call whose `(` is at k (None when there is none) and the index after."""
    if k < end and tokens[k].kind == PUNCT and tokens[k].text == "(":
        close = scope.closer(tokens, k, end)
        return _arguments(tokens, k, close, scope), close + 1
    return None, k


def _bare_call(tok: Tok, action: bool) -> bool:
    """A Perl or Ruby call without parentheses: its first argument follows the name (a list
    only for actions: `system ["ls"]`; Ruby `Dir["*"]` subscripts)."""
    if tok.kind == STRING or (tok.text == "[" and action):
        return True
    return tok.kind == NAME and tok.text not in _ENDS_EXPRESSION and tok.text not in ("for", "foreach", "end")


def _named(name: str, args: list[_Value] | None, scope: _Scope, result: Translation | None) -> _Value:
    language = scope.language
    if name in ("require", "__import__") and args and args[0].text is not None:
        module = args[0].text
        return _marker(_JS_MODULES.get(module, module) if language == JAVASCRIPT else module.split(".")[0])
    kind = _CALLS[language].get(name)
    if kind is not None and args is not None:
        if result is not None:
            _call(language, name, kind, args, result, scope)
        return _unknown_value(_url(args) or UNKNOWN) if kind == URL else _unknown_value()
    how = _PATHS[language].get(name)
    if how is not None:
        return _path(how, args if args is not None else [], scope)
    if name.startswith("process.env."):
        return _known("$" + name[12:])
    head, dot, rest = name.partition(".")
    variable = _variable(scope, head)
    if variable is None:
        return _unknown_value()
    if not dot:
        return variable if args is None else _unknown_value(variable.fetched)
    return _member(variable, rest, args, scope, result)


def _member(value: _Value, member: str, args: list[_Value] | None, scope: _Scope, result: Translation | None) -> _Value:
    """`value.member` or `value.member(args)`; `member` may be dotted (`path.join`)."""
    if value.module and value.module not in (ENV_MAP, GLOB):
        return _named(value.module + "." + member, args, scope, result)
    if "." in member:
        parts = member.split(".")
        for index, part in enumerate(parts):
            value = _member(value, part, args if index == len(parts) - 1 else None, scope, result)
        return value
    if args is None:
        if value.text is not None and member == "parent":
            return _path(DIRNAME, [value], scope)
        if value.text is not None and member == "path":
            return value
        return _unknown_value(value.fetched)
    how = _PATH_METHODS.get(member)
    if how is not None and value.text is not None:
        return _path(how, [value, *args], scope)
    if member == "split" and value.text is not None and not args:
        split = _Value()
        split.items = value.text.split()
        split.dynamic = value.dynamic
        return split
    if result is not None:
        _method_action(value, member, args, scope, result)
    return _unknown_value(value.fetched)


def _subscript(value: _Value, key: _Value) -> _Value:
    if value.module == ENV_MAP and key.text is not None and not key.dynamic:
        return _known("$" + key.text)
    if value.module == GLOB and key.text is not None:  # Ruby Dir["~/x/*"]
        return _glob(key.text, key.dynamic)
    return _unknown_value(value.fetched)


def _glob(pattern: str, dynamic: bool) -> _Value:
    value = _known(pattern, dynamic)
    value.element = pattern
    return value


def _path(how: str, args: list[_Value], scope: _Scope) -> _Value:
    """The path a path call gives, from its arguments."""
    if how == HOME:
        return _known("~")
    if how == CWD:
        return _known(".")
    if how == TEMP:
        return _known(_TEMP_DIR)
    if how == ENV_MAP or (how == GLOB and not args):
        return _marker(how)  # `os.environ`, Ruby `Dir`: subscripted next
    if how == MKTEMP:
        if scope.language == JAVASCRIPT:
            return _concatenate(args[0], _known("XXXXXX"), False) if args else _unknown_value()
        where = _keyword(args, "dir") or _keyword(args, "tmpdir")
        if where is None and scope.language == PYTHON and len(args) > 2:
            where = args[2]  # mkdtemp(suffix, prefix, dir)
        return _concatenate(where if where is not None else _known(_TEMP_DIR), _known("tmpXXXXXXXX"), True)
    positional = [a for a in args if not _is_keyword(a)]
    if how == ENV:
        first_name = positional[0] if positional else None
        if first_name is not None and first_name.text is not None and not first_name.dynamic and not first_name.others:
            return _known("$" + first_name.text)
        return _unknown_value()
    if not positional:
        return _unknown_value()
    first = positional[0]
    if how == SAME:
        return first
    if how == JOIN:
        value = first
        for piece in positional[1:]:
            value = _concatenate(value, piece, True)
        return value
    if how == DIRNAME:
        return _choices([t.rsplit("/", 1)[0] if "/" in t else "." for t in _texts(first)], first.dynamic or first.text is None)
    if how == LISTDIR:
        value = _Value()
        value.element = "*"  # bare names, relative to the cwd when used alone
        return value
    if first.text is None:
        return _unknown_value()
    pattern = first.text
    if len(positional) > 1 and positional[1].text is not None:  # Path(d).glob(p)
        pattern = _join_path(pattern, positional[1].text)
    elif how == SCANDIR:
        pattern = _join_path(pattern, "*")
    value = _glob(pattern, first.dynamic)
    if how == SCANDIR:
        value.text = None  # an iterator, not a path
    return value


def _is_keyword(value: _Value) -> bool:
    tokens = value.tokens
    return len(tokens) > 2 and tokens[0].kind == NAME and tokens[1].text in ("=", ":") and tokens[2].text != "="


def _keyword(args: list[_Value], name: str) -> _Value | None:
    for arg in args:
        if _is_keyword(arg) and arg.tokens[0].text.lower() == name:
            return arg
    return None


def _url(args: list[_Value]) -> str | None:
    """The URL a fetching call is given (`requests.request("POST", url)` too)."""
    if not args:
        return None
    first = args[0]
    text = first.text if first.text is not None else (first.items[0] if first.items else None)
    if (text is None or not text.startswith(("http://", "https://", "ftp://"))) and len(args) > 1 and args[1].text is not None:
        return args[1].text
    return text


def _method_action(value: _Value, method: str, args: list[_Value], scope: _Scope, result: Translation) -> None:
    """Calls on an object that act: `path.unlink()`, `path.write_text(...)`, and downloaded
    code run by `.then(eval)`."""
    kind = _PY_PATH_METHODS.get(method) if scope.language == PYTHON else None
    if kind is not None and (value.text is not None or kind != READ):
        _file_action(kind, value, args, result)
    elif method == "then" and value.fetched is not None and any(_runs_code(arg, scope) for arg in args):
        _fetch_and_run(value.fetched, _RUNNERS[scope.language], result)


def _runs_code(value: _Value, scope: _Scope) -> bool:
    """The argument names or calls eval/exec/Function (`.then(eval)`, `.then(t => eval(t))`)."""
    table = _CALLS[scope.language]
    return any(tok.kind == NAME and table.get(_resolve(tok.text, scope.aliases)) == CODE for tok in value.tokens)


def _fetch_and_run(url: str, runner: str, result: Translation) -> None:
    """Code downloaded and run in one go: in shell terms `curl URL | runner`."""
    quoted = UNKNOWN if url == UNKNOWN else "'" + url.replace("'", "'\\''") + "'"
    result.actions.append(Action("shell", f"curl {quoted} | {runner}", dynamic=url == UNKNOWN))


def translate(language: str, code: str, _depth: int = 0) -> Translation:
    result = Translation()
    tokens = tokenize(language, code)
    words = _ACTION_WORDS[language]
    acts = False
    for k, tok in enumerate(tokens):
        kind = tok.kind
        if kind == NAME:
            # every name `_may_act` tests is the last part of a name token (an alias too: its
            # import names it), so code without one does nothing this reads
            acts = acts or tok.text.rpartition(".")[2] in words
        elif kind == SHELL:
            result.actions.append(Action("shell", tok.text, dynamic=tok.dynamic))
            if tok.dynamic:
                result.dynamic = True
        elif language == AWK and kind == PUNCT and tok.text == "|":
            _awk_pipe(tokens, k, result)
    if not acts:
        return result
    scope = _Scope(language, tokens, _depth)
    match = scope.match(tokens)
    aliases = scope.aliases
    n = len(tokens)
    for k in range(n):
        tok = tokens[k]
        # Each chain is read from its start (`Path.home().joinpath(x).unlink()`); calls nested
        # in arguments are read when their own chain starts: post(url, data=open(".env")).
        if tok.kind == NAME:
            if (not k or tokens[k - 1].kind != PUNCT or tokens[k - 1].text != ".") and _may_act(tokens, k, match, aliases, words):
                _operand(tokens, k, n, scope, result)
        elif tok.kind == PUNCT and tok.text == "(" and _groups(tokens, k) and _may_act(tokens, k, match, aliases, words):
            _operand(tokens, k, n, scope, result)
    return result


def _groups(tokens: list[Tok], k: int) -> bool:
    """The `(` at k groups an expression (it does not hold a call's arguments)."""
    return not k or not (tokens[k - 1].kind in (NAME, STRING) or tokens[k - 1].text in (")", "]"))


def _may_act(tokens: list[Tok], k: int, match: list[int], aliases: dict[str, str], words: frozenset[str]) -> bool:
    """The chain starting at k has a member or call named like an action (`rmtree`, `unlink`,
    `then`, ...): only such chains are evaluated, so long programs cost little."""
    n = len(tokens)
    if tokens[k].kind == NAME:
        text = tokens[k].text
        if (_resolve(text, aliases) if aliases else text).rpartition(".")[2] in words:
            return True
        k += 1
    elif match[k] < 0:
        return False
    else:
        k = match[k] + 1
    while k < n:
        tok = tokens[k]
        if tok.kind != PUNCT:
            return False
        if tok.text in "([":
            if match[k] < 0:
                return False
            k = match[k] + 1
        elif tok.text == "." and k + 1 < n and tokens[k + 1].kind == NAME:
            if tokens[k + 1].text.rpartition(".")[2] in words:
                return True
            k += 2
        else:
            return False
    return False


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
            for qualified in (*_JS_CALLS, *_JS_PATHS):
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


def _arguments(tokens: list[Tok], open_index: int, close: int, scope: _Scope) -> list[_Value]:
    """The arguments of a call whose `(` is at `open_index` and `)` at `close`."""
    args: list[_Value] = []
    match = scope.match(tokens)
    start = k = open_index + 1
    while k < close:
        tok = tokens[k]
        if tok.kind == PUNCT:
            if tok.text in "([{" and match[k] > k:
                k = min(match[k], close)
            elif tok.text == ",":
                args.append(_argument(tokens, start, k, scope))
                start = k + 1
        k += 1
    if start < close:
        args.append(_argument(tokens, start, close, scope))
    return args


def _argument(tokens: list[Tok], start: int, end: int, scope: _Scope) -> _Value:
    return _expression(tokens, start, end, scope).copy(tokens[start:end])


def _bare_arguments(tokens: list[Tok], start: int, end: int, scope: _Scope) -> tuple[list[_Value], int]:
    """Perl/Ruby call without parentheses: arguments up to `;`, a closing bracket or a keyword."""
    args: list[_Value] = []
    match = scope.match(tokens)
    first = k = start
    while k < end:
        tok = tokens[k]
        if tok.kind == PUNCT:
            if tok.text in "([{":
                if match[k] < 0:
                    break
                k = match[k]
            elif tok.text in ")]};":
                break
            elif tok.text == ",":
                args.append(_argument(tokens, first, k, scope))
                first = k + 1
        elif tok.kind == NAME and tok.text in _ENDS_EXPRESSION:
            break
        k += 1
    if first < k:
        args.append(_argument(tokens, first, k, scope))
    return args, k


def _call(language: str, name: str, kind: str, args: list[_Value], result: Translation, scope: _Scope) -> None:
    label = name.rsplit(".", 1)[-1] if language != PYTHON else name
    if not args:
        return
    first = args[0]
    if kind in _RUNS:
        fetched = next((a.fetched for a in args if a.fetched is not None), None)
        if fetched is not None:  # exec(urlopen(url).read()), os.system(requests.get(url).text)
            _fetch_and_run(fetched, _RUNNERS[language] if kind == CODE else "sh", result)
            return
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
        elif scope.depth < _MAX_CODE_DEPTH:
            inner = translate(language, first.text, scope.depth + 1)
            result.actions.extend(inner.actions)
            result.problems.extend(inner.problems)
            result.dynamic = result.dynamic or inner.dynamic
    elif kind == OPEN:
        _open(language, args, result)
    else:
        _file_action(kind, first, args[1:], result)


#: Kinds of call that run code or commands.
_RUNS = frozenset((SHELL_CALL, SPAWN, EXEC_ARGS, CODE))
#: Kinds of file call that change files: a target computed at run time is still reported (as UNKNOWN).
_CHANGES = frozenset((RM, RM_RF, RMDIR, WRITE, APPEND, COPY, MOVE))


def _unknown(label: str, result: Translation) -> None:
    result.dynamic = True
    message = f"{label} with an argument computed at run time"
    if message not in result.problems:
        result.problems.append(message)


def _file_action(kind: str, first: _Value, rest: list[_Value], result: Translation) -> None:
    if first.text is not None:
        texts = _texts(first)
    elif first.items and kind == URL:
        texts = first.items[:1]
    elif kind in _CHANGES:
        texts = [UNKNOWN]  # a path computed at run time: still a delete or a write, of something
    else:
        result.dynamic = True
        return
    dynamic = first.dynamic or first.text is None
    if dynamic:
        result.dynamic = True
    if kind == RM and any(tok.text == "recursive" for arg in rest for tok in arg.tokens):
        kind = RM_RF
    for text in texts:
        unknown = dynamic or text == UNKNOWN
        if kind == RM_RF:
            result.actions.append(Action("argv", argv=["rm", "-rf", text], dynamic=unknown))
        elif kind == RM:
            result.actions.append(Action("argv", argv=["rm", text], dynamic=unknown))
        elif kind == RMDIR:
            result.actions.append(Action("argv", argv=["rmdir", text], dynamic=unknown))
        elif kind == READ:
            program = "curl" if text.startswith(("http://", "https://")) else "cat"
            result.actions.append(Action("argv", argv=[program, text], dynamic=unknown))
        elif kind == WRITE or kind == APPEND:
            result.actions.append(Action("argv", text, argv=["true"], op=">" if kind == WRITE else ">>", dynamic=unknown))
        elif kind == URL:
            url = text
            if not url.startswith(("http://", "https://", "ftp://")) and rest and rest[0].text is not None:
                url = rest[0].text  # requests.request("POST", url)
            result.actions.append(Action("argv", argv=["curl", url], dynamic=unknown))
        elif kind == COPY or kind == MOVE:
            target = rest[0].text if rest and rest[0].text is not None else UNKNOWN
            result.actions.append(Action("argv", argv=[kind, text, target], dynamic=unknown or target == UNKNOWN))


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
            path = _known(spec[len(mode) :].strip(), args[1].dynamic)
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


def _action_words(language: str) -> frozenset[str]:
    """Last names of the calls and methods that act: a chain with none of them does nothing."""
    words = {name.rpartition(".")[2] for name in _CALLS[language]}
    if language == PYTHON:
        words.update(_PY_PATH_METHODS)
    if language == JAVASCRIPT:
        words.add("then")
    return frozenset(words)


_ACTION_WORDS = {language: _action_words(language) for language in _CALLS}
