"""A stable short hash without hashlib or zlib (3 ms and 0.5 ms to import on the hot path).

Hot path module: no imports. FNV-1a, 32 bits: fine for names and fingerprints that only need
to differ from their neighbours, never for anything an attacker must not forge.
"""

from __future__ import annotations

#: Past this many bytes, the head and the tail (half each) and the length stand for the text:
#: the loop is Python, and a fingerprint of a 10 MB Write must not cost milliseconds.
MAX_HASHED = 2048


def fnv1a32(text: str) -> str:
    """Eight hex digits of FNV-1a over the UTF-8 of `text` (its head and tail past MAX_HASHED bytes)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > MAX_HASHED:
        half = MAX_HASHED // 2
        data = data[:half] + data[-half:] + b"%d" % len(data)
    value = 0x811C9DC5
    for byte in data:
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return "%08x" % value
