"""From a command string to the simple commands that would run (`analyze`).

Hot path module: standard library only, no `typing` at run time.

The parse tree is walked once; every simple command is expanded (brace expansion,
`$IFS` splitting), stripped of assignments and wrappers, and emitted as a `Command`.
Substitutions, launchers (`bash -c`, `eval`, `xargs`, `find -exec`, `ssh`, ...) and
interpreter one-liners are followed with a growing `origin` chain and `depth`, up to
`MAX_SHELL_DEPTH`. Whatever could not be followed is a one-line problem and makes the
analysis incomplete; `analyze` never raises.

Plain lines (`git status --short && npm test -- --watch=false`: no quotes, `$`, globs,
braces or redirections; most of what an agent runs) and literal lines (also quoted strings
with nothing expanded inside, globs and redirections: `git commit -m "fix: x" 2>&1 | tail`)
take fast paths with the same result: their words go straight to Commands, and a command
whose program no wrapper, launcher, declarer or interpreter rule concerns skips the
unwrapping (`_Analyzer.literal` says why that is exact; tests/shell/test_shell_fast_path.py
checks it with `FAST_PATH` and `LITERAL_PATH` off).
"""

from __future__ import annotations

from cf_guidance.limits import MAX_COMMAND_CHARS, MAX_SHELL_COMMANDS, MAX_SHELL_DEPTH, MAX_SHELL_WORDS
from cf_guidance.shell.lexer import ParseState, _matching_paren, one_line
from cf_guidance.shell.model import Command, ShellAnalysis, plain_command
from cf_guidance.shell.parser import CompoundNode, FunctionNode, LiteralNode, PlainNode, SimpleNode, parse, split_literal, split_plain
from cf_guidance.shell.unwrap import SETTERS, SHELLS, Arg, assignment, nested, passive, stdin_code, strip_wrappers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from cf_guidance.shell.lexer import Word
    from cf_guidance.shell.parser import CommandList, Node, Redirect
    from cf_guidance.shell.variables import Known

#: Plain lines (`git status --short && npm test`) skip the lexer's objects, and their passive
#: commands the unwrapping (see `_Analyzer.literal`). Tests switch it off to compare the two
#: paths (tests/shell/test_shell_fast_path.py).
FAST_PATH = True
#: Literal lines (quoted strings with nothing expanded inside, globs, redirections to literal
#: targets: `git commit -m "fix: x" 2>&1 | tail`) skip the lexer and parser likewise (see
#: `_Analyzer.literal`); switched off apart from FAST_PATH by the same test.
LITERAL_PATH = True
#: Total characters parsed across all nested shell strings of one analysis.
_MAX_TOTAL_CHARS = 4 * MAX_COMMAND_CHARS
#: Total characters brace expansion and assumed variables may produce in one analysis.
_MAX_EXPANDED_CHARS = 2 * MAX_COMMAND_CHARS
#: Programs whose input is code: a substitution feeding them is linked like a pipe.
_CODE_READERS = SHELLS | frozenset(("eval", "source", "."))
#: Programs that may run what arrives on their stdin (see unwrap.nested).
_STDIN_LAUNCHERS = frozenset(("sudo", "doas", "su", "runuser", "ssh", "at", "batch", "make", "gmake", "crontab"))
_INTERPRETER_PREFIXES = ("python", "pypy", "node", "nodejs", "perl", "ruby", "php", "deno", "bun", "awk", "gawk", "mawk", "nawk")
_OPEN, _COMMA, _CLOSE = "\ue000", "\ue001", "\ue002"
#: Builtins whose NAME=value arguments set shell variables.
_DECLARERS = frozenset(("export", "declare", "typeset", "local", "readonly"))
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
_PROBLEM_CHARS = 120
#: Longer words are not brace-expanded (kept as written): expansion cost grows with length.
_MAX_BRACE_WORD = 4096
#: A for loop over more literal words than this does not lend its values to `$var`.
_MAX_LOOP_VALUES = 16
#: Programs after which known variable values may have changed (`read x`, `source f`, `eval "$x"`).
_CHANGES_VARIABLES = SETTERS | frozenset(("source", ".", "eval"))
#: Compound commands whose bodies may run more than once.
_LOOPS = frozenset(("for", "select", "while", "until"))


def analyze(command: str) -> ShellAnalysis:
    """The commands `command` would run; problems instead of exceptions, for any input."""
    try:
        return _Analyzer().analyze(command)
    except (RecursionError, MemoryError) as exc:
        problem = f"shell analysis gave up: {type(exc).__name__}"
    except Exception as exc:  # a bug must not turn into an allow: report it as unparsable
        problem = f"shell analysis failed: {type(exc).__name__}: {exc}"[:_PROBLEM_CHARS]
    source = command if isinstance(command, str) else ""
    return ShellAnalysis(source, [], [problem], False)


def _join(origin: str, label: str) -> str:
    return f"{origin}>{label}" if origin else label


def _short(text: str) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


