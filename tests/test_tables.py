"""The paper's Table 1 and Table 2 layouts from hand-made results frames."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from promptanatomy_core.tables import table1, table2, to_markdown, wide_columns


def _frame(rows):
    return pd.DataFrame([dict(zip(("model", "component", "perturbation", "ppl_filter", "asr"), r)) for r in rows])


ROWS = [
    ("m1", "clean", "clean", "all", 0.1),
    ("m1", "Role", "SCI", "all", 0.2),
    ("m1", "Role", "SCI", "top20%", 0.5),
    ("m1", "Role", "WOD", "all", 0.4),
    ("m1", "Directive", "SCI", "all", 0.6),
    ("m1", "Directive", "WOD", "all", float("nan")),  # nothing judged
    ("m1", "CRT", "SCI", "all", 0.9),
    ("m1", "whole prompt", "MTTM-Char", "all", 0.3),
    ("m1", "whole prompt", "PromptRobust-DeepWordBug", "all", 0.7),
    ("m2", "Directive", "WOD", "all", 0.25),
]


def test_table2_rows_model_by_component_columns_perturbation_by_filter():
    t = table2(_frame(ROWS))
    # components in the canonical order, the control group last; clean and whole-prompt rows left out
    assert list(t.index) == [("m1", "Role"), ("m1", "Directive"), ("m1", "CRT"), ("m2", "Directive")]
    assert list(t.columns) == [("SCI", "all"), ("SCI", "top20%"), ("WOD", "all"), ("WOD", "top20%")]
    assert t.loc[("m1", "Role"), ("SCI", "all")] == 0.2
    assert t.loc[("m1", "Role"), ("SCI", "top20%")] == 0.5
    assert t.loc[("m1", "CRT"), ("SCI", "all")] == 0.9
    assert t.loc[("m2", "Directive"), ("WOD", "all")] == 0.25
    assert math.isnan(t.loc[("m1", "Directive"), ("WOD", "all")])  # not judged
    assert math.isnan(t.loc[("m1", "Directive"), ("SCI", "top20%")])  # not in the frame
    flat = wide_columns(t)
    assert list(flat.columns) == ["model", "component", "SCI", "SCI top20%", "WOD", "WOD top20%"]
    assert flat.iloc[0].tolist()[:4] == ["m1", "Role", 0.2, 0.5]


def test_table2_other_value_and_no_filter():
    frame = _frame([r for r in ROWS if r[3] == "all"])
    frame["pss"] = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    t = table2(frame, value="pss")
    assert list(t.columns) == [("SCI", "all"), ("WOD", "all")]
    assert t.loc[("m1", "Directive"), ("WOD", "all")] == 0.4


def test_table1_best_and_mean_per_model():
    t = table1(_frame(ROWS))
    rows = {(r.model, r.ppl_filter, r.family, r.method): r for r in t.itertuples(index=False)}
    sci = rows[("m1", "all", "component-wise", "SCI")]
    assert (sci.best_asr, sci.best_at, sci.mean_asr, sci.cells) == (0.6, "Directive", pytest.approx(0.4), 2)
    wod = rows[("m1", "all", "component-wise", "WOD")]  # the NaN cell counts in neither
    assert (wod.best_asr, wod.best_at, wod.mean_asr, wod.cells) == (0.4, "Role", 0.4, 1)
    every = rows[("m1", "all", "component-wise", "(all)")]  # CRT (0.9) is the control group, not a component
    assert (every.best_asr, every.best_at, every.cells) == (0.6, "Directive / SCI", 3)
    assert every.mean_asr == pytest.approx((0.2 + 0.4 + 0.6) / 3)
    deep = rows[("m1", "all", "whole-prompt", "PromptRobust-DeepWordBug")]
    assert (deep.best_asr, deep.mean_asr, deep.best_at) == (0.7, 0.7, "whole prompt")
    base = rows[("m1", "all", "whole-prompt", "(all)")]
    assert (base.best_asr, base.mean_asr, base.cells) == (0.7, pytest.approx(0.5), 2)
    filtered = rows[("m1", "top20%", "component-wise", "SCI")]
    assert (filtered.best_asr, filtered.mean_asr) == (0.5, 0.5)
    assert ("m1", "top20%", "whole-prompt", "(all)") not in rows  # no filtered baseline cells
    assert ("m2", "all", "whole-prompt", "(all)") not in rows
    assert list(t.columns) == ["model", "ppl_filter", "family", "method", "best_asr", "best_at", "mean_asr", "cells"]
    # methods in the paper's order, the family's (all) row last
    assert [r.method for r in t.itertuples() if r.model == "m1" and r.ppl_filter == "all"] == \
        ["SCI", "WOD", "(all)", "MTTM-Char", "PromptRobust-DeepWordBug", "(all)"]


def test_table1_method_without_judged_cells_is_nan():
    t = table1(_frame([("m", "Role", "SCI", "all", float("nan"))]))
    assert math.isnan(t.best_asr.iloc[0]) and math.isnan(t.mean_asr.iloc[0]) and t.cells.iloc[0] == 0


def test_markdown_rendering():
    md = to_markdown(table2(_frame(ROWS[:3])), digits=2, index=True)
    lines = md.splitlines()
    assert lines[0] == "| model | component | SCI | SCI top20% |"
    assert lines[1] == "|---|---|---|---|"
    assert lines[2] == "| m1 | Role | 0.20 | 0.50 |"
    md1 = to_markdown(pd.DataFrame({"a": ["x|y", None], "b": [float("nan"), 1.0]}))
    assert md1.splitlines()[2:] == ["| x\\|y | – |", "| – | 1.000 |"]


def test_empty_results_give_empty_tables():
    from promptanatomy_core.experiment import RESULT_COLUMNS

    empty = pd.DataFrame(columns=list(RESULT_COLUMNS))
    assert list(wide_columns(table2(empty)).columns) == ["model", "component"]
    assert table1(empty).empty
    assert to_markdown(table1(empty)).count("\n") == 2
    only_clean = _frame([("m", "clean", "clean", "all", 0.5)])
    assert table2(only_clean).empty and table1(only_clean).empty
