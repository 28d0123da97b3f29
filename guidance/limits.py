"""Input limits. Each is documented in SECURITY.md and has a test that exceeds it.

Hot path module: constants only.
"""

from __future__ import annotations

#: Largest hook event read from stdin; larger input is rejected (decision by fail mode).
MAX_EVENT_BYTES = 16 * 1024 * 1024
#: Longest shell command analysed; longer commands are "unparsable" (policy level decides).
MAX_COMMAND_CHARS = 256 * 1024
#: Deepest nesting of $(...), bash -c, eval, heredoc-to-shell that is followed.
MAX_SHELL_DEPTH = 8
#: Most simple commands extracted from one Bash tool call.
MAX_SHELL_COMMANDS = 2_000
#: Most words in one simple command.
MAX_SHELL_WORDS = 10_000
#: Largest policy source (CLAUDE.md, CLAUDE.local.md, AGENTS.md, an imported file) compiled.
MAX_POLICY_BYTES = 4 * 1024 * 1024
#: Most policy files read for one project (root, imported, subdirectory and AGENTS.md files together).
MAX_POLICY_SOURCES = 200
#: Most bytes of policy files compiled for one project (the files after it are listed, not compiled).
MAX_POLICY_TOTAL_BYTES = 16 * 1024 * 1024
#: Imports followed from a file the agent loads itself: CLAUDE.md -> a -> b -> c -> d. Claude Code
#: 2.1.328 loads no file further away (its docs say "five hops", counting the CLAUDE.md).
MAX_IMPORT_HOPS = 4
#: Directories looked in for subdirectory CLAUDE.md / AGENTS.md files (each is also one stat on
#: a cache hit, see guidance/policy/tree.py).
MAX_DISCOVERY_DIRS = 2_000
#: Deepest directory below the project root looked in for them.
MAX_DISCOVERY_DEPTH = 12
#: Most rules compiled from all sources together.
MAX_POLICY_RULES = 20_000
#: Bytes of file content scanned for secret values in a Write/Edit event.
MAX_SCAN_BYTES = 2 * 1024 * 1024
#: Characters of evidence kept in a finding (redacted first).
MAX_EVIDENCE_CHARS = 200
