"""Policy: compile CLAUDE.md into a bundle, cache it, retrieve rules for a prompt.

Import the submodule you need; nothing is imported here, because the hook's hot path loads
`guidance.policy.cache` and `guidance.policy.retriever` and must not pay for the compiler
(markdown-it-py, pydantic). Public surface:

- `guidance.policy.compiler.compile_project(dir, strict=False) -> dict` and
  `compile_sources(shared_text, local_text, ...) -> dict` (slow path, third-party imports)
- `guidance.policy.cache.load_bundle(dir, state_dir=None) -> dict` (hot path)
- `guidance.policy.retriever.retrieve(bundle, text, tool_class=None, k=5)` (hot path)
- `guidance.policy.report.render_bundle_text(bundle) -> str`

The bundle's keys are documented in docs/policy-grammar.md.
"""
