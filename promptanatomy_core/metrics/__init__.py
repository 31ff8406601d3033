"""Metrics: pure functions over result records (see ``records.py`` for the fields they read).

``asr``         ASR = attack successes / judged responses per cell, Wilson 95% intervals; the flip rate.
``pss``         ProSA's Prompt Sensitivity Score per instance, per cell, per component; its bootstrap interval.
``confidence``  decoding confidence (probability of the first answer token) and its relation to PSS.
``pcm``         the Prompt Complexity Metric (lexical, syntactic, semantic, structural, task; weighted).
``summary``     one row per cell with all of the above but PCM.

An attack *succeeded* on a response when the success criterion says the response is not correct; unjudged
responses (provider errors, failed judges) are never successes and never in a denominator.
"""
from __future__ import annotations

from .asr import Rate, Z95, asr, attack_successes, flip_rate, wilson_interval
from .confidence import ConfidencePoint, ConfidenceVsPss, confidence_vs_pss, first_token_confidence, pearson
from .pcm import PCM, IdfReference, estimate_task, pcm, wordnet_reference
from .pss import (Pss, bootstrap_interval, instance_pss, instance_scores, pairwise_mean_abs_diff, pss, pss_of,
                  pss_table)
from .records import field_of, group_by
from .summary import CELL, summarize

__all__ = ["CELL", "ConfidencePoint", "ConfidenceVsPss", "IdfReference", "PCM", "Pss", "Rate", "Z95", "asr",
           "attack_successes", "bootstrap_interval", "confidence_vs_pss", "estimate_task", "field_of",
           "first_token_confidence", "flip_rate", "group_by", "instance_pss", "instance_scores",
           "pairwise_mean_abs_diff", "pcm", "pearson", "pss", "pss_of", "pss_table", "summarize", "wilson_interval",
           "wordnet_reference"]
