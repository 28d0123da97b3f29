"""Hook entrypoint (installed as cf_guidance.hooks)."""
