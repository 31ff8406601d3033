"""Scoring: perplexity under a local language model (``perplexity``) and the perplexity filter (``filter``).

Importing this package is cheap: torch and transformers are imported when a scorer first runs.
"""
from __future__ import annotations

from .filter import cell_of, ppl_filter, score_and_filter
from .perplexity import PerplexityError, PerplexityScorer, PplScore, clear_memory_cache

__all__ = ["PerplexityError", "PerplexityScorer", "PplScore", "cell_of", "clear_memory_cache", "ppl_filter",
           "score_and_filter"]
