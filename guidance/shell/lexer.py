"""Character-level POSIX/bash lexer: words (with quote removal), operators, heredoc bodies.

Hot path module: standard library only, no `typing` or `re` at run time.

The lexer is context-free; the parser decides which words are reserved. Command and
process substitutions are parsed as they are met (through the `subparse` callback the
parser installs), so a `)` inside a quoted string or a `case` pattern never ends a `$(...)`
early, and the substitution's commands are available to the analysis.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    #: subparse(src, pos, until_paren) -> (parsed list node, position after the closing ")")
    Subparse = Callable[[str, int, bool], tuple[Any, int]]

WORD = 1
OP = 2
NEWLINE = 3
EOF = 4

#: Characters that end an unquoted word.
_BREAK = frozenset(" \t\n;|&()<>")
#: Characters with a meaning inside an unquoted word.
_SPECIAL = frozenset(" \t\n;|&()<>\\'\"$`{},*?[")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
_SPECIAL_PARAMS = frozenset("@*#?-$!0123456789")
#: Longest first: the lexer takes the first operator that matches.
_OPERATORS = (
    ";;&", "<<<", "<<-", "&>>",
    "&&", "||", "|&", ";;", ";&", "<<", ">>", "<&", ">&", "<>", ">|", "&>",
    "&", "|", ";", "(", ")", "<", ">",
)
#: Operators by first character, longest first.
_OPERATORS_BY_CHAR: dict[str, tuple[str, ...]] = {c: tuple(op for op in _OPERATORS if op[0] == c) for c in ";|&()<>"}
REDIRECT_OPS = frozenset(("<<<", "<<-", "&>>", "<<", ">>", "<&", ">&", "<>", ">|", "&>", "<", ">"))
_ANSI_SIMPLE = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
    "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?",
}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCT = frozenset("01234567")
#: Deepest structural nesting parsed before giving up (keeps Python's stack safe).
MAX_PARSE_NESTING = 48


class ParseState:
    """Shared by a parser and every sub-parser it starts for substitutions."""

    __slots__ = ("problems", "nesting", "aborted", "commands")

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.nesting = 0
        self.aborted = False
        #: simple commands parsed so far (parsing stops past MAX_SHELL_COMMANDS)
        self.commands = 0

    def problem(self, message: str) -> None:
        message = one_line(message)
        if message not in self.problems:
            self.problems.append(message)


def one_line(message: str, limit: int = 200) -> str:
    """Problems are one line: control characters become spaces, long ones are cut."""
    if not message.isprintable():
        message = "".join(c if c.isprintable() else " " for c in message)
    return message if len(message) <= limit else message[: limit - 3] + "..."


class Word:
    """One shell word after quote removal; expansions stay as written.

    `subs` holds (kind, parsed list) for each `$(...)`, backtick and process substitution
    in the word; `braces` the value indices of unquoted `{`, `,`, `}` (for brace
    expansion); `splits` the value indices where an unquoted `$IFS` splits the word.
    """

    __slots__ = ("value", "raw", "quoted", "dynamic", "subs", "braces", "glob", "splits")

    def __init__(self) -> None:
        self.value = ""
        self.raw = ""
        self.quoted = False
        self.dynamic = False
        self.subs: list[tuple[str, Any]] = []
        self.braces: list[int] | None = None
        self.glob = False
        self.splits: list[int] | None = None


class Heredoc:
    """A `<<` body: `text` as written; `quoted` delimiters disable expansion."""

    __slots__ = ("delimiter", "strip_tabs", "quoted", "text", "subs", "dynamic")

    def __init__(self, delimiter: str, strip_tabs: bool, quoted: bool) -> None:
        self.delimiter = delimiter
        self.strip_tabs = strip_tabs
        self.quoted = quoted
        self.text = ""
        self.subs: list[tuple[str, Any]] = []
        self.dynamic = False


class Token:
    __slots__ = ("kind", "op", "word", "pos", "fd")

    def __init__(self, kind: int, pos: int, op: str = "", word: Word | None = None, fd: str = "") -> None:
        self.kind = kind
        self.pos = pos
        self.op = op
        self.word = word
        self.fd = fd


class Lexer:
    __slots__ = ("src", "pos", "state", "subparse", "pending", "count")

    def __init__(self, src: str, pos: int, state: ParseState, subparse: Subparse) -> None:
        self.src = src
        self.pos = pos
        self.state = state
        self.subparse = subparse
        self.pending: list[Heredoc] = []
        #: tokens produced so far (the parser uses it to detect lack of progress)
        self.count = 0

    # -- tokens -------------------------------------------------------------------------

    def next(self) -> Token:
        self.count += 1
        src = self.src
        n = len(src)
        i = self.pos
        if self.state.aborted:
            self.pos = n
            return Token(EOF, n)
        while i < n:
            c = src[i]
            if c == " " or c == "\t":
                i += 1
            elif c == "\\" and i + 1 < n and src[i + 1] == "\n":
                i += 2
            elif c == "#":
                j = src.find("\n", i)
                i = n if j == -1 else j
            else:
                break
        if i >= n:
            self.pos = n
            if self.pending:
                self.state.problem(f"unterminated heredoc: missing delimiter {self.pending[0].delimiter!r}")
                self.pending = []
            return Token(EOF, n)
        c = src[i]
        if c == "\n":
            self.pos = i + 1
            if self.pending:
                self._read_heredocs()
            return Token(NEWLINE, i)
        if c in ";|&()<>":
            if not (c in "<>" and i + 1 < n and src[i + 1] == "("):  # `<(...)`, `>(...)`: a word
                if c == "(" and i + 1 < n and src[i + 1] == "(":
                    arith = self._arith_command(i)
                    if arith is not None:
                        return arith
                for op in _OPERATORS_BY_CHAR[c]:
                    if src.startswith(op, i):
                        self.pos = i + len(op)
                        return Token(OP, i, op=op)
        elif c.isdigit():
            j = i
            while j < n and src[j].isdigit():
                j += 1
            if j < n and src[j] in "<>" and not (j + 1 < n and src[j + 1] == "("):
                for op in _OPERATORS_BY_CHAR[src[j]]:
                    if op in REDIRECT_OPS and src.startswith(op, j):
                        self.pos = j + len(op)
                        return Token(OP, i, op=op, fd=src[i:j])
        word, self.pos = self.read_word(i)
        return Token(WORD, i, "", word)

    def _arith_command(self, i: int) -> Token | None:
        """`(( expr ))` as one word, if the parentheses balance; else None (a subshell)."""
        end = _matching_double_paren(self.src, i + 2)
        if end is None:
            return None
        word = Word()
        word.raw = self.src[i:end]
        word.value = word.raw
        word.dynamic = True
        self._scan_expansions(i + 2, end - 2, word.subs)
        self.pos = end
        return Token(OP, i, op="((", word=word)

    def add_heredoc(self, heredoc: Heredoc) -> None:
        self.pending.append(heredoc)

    def _read_heredocs(self) -> None:
        src = self.src
        n = len(src)
        for doc in self.pending:
            start = i = self.pos
            body_end = -1
            while i < n:
                j = src.find("\n", i)
                line_end = n if j == -1 else j
                line = src[i:line_end]
                if doc.strip_tabs:
                    line = line.lstrip("\t")
                if line == doc.delimiter or line == doc.delimiter + "\r":
                    body_end = i
                    i = line_end + 1 if j != -1 else n
                    break
                i = line_end + 1 if j != -1 else n
            if body_end == -1:
                self.state.problem(f"unterminated heredoc: missing delimiter {doc.delimiter!r}")
                body_end = n
                i = n
            text = src[start:body_end]
            if doc.strip_tabs:
                text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
            doc.text = text
            if not doc.quoted:
                doc.dynamic = self._scan_expansions(start, body_end, doc.subs)
            self.pos = i
        self.pending = []

    def _scan_expansions(self, start: int, end: int, subs: list[tuple[str, Any]]) -> bool:
        """Find substitutions in text that expands like a double-quoted string (heredoc
        bodies, arithmetic); returns True if it holds any expansion."""
        src = self.src
        dynamic = False
        i = start
        while i < end:
            c = src[i]
            if c == "\\":
                i += 2
            elif c == "$" or c == "`":
                buf: list[str] = []
                info = [False, False]
                if c == "$":
                    i = self._dollar(i, buf, subs, info, True)
                else:
                    i = self._backtick(i, buf, subs, True)
                    info[0] = True
                dynamic = dynamic or info[0]
            else:
                i += 1
        return dynamic

    # -- words --------------------------------------------------------------------------

    def read_word(self, i: int) -> tuple[Word, int]:
        src = self.src
        n = len(src)
        word = Word()
        start = i
        buf: list[str] = []
        subs = word.subs
        info = [False, False]  # [dynamic, ifs split]
        while i < n:
            c = src[i]
            if c not in _SPECIAL:
                j = i + 1
                while j < n and src[j] not in _SPECIAL:
                    j += 1
                buf.append(src[i:j])
                i = j
                continue
            if c in _BREAK:
                if (c == "<" or c == ">") and i + 1 < n and src[i + 1] == "(":
                    i = self._process_substitution(i, buf, subs)
                    info[0] = True
                    continue
                if c == "(" and buf and buf[-1][-1:] in ("@", "!", "+", "*", "?"):
                    end = _matching_paren(src, i + 1)  # extglob: !(keep) @(a|b)
                    buf.append(src[i:end])
                    word.glob = True
                    i = end
                    continue
                if c == "(" and buf and _is_array_assignment("".join(buf)):
                    end = _matching_paren(src, i + 1)
                    buf.append(src[i:end])
                    self._scan_expansions(i + 1, end, subs)
                    i = end
                    continue
                break
            if c == "\\":
                word.quoted = True
                if i + 1 < n:
                    if src[i + 1] != "\n":
                        buf.append(src[i + 1])
                    i += 2
                else:
                    buf.append("\\")
                    i += 1
            elif c == "'":
                word.quoted = True
                j = src.find("'", i + 1)
                if j == -1:
                    self.state.problem("unterminated single quote")
                    buf.append(src[i + 1 :])
                    i = n
                else:
                    buf.append(src[i + 1 : j])
                    i = j + 1
            elif c == '"':
                word.quoted = True
                i = self._double_quoted(i + 1, buf, subs, info)
            elif c == "$":
                if i + 1 < n and src[i + 1] == "'":
                    word.quoted = True
                    i = self._ansi_c(i + 2, buf)
                elif i + 1 < n and src[i + 1] == '"':
                    word.quoted = True
                    i = self._double_quoted(i + 2, buf, subs, info)
                else:
                    before = len(buf)
                    i = self._dollar(i, buf, subs, info, False)
                    if info[1]:
                        info[1] = False
                        del buf[before:]
                        if word.splits is None:
                            word.splits = []
                        word.splits.append(len(buf))  # a piece index until the end
            elif c == "`":
                i = self._backtick(i, buf, subs, False)
                info[0] = True
            else:  # unquoted { , } * ? [
                if c in "*?[":
                    word.glob = True
                else:
                    if word.braces is None:
                        word.braces = []
                    word.braces.append(len(buf))  # a piece index until the end
                buf.append(c)
                i += 1
        word.value = "".join(buf)
        word.raw = src[start:i]
        word.dynamic = info[0]
        if word.braces is not None or word.splits is not None:
            offsets = [0]
            for piece in buf:
                offsets.append(offsets[-1] + len(piece))
            if word.braces is not None:
                word.braces = [offsets[k] for k in word.braces]
            if word.splits is not None:
                word.splits = [offsets[k] for k in word.splits]
        return word, i

    def _double_quoted(self, i: int, buf: list[str], subs: list[tuple[str, Any]], info: list[bool]) -> int:
        """Read after an opening `"`; returns the index after the closing quote."""
        src = self.src
        n = len(src)
        while i < n:
            c = src[i]
            if c == '"':
                return i + 1
            if c == "\\":
                if i + 1 < n and src[i + 1] in '$`"\\\n':
                    if src[i + 1] != "\n":
                        buf.append(src[i + 1])
                    i += 2
                else:
                    buf.append("\\")
                    i += 1
            elif c == "$":
                i = self._dollar(i, buf, subs, info, True)
                info[1] = False  # no word splitting inside quotes
            elif c == "`":
                i = self._backtick(i, buf, subs, True)
                info[0] = True
            else:
                j = i + 1
                while j < n and src[j] not in '"\\$`':
                    j += 1
                buf.append(src[i:j])
                i = j
        self.state.problem("unterminated double quote")
        return n

    def _ansi_c(self, i: int, buf: list[str]) -> int:
        """Decode `$'...'` from after the opening quote."""
        src = self.src
        n = len(src)
        while i < n:
            c = src[i]
            if c == "'":
                return i + 1
            if c != "\\" or i + 1 >= n:
                buf.append(c)
                i += 1
                continue
            e = src[i + 1]
            i += 2
            if e in _ANSI_SIMPLE:
                buf.append(_ANSI_SIMPLE[e])
            elif e == "x" or e == "u" or e == "U":
                limit = 2 if e == "x" else 4 if e == "u" else 8
                j = i
                while j < n and j - i < limit and src[j] in _HEX:
                    j += 1
                if j == i:
                    buf.append("\\" + e)
                else:
                    buf.append(_char(int(src[i:j], 16)))
                i = j
            elif e in _OCT:
                j = i
                while j < n and j - i < 2 and src[j] in _OCT:
                    j += 1
                buf.append(_char(int(e + src[i:j], 8) & 0xFF))
                i = j
            elif e == "c" and i < n:
                buf.append(chr(ord(src[i]) & 0x1F))
                i += 1
            else:
                buf.append("\\" + e)
        self.state.problem("unterminated $'...' quote")
        return n

    def _dollar(self, i: int, buf: list[str], subs: list[tuple[str, Any]], info: list[bool], quoted: bool) -> int:
        """Read an expansion starting at `$`; appends its text as written to `buf`.

        Sets info[0] (dynamic) for real expansions and info[1] for an unquoted `$IFS`.
        """
        src = self.src
        n = len(src)
        nxt = src[i + 1] if i + 1 < n else ""
        if nxt == "(":
            if i + 2 < n and src[i + 2] == "(":
                end = _matching_double_paren(src, i + 3)
                if end is not None:
                    self._scan_expansions(i + 3, end - 2, subs)
                    buf.append(src[i:end])
                    info[0] = True
                    return end
            node, end = self.subparse(src, i + 2, True)
            subs.append(("$(...)", node))
            buf.append(src[i:end])
            info[0] = True
            return end
        if nxt == "{":
            end = self._braced_parameter(i + 2, subs)
            text = src[i:end]
            buf.append(text)
            if text == "${IFS}" and not quoted:
                info[1] = True
            else:
                info[0] = True
            return end
        if nxt in _NAME_START:
            j = i + 2
            while j < n and src[j] in _NAME_CHARS:
                j += 1
            buf.append(src[i:j])
            if j - i == 4 and src[i + 1 : j] == "IFS" and not quoted:
                info[1] = True
            else:
                info[0] = True
            return j
        if nxt and nxt in _SPECIAL_PARAMS:
            buf.append(src[i : i + 2])
            info[0] = True
            return i + 2
        buf.append("$")
        return i + 1

    def _braced_parameter(self, i: int, subs: list[tuple[str, Any]]) -> int:
        """Skip `${...}` from after `${`, descending into substitutions; returns the end."""
        src = self.src
        n = len(src)
        depth = 1
        while i < n:
            c = src[i]
            if c == "\\":
                i += 2
            elif c == "}":
                depth -= 1
                i += 1
                if depth == 0:
                    return i
            elif c == "{":
                depth += 1
                i += 1
            elif c == "$" and i + 1 < n and src[i + 1] in "({":
                scratch: list[str] = []
                i = self._dollar(i, scratch, subs, [False, False], True)
            elif c == "`":
                i = self._backtick(i, [], subs, True)
            elif c == "'":
                j = src.find("'", i + 1)
                i = n if j == -1 else j + 1
            elif c == '"':
                i = self._double_quoted(i + 1, [], subs, [False, False])
            else:
                i += 1
        self.state.problem("unterminated ${...} expansion")
        return n

    def _backtick(self, i: int, buf: list[str], subs: list[tuple[str, Any]], in_dq: bool) -> int:
        src = self.src
        n = len(src)
        inner: list[str] = []
        j = i + 1
        escapable = '$`\\"' if in_dq else "$`\\"
        while j < n and src[j] != "`":
            if src[j] == "\\" and j + 1 < n and src[j + 1] in escapable:
                inner.append(src[j + 1])
                j += 2
            else:
                inner.append(src[j])
                j += 1
        if j >= n:
            self.state.problem("unterminated backtick substitution")
            end = n
        else:
            end = j + 1
        node, _ = self.subparse("".join(inner), 0, False)
        subs.append(("`...`", node))
        buf.append(src[i:end])
        return end

    def _process_substitution(self, i: int, buf: list[str], subs: list[tuple[str, Any]]) -> int:
        kind = "<(...)" if self.src[i] == "<" else ">(...)"
        node, end = self.subparse(self.src, i + 2, True)
        subs.append((kind, node))
        buf.append(self.src[i:end])
        return end


def _char(code: int) -> str:
    if code > 0x10FFFF:
        return "\ufffd"
    return chr(code)


def _is_array_assignment(text: str) -> bool:
    """`name=(` or `name+=(` starts an array literal, not a subshell."""
    if not text.endswith("="):
        return False
    name = text[:-2] if text.endswith("+=") else text[:-1]
    return bool(name) and name[0] in _NAME_START and all(ch in _NAME_CHARS for ch in name)


def _matching_paren(src: str, i: int) -> int:
    """Index after the `)` closing an array literal that opened before `i`."""
    depth = 1
    n = len(src)
    while i < n:
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "'" or c == '"':
            j = src.find(c, i + 1)
            i = n if j == -1 else j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _matching_double_paren(src: str, i: int) -> int | None:
    """For `((` or `$((` ending before `i`: index after the closing `))`, or None."""
    depth = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i + 2 if i + 1 < n and src[i + 1] == ")" else None
            depth -= 1
        elif c == "\n":
            return None
        i += 1
    return None


def _no_subparse(src: str, pos: int, until_paren: bool) -> tuple[Any, int]:
    return None, len(src)


def decode_escapes(text: str) -> str:
    """Backslash escapes as `$'...'`, `echo -e` and `printf` read them."""
    if "\\" not in text:
        return text
    buf: list[str] = []
    Lexer(text.replace("'", "\\'") + "'", 0, ParseState(), _no_subparse)._ansi_c(0, buf)
    return "".join(buf)


def split_words(text: str, raw: bool = False) -> list[str]:
    """Quote-aware split of a string into word values (for `env -S` and similar), or into the
    words as written (`raw`: an array literal's elements)."""
    lexer = Lexer(text, 0, ParseState(), _no_subparse)
    words: list[str] = []
    while True:
        token = lexer.next()
        if token.kind == EOF:
            return words
        if token.word is not None:
            words.append(token.word.raw if raw else token.word.value)
        elif token.kind == OP:
            words.append(token.op)
