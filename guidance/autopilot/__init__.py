"""Score policies, A/B test them through the headless runner, promote local rules.

- `analyzer`: six dimensions computed from the compiled bundle (`cf-guidance analyze`).
- `promote`: promotable CLAUDE.local.md rules by stable id; the candidate CLAUDE.md.
- `ab`, `stats`: paired A/B benchmark, exact McNemar test, Newcombe interval (`cf-guidance ab`).
- `autopilot`: the locked cycle that proposes or applies a promotion (`cf-guidance autopilot`).

See docs/autopilot.md. Nothing is imported here: the CLI loads each module when used.
"""
