"""Replay: the tool calls of real session logs, judged again under today's (or a candidate) policy.

- `calls`: a tool call rebuilt from a log (`ToolCall`), with what happened to it at the time,
  and the read statistics (`LogStats`).
- `claude_log`: Claude Code transcripts (`<config dir>/projects/<project slug>/*.jsonl`).
- `codex_log`: Codex rollouts (`$CODEX_HOME/sessions/**/rollout-*.jsonl`).
- `locate`: which log files to read (explicit paths, or the project's defaults; `--since`).
- `evaluate`: every call of a session through the engine under one or more policies, with the
  session's history so sequence rules work (`replay_sessions`).
- `reverts`: whether a later call of the session undid a call (the table of undo commands).
- `summary`: counts per policy and rule, what changes between two policies, examples.

See docs/autopilot.md ("Replay"). Nothing is imported here: the CLI loads each module when used.
"""
