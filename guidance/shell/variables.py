"""Shell variables whose every possible value is known: reading `"$tmp"` as its value.

Hot path module: standard library only, no `typing` at run time. Used by the analysis only
for lines that assign variables and expand them (`tmp=$(mktemp -d) && ... && rm -rf "$tmp"`,
`OUT=./build; rm -rf "$OUT"`, `dirs=(build dist); rm -rf "${dirs[@]}"`), so such a command
can be judged on the paths it really deletes instead of being asked about.

A known variable holds a tuple of alternatives, each a tuple of elements (one for a plain
variable, several for an array): every value it may have at that point of the line. The
analysis decides when an assignment certainly happens and when it only may (see
`_Analyzer.assign_known` in guidance.shell.analysis); this module reads words and values.
"""

from __future__ import annotations

from cf_guidance.shell.unwrap import SETTERS, assignment

#: Variables a path may keep as written: the path resolver expands them (`$HOME/x`), unless the
#: line assigns them itself.
RESOLVER_VARIABLES = frozenset(("HOME", "TMPDIR", "PWD"))
#: Alternatives one variable, or one command's words, may have (more: not known).
MAX_ALTERNATIVES = 8
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
#: Characters a word read here may hold outside references (no quoting, escapes or expansions).
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./~:@%+=,^*?[]")
_BLANKS = frozenset(" \t\n")


