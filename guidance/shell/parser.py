"""Recursive-descent parser for bash command lists.

Hot path module: standard library only, no `typing` at run time.

Grammar (bash subset, lenient): list = and_or ((";" | "&" | newline) and_or)*;
and_or = pipeline (("&&" | "||") pipeline)*; pipeline = ["!"] ["time" ["-p"]] command
(("|" | "|&") command)*; command = simple | "(" list ")" | "{" list "}" | if | for | select
| while | until | case | "((" arith "))" | "[[" words "]]" | function definition, each
compound followed by redirections. Errors never stop the parse: they are recorded in the
shared `ParseState`, the offending token is skipped and parsing goes on, so every command
before (and, where possible, after) the error is still seen.
"""

from __future__ import annotations

from cf_guidance.limits import MAX_SHELL_COMMANDS, MAX_SHELL_WORDS
from cf_guidance.shell.lexer import EOF, MAX_PARSE_NESTING, NEWLINE, OP, REDIRECT_OPS, WORD, Heredoc, Lexer, ParseState, Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Union

    from cf_guidance.shell.lexer import Token

    Node = Union["SimpleNode", "CompoundNode", "FunctionNode", "PlainNode", "LiteralNode"]

_NO_STOPS: frozenset[str] = frozenset()
_CASE_ENDS = frozenset((";;", ";&", ";;&"))
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789-.:")


class Redirect:
    """`op` as written without the fd (">", ">>", "<<", "<<<", ">&", ...); `fd` the
    explicit descriptor ("2" in `2>&1`); `heredoc` the body for `<<` / `<<-`."""

    __slots__ = ("op", "fd", "target", "heredoc")

    def __init__(self, op: str, fd: str, target: Word | None, heredoc: Heredoc | None) -> None:
        self.op = op
        self.fd = fd
        self.target = target
        self.heredoc = heredoc


class SimpleNode:
    __slots__ = ("words", "redirects", "src", "start", "end", "prefix")

    def __init__(self, src: str, start: int) -> None:
        self.words: list[Word] = []
        self.redirects: list[Redirect] = []
        self.src = src
        self.start = start
        self.end = start
        #: pipeline prefixes that act as wrappers ("time")
        self.prefix: list[str] = []

    @property
    def text(self) -> str:
        return self.src[self.start : self.end].strip()


class CompoundNode:
    """Subshell, group, if, loops, case, `((...))`: `bodies` are the command lists that may
    run, `words` the words expanded on the way (for-lists, case subjects and patterns)."""

    __slots__ = ("kind", "bodies", "words", "redirects", "variable")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.bodies: list[CommandList] = []
        self.words: list[Word] = []
        self.redirects: list[Redirect] = []
        #: the loop variable of `for NAME in ...` / `select NAME in ...`
        self.variable = ""


class FunctionNode:
    __slots__ = ("name", "body")

    def __init__(self, name: str, body: Node) -> None:
        self.name = name
        self.body = body


