"""Path glob matching without `re` or `fnmatch` (both too slow to import on the hot path).

Syntax: `*` matches within one path segment, `**` matches any number of segments
(including none), `?` one character, `[abc]` / `[!abc]` a character class. A pattern with no
`/` matches the basename anywhere (gitignore style): `.env` matches `a/b/.env`.
"""

from __future__ import annotations


def _match_segment(pattern: str, text: str) -> bool:
    p = t = 0
    star_p = -1
    star_t = 0
    while t < len(text):
        if p < len(pattern):
            c = pattern[p]
            if c == "*":
                star_p = p
                star_t = t
                p += 1
                continue
            if c == "?":
                p += 1
                t += 1
                continue
            if c == "[":
                end = pattern.find("]", p + 2)
                if end != -1:
                    body = pattern[p + 1 : end]
                    negate = body[:1] in ("!", "^")
                    if negate:
                        body = body[1:]
                    hit = _in_class(body, text[t])
                    if hit != negate:
                        p = end + 1
                        t += 1
                        continue
                elif text[t] == "[":
                    p += 1
                    t += 1
                    continue
            elif c == text[t]:
                p += 1
                t += 1
                continue
        if star_p != -1:
            p = star_p + 1
            star_t += 1
            t = star_t
            continue
        return False
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)


def _in_class(body: str, ch: str) -> bool:
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            if body[i] <= ch <= body[i + 2]:
                return True
            i += 3
        else:
            if body[i] == ch:
                return True
            i += 1
    return False


def _match_parts(pat: list[str], parts: list[str]) -> bool:
    if not pat:
        return not parts
    head = pat[0]
    if head == "**":
        rest = pat[1:]
        for skip in range(len(parts) + 1):
            if _match_parts(rest, parts[skip:]):
                return True
        return False
    if not parts:
        return False
    return _match_segment(head, parts[0]) and _match_parts(pat[1:], parts[1:])


def glob_match(pattern: str, path: str) -> bool:
    """True when `path` (relative, `/`-separated) matches `pattern`.

    A trailing `/` or `/**` in the pattern matches everything below that directory, and the
    directory itself.
    """
    pattern = pattern.strip()
    if not pattern:
        return False
    path = path.strip("/") if path != "/" else ""
    if pattern.endswith("/"):
        pattern += "**"
    # gitignore: a separator at the start or in the middle anchors the pattern to the root.
    anchored = "/" in pattern.rstrip("/")
    pattern = pattern.lstrip("/")
    if pattern.startswith("./"):
        pattern = pattern[2:]
    pat = [seg for seg in pattern.split("/") if seg]
    parts = [seg for seg in path.split("/") if seg and seg != "."]
    if not anchored:
        pat = ["**"] + pat
    if pat and pat[-1] != "**" and _match_parts(pat + ["**"], parts):
        # `dir` also protects everything below `dir/`.
        return True
    return _match_parts(pat, parts)
