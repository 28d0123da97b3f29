"""The headless runner: run tasks through Claude Code in isolated workspaces and check what the agent did.

Modules (nothing is imported here): `suite` (YAML suites), `assertions` (typed checks and
their registry), `workspace` (isolated runs and git snapshots), `executors` (claude,
scripted, fake), `collect` (stream-json, hooks, transcript, diff), `runner` (parallel runs,
repeats, verdicts), `report` and `htmlreport` (JSON, HTML, JUnit, text envelope),
`compliance` (the starter suite), `claude` (finding and running the claude binary).
See docs/headless.md.
"""