class CommandList:
    """`items`: and-or lists, each a list of pipelines (a list of nodes), with its `&` flag."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple[list[list[Node]], bool]] = []


def parse(src: str, state: ParseState | None = None, plain: bool = True) -> tuple[CommandList, ParseState]:
    """Parse a whole command string; problems are collected, never raised. `plain=False`
    skips the plain fast path (for a caller that already found the line not plain)."""
    state = state if state is not None else ParseState()
    if plain:
        tree = parse_plain(src)
        if tree is not None:
            state.commands = tree[1]
            return tree[0], state
    parser = Parser(src, 0, state)
    return parser.parse_program(), state


#: Characters of a "plain" command line (`git status --short && npm test`): words of these
#: characters between blanks and the operators `&&`, `||`, `|`, `;` need none of the lexer's
#: quoting, expansion, glob, brace, redirection, comment or grouping rules.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t-_./=:@%+^~|&;")
#: Longer lines take the full parser (keeps the fast path far below every parse limit).
_PLAIN_MAX_CHARS = 1024
#: First words the full parser treats as syntax (or may, in some position): never fast.
_PLAIN_RESERVED = frozenset((
    "time", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "select",
    "case", "esac", "function", "coproc", "in",
))


def split_plain(src: str) -> CommandList | None:
    """The command list of a plain command line, its simple commands as `PlainNode`s, built
    without the lexer; None when the line is not plain (anything else, including every
    syntax error, takes the full parser)."""
    if len(src) > _PLAIN_MAX_CHARS or not _PLAIN.issuperset(src):
        return None
    return _plain_tree(src, src.split())  # only blanks split here: the other whitespace is not plain


_PLAIN_OPS = frozenset(("&&", "||", "|", ";"))


def _plain_tree(src: str, tokens: list[str]) -> CommandList | None:
    """The tree of `tokens`, the blank-separated chunks of `src` in order. A chunk mixing
    words and operators (`a&&b`, `make;`) is split into its pieces and the tree built again.

    Words hold no operator character, so between a command's first word and the operator
    after it lie only its words and blanks: `find` from there meets that operator first,
    and the command's text is what lies between, without the trailing blanks."""
    result = CommandList()
    items = result.items
    and_or: list[list[Node]] = []
    pipeline: list[Node] = []
    words: list[str] = []  # of the simple command being read
    start = pos = 0  # where it starts; where the next token is looked for
    find = src.find
    for token in tokens:
        if token in _PLAIN_OPS:
            if not words:
                return None  # an operator with no command before it: a syntax error
            at = find(token, pos)
            pipeline.append(PlainNode(src, start, src[start:at].rstrip(), words))
            words = []
            pos = at + len(token)
            if token != "|":
                and_or.append(pipeline)
                pipeline = []
                if token == ";":
                    items.append((and_or, False))
                    and_or = []
        elif "|" in token or "&" in token or ";" in token:
            pieces = _operator_pieces(tokens)
            return _plain_tree(src, pieces) if pieces is not None else None
        elif words:
            words.append(token)
        elif token in _PLAIN_RESERVED:
            return None
        else:
            words = [token]
            start = find(token, pos)  # only blanks lie before it
    if words:
        pipeline.append(PlainNode(src, start, src[start:].rstrip(), words))
        and_or.append(pipeline)
        items.append((and_or, False))
    elif pipeline or and_or:
        return None  # ends in `|`, `&&` or `||`: the full parser reports it
    return result if items else None


def _operator_pieces(tokens: list[str]) -> list[str] | None:
    """`tokens` with every chunk mixing words and operators split into its pieces (`a&&b`
    -> `a`, `&&`, `b`); None for an operator a plain line does not have (background `&`,
    `|&`, `;;`, `;&`, `;|`: the full parser decides)."""
    pieces: list[str] = []
    for token in tokens:
        n = len(token)
        i = 0
        while i < n:
            c = token[i]
            if c in "|&;":
                op = token[i : i + 2]
                if op != "&&" and op != "||":
                    op = c
                    if c == "&" or token[i + 1 : i + 2] in ("&", ";") or (c == ";" and token[i + 1 : i + 2] == "|"):
                        return None
                pieces.append(op)
                i += len(op)
                continue
            j = i + 1
            while j < n and token[j] not in "|&;":
                j += 1
            pieces.append(token[i:j])
            i = j
    return pieces


def parse_plain(src: str) -> tuple[CommandList, int] | None:
    """The tree of a plain command line (the common case: about a third of the cost of the
    full parser), with the number of simple commands; None when the line is not plain.
    Gives exactly the tree `Parser.parse_program` gives (tests/shell/test_shell_parser.py
    compares them)."""
    tree = split_plain(src)
    if tree is None:
        return None
    commands = 0
    for and_or, _ in tree.items:
        for pipeline in and_or:
            pipeline[:] = [node.simple() if isinstance(node, PlainNode) else node for node in pipeline]
            commands += len(pipeline)
    return tree, commands


_NO_REDIRECTS: list[tuple[str, str]] = []


