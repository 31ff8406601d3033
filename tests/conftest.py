"""Shared pytest set-up. Markers (`slow`, `browser`), testpaths and the default timeout live in pyproject.toml."""
from __future__ import annotations

from pathlib import Path

#: The repository root (the folder holding pyproject.toml).
REPO_ROOT = Path(__file__).resolve().parents[1]


def _share_converted_models() -> None:
    """Tests that point PROMPTANATOMY_CACHE_DIR at a temporary folder keep using the embedded model converted by
    ``make install`` (the models folder is a setting of its own), instead of converting it again in each."""
    import os

    from promptanatomy_core.settings import MODELS_ENV, models_dir

    os.environ.setdefault(MODELS_ENV, str(models_dir()))


_share_converted_models()
