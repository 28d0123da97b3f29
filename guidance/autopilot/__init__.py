"""Score policies, gather evidence for each candidate rule, promote the ones that help.

- `analyzer`: six dimensions computed from the compiled bundle (`cf-guidance analyze`).
- `promote`: promotable CLAUDE.local.md rules by stable id; the candidate CLAUDE.md.
- `evidence`: each rule replayed alone over the project's past sessions (`cf_guidance.replay`).
- `probes`: probes derived from a candidate's new rules, and the shims that keep them from running.
- `ab`, `stats`, `live`: the A/B benchmark: a deterministic check of enforcement (scripted) or
  paired statistics over independent runs (live, after a preflight, within a budget).
- `autopilot`: the locked cycle that proposes or applies promotions, each rule on its own
  evidence (`cf-guidance autopilot`).

See docs/autopilot.md. Nothing is imported here: the CLI loads each module when used.
"""
