"""Every strategy, baseline, component and heatmap metric the app shows has its one-line explanation."""
from promptanatomy_core import glossary, report
from promptanatomy_core.experiment import DEFAULT_COMPONENTS
from promptanatomy_core.perturb import BASELINES, COMPERTURB


def test_every_term_the_app_shows_is_explained():
    assert set(glossary.STRATEGIES) == set(COMPERTURB)
    assert set(glossary.BASELINES) == set(BASELINES)
    assert set(glossary.COMPONENTS) == set(DEFAULT_COMPONENTS)
    assert set(report.METRICS.values()) <= set(glossary.METRICS)
    for text in [*glossary.STRATEGIES.values(), *glossary.BASELINES.values(), *glossary.COMPONENTS.values(),
                 *glossary.METRICS.values()]:
        assert 20 < len(text) < 260 and "\n" not in text  # one line, worth hovering for
    assert glossary.strategy_help("WOD") == glossary.STRATEGIES["WOD"]
    assert glossary.strategy_help("MTTM-Char") == glossary.BASELINES["MTTM-Char"]
    assert glossary.strategy_help("unknown") == "unknown"
