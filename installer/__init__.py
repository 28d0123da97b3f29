"""Installer (installed as guidance.installer)."""
