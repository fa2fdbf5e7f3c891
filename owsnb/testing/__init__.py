"""Test helpers for owsnb (Hypothesis strategies live in :mod:`owsnb.testing.strategies`)."""
