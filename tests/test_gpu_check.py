"""bench/gpu_check.py: the CPU smoke run (`--device cpu --quick`, slow: about 1.5 minutes on 2 busy cores) prints every
figure, and they add up; asking for CUDA where there is none is one line and exit status 2."""
from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPT = REPO_ROOT / "bench" / "gpu_check.py"


def _run(*args: str, timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=REPO_ROOT,
                          timeout=timeout, env=None if env is None else dict(os.environ, **env))


def _summary(stdout: str) -> dict[str, str]:
    assert "== summary ==" in stdout, stdout[-2000:]
    tail = stdout.split("== summary ==", 1)[1]
    return dict(line.split(": ", 1) for line in tail.strip().splitlines())


def test_cuda_without_a_gpu_is_one_line_and_status_2():
    # no visible CUDA device, on this machine and on a GPU machine alike
    done = _run("--device", "cuda", timeout=120, env={"CUDA_VISIBLE_DEVICES": ""})
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("gpu_check: --device cuda was asked for, but torch.cuda.is_available() is False")
    assert "--device cpu" in lines[0]
    assert done.stdout == ""


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_cpu_quick_run_prints_sane_figures():
    done = _run("--device", "cpu", "--quick", timeout=580)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    figures = _summary(out)
    assert figures["device"] == "cpu" and figures["dtype"] == "float32"
    numbers = {k: float(v) for k, v in figures.items() if k not in {"device", "dtype"}}
    assert all(math.isfinite(v) for v in numbers.values()), figures
    # times and speeds are printed, not judged here (tests check correctness, never wall-clock time)
    assert numbers["load_s"] > 0 and numbers["ppl_speedup"] > 0 and numbers["ppl_tokens_per_s"] > 0
    assert numbers["ppl_max_rel_diff_vs_cpu_fp32"] == 0  # fp32 on CPU against itself
    requests = int(figures["experiment_requests"])
    # the clean prompt and 6 components x 5 strategies with n=1 (a cell that cannot be filled is skipped)
    assert 2 <= requests <= 31
    assert int(figures["experiment_answered"]) == requests
    assert int(figures["experiment_errors"]) == 0
    wall = numbers["experiment_wall_s"]
    assert wall > 0 and numbers["experiment_requests_per_s"] == pytest.approx(requests / wall, rel=0.01, abs=0.002)
    asr = {k[4:-1]: v for k, v in numbers.items() if k.startswith("asr[")}
    assert "clean" in asr and len(asr) >= 2 and all(0 <= v <= 1 for v in asr.values()), asr
    # (b) and (c) print their lines; (d) one markdown table whose row names the script and the figures
    assert re.search(r"speed-up vs the naive loop: [\d.]+x", out)
    assert re.search(r"requests \d+, answered \d+, errors 0", out)
    table = [line for line in out.splitlines() if line.startswith("|")]
    assert table[:2] == ["| benchmark | result |", "| --- | --- |"] and len(table) == 3
    assert table[2].startswith("| `bench/gpu_check.py` (CPU") and f"{requests} requests" in table[2]
