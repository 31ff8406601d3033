"""The first page stays light: importing what app.py and app_pages/dissect.py need (and the other page modules of
ui/), and running the first page once, loads none of torch, transformers, sentence_transformers, nltk, plotly or
sklearn; they load on first use (a cold start would otherwise pay seconds for them).

One exception is not ours to fix: ``import streamlit`` itself imports plotly whenever it is installed (streamlit's
``elements/plotly_chart.py`` configures its plotly theme at import, inside ``contextlib.suppress(ImportError)``).
So the checks run with plotly made unimportable (as if it were not installed, which streamlit allows): a module of
ours that imported plotly eagerly would then fail to import. A last check pins the exception down: with plotly
importable, our modules load nothing heavy that a bare ``import streamlit`` does not load already.

Each check runs in a fresh interpreter (this test process has long imported everything)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "transformers", "sentence_transformers", "nltk", "plotly", "sklearn")
#: What app.py and app_pages/dissect.py import, the modules those import, and the other modules of ui/.
FIRST_PAGE = (
    "streamlit",
    "ui.components", "ui.models_sidebar", "ui.engine", "ui.state", "ui.highlight", "ui.summary", "ui.diff",
    "ui.run", "ui.results",
    "promptanatomy_core.settings", "promptanatomy_core.types", "promptanatomy_core.text", "promptanatomy_core.tagged",
    "promptanatomy_core.datasets", "promptanatomy_core.models.base", "promptanatomy_core.models.keys",
    "promptanatomy_core.models.prompting", "promptanatomy_core.models.runner", "promptanatomy_core.experiment",
    "promptanatomy_core.store", "promptanatomy_core.report",
)

BLOCK_PLOTLY = """
import importlib.abc, sys

class _NoPlotly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "plotly" or name.startswith("plotly."):
            raise ImportError(f"plotly is blocked in this check ({name})")
        return None

sys.meta_path.insert(0, _NoPlotly())
"""


def _run(body: str, block_plotly: bool) -> list[str]:
    """Run ``body`` (which leaves the names of the modules to check in ``sys.modules``) in a fresh interpreter at the
    repository's root; the heavy modules loaded by then."""
    code = "\n".join([f"import json, sys\nsys.path.insert(0, {str(REPO_ROOT)!r})",
                      BLOCK_PLOTLY if block_plotly else "",
                      textwrap.dedent(body),
                      f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _imports(modules, block_plotly: bool) -> list[str]:
    return _run(f"""
        import importlib
        for name in {list(modules)!r}:
            importlib.import_module(name)
    """, block_plotly)


def test_first_page_modules_import_nothing_heavy():
    heavy = _imports(FIRST_PAGE, block_plotly=True)
    assert heavy == [], f"imported eagerly: {heavy}"


def test_first_page_run_loads_nothing_heavy():
    """The first page itself (app.py with the Dissect page), run once as a browser's first visit runs it."""
    heavy = _run(f"""
        from streamlit.testing.v1 import AppTest

        at = AppTest.from_file({str(REPO_ROOT / "app.py")!r}, default_timeout=120)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.text_area, "the first page shows no text area"
    """, block_plotly=True)
    assert heavy == [], f"loaded by the first page: {heavy}"


def test_only_streamlit_itself_brings_plotly():
    bare = set(_imports(["streamlit"], block_plotly=False))
    ours = set(_imports(FIRST_PAGE, block_plotly=False))
    assert ours <= bare, f"imported by our modules, not by streamlit: {sorted(ours - bare)}"
    assert bare <= {"plotly"}, f"streamlit now imports more: {sorted(bare)}"
