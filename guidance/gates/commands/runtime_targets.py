"""Where an inline program writes when its targets are only known at run time (issue 11).

`cf_guidance.shell.interpreters` translates the calls of a one-liner it can evaluate
(`open('x', 'w')` becomes `true > x`), and the gates judge those like any other command. A
target computed at run time (`'.cla' + 'ude'`, `os.path.join(...)`, a loop over `glob(...)`)
cannot be translated: the command is marked `dynamic` and that write would go unseen. This
module reads such code conservatively, from its tokens: does it write at all, and is there
any sign that it writes into the guard's directories?

- a write and, in its string literals joined end to end (or one of them reversed, or
  decoded from base64, hex or rot13), a fragment every path into a guard directory must
  spell (`GUARD_FRAGMENTS`): the target may be a guard file (GUARD);
- a write and a glob literal that reaches into a dot directory (`.*/settings.json`): GUARD;
- a write and code that makes text from character codes (`chr`, `String.fromCharCode`,
  `pack`, ...) or lists directories (`os.walk`, `rglob`, `readdirSync`, ...): the target
  cannot be known at all (HIDDEN).

Each table entry is tested with the code it must and must not flag
(tests/gates/commands/test_runtime_targets.py). Hot path: standard library only; the
tokenizer is imported only for dynamic inline code.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command

GUARD = "guard"
HIDDEN = "hidden"

#: Text that any path into the guard's directories holds (lower case): the hook wiring's
#: folders, the state directory and the witness's folder under the user's data directory.
GUARD_FRAGMENTS = (".claude", ".codex", "claude-flow", "cf-guidance")
#: Top-level entries a glob literal may reach into (its first segment is matched against them).
GUARD_TOPS = (".claude", ".codex", ".claude-flow")

#: Calls that change files or run other programs, by language: a dotted name as the
#: tokenizer joins it (`shutil.rmtree`), or `.method` for a method on any object.
WRITE_CALLS: dict[str, frozenset[str]] = {
    "python": frozenset((
        "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.renames", "os.replace", "os.symlink",
        "os.link", "os.truncate", "os.chmod", "os.system", "os.popen", "os.write", "shutil.rmtree", "shutil.move",
        "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "subprocess.run", "subprocess.call",
        "subprocess.Popen", "subprocess.check_call", "subprocess.check_output", ".write_text", ".write_bytes",
        ".unlink", ".rmdir", ".rename", ".touch", ".symlink_to", ".hardlink_to",
    )),
    "javascript": frozenset((
        ".writeFileSync", ".writeFile", ".appendFileSync", ".appendFile", ".createWriteStream", ".rmSync", ".rm",
        ".rmdirSync", ".rmdir", ".unlinkSync", ".unlink", ".renameSync", ".rename", ".copyFileSync", ".copyFile",
        ".cpSync", ".cp", ".truncateSync", ".symlinkSync", ".execSync", ".exec", ".spawnSync", ".spawn",
        ".execFileSync", "Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFile", "Deno.remove", "Bun.write",
    )),
    "ruby": frozenset((
        "File.write", "File.binwrite", "File.delete", "File.unlink", "File.rename", "File.symlink", "IO.write",
        "FileUtils.rm", "FileUtils.rm_f", "FileUtils.rm_r", "FileUtils.rm_rf", "FileUtils.mv", "FileUtils.cp",
        "FileUtils.cp_r", "FileUtils.touch", "FileUtils.ln_s", "system", "exec", "spawn", "IO.popen",
    )),
    "perl": frozenset(("unlink", "rename", "rmtree", "remove_tree", "system", "exec", "copy", "move", "symlink", "truncate", "write_file")),
    "php": frozenset(("file_put_contents", "unlink", "rename", "copy", "symlink", "system", "exec", "shell_exec", "passthru", "popen")),
    "awk": frozenset(("system",)),
}
#: Calls that open a file, which write only with a write mode among the string literals.
OPEN_CALLS: dict[str, frozenset[str]] = {
    "python": frozenset(("open", "io.open", "codecs.open", ".open", "os.fdopen")),
    "javascript": frozenset((".openSync", ".open")),
    "ruby": frozenset(("File.open", "File.new", "IO.open", "open")),
    "perl": frozenset(("open", "sysopen")),
    "php": frozenset(("fopen",)),
    "awk": frozenset(),
}
#: Flags of a low-level open that writes (`os.open(p, os.O_WRONLY)`).
WRITE_FLAGS = frozenset(("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "os.O_WRONLY", "os.O_RDWR", "os.O_CREAT",
                         "os.O_TRUNC", "os.O_APPEND", "fs.constants.O_WRONLY", "fs.constants.O_RDWR"))
#: Calls that make text from character codes: no literal shows what the program writes.
HIDING = frozenset(("chr", "String.fromCharCode", ".fromCharCode", "pack", "unichr", "mb_chr", "Integer.chr", ".chr"))
#: Calls that list directories at run time: the paths they find cannot be known.
WALKING = frozenset((
    "os.walk", ".walk", ".rglob", "Find.find", "File.Find.find", "find", "RecursiveDirectoryIterator",
    "RecursiveIteratorIterator", "fs.readdirSync", ".readdirSync", ".readdir", "os.scandir", "os.listdir", ".iterdir",
    "Dir.children", "Dir.entries", "Dir.each_child", "opendir", "scandir",
))
#: Calls that expand a glob: a literal that reaches into a dot directory may name a guard file.
GLOBBING = frozenset(("glob", "glob.glob", "glob.iglob", ".glob", ".rglob", "Dir.glob", "Dir", "globSync", ".globSync", "fg.sync"))

_GLOB_CHARS = frozenset("*?[")
_PYTHONISH_MODES = frozenset("rwaxbtU+")


def runtime_write(cmd: Command) -> tuple[str, str] | None:
    """(GUARD or HIDDEN, evidence) when the inline code of `cmd` writes to a target it computes
    at run time and that target may be (GUARD) or cannot be told from (HIDDEN) a guard file."""
    language, code = cmd.language, cmd.code
    if not code or language not in WRITE_CALLS:
        return None
    from cf_guidance.shell.interpreters import NAME, PUNCT, SHELL, STRING, tokenize

    tokens = tokenize(language, code)
    names: list[str] = []
    literals: list[str] = []
    previous = ""
    for tok in tokens:
        if tok.kind == NAME:
            names.append("." + tok.text if previous == "." else tok.text)
        elif tok.kind in (STRING, SHELL):
            literals.append(tok.text)
        previous = tok.text if tok.kind == PUNCT else ""
    write = _writes(language, names, literals, code)
    if not write:
        return None
    texts = ["".join(literals), *literals, *cmd.argv[1:]]
    texts.extend(decoded for literal in literals for decoded in _decodings(literal))
    for text in texts:
        lowered = text.lower()
        for fragment in GUARD_FRAGMENTS:
            if fragment in lowered:
                return GUARD, f"{write} and the code spells {fragment!r}"
    if _named(names, GLOBBING) or _named(names, WALKING):
        for literal in literals:
            if _glob_reaches_guard(literal):
                return GUARD, f"{write} to the paths of the glob {literal!r}"
    walker = _named(names, WALKING)
    if walker:
        return HIDDEN, f"{write} to paths it finds with {walker}"
    hider = _named(names, HIDING)
    if hider:
        return HIDDEN, f"{write} to a path it makes from character codes with {hider}"
    return None


def _decodings(literal: str) -> list[str]:
    """`literal` reversed, and decoded from base64, hex and rot13 where it is such text."""
    import codecs

    out = [literal[::-1], codecs.encode(literal, "rot13")]
    compact = literal.strip()
    if len(compact) >= 8 and len(compact) % 2 == 0 and all(c in "0123456789abcdefABCDEF" for c in compact):
        out.append(bytes.fromhex(compact).decode("latin-1"))
    elif len(compact) >= 8:
        import base64
        import binascii

        try:
            out.append(base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True).decode("latin-1"))
        except (binascii.Error, ValueError):
            pass
    return out


def _named(names: list[str], table: frozenset[str]) -> str:
    """The first of `names` that is in `table`, as a dotted name or a `.method`; "" if none."""
    for name in names:
        if name in table:
            return name.lstrip(".")
        last = name.rsplit(".", 1)[-1]
        if name.startswith(".") or "." in name:
            if "." + last in table:
                return name.lstrip(".")
    return ""


def _writes(language: str, names: list[str], literals: list[str], code: str) -> str:
    """How the code writes ("" when it does not): a write call, an open with a write mode, a write flag."""
    found = _named(names, WRITE_CALLS[language])
    if found:
        return f"it calls {found}"
    opener = _named(names, OPEN_CALLS[language])
    if opener and any(_is_write_mode(language, literal) for literal in literals):
        return f"it opens a file for writing with {opener}"
    flag = next((name for name in names if name.lstrip(".") in WRITE_FLAGS), "")
    if flag:
        return f"it opens a file with {flag.lstrip('.')}"
    if language == "awk" and (">" in code or "|" in code):
        return "it prints to a file"
    return ""


def _is_write_mode(language: str, literal: str) -> bool:
    if language == "perl":
        return literal.startswith((">", "+<", "|")) or literal.endswith("|")
    return 0 < len(literal) <= 4 and set(literal) <= _PYTHONISH_MODES and bool(set(literal) & set("wax+"))


def _glob_reaches_guard(literal: str) -> bool:
    """True when a glob literal's first directory segment can match a guard directory (`.*/x`,
    `.c*/*`, `**/settings.json`, `*/settings.json` where `*` matches dot names as pathlib's globs
    do); `src/**/*.py` stays under `src/`."""
    if not _GLOB_CHARS & set(literal):
        return False
    from cf_guidance._glob import _match_segment

    segments = [s for s in literal.split("/") if s not in ("", ".")]
    if len(segments) < 2:
        return False  # a file name pattern in one directory (`*.json`) names no guard directory
    first = segments[0]
    if first.lower() in GUARD_TOPS or first == "**":
        return True
    return bool(_GLOB_CHARS & set(first)) and any(_match_segment(first, top) for top in GUARD_TOPS)