class PlainNode:
    """A simple command of a plain line: its words exactly as written (no quoting, expansion
    or redirection exists in a plain line, so each word is its own value) and where it stands
    in `src`. `simple()` gives the `SimpleNode` the full parser builds for it."""

    __slots__ = ("words", "src", "start", "text")

    #: as a LiteralNode has them (the analysis handles both alike): no redirection (a list
    #: shared by all, never changed) and no glob
    redirects = _NO_REDIRECTS
    glob = False

    def __init__(self, src: str, start: int, text: str, words: list[str]) -> None:
        self.words = words
        self.src = src
        self.start = start
        #: `src` from the first word to the end of the last (SimpleNode.text)
        self.text = text

    @property
    def raws(self) -> list[str]:
        """The words as written: each is its own value."""
        return self.words

    def simple(self) -> SimpleNode:
        node = SimpleNode(self.src, self.start)
        node.end = self.start + len(self.text)
        for text in self.words:
            word = Word()
            word.value = word.raw = text
            node.words.append(word)
        return node


#: Unquoted characters of a literal word: the plain ones and the glob characters.
_LITERAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+^~*?[]")
_DIGITS = frozenset("0123456789")
#: Characters that make a line not literal wherever they stand (inside single quotes they
#: would be literal, but such lines are rare enough to leave to the full parser).
_NEVER_LITERAL = frozenset("$`\\\n")
#: Whole redirection tokens agents write most, as (fd + op, target): what the lexer reads.
_REDIRECT_TOKENS = {
    "2>&1": ("2>&", "1"), "1>&2": ("1>&", "2"), ">&2": (">&", "2"), ">/dev/null": (">", "/dev/null"),
    "2>/dev/null": ("2>", "/dev/null"), "&>/dev/null": ("&>", "/dev/null"), "1>/dev/null": ("1>", "/dev/null"),
}


class LiteralNode:
    """A simple command of a literal line (see `split_literal`): its word values after quote
    removal, the words as written, its redirections as the (fd + op, target) pairs the
    analysis reports, its text, and whether its first word holds an unquoted glob character."""

    __slots__ = ("words", "raws", "redirects", "text", "glob")

    def __init__(self, words: list[str], raws: list[str], redirects: list[tuple[str, str]], text: str, glob: bool) -> None:
        self.words = words
        self.raws = raws
        self.redirects = redirects
        self.text = text
        self.glob = glob


