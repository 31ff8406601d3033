"""Settings read from the environment, with the embedded defaults."""
from __future__ import annotations

import os
from pathlib import Path

#: Environment variable naming the default local model (a Hugging Face id or a local path); unset = embedded model.
MODEL_ENV = "PROMPTANATOMY_MODEL"
#: Environment variable naming the folder for caches and the converted embedded model.
CACHE_ENV = "PROMPTANATOMY_CACHE_DIR"
#: Environment variable naming the folder of converted models alone (default: ``models`` in the cache folder), so
#: that a fresh cache folder does not mean converting the embedded model again.
MODELS_ENV = "PROMPTANATOMY_MODELS_DIR"


def cache_dir() -> Path:
    """The folder for caches and converted models (created on demand)."""
    root = os.environ.get(CACHE_ENV) or os.path.join(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache",
                                                      "promptanatomy")
    path = Path(root).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def models_dir() -> Path:
    """The folder of converted models: ``$PROMPTANATOMY_MODELS_DIR``, else ``models`` in :func:`cache_dir`."""
    root = os.environ.get(MODELS_ENV)
    return Path(root).expanduser() if root else cache_dir() / "models"


def default_local_model() -> str | None:
    """The user's replacement for the embedded model, or None for the embedded one."""
    return os.environ.get(MODEL_ENV) or None
