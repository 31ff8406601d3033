"""Plain value types that flow through the engine."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Iterable, Mapping


class Component(str, Enum):
    """The five functional components of a prompt (PromptAnatomy)."""

    ROLE = "Role"
    DIRECTIVE = "Directive"
    ADDITIONAL_INFORMATION = "Additional Information"
    OUTPUT_FORMATTING = "Output Formatting"
    EXAMPLES = "Examples"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value

    @classmethod
    def parse(cls, name: str) -> "Component":
        """Return the component named ``name`` (case- and space-insensitive)."""
        key = " ".join(name.replace("_", " ").split()).lower()
        for comp in cls:
            if comp.value.lower() == key:
                return comp
        raise ValueError(f"unknown component {name!r}; expected one of: {', '.join(c.value for c in cls)}")


COMPONENTS: tuple[Component, ...] = tuple(Component)


@dataclass(frozen=True)
class Sentence:
    """One sentence of a prompt: ``prompt[start:end] == text``, with its component labels."""

    start: int
    end: int
    text: str
    labels: frozenset[Component] = frozenset()

    def with_labels(self, labels: Iterable[Component]) -> "Sentence":
        return replace(self, labels=frozenset(labels))


@dataclass(frozen=True)
class Dissection:
    """A prompt split into labelled sentences, with the dissector that set each sentence's labels."""

    prompt: str
    sentences: tuple[Sentence, ...]
    sources: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.sources and len(self.sources) != len(self.sentences):
            raise ValueError("one source per sentence is required")
        for s in self.sentences:
            if self.prompt[s.start:s.end] != s.text:
                raise ValueError(f"sentence offsets {s.start}:{s.end} do not match its text")

    @property
    def source_list(self) -> tuple[str, ...]:
        """The dissector that labelled each sentence ("" where unknown)."""
        return self.sources or ("",) * len(self.sentences)

    def components(self) -> list[Component]:
        """The components present, in canonical order."""
        present = {c for s in self.sentences for c in s.labels}
        return [c for c in COMPONENTS if c in present]

    def spans(self, component: Component) -> list[tuple[int, int]]:
        """Character spans of ``component``: consecutive labelled sentences merged."""
        spans: list[tuple[int, int]] = []
        prev = -2
        for i, s in enumerate(self.sentences):
            if component in s.labels:
                if i == prev + 1 and spans:
                    spans[-1] = (spans[-1][0], s.end)
                else:
                    spans.append((s.start, s.end))
                prev = i
        return spans

    def relabel(self, index: int, labels: Iterable[Component], source: str = "manual") -> "Dissection":
        """A copy with sentence ``index`` relabelled by hand (or by ``source``)."""
        sentences = list(self.sentences)
        sentences[index] = sentences[index].with_labels(labels)
        sources = list(self.source_list)
        sources[index] = source
        return replace(self, sentences=tuple(sentences), sources=tuple(sources))

    def to_json(self, dissector: str = "") -> dict:
        """The CLI's JSON shape."""
        return {
            "dissector": dissector,
            "sentences": [
                {
                    "start": s.start,
                    "end": s.end,
                    "text": s.text,
                    "labels": [c.value for c in COMPONENTS if c in s.labels],
                    "source": src,
                }
                for s, src in zip(self.sentences, self.source_list)
            ],
        }

    @classmethod
    def from_labels(cls, prompt: str, sentences: Iterable[Sentence], labels: Mapping[int, Iterable[Component]],
                    source: str) -> "Dissection":
        """Build a dissection from split sentences and a label set per sentence index."""
        sents = tuple(s.with_labels(labels.get(i, ())) for i, s in enumerate(sentences))
        return cls(prompt=prompt, sentences=sents, sources=(source,) * len(sents))


#: The control group's component name: edits placed without regard to the components.
CONTROL = "CRT"
#: The component name of whole-prompt baselines (applied without dissection).
WHOLE_PROMPT = "whole prompt"


@dataclass(frozen=True)
class Edit:
    """Replace ``original[start:end]`` with ``replacement`` (offsets into the clean prompt)."""

    start: int
    end: int
    replacement: str


@dataclass(frozen=True)
class Variant:
    """One perturbed prompt: ``text`` is exactly what a model receives (no tags; only the edited spans differ)."""

    strategy: str  # SCI, SYR, WOD, SER, COD or a baseline's name
    component: str  # a Component value, CONTROL or WHOLE_PROMPT
    seed: int
    text: str
    edits: tuple[Edit, ...] = ()
    note: str = ""  # e.g. "offline WordNet rewrite (no paraphrase model)"
    ppl: float | None = None
    ppl_ratio: float | None = None
    kept: bool | None = None  # None until the perplexity filter has run

    def to_json(self) -> dict:
        return {"strategy": self.strategy, "component": self.component, "seed": self.seed, "text": self.text,
                "ppl": self.ppl, "ppl_ratio": self.ppl_ratio, "kept": self.kept, "note": self.note,
                "edits": [[e.start, e.end, e.replacement] for e in self.edits]}
