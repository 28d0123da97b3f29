"""Hook entrypoint (installed as guidance.hooks)."""
