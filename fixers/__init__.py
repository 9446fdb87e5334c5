"""Fixers: rewrite what a check found into GPU-friendly code (installed as ``scalarlint.fixers``)."""
