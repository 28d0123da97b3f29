"""Catastrophe guard: commands that destroy the machine or the user's data. Always deny.

No policy, allowlist or level can switch this gate off: the engine runs it first and the
project allowlist never applies to its codes.
"""

from __future__ import annotations

from cf_guidance.decision import DENY
from cf_guidance.gates._base import Rule
from cf_guidance.gates.commands import Args, describe, resolver_at
from cf_guidance.gates.commands.rm import DELETERS, deletions_of, find_deletes
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.reasons import doc, finding
from cf_guidance.paths import CATASTROPHIC, HOME, ROOT, SYSTEM, glob_base

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.summary import Summary
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command

GATE = "catastrophe"

RULES = (
    Rule("CAT001", "wipe-root-home-or-system", DENY, "Recursive delete of /, the home directory, a system directory or a directory that contains the project",
         doc("Denies a recursive delete (`rm -r`, `find -delete`, `xargs rm -r`) whose target resolves to `/`, "
             "the home directory, a system directory such as `/etc` or `/usr/bin`, or any parent of the project. "
             "Targets are resolved first: `~`, `$HOME`, `..` and symlinks cannot hide them, and `/*` counts as `/`.",
             "It destroys the operating system or every file the user owns; nothing can undo it.",
             "rm -rf ~\nsudo rm -fr /*\nrm -rf \"$HOME\"/\nrm -rf /tmp/../etc", "rm -rf ./build")),
    Rule("CAT002", "no-preserve-root", DENY, "rm --no-preserve-root",
         doc("Denies any `rm` that passes `--no-preserve-root`.",
             "The flag exists only to let `rm -rf /` through.", "rm -rf --no-preserve-root /", "rm -rf ./build")),
    Rule("CAT003", "overwrite-block-device", DENY, "Writing to a disk device: mkfs, wipefs, dd of=/dev/sd*, > /dev/sda",
         doc("Denies `mkfs*`, `wipefs`, `shred`, `blkdiscard` and `dd of=` on block devices (`/dev/sd*`, `/dev/nvme*`, "
             "`/dev/vd*`, `/dev/disk*`, ...) and shell redirections into them.",
             "It erases a whole disk, including the operating system.", "dd if=/dev/zero of=/dev/sda bs=1M\nmkfs.ext4 /dev/sdb1\necho x > /dev/sda",
             "dd if=/dev/zero of=./disk.img bs=1M count=10")),
    Rule("CAT004", "fork-bomb", DENY, "A fork bomb",
         doc("Denies shell functions that call themselves twice in a background pipe (`:(){ :|:& };:`, under any name) "
             "and inline programs that fork in an endless loop.",
             "It exhausts the process table and freezes the machine until a reboot.", ":(){ :|:& };:", "# run bounded loops")),
    Rule("CAT005", "recursive-permission-change-of-system", DENY, "chmod/chown -R on /, the home directory or a system directory",
         doc("Denies `chmod`, `chown` and `chgrp` that are recursive on, or directly target, `/`, the home directory, "
             "a parent of the project or a system directory.",
             "Wrong owners or modes on system files break sudo, ssh and boot; there is no record of the old values.",
             "chmod -R 777 /\nsudo chown -R me /usr", "chmod -R u+w ./build")),
    Rule("CAT006", "move-root-home-or-system", DENY, "mv of /, the home directory or a system directory",
         doc("Denies `mv` whose source is `/`, the home directory, a parent of the project or a system directory.",
             "Moving them away breaks the system as surely as deleting them.", "mv / /dev/null\nmv ~ /tmp/old-home", "mv ./old ./new")),
)

_MKFS = frozenset(("mkfs", "mke2fs", "mkswap", "wipefs", "blkdiscard", "shred", "mkdosfs", "newfs", "format"))
_DEVICE_PREFIXES = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop", "sr", "fd0", "nbd", "zd", "root")


def is_block_device(path: str) -> bool:
    """`/dev/sda1`, `/dev/nvme0n1`, `/dev/disk2`... (not /dev/null, /dev/zero, /dev/tty, /dev/shm/x)."""
    if not path.startswith("/dev/"):
        return False
    name = path[5:]
    return name.startswith(_DEVICE_PREFIXES)


#: Programs `_check_command` has a branch for (`deletions` looks only at find and DELETERS).
#: Any other command can matter only through a redirection (CAT003) or inline code (CAT004).
_PROGRAMS = frozenset(("rm", "find", "dd", "tee", "cp", "chmod", "chown", "chgrp", "mv")) | DELETERS | _MKFS
#: Tests switch this off to prove the pre-filter skips only commands without findings.
PREFILTER = True


def _may_matter(cmd: Command) -> bool:
    program = cmd.program
    if program == "find":  # it has a branch only through what it deletes (`-delete`, `-exec rm`)
        return bool(cmd.redirects) or bool(cmd.language) or find_deletes(cmd.args)
    return bool(cmd.redirects) or bool(cmd.language) or program in _PROGRAMS or program.startswith("mkfs")


def _any_may_matter(found: Summary) -> bool:
    """`_may_matter` OR-ed over all commands: False lets the gate skip the loop."""
    return found.redirects or found.language or found.mkfs or not found.programs.isdisjoint(_PROGRAMS)