class Known:
    """The variables of the shell being walked whose every possible value is known.

    `values` maps a name to its alternatives. An assignment that certainly runs sets them;
    one that may not run (after `&&`/`||`, in a branch or a loop) adds its values to known
    ones and leaves unknown ones unknown; a subshell's assignments end with it; a new process
    starts knowing nothing. `touched` holds every name the line assigns in any way (`$HOME`
    then no longer means the resolver's home); `volatile` the names a function, alias or trap
    assigns (it may run at any later point: never known again); after `source` or an `eval`
    of computed text (`opaque`) nothing is known; inside a loop whose body cannot be read
    (`blind`) nothing is read.
    """

    __slots__ = ("values", "touched", "volatile", "opaque", "blind", "versions")

    def __init__(self) -> None:
        self.values: dict[str, tuple[tuple[str, ...], ...]] = {}
        self.touched: set[str] = set()
        self.volatile: set[str] = set()
        self.opaque = False
        self.blind = 0
        #: how many times each name was assigned or changed (a trap reads a value only if
        #: nothing assigned it after the trap was set)
        self.versions: dict[str, int] = {}

    def assign(self, name: str, values: tuple[tuple[str, ...], ...] | None, certain: bool, in_function: bool) -> None:
        self.touched.add(name)
        self.versions[name] = self.versions.get(name, 0) + 1
        if in_function or name in self.volatile:
            self.volatile.add(name)
            self.values.pop(name, None)
        elif values is None or self.opaque:
            self.values.pop(name, None)
        elif certain:
            self.values[name] = values
        elif name in self.values:
            merged = tuple(dict.fromkeys(self.values[name] + values))
            if len(merged) > MAX_ALTERNATIVES:
                del self.values[name]
            else:
                self.values[name] = merged

    def forget(self, names: set[str]) -> None:
        for name in names:
            self.touched.add(name)
            self.versions[name] = self.versions.get(name, 0) + 1
            self.values.pop(name, None)

    @staticmethod
    def names_in(text: str) -> set[str]:
        """Every name-like run of characters in `text` (what a builtin's arguments may name)."""
        names: set[str] = set()
        current: list[str] = []
        for c in text + " ":
            if c in _NAME:
                current.append(c)
            elif current:
                names.add("".join(current))
                current = []
        return names

    def unchanged_since(self, values: dict[str, tuple[tuple[str, ...], ...]], versions: dict[str, int]) -> dict[str, tuple[tuple[str, ...], ...]]:
        """Of `values` (known when a trap was set), those no assignment changed since."""
        if self.opaque:
            return {}
        return {name: v for name, v in values.items() if self.versions.get(name) == versions.get(name) and name not in self.volatile}

    def enter_subshell(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        saved = self.values
        self.values = dict(saved)
        return saved

    def leave_subshell(self, saved: dict[str, tuple[tuple[str, ...], ...]] | None) -> None:
        self.values = saved if saved is not None else {}
        self._drop_volatile()

    def _drop_volatile(self) -> None:
        """A body walked apart (alias, trap, function) may have made names volatile: they are
        not known in the restored values either."""
        for name in self.volatile:
            self.values.pop(name, None)

    def enter_process(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        saved = self.values
        self.values = {}
        return saved

    def leave_process(self, saved: dict[str, tuple[tuple[str, ...], ...]] | None) -> None:
        self.values = saved if saved is not None else {}
        self._drop_volatile()

    def may_assign(self, names: set[str] | None) -> None:
        """Code that may run at any later point (a trap handler) assigns `names` (None: any)."""
        if names is None:
            self.opaque = True
            self.values.clear()
            return
        self.volatile.update(names)
        self.touched.update(names)
        self._drop_volatile()


def segments(raw: str) -> list[tuple[bool, str, bool]] | None:
    """A word as written, split into (is_reference, text, quoted) pieces: literal text and
    references `$NAME`, `${NAME}`, `${NAME[@]}`, `${NAME[*]}`, `${NAME[N]}` (text is the name
    with its index), outside or inside double quotes. None for anything else (single quotes,
    backslashes, substitutions, `${x:-y}`, `$@`): such words are not read. `$1`...`$9` are
    references named "1"..."9" (known while a function call with literal arguments is read)."""
    out: list[tuple[bool, str, bool]] = []
    quoted = False
    i = 0
    n = len(raw)
    literal: list[str] = []
    while i < n:
        c = raw[i]
        if c == '"':
            if literal:
                out.append((False, "".join(literal), quoted))
                literal = []
            quoted = not quoted
            i += 1
        elif c == "$":
            if literal:
                out.append((False, "".join(literal), quoted))
                literal = []
            name, i = _reference(raw, i + 1)
            if name is None:
                return None
            out.append((True, name, quoted))
        elif c in _PLAIN or (quoted and c in _BLANKS):
            literal.append(c)
            i += 1
        else:
            return None
    if quoted:
        return None
    if literal:
        out.append((False, "".join(literal), quoted))
    return out


def _reference(raw: str, i: int) -> tuple[str | None, int]:
    """The name (with `[index]`) of the reference after the `$` at i-1, and the index after it."""
    n = len(raw)
    if i < n and raw[i] == "{":
        end = raw.find("}", i)
        if end == -1:
            return None, n
        body = raw[i + 1 : end]
        if len(body) == 1 and body in _POSITIONAL_DIGITS:
            return body, end + 1
        name, bracket, index = body.partition("[")
        if not _is_name(name) or (bracket and (not index.endswith("]") or not _is_index(index[:-1]))):
            return None, n
        return body, end + 1
    if i < n and raw[i] in _POSITIONAL_DIGITS:
        return raw[i], i + 1  # `$1`: a function's argument (known only when the call is read)
    j = i
    while j < n and raw[j] in _NAME:
        j += 1
    name = raw[i:j]
    return (name, j) if _is_name(name) else (None, n)


_POSITIONAL_DIGITS = frozenset("123456789")


def _is_name(text: str) -> bool:
    return bool(text) and text[0] in _NAME_START and all(c in _NAME for c in text)


def _is_index(text: str) -> bool:
    return text in ("@", "*") or text.isdigit()


def _elements(name: str, values: tuple[str, ...]) -> tuple[list[str], bool]:
    """What `${name}` / `${name[@]}` / `${name[N]}` gives from one alternative: its words, and
    whether they stay separate words (`[@]`) rather than one joined string."""
    base, _, index = name.partition("[")
    if not index:
        return [values[0] if values else ""], False
    index = index[:-1]
    if index == "@":
        return list(values), True
    if index == "*":
        return [" ".join(values)], False
    k = int(index)
    return [values[k] if k < len(values) else ""], False


def expand(pieces: list[tuple[bool, str, bool]], known: dict[str, tuple[tuple[str, ...], ...]], keep: frozenset[str]) -> list[list[str]] | None:
    """The words a word of `pieces` gives, once per combination of the known variables'
    alternatives; None when a reference is to a variable not known (a name in `keep` stays
    as written), when a value would be split on blanks, or when there are too many combinations."""
    results: list[list[str]] = [[]]
    # each result is the list of words built so far; the last one is still growing
    started = [False]
    for is_reference, text, quoted in pieces:
        if not is_reference:
            results = [_append(words, text) for words in results]
            started = [True] * len(results)
            continue
        name = text.partition("[")[0]
        if name not in known:
            if name not in keep or text != name:
                return None
            results = [_append(words, "$" + name) for words in results]
            started = [True] * len(results)
            continue
        grown: list[list[str]] = []
        grown_started: list[bool] = []
        for words, began in zip(results, started):
            for values in known[name]:
                elements, separate = _elements(text, values)
                if not quoted and any(_BLANKS.intersection(e) for e in elements):
                    return None  # word splitting: not read
                if separate:
                    if len(pieces) != 1:
                        return None  # "x${a[@]}y" attaches pieces to the first and last words
                    grown.append(list(elements) if quoted else [e for e in elements if e])
                    grown_started.append(bool(elements))
                    continue
                value = elements[0]
                grown.append(_append(words, value))
                grown_started.append(began or quoted or bool(value))
        if len(grown) > MAX_ALTERNATIVES:
            return None
        results, started = grown, grown_started
    # a word of only unquoted references that expanded to nothing is no word at all
    quoted_any = any(quoted for _, _, quoted in pieces)
    return [[w for w in words] if (quoted_any or began) else [] for words, began in zip(results, started)]


def _append(words: list[str], text: str) -> list[str]:
    if not words:
        return [text]
    return words[:-1] + [words[-1] + text]


def mktemp_path(argv: list[str]) -> str | None:
    """Where `mktemp ARGS` makes its file or directory (GNU and BSD forms), as a path the
    resolver reads (`$TMPDIR/tmp.XXXXXXXXXX`); None when a part is computed."""
    directory: str | None = None
    template = ""
    temp_relative = False
    i = 1
    n = len(argv)
    while i < n:
        word = argv[i]
        i += 1
        if word == "--":
            template = argv[i] if i < n else ""
            break
        if word.startswith("--tmpdir"):
            directory = word.partition("=")[2] or "$TMPDIR"
        elif word == "-p" or word == "--suffix":
            if word == "-p":
                directory = argv[i] if i < n else "$TMPDIR"
            i += 1
        elif word.startswith("-p"):
            directory = word[2:]
        elif word.startswith("--"):
            continue
        elif word.startswith("-"):
            temp_relative = temp_relative or "t" in word
        else:
            template = word
    if directory is None and (temp_relative or not template):
        directory = "$TMPDIR"
    name = template or "tmp.XXXXXXXXXX"
    path = name if directory is None or name.startswith("/") else directory.rstrip("/") + "/" + name
    return None if "`" in path or "$(" in path or ("$" in path and not path.startswith("$TMPDIR")) else path


def array_values(text: str, known: dict[str, tuple[tuple[str, ...], ...]], keep: frozenset[str]) -> tuple[str, ...] | None:
    """The elements of an array literal `(a "b c" "$x")` with one alternative each; None when
    an element is not known."""
    from cf_guidance.shell.lexer import split_words

    out: list[str] = []
    for raw in split_words(text, raw=True):
        pieces = segments(raw)
        if pieces is None:
            return None
        words = expand(pieces, known, keep)
        if words is None or len(words) != 1:
            return None
        out.extend(words[0])
    return tuple(out)


def assigned_names(lists: list[object]) -> set[str] | None:
    """Names the command lists may assign in this shell (loop bodies: their uses may see a
    value assigned later in the body, on the next round); None when any could be (eval,
    source, arithmetic)."""
    from cf_guidance.shell.parser import CompoundNode, FunctionNode, LiteralNode, PlainNode, SimpleNode

    names: set[str] = set()
    stack: list[object] = list(lists)
    while stack:
        item = stack.pop()
        items = getattr(item, "items", None)
        if items is not None:  # a CommandList
            for and_or, _ in items:
                for pipeline in and_or:
                    stack.extend(pipeline)
            continue
        if isinstance(item, CompoundNode):
            if item.kind == "arith":
                return None
            if item.variable:
                names.add(item.variable)
            stack.extend(item.bodies)
        elif isinstance(item, FunctionNode):
            stack.append(item.body)
        elif isinstance(item, SimpleNode):
            if not _words_assign([(w.raw, w.value) for w in item.words], names):
                return None
        elif isinstance(item, PlainNode) or isinstance(item, LiteralNode):
            if not _words_assign(list(zip(item.raws, item.words)), names):
                return None
    return names


def _words_assign(words: list[tuple[str, str]], names: set[str]) -> bool:
    """Adds what a simple command's words may assign; False when that cannot be told."""
    k = 0
    while k < len(words) and words[k][0][:1] not in ('"', "'", "\\", "$"):
        pair = assignment(words[k][1])
        if pair is None:
            break
        names.add(pair[0])
        k += 1
    if k == len(words):
        return True
    program = words[k][1].rsplit("/", 1)[-1]
    if program in ("eval", "source", "."):
        return False
    if program in SETTERS:
        for _, value in words[k + 1 :]:
            name = value.partition("=")[0].partition("[")[0]
            if _is_name(name):
                names.add(name)
    return True
