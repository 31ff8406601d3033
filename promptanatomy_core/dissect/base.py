"""The dissector interface and its registry."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable, ClassVar, Sequence

from ..text import split_sentences, validate_prompt
from ..types import Dissection, Sentence


class Dissector(ABC):
    """Labels each sentence of a prompt with its components."""

    name: ClassVar[str]

    def dissect(self, prompt: str, sentences: Sequence[Sentence] | None = None) -> Dissection:
        """Dissect ``prompt``; ``sentences`` (offsets into ``prompt``) replaces the built-in split when given."""
        prompt = validate_prompt(prompt)
        sents = tuple(sentences) if sentences is not None else tuple(split_sentences(prompt))
        return self._label(prompt, sents)

    @abstractmethod
    def _label(self, prompt: str, sentences: tuple[Sentence, ...]) -> Dissection:
        """Return the dissection of ``prompt`` with a label set for every sentence."""


_REGISTRY: dict[str, Callable[..., Dissector]] = {}


def register(name: str) -> Callable[[type[Dissector]], type[Dissector]]:
    """Class decorator adding a dissector to the registry under ``name``."""

    def deco(cls: type[Dissector]) -> type[Dissector]:
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return deco


def available() -> list[str]:
    """Names of the registered dissectors."""
    return sorted(_REGISTRY)


def get_dissector(name: str, **options: object) -> Dissector:
    """Build the dissector registered as ``name`` with ``options`` (e.g. ``model=`` for ``llm``)."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown dissector {name!r}; choose one of: {', '.join(available())}") from None
    return factory(**options)