def split_literal(src: str) -> CommandList | None:
    """The command list of a literal line, its simple commands as `LiteralNode`s, built
    without the lexer; None for any other line (which takes the full parser).

    A literal line is a plain line that may also hold globs (`*.py`), single- or double-quoted
    strings and redirections to such words (`2>&1`, `>/dev/null`, `>> log`, `< in.txt`; no
    heredoc or here-string), with no `$`, backquote, backslash or newline anywhere, each
    command starting with a word that is not reserved. Inside such quotes nothing is special
    but the closing quote, so each word is its value with the quotes removed, exactly as the
    lexer reads it. Anything else (braces, commas, `(` or `#` outside quotes, `&` alone,
    `|&`, an unterminated quote, a missing target, a reserved first word) returns None;
    tests/shell/test_shell_fast_path.py compares the analyses both ways."""
    n = len(src)
    if n > _PLAIN_MAX_CHARS or not _NEVER_LITERAL.isdisjoint(src) or "<<" in src:
        return None  # cheap early answer for lines that expand, escape or span lines
    result = CommandList()
    items = result.items
    and_or: list[list[Node]] = []
    pipeline: list[Node] = []
    words: list[str] = []  # of the simple command being read
    raws: list[str] = []
    redirects: list[tuple[str, str]] = []
    start = end = 0  # of the command's text
    glob = False
    find = src.find
    superset = _LITERAL.issuperset
    i = 0
    while i < n:
        j = find(" ", i)
        if j == -1:
            j = n
        token = src[i:j]
        if superset(token):  # the common case: an unquoted word up to the next blank
            if words and token:
                words.append(token)
                raws.append(token)
                end = j
                i = j + 1
                continue
            if not token:  # another blank
                i += 1
                continue
            value = raw = token  # a first word: checked below
            k = j
            after = j + 1  # where the next token is looked for
        elif src[i] == '"' or src[i] == "'":  # a word starting with a quoted string
            word = _literal_word(src, i, n)
            if word is None:
                return None
            value, k = word
            raw = src[i:k]
            after = k
        else:
            pair = _REDIRECT_TOKENS.get(token)
            if pair is not None:
                if not words:
                    return None  # a redirection first
                redirects.append(pair)
                end = j
                i = j + 1
                continue
            c = src[i]
            if c == "\t":
                i += 1
                continue
            fd = ""
            if c in _DIGITS:  # `2>&1`: digits right before `<` or `>` are the redirection's fd
                j = i + 1
                while j < n and src[j] in _DIGITS:
                    j += 1
                if j < n and (src[j] == "<" or src[j] == ">"):
                    fd = src[i:j]
                    i = j
                    c = src[i]
            if c == "<" or c == ">" or (c == "&" and src[i + 1 : i + 2] == ">"):
                op = _redirect_op(src, i)
                if not op or not words:
                    return None  # heredoc, here-string, process substitution; or a redirect first
                i += len(op)
                while i < n and (src[i] == " " or src[i] == "\t"):
                    i += 1
                if i < n and src[i] in _DIGITS:  # `>&1>x`: the lexer reads `1>` as a redirection
                    j = i + 1
                    while j < n and src[j] in _DIGITS:
                        j += 1
                    if j < n and (src[j] == "<" or src[j] == ">"):
                        return None
                j = find(" ", i)
                if j == -1:
                    j = n
                target = (src[i:j], j) if j > i and superset(src[i:j]) else _literal_word(src, i, n)  # (`/dev/null`)
                if target is None:
                    return None  # no target, or one that is not literal
                redirects.append((fd + op, target[0]))
                end = i = target[1]
                continue
            if c == "|" or c == "&" or c == ";":
                if not words:
                    return None  # an operator with no command before it: a syntax error
                op = src[i : i + 2]
                if op != "&&" and op != "||":
                    if op == "|&" or op == ";;" or op == ";&" or c == "&":
                        return None  # background `&`, `|&`, `;;`, `;&`: the full parser decides
                    op = c
                i += len(op)
                pipeline.append(LiteralNode(words, raws, redirects, src[start:end], glob))
                words = []
                raws = []
                redirects = []
                if op != "|":
                    and_or.append(pipeline)
                    pipeline = []
                    if op == ";":
                        items.append((and_or, False))
                        and_or = []
                continue
            word = _literal_word(src, i, n)
            if word is None:
                return None
            value, k = word
            raw = src[i:k]
            after = k
        if not words:
            if value in _PLAIN_RESERVED or value == "[[":
                return None
            start = i
            glob = "*" in value or "?" in value or "[" in value
            if glob and len(raw) != len(value):
                return None  # quoted: which glob characters are quoted is not kept
        words.append(value)
        raws.append(raw)
        end = k
        i = after
    if words:
        pipeline.append(LiteralNode(words, raws, redirects, src[start:end], glob))
        and_or.append(pipeline)
        items.append((and_or, False))
    elif pipeline or and_or:
        return None  # ends in `|`, `&&` or `||`: the full parser reports it
    return result if items else None


def _redirect_op(src: str, i: int) -> str:
    """The redirection operator at `i` as the lexer reads it (longest first); "" for the
    ones a literal line does not have (`<<`, `<<-`, `<<<`, `<(`, `>(`)."""
    two = src[i : i + 2]
    if two == "&>":
        return "&>>" if src[i + 2 : i + 3] == ">" else "&>"
    if two == "<<" or two == "<(" or two == ">(":
        return ""
    if two in _TWO_CHAR_REDIRECTS:
        return two
    return src[i]


_TWO_CHAR_REDIRECTS = frozenset((">>", ">&", ">|", "<&", "<>"))


def _literal_word(src: str, i: int, n: int) -> tuple[str, int] | None:
    """(value, end) of the literal word at `i`, or None if it is not literal (or empty)."""
    parts: list[str] = []
    k = i
    while k < n:
        c = src[k]
        if c in _LITERAL:
            j = k + 1
            while j < n and src[j] in _LITERAL:
                j += 1
            parts.append(src[k:j])
            k = j
        elif c == "'":
            j = src.find("'", k + 1)
            if j == -1:
                return None
            parts.append(src[k + 1 : j])
            k = j + 1
        elif c == '"':
            j = src.find('"', k + 1)
            if j == -1:
                return None
            parts.append(src[k + 1 : j])  # holds no `$`, backquote or backslash (see split_literal)
            k = j + 1
        elif c in " \t|&;<>":
            break
        else:
            return None
    if k == i:
        return None
    return "".join(parts), k


