"""The first page stays light: importing what app.py, its default page (Start) and app_pages/dissect.py need (and
every module of ui/), and running the first page once, loads none of torch, transformers, sentence_transformers,
nltk, plotly or sklearn; they load on first use (a cold start would otherwise pay seconds for them).

One exception is not ours to fix: ``import streamlit`` itself imports plotly whenever it is installed (streamlit's
``elements/plotly_chart.py`` configures its plotly theme at import, inside ``contextlib.suppress(ImportError)``).
So the checks run with plotly made unimportable (as if it were not installed, which streamlit allows): a module of
ours that imported plotly eagerly would then fail to import. A last check pins the exception down: with plotly
importable, our modules load nothing heavy that a bare ``import streamlit`` does not load already.

Each check runs in a fresh interpreter (this test process has long imported everything)."""
from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "transformers", "sentence_transformers", "nltk", "plotly", "sklearn")
#: Named here for certain; :func:`_first_page_modules` adds what app.py, its default page and the Dissect page import
#: at their top, and every module of ui/.
CORE = (
    "streamlit", "promptanatomy_core.settings", "promptanatomy_core.types", "promptanatomy_core.text",
    "promptanatomy_core.tagged", "promptanatomy_core.datasets", "promptanatomy_core.models.base",
    "promptanatomy_core.models.keys", "promptanatomy_core.models.prompting", "promptanatomy_core.models.runner",
    "promptanatomy_core.experiment", "promptanatomy_core.store", "promptanatomy_core.report",
)


def _top_imports(path: Path) -> list[str]:
    """The modules a file imports at its top level; ``from a import b`` gives ``a`` and ``a.b`` (the latter is
    imported only where it is a module, see :func:`_imports`)."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return found


def _first_page_modules() -> list[str]:
    app = REPO_ROOT / "app.py"
    default = re.search(r'st\.Page\("([^"]+)"[^)]*default=True', app.read_text(encoding="utf-8"))
    assert default, "app.py names no default page"
    files = [app, REPO_ROOT / default.group(1), REPO_ROOT / "app_pages" / "dissect.py"]
    names = list(CORE) + [f"ui.{p.stem}" for p in sorted((REPO_ROOT / "ui").glob("*.py")) if p.stem != "__init__"]
    for path in files:
        names += _top_imports(path)
    return list(dict.fromkeys(names))


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
    """Import ``modules`` in a fresh interpreter (a name that is no module, as ``a.b`` from ``from a import b``
    where ``b`` is a class or a function, is passed over); the heavy modules loaded then."""
    return _run(f"""
        import importlib
        for name in {list(modules)!r}:
            try:
                importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != name:
                    raise
    """, block_plotly)


def test_first_page_modules_import_nothing_heavy():
    heavy = _imports(_first_page_modules(), block_plotly=True)
    assert heavy == [], f"imported eagerly: {heavy}"


def test_first_page_run_loads_nothing_heavy():
    """The first page itself (app.py with its default page), run once as a browser's first visit runs it."""
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
    ours = set(_imports(_first_page_modules(), block_plotly=False))
    assert ours <= bare, f"imported by our modules, not by streamlit: {sorted(ours - bare)}"
    assert bare <= {"plotly"}, f"streamlit now imports more: {sorted(bare)}"
