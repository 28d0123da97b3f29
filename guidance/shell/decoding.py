"""Text a pipeline of literal producers and decoders gives, known without running anything.

Hot path module: standard library only (no `base64`: it imports `re` and `struct`).

`echo cm0gLXJmIH4v | base64 -d` is `rm -rf ~/`; `printf '\\x72\\x6d'` is `rm`. The shell
analysis reads such text where it becomes code (`| sh`, `eval "$(...)"`, `$(printf r)m`);
the destructive gate asks when code comes out of a decoder whose input it cannot read.
"""

from __future__ import annotations

from cf_guidance.limits import MAX_COMMAND_CHARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command


def piped_text(before: list[list[Command]]) -> str | None:
    """The text a pipeline of `echo`/`printf` and decoders (`base64 -d`, `xxd -r -p`, `rev`)
    produces (each group one pipeline stage), if it is known without running anything."""
    decoders: list[str] = []
    for group in reversed(before):
        if len(group) != 1 or group[0].dynamic:
            return None
        cmd = group[0]
        decoder = decoder_of(cmd)
        if decoder:
            if _operands(cmd.argv[1:], decoder):
                return None  # it decodes a file, not the text piped in
            decoders.append(decoder)
        elif cmd.program in ("echo", "printf"):
            args = cmd.argv[1:]
            text: str | None = echo_text(cmd.program, args)
            for decoder in reversed(decoders):
                text = _decode(decoder, text) if text is not None else None
            return text
        else:
            return None
    return None


#: Programs that decode their input, and how they are told to (see decoder_of).
DECODERS = frozenset(("base64", "base32", "basenc", "xxd", "rev", "openssl", "uudecode"))


def decoder_of(cmd: Command) -> str:
    """What decoding `cmd` does to its stdin ("base64", "base32", "hex", "rev"), "" if none;
    "?" for a decoder whose output cannot be worked out here (uudecode, openssl enc -d)."""
    program = cmd.program
    if program not in DECODERS:
        return ""
    args = cmd.argv[1:]
    decode = any(a in ("-d", "--decode", "-D") or (a[:1] == "-" and a[1:2] != "-" and "d" in a) for a in args)
    if program in ("base64", "base32"):
        return program if decode else ""
    if program == "basenc":
        return "base64" if decode and "--base64" in args else "base32" if decode and "--base32" in args else "?" if decode else ""
    if program == "xxd":
        reverse = any(a[:1] == "-" and "r" in a for a in args)
        plain = any(a in ("-p", "-ps", "-plain", "-postscript") or (a[:1] == "-" and "p" in a and "r" in a) for a in args)
        return ("hex" if plain else "?") if reverse else ""
    if program == "rev":
        return "rev" if not args else ""
    if program == "openssl":
        if args[:1] == ["base64"] and "-d" in args:
            return "base64"
        return "?" if "-d" in args and args[:1] in (["enc"], ["base64"]) else ""
    return "?"  # uudecode


def _operands(args: list[str], decoder: str) -> list[str]:
    """A decoder's file operands (`-` is stdin; openssl's words are its subcommand and options)."""
    if decoder == "base64" and args[:1] == ["base64"]:
        args = args[1:]
    return [a for a in args if a[:1] != "-" and a != "-"]


def echo_text(program: str, args: list[str]) -> str:
    from cf_guidance.shell.lexer import decode_escapes

    if program == "printf":
        if not args:
            return ""
        parts = [p.replace("%%", "%") for p in decode_escapes(args[0]).split("%s")]
        values = args[1:]
        out: list[str] = []
        size = 0
        while True:  # printf reuses its format until the values run out
            for k, part in enumerate(parts):
                out.append(part)
                size += len(part)
                if k < len(parts) - 1:
                    out.append(values.pop(0) if values else "")
                    size += len(out[-1])
            if not values or len(parts) == 1 or size > MAX_COMMAND_CHARS:
                return "".join(out)
    escapes = False
    while args and len(args[0]) > 1 and args[0][0] == "-" and all(c in "neE" for c in args[0][1:]):
        escapes = escapes or "e" in args[0]
        args = args[1:]
    text = " ".join(args) + "\n"
    return decode_escapes(text) if escapes else text


def _decode(decoder: str, text: str) -> str | None:
    """`text` decoded; None when it cannot be worked out (an unknown decoder, bad input)."""
    if decoder == "rev":
        return "\n".join(line[::-1] for line in text.split("\n"))
    import binascii

    data = "".join(text.split()).encode("ascii", "ignore")
    try:
        if decoder == "base64":
            raw = binascii.a2b_base64(data)
        elif decoder == "base32":
            raw = _base32(data.decode("ascii"))
        elif decoder == "hex":
            raw = binascii.unhexlify(data)
        else:
            return None
    except (binascii.Error, ValueError):
        return None
    return raw.decode("utf-8", "replace")


_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _base32(text: str) -> bytes:
    """RFC 4648 base32 (the `base64` module imports what the hot path must not)."""
    bits = 0
    count = 0
    out = bytearray()
    for c in text.rstrip("="):
        value = _BASE32.find(c.upper())
        if value < 0:
            raise ValueError("not base32")
        bits = (bits << 5) | value
        count += 5
        if count >= 8:
            count -= 8
            out.append((bits >> count) & 0xFF)
    return bytes(out)


