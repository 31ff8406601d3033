"""One-line explanations of every metric, strategy and component, for hover help in the app and notes in reports.

Plain data: the app shows them as ``help=`` tooltips and on its About page; :mod:`.report` reuses the metric lines.
"""
from __future__ import annotations

COMPONENTS: dict[str, str] = {
    "Role": "Who the model should be (\"You are a careful medical researcher\").",
    "Directive": "The task itself: what the model must do.",
    "Additional Information": "Context the task needs: facts, a document, constraints on the content.",
    "Output Formatting": "How the answer must look: format, length, fields, language.",
    "Examples": "Worked input/output pairs shown to the model (few-shot).",
    "CRT": "Control group: the same edit budget as a mean component, placed anywhere in the prompt — a component "
           "above it is more fragile than chance.",
}

STRATEGIES: dict[str, str] = {
    "SCI": "Special character insertion: # $ % & @ ! inside words, at the ratio of the words, spread evenly.",
    "SYR": "Synonym replacement: the ratio of the content words replaced by WordNet synonyms.",
    "WOD": "Word deletion: the ratio of the words deleted (at least one, never all).",
    "SER": "Sentence rewriting: one sentence replaced by a paraphrase of the same meaning.",
    "COD": "Component deletion: the whole component removed.",
}

BASELINES: dict[str, str] = {
    "PromptRobust-DeepWordBug": "Whole-prompt baseline: swap, substitute, delete or insert one letter in the ratio of "
                                "the words.",
    "PromptRobust-TextBugger": "Whole-prompt baseline: a space, a deleted or swapped inner letter, or a look-alike "
                               "character in the ratio of the words.",
    "PromptRobust-TextFooler": "Whole-prompt baseline: the ratio of the content words swapped for WordNet synonyms, "
                               "anywhere in the prompt.",
    "MTTM-Char": "Whole-prompt baseline: a homoglyph, a leetspeak character or a noise character in the ratio of the "
                 "words.",
    "MTTM-Word": "Whole-prompt baseline: the ratio of the words split with a space or a hyphen, or abbreviated.",
    "MTTM-Sentence": "Whole-prompt baseline: an irrelevant neutral sentence inserted after the ratio of the "
                     "sentences.",
}

METRICS: dict[str, str] = {
    "ASR": "Attack success rate: the share of judged answers a perturbation made fail (attack successes / n), "
           "with its Wilson 95% interval.",
    "Flip rate": "ASR among the answers that were right on the clean prompt: how often a perturbation breaks a "
                 "right answer.",
    "PSS": "ProSA's prompt sensitivity score: mean |Y(p_i) − Y(p_j)| over pairs of an instance's prompts "
           "(0 = the answer never changes, 1 = always), with a bootstrap 95% interval over instances.",
    "Decoding confidence": "ProSA: the probability the model gave to the first token of its answer; ProSA finds "
                           "that higher confidence goes with lower sensitivity.",
    "PPL ratio": "PPL(perturbed) / PPL(clean) under the embedded model: how much a variant disturbs the text; the "
                 "filter keeps the top 20% per cell.",
    "PCM": "Prompt Complexity Metric (PromptAnatomy paper): length, lexical variety, structure, coherence and "
           "readability of the clean prompt, weighted into one score.",
    "n": "Judged answers in the cell; provider errors are never counted (an error is never an attack success).",
}


def strategy_help(name: str) -> str:
    """The one-liner of a ComPerturb strategy or whole-prompt baseline (the name itself when unknown)."""
    return STRATEGIES.get(name) or BASELINES.get(name) or name
