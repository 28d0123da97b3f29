"""The policy files of a project, found and read the way the agents find them.

What Claude Code loads (its memory docs, https://code.claude.com/docs/en/memory; each point
checked against the pinned client, 2.1.328, with the scripted model server: see
docs/policy-grammar.md, "Sources"):

- at start, `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md` of the project directory,
  each followed by the files it imports;
- `@path` imports a file: a word starting with `@` at a line start or after white space, in
  text (never in a code span, a code block, or an HTML comment). The path is relative to the
  importing file's directory, `~/` is the home directory, `/...` absolute; `#anchor` is
  dropped and `\\ ` is a space. Only text files are loaded (IMPORT_EXTENSIONS, or no
  extension). An imported file imports further, up to MAX_IMPORT_HOPS away from the file the
  client loaded itself; a file already loaded is not loaded again, so a cycle ends there. A
  missing file is skipped silently;
- the same three files of a subdirectory, when the agent works on a file below it (their
  rules apply there only: `scope`).

Codex reads, from the project root down to its working directory, `AGENTS.override.md` else
`AGENTS.md` of each directory (one file per directory; https://developers.openai.com/codex/guides/agents-md).
Both are read here, scoped like CLAUDE.md, so one policy serves both agents.

`discover(root)` walks the project once (bounded: guidance/limits.py) and returns every source
with a status (READ: compiled; ABSENT; DUPLICATE: the same file or the same text as an earlier
source, e.g. `CLAUDE.md` symlinked to `AGENTS.md`, or `@AGENTS.md` imported by CLAUDE.md;
REFERENCE: a text file Claude Code imports that is not markdown, listed and hashed but not
compiled; SKIPPED: a limit or the other AGENTS file of a directory), the directory stamps the
cache checks (guidance.policy.tree) and one-line notes for what was not read and why.
Deliberate differences from the client: an import outside the project is read (Claude Code
asks once whether to allow such imports), and an import of a secret file (`.env`, keys) is
refused, so a secret never lands in a bundle.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from typing import Any

from cf_guidance import limits
from cf_guidance.policy import tree
from cf_guidance.policy.grammar import DOMAINS
from cf_guidance.policy.markdown import Block

CLAUDE_MD = "CLAUDE.md"
DOT_CLAUDE_MD = ".claude/CLAUDE.md"
LOCAL_MD = "CLAUDE.local.md"
AGENTS_MD = "AGENTS.md"
AGENTS_OVERRIDE_MD = "AGENTS.override.md"

# Source kinds: how the file was found.
CLAUDE = "claude"  # CLAUDE.md or .claude/CLAUDE.md of a directory
LOCAL = "local"  # CLAUDE.local.md of a directory
AGENTS = "agents"  # AGENTS.md / AGENTS.override.md of a directory (Codex)
IMPORT = "import"  # imported with @path
# Source statuses: what was done with it.
READ = "read"
ABSENT = "absent"
DUPLICATE = "duplicate"
REFERENCE = "reference"
SKIPPED = "skipped"
#: It exists but cannot be compiled (unreadable, not a regular file, over MAX_POLICY_BYTES,
#: binary): its rules are not applied, which the hook says on every call (`note` says why).
UNUSABLE = "unusable"

#: Per directory, in reading order: (name, kind, origin). Codex's file comes last (AGENTS_NAMES).
CLAUDE_FILES = ((CLAUDE_MD, CLAUDE, "shared"), (DOT_CLAUDE_MD, CLAUDE, "shared"), (LOCAL_MD, LOCAL, "local"))
#: Codex reads the first of these that exists in a directory, and only that one.
AGENTS_NAMES = (AGENTS_OVERRIDE_MD, AGENTS_MD)
#: Extensions of the files Claude Code 2.1.328 loads through @imports (a file without an
#: extension too); it skips any other file ("Skipping non-text file in @include").
IMPORT_EXTENSIONS = frozenset((
    ".md", ".txt", ".text", ".json", ".yaml", ".yml", ".toml", ".xml", ".csv", ".html", ".htm", ".css", ".scss",
    ".sass", ".less", ".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".py", ".pyi", ".pyw", ".rb",
    ".erb", ".rake", ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".c", ".cpp", ".cc", ".cxx", ".h", ".hpp",
    ".hxx", ".cs", ".swift", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat", ".cmd", ".env", ".ini", ".cfg",
    ".conf", ".config", ".properties", ".sql", ".graphql", ".gql", ".proto", ".vue", ".svelte", ".astro", ".ejs",
    ".hbs", ".pug", ".jade", ".php", ".pl", ".pm", ".lua", ".r", ".dart", ".ex", ".exs", ".erl", ".hrl", ".clj",
    ".cljs", ".cljc", ".edn", ".hs", ".lhs", ".elm", ".ml", ".mli", ".f", ".f90", ".f95", ".for", ".cmake",
    ".make", ".makefile", ".gradle", ".sbt", ".rst", ".adoc", ".asciidoc", ".org", ".tex", ".latex", ".lock",
    ".log", ".diff", ".patch",
))
#: Imported files compiled as markdown policy; other text files (package.json, a script) are
#: references: the agent sees them, but they hold no rules.
COMPILED_EXTENSIONS = frozenset(("", ".md", ".txt", ".text"))

_EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
#: `@security`, `@testing`, ...: the grammar's domain tags read like imports (Claude Code tries
#: them); with no such file they are tags, not missing imports.
DOMAIN_TAGS = frozenset(DOMAINS)


@dataclass
class Source:
    """One policy file: where it was found, its bytes for the key, its decoded text (None = not compiled)."""

    name: str  # as shown in diagnostics and in every rule's `source`: "src/gen/CLAUDE.md"
    origin: str  # "shared" | "local"
    path: str = ""
    exists: bool = False
    size: int = 0
    mtime_ns: int = 0
    sha256: str = _EMPTY_SHA256
    raw: bytes = b""
    text: str | None = None
    blocks: list[Block] = field(default_factory=list)
    #: Why an existing file could not be read ("" = it could).
    error: str = ""
    #: The file's only level-1 heading opens it: a document title, not a section.
    titled: bool = False
    kind: str = CLAUDE
    #: The directory its rules apply to, relative to the project root ("" = the whole project).
    scope: str = ""
    status: str = READ
    #: "CLAUDE.md:3" for an imported file: the line that imports it.
    imported_by: str = ""
    #: Why the status is what it is, for `cf-guidance compile` ("" when it was simply read).
    note: str = ""
    #: (level, message) found while decoding, reported by the compiler's read stage.
    problems: list[tuple[str, str]] = field(default_factory=list)
    decoded: bool = False
    identity: tuple[int, int] | None = None

    def sections(self, section: tuple[str, ...]) -> tuple[str, ...]:
        """The heading path that can make a block constitutional (the title does not count)."""
        return section[1:] if self.titled else section

    def entry(self) -> dict[str, Any]:
        return {"name": self.name, "path": self.path, "exists": self.exists, "size": self.size,
                "mtime_ns": self.mtime_ns, "sha256": self.sha256, "kind": self.kind, "origin": self.origin,
                "scope": self.scope, "status": self.status, "imported_by": self.imported_by, "note": self.note}


def decode(raw: bytes, name: str) -> tuple[str | None, list[tuple[str, str]]]:
    """Bytes of a policy file -> (text with \\n newlines, [(level, message)]); None = unusable."""
    notes: list[tuple[str, str]] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        text = raw[3:].decode("utf-8", errors="replace")
        if "\ufffd" in text and b"\xef\xbf\xbd" not in raw:
            notes.append(("warning", "invalid UTF-8 bytes were replaced with U+FFFD"))
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = raw.decode("utf-16", errors="replace")
        notes.append(("info", "decoded as UTF-16 (byte order mark)"))
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("utf-8", errors="replace")
            # UTF-8 with a few broken bytes still has valid multi-byte characters; Latin-1 text
            # has none and no C1 control bytes (0x80-0x9f). Anything else: replace and warn.
            valid_multibyte = any(ord(ch) > 127 and ch != "\ufffd" for ch in text)
            if not valid_multibyte and not any(0x80 <= b <= 0x9F for b in raw):
                text = raw.decode("latin-1")
                notes.append(("warning", "not UTF-8; decoded as Latin-1 (save the file as UTF-8)"))
            else:
                notes.append(("warning", "invalid UTF-8 bytes were replaced with U+FFFD (save the file as UTF-8)"))
    if "\x00" in text:
        return None, [("error", f"{name} looks binary (NUL bytes); it was not compiled")]
    return text.replace("\r\n", "\n").replace("\r", "\n"), notes


def load_bytes(source: Source, data: str | bytes | None) -> None:
    """Give an in-memory source its content (None = the file is absent)."""
    if data is None:
        source.status = ABSENT
        return
    raw = data.encode("utf-8") if isinstance(data, str) else data
    source.exists = True
    source.raw = raw
    source.size = len(raw)
    source.sha256 = hashlib.sha256(raw).hexdigest()


def _stat(source: Source) -> os.stat_result | None:
    """Stat `source.path` (following links); record its stamp and identity. None = absent."""
    try:
        st = os.stat(source.path)
    except OSError:
        return None
    source.exists = True
    source.mtime_ns = st.st_mtime_ns
    source.identity = (st.st_dev, st.st_ino)
    return st


def _read_content(source: Source, st: os.stat_result) -> None:
    # The stamps the cache compares, also for a file that cannot be read: an unusable CLAUDE.md
    # stays a cache hit (and a warning on every call), not a compile on every call.
    source.size = st.st_size
    if not stat.S_ISREG(st.st_mode):
        # A FIFO would block the read forever and /dev/zero never ends: regular files only.
        source.error = "not a regular file"
        source.sha256 = hashlib.sha256(b"").hexdigest()  # what the cache's check hashes for it
        return
    digest = hashlib.sha256()
    chunks: list[bytes] = []
    total = 0
    try:
        with open(source.path, "rb") as handle:
            # Hash everything (the cache compares hashes) but keep only what may be compiled.
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
                if total <= limits.MAX_POLICY_BYTES:
                    chunks.append(chunk)
                total += len(chunk)
    except OSError as exc:
        source.error = str(exc.strerror or exc)
        return
    source.raw = b"".join(chunks)
    source.size = total
    source.sha256 = digest.hexdigest()


def read_file(source: Source) -> None:
    """Stat and read `source.path`: stamps, identity, bytes and hash (`exists` False when absent)."""
    st = _stat(source)
    if st is None:
        source.status = ABSENT
        return
    _read_content(source, st)


def prepare(source: Source) -> None:
    """Decode a read source into `text` once, or record in `problems` why it cannot be compiled."""
    if source.decoded:
        return
    source.decoded = True
    if source.error:
        _unusable(source, f"cannot read {source.name}: {source.error}; make it a readable regular file")
        return
    if not source.exists:
        return
    if source.size > limits.MAX_POLICY_BYTES:
        _unusable(source, f"{source.name} is {source.size} bytes, over the {limits.MAX_POLICY_BYTES}-byte "
                          "limit; it was not compiled (split it or move reference material elsewhere)")
        return
    text, notes = decode(source.raw, source.name)
    source.problems.extend(notes)
    source.text = text
    if text is None:
        source.status, source.note = UNUSABLE, notes[-1][1]


def _unusable(source: Source, message: str) -> None:
    source.problems.append(("error", message))
    source.status, source.note = UNUSABLE, message


# --- imports -------------------------------------------------------------------------------

#: An import word, as the client finds it: `@` at the start or after white space, then
#: characters other than white space and `\\`, or `\\ ` (an escaped space).
_IMPORT = re.compile(r"(?:^|\s)@((?:[^\s\\]|\\ )+)")
_HTML_COMMENT = re.compile(r"<!--[\s\S]*?-->")
#: The client's test of a relative import path: it starts like a file name.
_NAME_START = re.compile(r"[a-zA-Z0-9._-]")
_PARSER: Any = None


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        from markdown_it import MarkdownIt

        # text_join would merge an escaped `\@` into the text around it; the client does not scan it.
        _PARSER = MarkdownIt("commonmark").enable("table").disable("text_join")
    return _PARSER


def import_target(word: str) -> str | None:
    """The path an `@word` imports, as Claude Code accepts it, or None (a mention, an npm scope...)."""
    path = word.split("#", 1)[0].replace("\\ ", " ")
    if not path:
        return None
    if path.startswith(("./", "~/")) or (path.startswith("/") and path != "/"):
        return path
    if path.startswith("@") or not _NAME_START.match(path):
        return None
    return path


def import_lines(text: str) -> list[tuple[int, str]]:
    """(line, path) of every @import in `text`, in order: text outside code spans, code blocks
    and HTML (an HTML block that opens with a comment is scanned without its comments)."""
    if "@" not in text or not any(import_target(match.group(1)) for match in _IMPORT.finditer(text)):
        return []  # no candidate anywhere: no need to parse the markdown
    lines = text.split("\n")
    found: list[tuple[int, str]] = []
    for token in _parser().parse(text):
        if token.type == "inline":
            parts = []
            for child in token.children or ():
                parts.append(child.content if child.type == "text" else "\n" if child.type in ("softbreak", "hardbreak") else " ")
            scanned = "".join(parts)
        elif token.type == "html_block" and token.content.lstrip().startswith("<!--") and "-->" in token.content:
            scanned = _HTML_COMMENT.sub("", token.content)
        else:
            continue
        start, end = token.map if token.map else (0, len(lines))
        cursor = start  # the matches come in order: each is on the line of the one before or later
        for match in _IMPORT.finditer(scanned):
            path = import_target(match.group(1))
            if path is None:
                continue
            whole = re.compile(r"(?:^|\s)" + re.escape("@" + match.group(1)) + r"(?![^\s\\])")
            line = next((n for n in range(cursor, min(end, len(lines))) if whole.search(lines[n])), cursor)
            cursor = line
            found.append((line + 1, path))
    return found


# --- discovery -----------------------------------------------------------------------------


@dataclass
class Discovery:
    """What `discover` found: the sources in reading order, the tree stamps, and notes (level, where, message)."""

    sources: list[Source]
    tree: dict[str, Any]
    notes: list[tuple[str, str, str]]


def empty_tree() -> dict[str, Any]:
    return {"dirs": {}, "files": {}, "ignore": []}


class _Finder:
    def __init__(self, root: str) -> None:
        from cf_guidance.paths import home_dir, resolver_for

        self.root = root
        self.home = home_dir()
        self.resolver = resolver_for(root, root)
        self.sources: list[Source] = []
        self.notes: list[tuple[str, str, str]] = []
        #: (st_dev, st_ino) of each file read -> its source: a file is read once
        self.seen: dict[tuple[int, int], Source] = {}
        self.compiled_bytes = 0
        self.full = False
        #: imports that name no file, each listed once
        self.missing: set[str] = set()
        self.tree = empty_tree()

    # names and notes

    def display(self, path: str) -> str:
        """How a file is named in diagnostics and rule sources: project-relative, `~/...`, or absolute."""
        if path.startswith(self.root + os.sep):
            return path[len(self.root) + 1 :]
        if self.home != "/" and path.startswith(self.home + os.sep):
            return "~/" + path[len(self.home) + 1 :]
        return path

    def note(self, level: str, where: str, message: str) -> None:
        self.notes.append((level, where, message))

    def add(self, source: Source) -> bool:
        if len(self.sources) >= limits.MAX_POLICY_SOURCES:
            if not self.full:
                self.full = True
                self.note("warning", source.imported_by or f"{source.name}:1",
                          f"more than {limits.MAX_POLICY_SOURCES} policy files (limits.MAX_POLICY_SOURCES); "
                          f"{source.name} and later ones were not read")
            return False
        self.sources.append(source)
        return True

    # reading one file

    def load(self, path: str, kind: str, origin: str, scope: str, *, imported_by: str = "",
             chain: tuple[tuple[int, int], ...] = (), hops: int = 0, listed: bool = True) -> None:
        """Read one file and, unless it is Codex's, the files it imports. `listed`: an absent
        file is still listed (the root's candidates: the cache watches them, `protect` guards them)."""
        source = Source(self.display(path), origin, path=path, kind=kind, scope=scope, imported_by=imported_by)
        st = _stat(source)
        if st is None:
            source.status = ABSENT
            if imported_by:
                if path in self.missing:
                    return  # listed once (and stat'd once on a cache hit), however often it is named
                self.missing.add(path)
                source.note = "no such file"
                # an npm scope (`@types/node`) or a handle (`@alice`) reads like an import too: warn
                # only about a path that names a file Claude Code would load
                extension = os.path.splitext(path)[1].lower()
                level = "warning" if extension in IMPORT_EXTENSIONS else "info"
                self.note(level, imported_by, f"import of {source.name}: no such file; nothing was read")
            if listed or imported_by:
                self.add(source)
            return
        assert source.identity is not None
        first = self.seen.get(source.identity)
        if first is not None:
            if imported_by:
                if source.identity in chain:
                    self.note("warning", imported_by, f"import cycle: {source.name} imports itself through its "
                                                      "imports; it was read once (remove one of the @ lines)")
                return  # read already (a diamond): the client loads a file once too
            source.status = DUPLICATE
            source.size, source.sha256 = first.size, first.sha256
            source.note = f"the same file as {first.name}"
            self.add(source)
            return
        if not self.add(source):
            return
        self.seen[source.identity] = source
        _read_content(source, st)
        extension = os.path.splitext(path)[1].lower()
        if kind == IMPORT and extension not in COMPILED_EXTENSIONS:
            source.status = REFERENCE
            source.note = "not markdown: the agent sees it, no rules are compiled from it"
        elif not source.error and source.size:
            # A copy beside it (AGENTS.md = CLAUDE.md) says the same: compile it once. Imported
            # files are not compared: the same text elsewhere imports other files.
            folder = os.path.dirname(path)
            twin = None if kind == IMPORT else next(
                (s for s in self.sources if s.status == READ and s.kind != IMPORT and s is not source
                 and os.path.dirname(s.path) == folder and s.sha256 == source.sha256 and s.size == source.size), None)
            if twin is not None:
                source.status = DUPLICATE
                source.note = f"the same text as {twin.name}"
                return
            if self.compiled_bytes + source.size > limits.MAX_POLICY_TOTAL_BYTES:
                source.status = SKIPPED
                source.note = f"over the {limits.MAX_POLICY_TOTAL_BYTES}-byte total (limits.MAX_POLICY_TOTAL_BYTES)"
                self.note("warning", f"{source.name}:1", f"{source.name} was not compiled: the policy files before it "
                                                        f"reach {limits.MAX_POLICY_TOTAL_BYTES} bytes (limits.MAX_POLICY_TOTAL_BYTES)")
                return
            self.compiled_bytes += source.size
        if kind == AGENTS:
            return  # Codex has no imports
        prepare(source)
        if source.text is None:
            return
        for line, target in import_lines(source.text):
            self.follow(source, line, target, chain + (source.identity,), hops + 1)

    def follow(self, importer: Source, line: int, target: str, chain: tuple[tuple[int, int], ...], hops: int) -> None:
        where = f"{importer.name}:{line}"
        if target.lower() in DOMAIN_TAGS and not os.path.exists(os.path.join(os.path.dirname(importer.path), target)):
            return  # `@security`: the grammar's domain tag (docs/policy-grammar.md, "Tags"), not a file
        if target.startswith("~/"):
            path = os.path.join(self.home, target[2:])
        else:
            path = os.path.join(os.path.dirname(importer.path), target)
        path = os.path.normpath(path)
        extension = os.path.splitext(path)[1].lower()
        if extension and extension not in IMPORT_EXTENSIONS:
            self.note("info", where, f"@{target} is not a text file; it is not imported (as in Claude Code)")
            return
        if hops > limits.MAX_IMPORT_HOPS:
            self.note("warning", where, f"@{target} is more than {limits.MAX_IMPORT_HOPS} imports away from the file the "
                                        "agent loads; it was not read (Claude Code stops there too: import it from "
                                        "a file nearer the CLAUDE.md)")
            return
        from cf_guidance.gates.secrets import secret_kind

        if secret_kind(path, self.resolver):
            self.note("warning", where, f"@{target} names a secret file; it was not read (secrets never go into the policy)")
            return
        inside = path.startswith(self.root + os.sep)
        origin = importer.origin if inside else "local"
        if not inside:
            self.note("info", where, f"@{target} is outside the project: read as personal (local) policy; "
                                     "Claude Code loads it only once you approve external imports")
        self.load(path, IMPORT, origin, importer.scope, imported_by=where, chain=chain, hops=hops)

    # directories

    def directory(self, rel: str, present: list[str]) -> None:
        """The policy files of one directory, in the agents' order."""
        base = self.root if rel == "." else os.path.join(self.root, rel)
        scope = "" if rel == "." else rel
        for name, kind, origin in CLAUDE_FILES:
            if rel == "." or name.split("/", 1)[0] in present:
                self.load(os.path.join(base, name), kind, origin, scope, listed=rel == ".")
        chosen = next((name for name in AGENTS_NAMES if name in present), None)
        for name in AGENTS_NAMES:
            path = os.path.join(base, name)
            if name == chosen:
                self.load(path, AGENTS, "shared", scope)
            elif name in present:
                source = Source(self.display(path), "shared", path=path, kind=AGENTS, scope=scope)
                read_file(source)  # hashed: the cache notices when it changes, or when the other one goes
                source.status, source.note = SKIPPED, f"Codex reads {chosen} of this directory instead"
                self.add(source)
            elif rel == ".":
                self.load(path, AGENTS, "shared", scope)

    def walk(self) -> None:
        """Every directory below the root (bounded), in sorted depth-first order."""
        self.read_gitignore()
        ignore = self.tree["ignore"]
        stack: list[tuple[str, int]] = [(".", 0)]
        visited = 0
        deep = ""
        while stack:
            rel, depth = stack.pop()
            if visited >= limits.MAX_DISCOVERY_DIRS:
                self.note("warning", f"{CLAUDE_MD}:1", f"looked in {limits.MAX_DISCOVERY_DIRS} directories "
                                                      f"(limits.MAX_DISCOVERY_DIRS); {rel}/ and the directories after it were "
                                                      "not searched for CLAUDE.md or AGENTS.md files")
                break
            visited += 1
            path = self.root if rel == "." else os.path.join(self.root, rel)
            try:
                mtime = os.stat(path).st_mtime_ns
                present, subdirs = tree.listing(self.root, rel, ignore)
            except OSError as exc:
                self.note("warning", f"{CLAUDE_MD}:1", f"cannot list {rel}/ ({exc.strerror or exc}); "
                                                      "its CLAUDE.md files were not read")
                continue
            self.tree["dirs"][rel] = [mtime, tree.contents(present, subdirs)]
            if ".claude" in present and os.path.isdir(os.path.join(path, ".claude")):
                self.stamp_dir(".claude" if rel == "." else rel + "/.claude")
            self.directory(rel, present)
            if depth >= limits.MAX_DISCOVERY_DEPTH:
                if subdirs and not deep:
                    deep = rel
                    self.note("warning", f"{CLAUDE_MD}:1", f"directories more than {limits.MAX_DISCOVERY_DEPTH} levels deep "
                                                          f"(limits.MAX_DISCOVERY_DEPTH), such as those in {rel}/, were not "
                                                          "searched for CLAUDE.md or AGENTS.md files")
                continue
            for name in reversed(subdirs):
                stack.append((name if rel == "." else rel + "/" + name, depth + 1))

    def stamp_dir(self, rel: str) -> None:
        try:
            mtime = os.stat(os.path.join(self.root, rel)).st_mtime_ns
            present, subdirs = tree.listing(self.root, rel, [])
        except OSError:
            return
        self.tree["dirs"][rel] = [mtime, tree.contents(present, subdirs)]

    def read_gitignore(self) -> None:
        stamp, self.tree["ignore"] = tree.read_ignore(self.root)
        self.tree["files"][tree.GITIGNORE] = stamp


def discover(root: str) -> Discovery:
    """The policy sources of the project at `root` (absolute), its tree stamps and notes."""
    finder = _Finder(root)
    if os.path.isdir(root):
        finder.walk()
    else:  # a project that does not exist: the root's candidates, all absent
        finder.directory(".", [])
    return Discovery(finder.sources, finder.tree, finder.notes)