class Parser:
    __slots__ = ("lexer", "state", "src", "_token")

    def __init__(self, src: str, pos: int, state: ParseState) -> None:
        self.src = src
        self.state = state
        self.lexer = Lexer(src, pos, state, self._subparse)
        self._token: Token | None = None

    # -- token helpers ------------------------------------------------------------------

    def peek(self) -> Token:
        if self._token is None:
            self._token = self.lexer.next()
        return self._token

    def take(self) -> Token:
        token = self.peek()
        self._token = None
        return token

    def _is_op(self, op: str) -> bool:
        token = self.peek()
        return token.kind == OP and token.op == op

    def _is_reserved(self, name: str) -> bool:
        token = self.peek()
        word = token.word
        return token.kind == WORD and word is not None and not word.quoted and word.value == name

    def _skip_newlines(self) -> None:
        while self.peek().kind == NEWLINE:
            self.take()

    def _expect_word(self, name: str, construct: str) -> None:
        self._skip_newlines()
        if self._is_reserved(name):
            self.take()
        elif self.peek().kind == EOF:
            self.state.problem(f"unexpected end of input: missing {name!r} to close {construct!r}")
        else:
            self.state.problem(f"syntax error: expected {name!r} in {construct!r}")

    def _expect_op(self, op: str, construct: str) -> None:
        self._skip_newlines()
        if self._is_op(op):
            self.take()
        elif self.peek().kind == EOF:
            self.state.problem(f"unexpected end of input: missing {op!r} to close {construct!r}")
        else:
            self.state.problem(f"syntax error: expected {op!r} in {construct!r}")

    def _subparse(self, src: str, pos: int, until_paren: bool) -> tuple[Any, int]:
        """Parse a substitution body: from `pos` to its `)` (or the end of `src`)."""
        sub = Parser(src, pos, self.state)
        if until_paren:
            body = sub.parse_list(_NO_STOPS)
            if sub._is_op(")"):
                sub.take()
            elif sub.peek().kind == EOF:
                self.state.problem("unterminated $(...) or process substitution")
            else:
                self.state.problem("syntax error inside $(...)")
            end = sub._token.pos if sub._token is not None else sub.lexer.pos
            return body, end
        return sub.parse_program(), len(src)

    # -- grammar ------------------------------------------------------------------------

    def parse_program(self) -> CommandList:
        result = self.parse_list(_NO_STOPS)
        while self.peek().kind != EOF:
            token = self.take()
            shown = token.op if token.kind == OP else token.word.value if token.word is not None else "?"
            self.state.problem(f"syntax error near {shown!r}")
            result.items.extend(self.parse_list(_NO_STOPS).items)
        return result

    def parse_list(self, stops: frozenset[str]) -> CommandList:
        result = CommandList()
        state = self.state
        state.nesting += 1
        if state.nesting > MAX_PARSE_NESTING:
            state.problem(f"nesting deeper than {MAX_PARSE_NESTING} levels: rest not analysed")
            state.aborted = True
        try:
            while True:
                token = self.peek()
                kind = token.kind
                if kind == NEWLINE or (kind == OP and token.op in (";", "&")):
                    self.take()
                    continue
                if kind == EOF:
                    break
                if kind == OP and (token.op == ")" or token.op in _CASE_ENDS):
                    break
                if stops and kind == WORD and token.word is not None and not token.word.quoted:
                    if token.word.value in stops:
                        break
                before = self.lexer.count
                and_or = self.parse_and_or()
                if self.lexer.count == before and self._token is token:
                    break  # no progress: let the caller report the token
                background = False
                if self._is_op("&"):
                    self.take()
                    background = True
                result.items.append((and_or, background))
        finally:
            state.nesting -= 1
        return result

    def parse_and_or(self) -> list[list[Node]]:
        pipelines = [self.parse_pipeline()]
        while self.peek().kind == OP and self.peek().op in ("&&", "||"):
            self.take()
            self._skip_newlines()
            pipelines.append(self.parse_pipeline())
        return pipelines

    def parse_pipeline(self) -> list[Node]:
        prefix: list[str] = []
        while True:
            if self._is_reserved("!"):
                self.take()
            elif self._is_reserved("time"):
                self.take()
                prefix.append("time")
                if self._is_reserved("-p"):
                    self.take()
            else:
                break
        nodes = [self.parse_command()]
        if prefix and isinstance(nodes[0], SimpleNode):
            nodes[0].prefix = prefix
        while self.peek().kind == OP and self.peek().op in ("|", "|&"):
            self.take()
            self._skip_newlines()
            nodes.append(self.parse_command())
        return nodes

    def parse_command(self) -> Node:
        token = self.peek()
        if token.kind == OP:
            if token.op == "(":
                self.take()
                node = CompoundNode("subshell")
                node.bodies.append(self.parse_list(_NO_STOPS))
                self._expect_op(")", "( ... )")
                return self._compound_redirects(node)
            if token.op == "((":
                self.take()
                node = CompoundNode("arith")
                if token.word is not None:
                    node.words.append(token.word)
                return self._compound_redirects(node)
        elif token.kind == WORD and token.word is not None and not token.word.quoted:
            name = token.word.value
            if name == "{":
                self.take()
                node = CompoundNode("group")
                node.bodies.append(self.parse_list(frozenset(("}",))))
                self._expect_word("}", "{ ... }")
                return self._compound_redirects(node)
            if name == "if":
                return self._compound_redirects(self._parse_if())
            if name in ("while", "until"):
                self.take()
                node = CompoundNode(name)
                node.bodies.append(self.parse_list(frozenset(("do",))))
                self._parse_do_done(node, name)
                return self._compound_redirects(node)
            if name in ("for", "select"):
                return self._compound_redirects(self._parse_for(name))
            if name == "case":
                return self._compound_redirects(self._parse_case())
            if name == "function":
                return self._parse_function_keyword()
            if name == "[[":
                return self._parse_conditional()
            if name == "coproc":
                self.take()
                return self.parse_command()
        return self._parse_simple()

    def _compound_redirects(self, node: CompoundNode) -> CompoundNode:
        while True:
            token = self.peek()
            if token.kind == OP and token.op in REDIRECT_OPS:
                node.redirects.append(self._parse_redirect())
            else:
                return node

    def _parse_simple(self) -> Node:
        token = self.peek()
        node = SimpleNode(self.src, token.pos)
        state = self.state
        state.commands += 1
        if state.commands > MAX_SHELL_COMMANDS:
            state.problem(f"more than {MAX_SHELL_COMMANDS} commands: the rest was not analysed")
            state.aborted = True
        end = token.pos
        while True:
            token = self.peek()
            if token.kind == WORD and token.word is not None:
                self._token = None  # taken
                node.words.append(token.word)
                end = self.lexer.pos
                if len(node.words) > MAX_SHELL_WORDS:
                    state.problem(f"command with more than {MAX_SHELL_WORDS} words: the rest was not analysed")
                    state.aborted = True
                if len(node.words) == 1 and self._is_op("(") and _is_function_name(token.word):
                    return self._parse_function_body(token.word.value)
            elif token.kind == OP and token.op in REDIRECT_OPS:
                node.redirects.append(self._parse_redirect())
                end = self.lexer.pos if self._token is None else self._token.pos
            else:
                if token.kind == OP and token.op == "(" and node.words:
                    self.state.problem("syntax error near '('")
                break
        node.end = end
        return node

    def _parse_redirect(self) -> Redirect:
        token = self.take()
        target_token = self.peek()
        heredoc: Heredoc | None = None
        target: Word | None = None
        if target_token.kind == WORD and target_token.word is not None:
            self.take()
            target = target_token.word
            if token.op in ("<<", "<<-"):
                heredoc = Heredoc(target.value, token.op == "<<-", target.quoted)
                self.lexer.add_heredoc(heredoc)
        else:
            self.state.problem(f"redirection {token.op!r} without a target")
        return Redirect(token.op, token.fd, target, heredoc)

    def _parse_function_body(self, name: str) -> Node:
        self.take()  # "("
        self._expect_op(")", f"{name}()")
        self._skip_newlines()
        return FunctionNode(name, self.parse_command())

    def _parse_function_keyword(self) -> Node:
        self.take()
        token = self.peek()
        name = ""
        if token.kind == WORD and token.word is not None:
            self.take()
            name = token.word.value
        if self._is_op("("):
            self.take()
            self._expect_op(")", f"function {name}")
        self._skip_newlines()
        return FunctionNode(name, self.parse_command())

    def _parse_if(self) -> CompoundNode:
        self.take()
        node = CompoundNode("if")
        node.bodies.append(self.parse_list(frozenset(("then",))))
        self._expect_word("then", "if")
        ends = frozenset(("elif", "else", "fi"))
        node.bodies.append(self.parse_list(ends))
        while True:
            if self._is_reserved("elif"):
                self.take()
                node.bodies.append(self.parse_list(frozenset(("then",))))
                self._expect_word("then", "elif")
                node.bodies.append(self.parse_list(ends))
            elif self._is_reserved("else"):
                self.take()
                node.bodies.append(self.parse_list(frozenset(("fi",))))
            else:
                break
        self._expect_word("fi", "if")
        return node

    def _parse_do_done(self, node: CompoundNode, construct: str) -> None:
        self._skip_newlines()
        if self._is_reserved("{"):  # bash also accepts `for x in a; { ...; }`
            self.take()
            node.bodies.append(self.parse_list(frozenset(("}",))))
            self._expect_word("}", construct)
            return
        self._expect_word("do", construct)
        node.bodies.append(self.parse_list(frozenset(("done",))))
        self._expect_word("done", construct)

    def _parse_for(self, name: str) -> CompoundNode:
        self.take()
        node = CompoundNode(name)
        token = self.peek()
        if token.kind == OP and token.op == "((":
            self.take()
            if token.word is not None:
                node.words.append(token.word)
        elif token.kind == WORD and token.word is not None:
            self.take()
            node.variable = token.word.value
            self._skip_newlines()
            if self._is_reserved("in"):
                self.take()
                while True:
                    token = self.peek()
                    if token.kind != WORD or token.word is None:
                        break
                    self.take()
                    node.words.append(token.word)
        else:
            self.state.problem(f"syntax error: {name!r} without a variable")
        if self._is_op(";"):
            self.take()
        self._parse_do_done(node, name)
        return node

    def _parse_case(self) -> CompoundNode:
        self.take()
        node = CompoundNode("case")
        token = self.peek()
        if token.kind == WORD and token.word is not None:
            self.take()
            node.words.append(token.word)
        self._expect_word("in", "case")
        while True:
            self._skip_newlines()
            token = self.peek()
            if token.kind == EOF:
                self.state.problem("unexpected end of input: missing 'esac' to close 'case'")
                break
            if self._is_reserved("esac"):
                self.take()
                break
            if self._is_op("("):
                self.take()
            while True:
                token = self.peek()
                if token.kind == WORD and token.word is not None:
                    self.take()
                    node.words.append(token.word)
                    if self._is_op("|"):
                        self.take()
                        continue
                break
            if self._is_op(")"):
                self.take()
            else:
                self.state.problem("syntax error: expected ')' after a case pattern")
                if self.peek().kind != EOF:
                    self.take()
            node.bodies.append(self.parse_list(frozenset(("esac",))))
            token = self.peek()
            if token.kind == OP and token.op in _CASE_ENDS:
                self.take()
        return node

    def _parse_conditional(self) -> SimpleNode:
        """`[[ ... ]]`: operators inside are plain words (`<` is not a redirection)."""
        start = self.peek().pos
        node = SimpleNode(self.src, start)
        while True:
            token = self.peek()
            if token.kind == EOF:
                self.state.problem("unexpected end of input: missing ']]'")
                break
            self.take()
            if token.kind == WORD and token.word is not None:
                node.words.append(token.word)
                if token.word.value == "]]" and not token.word.quoted:
                    break
            elif token.kind == OP:
                word = Word()
                word.value = word.raw = token.fd + token.op
                node.words.append(word)
        node.end = self.lexer.pos
        return node


def _is_function_name(word: Word) -> bool:
    return not word.quoted and not word.dynamic and bool(word.value) and all(c in _NAME_CHARS for c in word.value)