def check(ctx: GateContext) -> list[Finding]:
    command = ctx.event.command
    if command is None:
        return []
    out: list[Finding] = []
    if _fork_bomb_text(command):
        out.append(finding(GATE, "CAT004", DENY, "fork bomb: a function that pipes into itself in the background", segment=command))
    found = summary(ctx)
    if found is None or (PREFILTER and not _any_may_matter(found)):
        return out
    for cmd in found.analysis.commands:
        if PREFILTER and not _may_matter(cmd):
            continue
        _check_command(ctx, cmd, out)
        if cmd.language and _fork_bomb_code(cmd.code):
            out.append(finding(GATE, "CAT004", DENY, f"fork bomb in {cmd.language} code", segment=describe(cmd)))
    return out


def _check_command(ctx: GateContext, cmd: Command, out: list[Finding]) -> None:
    program = cmd.program
    segment = describe(cmd)
    paths = resolver_at(ctx, cmd)
    if program == "rm" and "--no-preserve-root" in cmd.args:
        out.append(finding(GATE, "CAT002", DENY, "rm --no-preserve-root disables the protection of /", segment=segment))
    for deletion in deletions_of(ctx, cmd):
        if deletion.target is None or not deletion.recursive:
            continue
        where, kind = paths.where(deletion.target)
        unset = ""
        if not kind:
            # `rm -rf "${DIR:-/}"`: what runs when the variable is unset
            where = paths.resolve_unset(glob_base(deletion.target))
            kind = paths.classify(where) if where else ""
            unset = " when its variable is unset"
        if kind in CATASTROPHIC and not (deletion.selective and kind not in (ROOT, HOME)):
            out.append(finding(GATE, "CAT001", DENY, f"recursive delete of {where} ({kind}){unset}", segment=segment, evidence=deletion.target))
    for _, target in cmd.redirects:
        if is_block_device(_resolve(paths, target)) and _writes(cmd, target):
            out.append(finding(GATE, "CAT003", DENY, f"shell redirection overwrites the device {target}", segment=segment))
    if program.startswith("mkfs") or program in _MKFS:
        for arg in Args(cmd.args, frozenset(("-t", "-L", "-b", "-n", "-O", "-E", "-c"))).positionals:
            if is_block_device(_resolve(paths, arg)):
                out.append(finding(GATE, "CAT003", DENY, f"{program} erases the device {arg}", segment=segment))
                break
    elif program == "dd":
        for arg in cmd.args:
            if arg.startswith("of=") and is_block_device(_resolve(paths, arg[3:])):
                out.append(finding(GATE, "CAT003", DENY, f"dd overwrites the device {arg[3:]}", segment=segment))
    elif program in ("tee", "cp"):
        positionals = Args(cmd.args).positionals
        for arg in positionals[-1:] if program == "cp" else positionals:
            if is_block_device(_resolve(paths, arg)):
                out.append(finding(GATE, "CAT003", DENY, f"{program} overwrites the device {arg}", segment=segment))
    elif program in ("chmod", "chown", "chgrp"):
        parsed = Args(cmd.args, frozenset(("--reference",)))
        recursive = parsed.has("-R", "--recursive")
        for target in parsed.positionals[1:]:
            where, kind = paths.where(target)
            if kind in (ROOT, HOME) or (recursive and kind in CATASTROPHIC) or (kind == SYSTEM and "777" in parsed.positionals[0]):
                out.append(finding(GATE, "CAT005", DENY, f"{program} {'-R ' if recursive else ''}on {where} ({kind})", segment=segment))
    elif program == "mv":
        parsed = Args(cmd.args, frozenset(("-t", "--target-directory", "-S", "--suffix")))
        sources = parsed.positionals if parsed.value("-t", "--target-directory") else parsed.positionals[:-1]
        for source in sources:
            where, kind = paths.where(source, real=False)
            if kind in CATASTROPHIC:
                out.append(finding(GATE, "CAT006", DENY, f"mv moves {where} ({kind}) away", segment=segment))


def _resolve(paths: Resolver, word: str) -> str:
    return paths.resolve(word) or ""


def _writes(cmd: Command, target: str) -> bool:
    return any(">" in op for op, t in cmd.redirects if t == target)


def _fork_bomb_text(text: str) -> bool:
    """A function `f(){ ... f | f & ... }` defined then called: `:(){ :|:& };:` under any name."""
    if "(" not in text or "&" not in text:
        return False  # both are needed below (a definition and a background call): most commands stop here
    compact = "".join(text.split())
    start = compact.find("(){")
    while start != -1:
        name_start = start
        while name_start > 0 and compact[name_start - 1] not in ";&|(){}\n":
            name_start -= 1
        name = compact[name_start:start]
        if name.startswith("function"):
            name = name[len("function"):]
        body_end = compact.find("}", start)
        body = compact[start + 3 : body_end if body_end != -1 else len(compact)]
        if name and f"{name}|{name}" in body and "&" in body:
            return True
        start = compact.find("(){", start + 3)
    return False


def _fork_bomb_code(code: str) -> bool:
    compact = "".join(code.split())
    return "fork()" in compact and ("whileTrue" in compact or "while(1)" in compact or "while(true)" in compact or "for(;;)" in compact or "loop{" in compact)