class _Analyzer:
    __slots__ = ("commands", "problems", "chars", "full", "variables", "expanded_chars", "known", "straight", "in_function", "traps", "functions")

    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.problems: list[str] = []
        self.chars = 0
        self.full = False
        #: shell variables with literal values (`x=rm`; a for loop's words), used to read
        #: `$x -rf /`; a loop variable has several
        self.variables: dict[str, tuple[str, ...]] = {}
        #: characters produced by brace expansion and assumed variables (bounded: expansion
        #: must not turn a short command into a memory bomb)
        self.expanded_chars = 0
        #: variables whose every possible value is known, read in place of `"$x"` (made when
        #: the line first assigns or changes a variable)
        self.known: Known | None = None
        #: the command being walked certainly runs, in this shell, once the line gets there
        #: (not after `&&`/`||`, in a branch, a loop, a pipeline or the background)
        self.straight = True
        #: walking a function, alias or trap body: it runs whenever it is called
        self.in_function = False
        #: trap handlers set while variables were known, read at the end of the line (when
        #: an EXIT trap runs): (code, origin, depth, background, known values, their versions)
        self.traps: list[tuple[str, str, int, bool, dict[str, tuple[tuple[str, ...], ...]], dict[str, int]]] | None = None
        #: functions defined on the line, by name (a call with literal arguments walks the body
        #: again with `$1`... known: `f() { rm -rf "$1"; }; f dist` deletes dist)
        self.functions: dict[str, _Defined] | None = None

    def problem(self, message: str) -> None:
        message = one_line(message)
        if message not in self.problems:
            self.problems.append(message)

    def analyze(self, command: str) -> ShellAnalysis:
        if not isinstance(command, str):
            return ShellAnalysis("", [], [f"command is not text but {type(command).__name__}"], False)
        src = command
        if len(src) > MAX_COMMAND_CHARS:
            self.problem(f"command longer than {MAX_COMMAND_CHARS} characters: only the start was analysed")
            src = src[:MAX_COMMAND_CHARS]
        self.run(src, "", 0)
        if self.traps:
            self.run_traps()
        if self.functions:
            self.drop_called_bodies()
        return ShellAnalysis(command, self.commands, self.problems, not self.problems)

    # -- walking ------------------------------------------------------------------------

    def run(self, src: str, origin: str, depth: int, background: bool = False) -> None:
        """Parse and walk one shell string."""
        self.chars += len(src)
        if self.chars > _MAX_TOTAL_CHARS:
            self.problem("nested shell code too large: rest not analysed")
            return
        tree = split_plain(src) if FAST_PATH else None
        if tree is None and LITERAL_PATH:
            tree = split_literal(src)
        if tree is None:
            tree, state = parse(src, ParseState(), plain=not FAST_PATH)  # split_plain found it not plain
            for message in state.problems:
                self.problem(f"{origin}: {message}" if origin else message)
        self.walk_list(tree, origin, depth, background, [])

    def walk_list(self, tree: CommandList, origin: str, depth: int, background: bool, redirects: list[tuple[str, str]]) -> None:
        for and_or, bg in tree.items:
            # `a && b || c`, `a &`: only the first pipeline certainly runs (`straight`); a
            # background list runs in a subshell, whose assignments this shell never sees
            several = bg or len(and_or) > 1
            if several:
                straight = self.straight
                known = self.known.enter_subshell() if bg and self.known is not None else None
            for k, pipeline in enumerate(and_or):
                if self.full:
                    return
                if several:
                    self.straight = straight and not k and not bg
                if len(pipeline) == 1:
                    node = pipeline[0]
                    if isinstance(node, PlainNode) or isinstance(node, LiteralNode):  # most: one call less
                        self.literal(node, origin, depth, background or bg, redirects)
                    else:
                        self.walk_node(node, origin, depth, background or bg, redirects)
                else:
                    self.walk_pipeline(pipeline, origin, depth, background or bg, redirects)
            if several:
                self.straight = straight
                if bg and self.known is not None:
                    self.known.leave_subshell(known)

    def walk_pipeline(self, nodes: list[Node], origin: str, depth: int, background: bool, redirects: list[tuple[str, str]]) -> None:
        groups: list[list[Command]] = []
        commands = self.commands
        straight = self.straight
        self.straight = False  # each part of a pipeline runs in a subshell
        for node in nodes:
            start = len(commands)
            known = self.known.enter_subshell() if self.known is not None else None
            if isinstance(node, PlainNode) or isinstance(node, LiteralNode):  # most: one call less
                self.literal(node, origin, depth, background, redirects)
            else:
                self.walk_node(node, origin, depth, background, redirects)
            if self.known is not None:
                self.known.leave_subshell(known)
            groups.append([c for c in commands[start:] if c.depth == depth and c.origin == origin])
        self.straight = straight
        # the program of the nearest command after each group (programs never change here)
        afters = [""] * len(groups)
        after = ""
        for k in range(len(groups) - 1, 0, -1):
            if groups[k]:
                after = groups[k][0].program
            afters[k - 1] = after
        before = ""  # the program of the nearest command before the group
        for k, group in enumerate(groups):
            after = afters[k]
            for cmd in group:
                if before and not cmd.pipe_prev:
                    cmd.pipe_prev = before
                if after and not cmd.pipe_next:
                    cmd.pipe_next = after
            if group:
                if k and not self.full:
                    self.piped_code(groups[:k], group[0], origin, depth)
                before = group[-1].program

    def piped_code(self, before: list[list[Command]], consumer: Command, origin: str, depth: int) -> None:
        """`echo 'rm -rf /' | sh`, `echo cm0gLXJmIC8K | base64 -d | bash`: when a shell or an
        interpreter reads code from a pipe of literal text, that code is analysed too."""
        program = consumer.program
        if program == "xargs":
            text = _decoding().piped_text(before)
            if text is not None:
                self.xargs_input(consumer, text)
            return
        label = ""
        if program in _CODE_READERS or program in _STDIN_LAUNCHERS:
            launched = nested([Arg(v) for v in consumer.argv], True)
            is_shell = len(launched) == 1 and launched[0].kind == "stdin"
            label = launched[0].label if is_shell else ""
        else:
            is_shell = False
        if not is_shell and not program.startswith(_INTERPRETER_PREFIXES):
            return
        text = _decoding().piped_text(before) if label != "crontab" else _added_lines(before)
        if text is None:
            return
        if depth + 1 > MAX_SHELL_DEPTH:
            self.problem(f"nesting deeper than {MAX_SHELL_DEPTH} levels not followed (| {program})")
        elif is_shell:
            self.run_nested(stdin_code(label, text), _join(origin, f"| {program}"), depth + 1, False)
        elif not consumer.language:
            self.interpreter(consumer, text)

    def walk_node(self, node: Node, origin: str, depth: int, background: bool, redirects: list[tuple[str, str]]) -> None:
        if isinstance(node, PlainNode) or isinstance(node, LiteralNode):
            self.literal(node, origin, depth, background, redirects)
        elif isinstance(node, SimpleNode):
            self.simple(node, origin, depth, background, redirects)
        elif isinstance(node, CompoundNode):
            for word in node.words:
                self.substitutions(word.subs, origin, depth)
            inner = self.redirects(node.redirects, origin, depth)[0] + redirects
            values = self.loop_values(node)
            kind = node.kind
            if kind == "group":
                for body in node.bodies:
                    self.walk_list(body, origin, depth, background, inner)
            else:
                self.walk_compound(node, kind, origin, depth, background, inner, values)
            if values:
                self.variables[node.variable] = values[-1:]  # what the loop leaves behind
        elif isinstance(node, FunctionNode):
            in_function, straight = self.in_function, self.straight
            self.in_function, self.straight = True, False
            start = len(self.commands)
            self.walk_node(node.body, origin, depth, background, redirects)
            self.in_function, self.straight = in_function, straight
            if self.functions is None:
                self.functions = {}
            self.functions[node.name] = _Defined(node, start, len(self.commands), origin, depth)

    def walk_compound(self, node: CompoundNode, kind: str, origin: str, depth: int, background: bool, redirects: list[tuple[str, str]], values: tuple[str, ...]) -> None:
        """Branches, loops, subshells: their bodies may not run (assignments there only add
        values); a loop body may run again after assigning (names it assigns are forgotten
        first); a subshell's assignments end with it. In `for d in a b; do ...` d is a or b."""
        straight = self.straight
        self.straight = False
        known = self.known
        if known is None and kind == "for" and values:
            known = self.known = _variables().Known()
        saved: dict[str, tuple[tuple[str, ...], ...]] | None = None
        blind = False
        if known is not None:
            if kind == "subshell":
                saved = known.enter_subshell()
            elif kind in _LOOPS or kind == "arith":
                names = _variables().assigned_names(list(node.bodies)) if kind != "arith" else None
                if names is None and kind == "arith":
                    names = known.names_in(" ".join(w.value for w in node.words))
                if names is None:
                    blind = True
                    known.blind += 1
                else:
                    reassigned = node.variable in names
                    if node.variable:
                        names.add(node.variable)
                    known.forget(names)
                    if kind == "for" and values and not reassigned and len(values) <= _variables().MAX_ALTERNATIVES and not known.opaque and not self.in_function:
                        known.values[node.variable] = tuple((value,) for value in values)
        for body in node.bodies:
            self.walk_list(body, origin, depth, background, redirects)
        self.straight = straight
        if known is not None:
            if node.variable:
                known.forget({node.variable})  # after the loop: its last value, or unset
            if saved is not None:
                known.leave_subshell(saved)
            if blind:
                known.blind -= 1

    def substitutions(self, subs: list[tuple[str, Any]], origin: str, depth: int) -> None:
        for kind, tree in subs:
            if tree is None:
                continue
            if depth + 1 > MAX_SHELL_DEPTH:
                self.problem(f"nesting deeper than {MAX_SHELL_DEPTH} levels not followed ({kind})")
                continue
            straight = self.straight
            self.straight = False
            known = self.known.enter_subshell() if self.known is not None else None
            self.walk_list(tree, _join(origin, kind), depth + 1, False, [])
            if self.known is not None:
                self.known.leave_subshell(known)
            self.straight = straight

    def redirects(self, items: list[Redirect], origin: str, depth: int) -> tuple[list[tuple[str, str]], str | None]:
        """(op, target) pairs and the text fed on stdin by a heredoc or here-string."""
        pairs: list[tuple[str, str]] = []
        stdin: str | None = None
        for item in items:
            target = item.target
            if target is not None:
                self.substitutions(target.subs, origin, depth)
            if item.heredoc is not None:
                self.substitutions(item.heredoc.subs, origin, depth)
                stdin = item.heredoc.text
            elif item.op == "<<<" and target is not None:
                stdin = target.value + "\n"
            pairs.append((item.fd + item.op, target.value if target is not None else ""))
        return pairs, stdin

    # -- simple commands ----------------------------------------------------------------

    def literal(self, node: PlainNode | LiteralNode, origin: str, depth: int, background: bool, outer: list[tuple[str, str]]) -> None:
        """A simple command of a plain or literal line: what `simple` does for its SimpleNode,
        without it.

        Its words hold no `$`, backquote, backslash, brace or comma outside quotes and none of
        the first three inside (a plain line has no quotes, globs or redirections either), and
        its redirect targets likewise. So `simple` would find no substitution; `redirects`
        would give its (fd + op, target value) pairs and no stdin (no heredoc or here-string);
        `expand` would give each word as one literal Arg, never dynamic (hence no
        known-variable variants), written as `raws` has it, and report a glob first word as
        below: the `command` call below is the one `simple` makes. Further, when the first
        word holds no `=` and its program is `passive` (no wrapper, shell or launcher in
        unwrap's tables), no declarer (`export`) and no interpreter with inline code,
        `command` strips nothing, remembers nothing and follows nothing (without stdin there
        is nothing for xargs or a shell to read) and emits exactly `plain_command(...)`: argv
        the words, the redirects, everything else empty. Such a line is at most 1024
        characters, far below MAX_SHELL_WORDS; `emit` applies MAX_SHELL_COMMANDS as before."""
        words = node.words
        first = words[0]
        if node.glob and _is_glob(first):
            self.problem(f"program name is a glob pattern: {_short(first)}")
        program = first[first.rfind("/") + 1 :]  # program_name: these words hold no backslash
        redirects = node.redirects + outer
        if "=" in first or program in _DECLARERS or (program.startswith(_INTERPRETER_PREFIXES) and _inline_code(program, words) is not None) or not passive(program, words):
            # `expand`'s assignment test; a raw word is never empty here, never starts with `\\` or `$`
            raws = node.raws
            if raws is words:  # a plain line: no word starts with a quote
                args = [Arg(word, False, "=" in word, word) for word in words]
            else:
                args = [Arg(word, False, "=" in raw and raw[0] != '"' and raw[0] != "'", raw) for word, raw in zip(words, raws)]
            if args[0].assign or program in _DECLARERS:
                end = len(self.commands)
                self.assign_known(args, end, end, depth)
            self.command(args, redirects, origin, depth, background, None, node.text, [], False)
            return
        self.emit(plain_command(words, program, node.text, origin, depth, background, redirects))

    def simple(self, node: SimpleNode, origin: str, depth: int, background: bool, outer: list[tuple[str, str]]) -> None:
        start = len(self.commands)
        decodable = False
        for word in node.words:
            if word.subs:
                self.substitutions(word.subs, origin, depth)
                decodable = True
        if node.redirects:
            redirects, stdin = self.redirects(node.redirects, origin, depth)
            redirects.extend(outer)
        else:
            redirects, stdin = list(outer), None
        args = self.expand(node.words)
        if not args:
            if node.redirects:
                # `> file` alone still creates or truncates the file; `$(< file)` reads it
                reads = origin.endswith(("$(...)", "`...`")) and [op for op, _ in redirects] == ["<"]
                program = "cat" if reads else "true"
                self.emit(Command([program], text=node.text, origin=origin, depth=depth, redirects=redirects, background=background, stdin=stdin or ""))
            return
        subs_end = len(self.commands)
        if args[0].assign or args[0].value in _DECLARERS:
            self.assign_known(args, start, subs_end, depth)
        known = self.known
        if known is not None and known.values and not self.in_function:
            if node.redirects:
                redirects = self.known_redirects(node.redirects, redirects)
            variants = self.known_variants(args)
            if variants is not None:  # `"$tmp"` read as its values: the command(s) that really run
                for variant in variants:
                    cmd = self.command(variant, list(redirects), origin, depth, background, stdin, node.text, list(node.prefix), False)
                    if cmd is not None and subs_end > start and (cmd.program in _CODE_READERS or cmd.language):
                        self.link_code_feeders(cmd, start, subs_end, depth)
                return
        # `eval "$(echo cm0g... | base64 -d)"`, `$(printf r)m -rf /`: also as it really runs
        decoded = self.decoded_args(node.words, self.commands[start:subs_end], depth) if decodable and subs_end > start else None
        assumed = self.with_known_variables(args)
        cmd = self.command(args, redirects, origin, depth, background, stdin, node.text, list(node.prefix), False)
        if cmd is not None and subs_end > start and (cmd.program in _CODE_READERS or cmd.language):
            self.link_code_feeders(cmd, start, subs_end, depth)
        for variant in assumed:
            self.command(variant, list(redirects), origin, depth, background, stdin, node.text, list(node.prefix), True)
        if decoded is not None:
            self.command(decoded, list(redirects), origin, depth, background, stdin, node.text, list(node.prefix), False)
        elif decodable and cmd is not None and cmd.program in _CODE_READERS:
            self.read_process_code(node.words, self.commands[start:subs_end], cmd, depth)

    def read_process_code(self, words: list[Word], made: list[Command], cmd: Command, depth: int) -> None:
        """`source <(echo ... | base64 -d)`, `bash <(printf ...)`: the shell reads the output of
        its one process substitution as code; when that output is literal text, it is analysed."""
        subs = [kind for word in words for kind, _ in word.subs]
        outputs = self.substitution_outputs(made, depth)
        if subs == ["<(...)"] and outputs is not None and len(outputs) == 1 and depth + 1 <= MAX_SHELL_DEPTH:
            self.run_nested(outputs[0], _join(cmd.origin, f"{cmd.program} <("), depth + 1, cmd.background)

    def substitution_outputs(self, made: list[Command], depth: int) -> list[str] | None:
        """What each substitution among the commands `made` prints, in order, when every one is
        literal text through decoders (trailing newlines removed, as bash does); else None."""
        outputs: list[str] = []
        group: list[Command] = []
        for cmd in made:
            if cmd.depth != depth + 1:
                continue
            group.append(cmd)
            if not cmd.pipe_next or cmd.pipe_next in _CODE_READERS:  # the end of one substitution's pipeline
                text = _decoding().piped_text([[c] for c in group])
                if text is None:
                    return None
                outputs.append(text.rstrip("\n"))
                group = []
        return outputs if outputs and not group else None

    def decoded_args(self, words: list[Word], made: list[Command], depth: int) -> list[Arg] | None:
        """The words with each command substitution replaced by its output, when every one of
        them is literal text, decoded or not (`echo ... | base64 -d`, `printf '\\x72'`): the
        command as it really runs, analysed next to the command as written."""
        outputs = self.substitution_outputs(made, depth)
        if outputs is None:
            return None
        args: list[Arg] = []
        for word in words:
            if not word.subs:
                args.append(Arg(word.value, word.dynamic, False, word.raw))
                continue
            value = word.value
            for kind, _ in word.subs:
                if kind not in ("$(...)", "`...`") or not outputs:
                    return None
                at = value.find("$(" if kind == "$(...)" else "`")
                if at < 0:
                    return None
                end = _matching_paren(value, at + 2) if kind == "$(...)" else value.find("`", at + 1) + 1
                if end <= at:
                    return None
                value = value[:at] + outputs.pop(0) + value[end:]
            if "$" in value or "`" in value:
                return None
            raw = word.raw
            if raw[:1] == '"' and raw[-1:] == '"':
                args.append(Arg(value, False, False, raw))
            elif '"' in raw or "'" in raw:
                return None  # partly quoted: how the output splits is not read here
            else:
                args.extend(Arg(piece, False, False, raw) for piece in value.split())
        return args if args and not outputs else None

    # -- variables whose values are known ----------------------------------------------------

    def assign_known(self, args: list[Arg], start: int, end: int, depth: int) -> None:
        """`x=VALUE` alone, or `export x=VALUE` (any declarer): what x holds from here on."""
        if args[0].assign:
            if not all(a.assign and assignment(a.value) is not None for a in args):
                return  # `x=1 cmd`: the assignment is for that command only
            words = args
        else:
            words = [a for a in args[1:] if a.value[:1] != "-" and assignment(a.value) is not None]
        known = self.known
        if known is None:
            known = self.known = _variables().Known()
        if not args[0].assign and any(a.value[:1] == "-" and "n" in a.value for a in args[1:]):
            known.opaque = True  # `declare -n ref=x`: assigning ref assigns x
            known.values.clear()
            return
        for arg in words:
            lhs, _, written = arg.written.partition("=")
            name = lhs[:-1] if lhs.endswith("+") else lhs
            values = None if lhs.endswith("+") else self.value_of(written, start, end, depth)
            known.assign(name, values, self.straight, self.in_function)

    def value_of(self, written: str, start: int, end: int, depth: int) -> tuple[tuple[str, ...], ...] | None:
        """Every value an assignment's word (as written) may give, or None."""
        v = _variables()
        known = self.known
        assert known is not None
        keep = v.RESOLVER_VARIABLES - known.touched
        if written.startswith("(") and written.endswith(")"):
            elements = v.array_values(written[1:-1], known.values, keep)
            return None if elements is None else (elements,)
        inner = written[1:-1] if written[:1] == '"' and written[-1:] == '"' else written
        if inner.startswith("$(") and inner.endswith(")") or inner.startswith("`") and inner.endswith("`"):
            made = [c for c in self.commands[start:end] if c.depth == depth + 1]
            paths = [v.mktemp_path(c.argv) for c in made if c.program == "mktemp"]
            if not paths or len(paths) != len(made) or None in paths:
                return None
            # mktemp may fail and leave the variable empty
            return tuple((p,) for p in dict.fromkeys(p for p in paths if p is not None)) + (("",),)
        pieces = v.segments(written)
        if pieces is None:
            return None
        words = v.expand(pieces, known.values, keep)
        if words is None or any(len(w) != 1 for w in words):
            return None
        return tuple(dict.fromkeys((w[0],) for w in words))

    def known_variants(self, args: list[Arg]) -> list[list[Arg]] | None:
        """The command with known variables read in place, once per combination of their
        values; None unless every expansion in it is known (then it is judged as written)."""
        v = _variables()
        known = self.known
        assert known is not None
        if known.blind or known.opaque or args[0].dynamic:
            return None
        keep = v.RESOLVER_VARIABLES - known.touched
        results: list[list[Arg]] = [[]]
        substituted = False
        for arg in args:
            if not arg.dynamic:
                results = [r + [arg] for r in results]
                continue
            pieces = v.segments(arg.written)
            if pieces is None:
                return None
            expansions = v.expand(pieces, known.values, keep)
            if expansions is None:
                return None
            substituted = substituted or any(is_reference and text.partition("[")[0] in known.values for is_reference, text, _ in pieces)
            results = [r + [Arg(w, False, arg.assign, arg.written) for w in words] for r in results for words in expansions]
            if len(results) > v.MAX_ALTERNATIVES:
                return None
        return results if substituted else None

    def known_redirects(self, items: list[Redirect], pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Redirection targets that expand known variables to one path: `> "$OUT/log"`."""
        v = _variables()
        known = self.known
        assert known is not None
        if known.blind or known.opaque:
            return pairs
        keep = v.RESOLVER_VARIABLES - known.touched
        out = list(pairs)
        for k, item in enumerate(items):
            target = item.target
            if target is None or not target.dynamic:
                continue
            pieces = v.segments(target.raw)
            expansions = v.expand(pieces, known.values, keep) if pieces is not None else None
            if expansions is not None and len(expansions) == 1 and len(expansions[0]) == 1:
                out[k] = (out[k][0], expansions[0][0])
        return out

    def link_code_feeders(self, cmd: Command, start: int, end: int, depth: int) -> None:
        """`source <(curl ...)`, `sh -c "$(curl ...)"`: the substitution's output is code,
        so it is linked like `curl ... | sh`."""
        for feeder in self.commands[start:end]:
            if feeder.depth == depth + 1 and not feeder.pipe_next:
                feeder.pipe_next = cmd.program
                if not cmd.pipe_prev:
                    cmd.pipe_prev = feeder.program

    def expand(self, words: list[Word]) -> list[Arg]:
        args: list[Arg] = []
        for word in words:
            assign = "=" in word.raw and word.raw[:1] not in "\"'\\$"
            if word.splits:
                pieces = _split_at(word.value, word.splits)
                for k, piece in enumerate(pieces):
                    args.append(Arg(piece, word.dynamic, assign and k == 0, word.raw))
            elif word.braces is not None and len(word.braces) >= 3:
                for k, piece in enumerate(self.brace_expand(word)):
                    args.append(Arg(piece, word.dynamic, assign and k == 0, word.raw))
            else:
                if word.glob and not args and _is_glob(word.value):
                    self.problem(f"program name is a glob pattern: {_short(word.value)}")
                args.append(Arg(word.value, word.dynamic, assign, word.raw))
        return args

    def loop_values(self, node: CompoundNode) -> tuple[str, ...]:
        """The literal words a `for` loop variable takes (set while its body is walked)."""
        if not node.variable:
            return ()
        values = tuple(a.value for a in self.expand(node.words) if not a.dynamic)
        if not values or len(values) != len(node.words) or len(values) > _MAX_LOOP_VALUES:
            self.variables.pop(node.variable, None)  # unknown: `for x in $(ls)`, `for x; do`
            return ()
        self.variables[node.variable] = values
        return values

    def with_known_variables(self, args: list[Arg]) -> list[list[Arg]]:
        """`x=rm; $x -rf /`: the command again with known variable values put in, once per
        value of a loop variable. These are emitted next to the command as written, never
        instead of it: the value at run time may differ (a branch, the environment)."""
        if not self.variables or not any(a.dynamic for a in args):
            return []
        rounds = max(len(v) for v in self.variables.values())
        found: list[list[Arg]] = []
        seen: set[tuple[str, ...]] = set()
        for k in range(rounds):
            result: list[Arg] = []
            changed = False
            for arg in args:
                resolved = _substitute(arg.value, self.variables, k) if arg.dynamic else None
                if resolved is None:
                    result.append(arg)
                    continue
                self.expanded_chars += len(resolved)
                if self.expanded_chars > _MAX_EXPANDED_CHARS:
                    return found
                changed = True
                quoted = arg.written[:1] == '"'
                pieces = resolved.split() if not quoted and _is_reference(arg.written) else [resolved]
                result.extend(Arg(piece, True, False, arg.written) for piece in pieces)
            key = tuple(a.value for a in result)
            if changed and key not in seen:
                seen.add(key)
                found.append(result)
        return found

    def brace_expand(self, word: Word) -> list[str]:
        value = word.value
        if _OPEN in value or _COMMA in value or _CLOSE in value or word.braces is None or len(value) > _MAX_BRACE_WORD:
            return [value]
        chars = list(value)
        for index in word.braces:
            chars[index] = {"{": _OPEN, ",": _COMMA, "}": _CLOSE}[chars[index]]
        budget = [MAX_SHELL_WORDS, min(MAX_COMMAND_CHARS, _MAX_EXPANDED_CHARS - self.expanded_chars)]
        expanded = _brace(("".join(chars)), budget)
        if budget[0] < 0 or budget[1] < 0:
            self.problem(f"brace expansion larger than {MAX_SHELL_WORDS} words or {MAX_COMMAND_CHARS} characters not followed")
            return [value]
        self.expanded_chars += sum(len(piece) for piece in expanded)
        table = {ord(_OPEN): "{", ord(_COMMA): ",", ord(_CLOSE): "}"}
        return [piece.translate(table) for piece in expanded]

    def command(
        self,
        args: list[Arg],
        redirects: list[tuple[str, str]],
        origin: str,
        depth: int,
        background: bool,
        stdin: str | None,
        text: str,
        wrappers: list[str],
        dynamic: bool,
    ) -> Command | None:
        """Emit the command `args` runs, then whatever it launches."""
        if len(args) > MAX_SHELL_WORDS:
            self.problem(f"command with more than {MAX_SHELL_WORDS} words: the rest was not analysed")
            args = args[:MAX_SHELL_WORDS]
        args, assignments, stripped = strip_wrappers(args)
        if not args and not stripped and not wrappers:
            self.remember(assignments)  # `x=rm` alone sets a shell variable
        wrappers.extend(stripped)
        if not args:
            if redirects:
                return self.emit(Command(["true"], text=text, origin=origin, depth=depth, redirects=redirects, assignments=assignments, background=background, stdin=stdin or ""))
            return None
        argv = [a.value for a in args]
        if not dynamic:  # any(a.dynamic for a in args), without the generator
            for a in args:
                if a.dynamic:
                    dynamic = True
                    break
        cmd = Command(
            argv,
            text=text,
            origin=origin,
            depth=depth,
            redirects=redirects,
            assignments=assignments,
            wrappers=wrappers,
            background=background,
            dynamic=dynamic,
            stdin=stdin or "",
        )
        if args[0].dynamic:
            written = args[0].written
            assumed = f" (assumed {_short(argv[0])})" if written and written != argv[0] and "$" not in argv[0] else ""
            self.problem(f"dynamic program name: {_short(written or argv[0])}{assumed}")
        if cmd.program in _DECLARERS:
            self.remember([pair for pair in (assignment(a.value) for a in args[1:] if a.assign or "=" in a.value) if pair is not None])
        if cmd.program in _CHANGES_VARIABLES:
            self.variables_change(cmd)
        if self.emit(cmd) is None:
            return None
        for item in nested(args, stdin is not None):
            if self.full:
                break
            if depth + 1 > MAX_SHELL_DEPTH:
                self.problem(f"nesting deeper than {MAX_SHELL_DEPTH} levels not followed ({item.label})")
                break
            where = _join(origin, item.label)
            if item.kind == "shell":
                self.run_nested(item.text, where, depth + 1, background, item.label)
            elif item.kind == "stdin" and stdin is not None:
                self.run_nested(stdin_code(item.label, stdin), where, depth + 1, background, item.label)
            elif item.kind == "argv":
                inner = " ".join(a.value for a in item.args)
                self.command(list(item.args), [], where, depth + 1, background, None, inner, [], item.dynamic)
        if cmd.program.startswith(_INTERPRETER_PREFIXES):
            self.interpreter(cmd, stdin)
        elif cmd.program == "xargs" and stdin is not None:
            self.xargs_input(cmd, stdin)
        return cmd

    def variables_change(self, cmd: Command) -> None:
        """`read x`, `unset x`, `printf -v x`: x is no longer known; `source f`, `eval "$x"`:
        nothing is known from here on (they may assign anything, define functions that do)."""
        known = self.known
        if known is None:
            known = self.known = _variables().Known()
        program = cmd.program
        if program in ("source", ".") or (program == "eval" and cmd.dynamic):
            known.opaque = True
            known.values.clear()
        elif program != "eval" and program not in _DECLARERS:
            known.forget(known.names_in(" ".join(cmd.argv[1:])))

    def remember(self, pairs: list[tuple[str, str]]) -> None:
        for name, value in pairs:
            if "$" in value or "`" in value:
                self.variables.pop(name, None)  # computed: unknown from here on
            else:
                self.variables[name] = (value,)

    def run_nested(self, src: str, origin: str, depth: int, background: bool, label: str = "") -> None:
        """Shell code run by a launcher: `eval` runs it in this shell; `trap` and `alias` bodies
        run later, whenever triggered; anything else is a new process, which sees none of this
        shell's variables as known."""
        known = self.known
        if label == "eval":
            self.run(src, origin, depth, background)
            return
        if label == "trap" and known is not None and known.values and not self.in_function:
            # a signal may run the handler at any point: what it assigns is never known again
            known.may_assign(_variables().assigned_names([parse(src, ParseState())[0]]))
            if self.traps is None:
                self.traps = []
            self.traps.append((src, origin, depth, background, dict(known.values), dict(known.versions)))
            return
        saved = known.enter_process() if known is not None else None
        in_function = self.in_function
        self.in_function = in_function or label in ("trap", "alias")
        self.run(src, origin, depth, background)
        self.in_function = in_function
        if self.known is not None:
            self.known.leave_process(saved)

    def run_traps(self) -> None:
        """Trap handlers, read as they run at the end: with the values known when the trap was
        set of the variables nothing assigned since (`tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT`)."""
        known = self.known
        assert known is not None and self.traps is not None
        self.straight = False
        for src, origin, depth, background, values, versions in self.traps:
            known.values = known.unchanged_since(values, versions)
            self.run(src, origin, depth, background)

    def xargs_input(self, xargs: Command, text: str) -> None:
        """xargs with literal input (`echo / | xargs rm -rf`, `xargs rm <<EOF`): the
        command with the input appended, as xargs builds it."""
        if any(w.startswith(("-I", "-i", "--replace")) for w in xargs.argv):
            return  # the input replaces a placeholder: the dynamic command already stands for it
        launched = nested([Arg(v) for v in xargs.argv], False)
        if launched and launched[0].kind == "argv":
            if xargs.depth + 1 > MAX_SHELL_DEPTH:
                self.problem(f"nesting deeper than {MAX_SHELL_DEPTH} levels not followed (xargs)")
                return
            args = launched[0].args + [Arg(w) for w in text.split()]
            self.command(args, [], _join(xargs.origin, "xargs"), xargs.depth + 1, xargs.background, None, xargs.text, [], False)

    def interpreter(self, cmd: Command, stdin: str | None) -> None:
        from cf_guidance.shell.interpreters import inline_code, translate

        found = inline_code(cmd.program, cmd.argv, stdin)
        if found is None:
            return
        language, code, label = found
        cmd.language = language
        cmd.code = code
        if stdin is None and cmd.dynamic and ("$" in code or "`" in code):
            self.problem(f"{label}: code known only at run time")
        if cmd.depth + 1 > MAX_SHELL_DEPTH:
            self.problem(f"nesting deeper than {MAX_SHELL_DEPTH} levels not followed ({label})")
            return
        where = _join(cmd.origin, label)
        depth = cmd.depth + 1
        result = translate(language, code)
        for message in result.problems:
            self.problem(f"{label}: {message}")
        if result.dynamic:
            cmd.dynamic = True
        for action in result.actions:
            if self.full:
                return
            if action.kind == "shell":
                start = len(self.commands)
                self.run_nested(action.value, where, depth, False)
                if action.dynamic:
                    for inner in self.commands[start:]:
                        inner.dynamic = True
            else:
                # the translation names the program; only its operands may be unknown
                args = [Arg(v, action.dynamic and k > 0) for k, v in enumerate(action.argv)]
                redirects = [(action.op, action.value)] if action.op else []
                self.command(args, redirects, where, depth, cmd.background, None, " ".join(action.argv), [], action.dynamic)

    def emit(self, cmd: Command) -> Command | None:
        if len(self.commands) >= MAX_SHELL_COMMANDS:
            self.problem(f"more than {MAX_SHELL_COMMANDS} commands: the rest was not analysed")
            self.full = True
            return None
        self.commands.append(cmd)
        if self.functions is not None and cmd.program in self.functions:
            self.call(cmd, self.functions[cmd.program])
        return cmd

    def call(self, cmd: Command, defined: _Defined) -> None:
        """A call of a function defined on the line: with literal arguments in this shell, its
        body is walked again with `$1`...`$9` known (what it does with these arguments); any
        other call leaves the body as walked where it was defined (`$1` unknown)."""
        defined.called = True
        argv = cmd.argv
        if (cmd.dynamic or cmd.wrappers or argv[0] != cmd.program or self.in_function or defined.walking or len(argv) > len(_POSITIONAL) + 1
                or cmd.origin != defined.origin or cmd.depth != defined.depth):
            defined.resolved = False
            return
        known = self.known
        if known is None:
            known = self.known = _variables().Known()
        saved = {name: known.values.get(name) for name in _POSITIONAL}
        for at, name in enumerate(_POSITIONAL, 1):
            known.values[name] = ((argv[at] if at < len(argv) else "",),)
        defined.walking = True
        self.walk_node(defined.node.body, cmd.origin, cmd.depth, cmd.background, list(cmd.redirects))
        defined.walking = False
        for name, values in saved.items():
            if values is None:
                known.values.pop(name, None)
            else:
                known.values[name] = values

    def drop_called_bodies(self) -> None:
        """A function every call of which was walked with its arguments: the commands its body
        gave where it was defined (with `$1` unknown) are not what runs."""
        assert self.functions is not None
        for defined in sorted(self.functions.values(), key=lambda d: d.start, reverse=True):
            if defined.called and defined.resolved:
                del self.commands[defined.start : defined.end]


#: The positional parameters a function call sets.
_POSITIONAL = ("1", "2", "3", "4", "5", "6", "7", "8", "9")


class _Defined:
    """A function defined on the line: its node, the commands its body gave where it was
    defined (`start`..`end`), and whether it was called, each call with literal arguments."""

    __slots__ = ("node", "start", "end", "origin", "depth", "called", "resolved", "walking")

    def __init__(self, node: FunctionNode, start: int, end: int, origin: str, depth: int) -> None:
        self.node = node
        self.start = start
        self.end = end
        self.origin = origin
        self.depth = depth
        self.called = False
        self.resolved = True
        self.walking = False


def _added_lines(before: list[list[Command]]) -> str | None:
    """What `(crontab -l; echo 'LINE') | crontab -` installs that was not there: the literal
    lines of the producing commands (`crontab -l` gives the table already installed)."""
    lines: list[str] = []
    for group in before:
        for cmd in group:
            if cmd.program in ("echo", "printf") and not cmd.dynamic:
                lines.append(_decoding().echo_text(cmd.program, cmd.argv[1:]))
            elif cmd.program != "crontab":
                text: str | None = _decoding().piped_text(before)
                return text
    return "".join(lines) if lines else None


def _variables() -> Any:
    """guidance.shell.variables, imported on first use: only lines that assign variables need it."""
    global _variables_module
    if _variables_module is None:
        from cf_guidance.shell import variables

        _variables_module = variables
    return _variables_module


def _decoding() -> Any:
    """guidance.shell.decoding, imported on first use: only text piped or substituted into code needs it."""
    global _decoding_module
    if _decoding_module is None:
        from cf_guidance.shell import decoding

        _decoding_module = decoding
    return _decoding_module


_variables_module: Any = None
_decoding_module: Any = None


def _inline_code(program: str, argv: list[str]) -> tuple[str, str, str] | None:
    """`interpreters.inline_code` without stdin, imported on first use (it is large, and most
    lines run no interpreter) and kept (no import statement per interpreter command)."""
    global _inline_code_function
    if _inline_code_function is None:
        from cf_guidance.shell.interpreters import inline_code

        _inline_code_function = inline_code
    return _inline_code_function(program, argv, None)


_inline_code_function: Callable[[str, list[str], str | None], tuple[str, str, str] | None] | None = None


def _substitute(value: str, variables: dict[str, tuple[str, ...]], index: int) -> str | None:
    """`value` with `$NAME` / `${NAME}` replaced by known literals (a loop variable by its
    value number `index`); None if anything else (an unknown variable, `${x:-y}`, a
    substitution) remains."""
    if "`" in value:
        return None
    out: list[str] = []
    i = 0
    n = len(value)
    size = n
    while True:
        j = value.find("$", i)
        if j == -1:
            out.append(value[i:])
            return "".join(out)
        out.append(value[i:j])
        if value.startswith("${", j):
            k = value.find("}", j)
            name = value[j + 2 : k] if k != -1 else ""
            end = k + 1
        else:
            k = j + 1
            while k < n and value[k] in _NAME_CHARS:
                k += 1
            name = value[j + 1 : k]
            end = k
        if not name or name not in variables or not all(c in _NAME_CHARS for c in name):
            return None
        values = variables[name]
        chosen = values[min(index, len(values) - 1)]
        out.append(chosen)
        size += len(chosen)
        if size > MAX_COMMAND_CHARS:
            return None  # `x=<long>; $x$x$x...` must not multiply memory
        i = end


def _is_reference(raw: str) -> bool:
    """`$x` or `${x}` alone: its value is split into words."""
    name = raw[2:-1] if raw.startswith("${") and raw.endswith("}") else raw[1:] if raw.startswith("$") else ""
    return bool(name) and all(c in _NAME_CHARS for c in name)


def _is_glob(value: str) -> bool:
    if "*" in value or "?" in value:
        return True
    start = value.find("[")
    return start != -1 and value.find("]", start + 2) != -1


def _split_at(value: str, splits: list[int]) -> list[str]:
    pieces: list[str] = []
    last = 0
    for index in splits:
        pieces.append(value[last:index])
        last = index
    pieces.append(value[last:])
    return [p for p in pieces if p]


def _brace(text: str, budget: list[int]) -> list[str]:
    """Bash brace expansion of `{a,b}` over marked (unquoted) braces and commas.

    `budget` is [words, characters] still allowed; a negative value means it ran out.
    """
    if budget[0] < 0 or budget[1] < 0:
        return []
    # one pass: the leftmost `{` whose matching `}` has a comma at its own level
    stack: list[list[int]] = []
    best: list[int] | None = None
    for j, c in enumerate(text):
        if c == _OPEN:
            stack.append([j])
        elif c == _COMMA and stack:
            stack[-1].append(j)
        elif c == _CLOSE and stack:
            group = stack.pop()
            if len(group) > 1 and (best is None or group[0] < best[0]):
                best = group + [j]
    if best is None:
        return [text]
    head, tail = text[: best[0]], text[best[-1] + 1 :]
    results: list[str] = []
    for k in range(len(best) - 1):
        for piece in _brace(head + text[best[k] + 1 : best[k + 1]] + tail, budget):
            budget[0] -= 1
            budget[1] -= len(piece)
            if budget[0] < 0 or budget[1] < 0:
                return results
            results.append(piece)
    return results
