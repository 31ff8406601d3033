"""Shared pytest set-up. Markers (`slow`, `browser`), testpaths and the default timeout live in pyproject.toml."""
from __future__ import annotations

from pathlib import Path

#: The repository root (the folder holding pyproject.toml).
REPO_ROOT = Path(__file__).resolve().parents[1]
