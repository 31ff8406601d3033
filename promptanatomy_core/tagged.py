"""XML-tagged prompts (the PACP datasets' format): ``<Role>…</Role>\\n<Directive>…</Directive>``.

A sentence with several labels appears once in each of its components' tags. Parsing keeps it once in the prompt,
at its first place, and gives it every label; rendering writes each component's sentences inside its tag.
"""
from __future__ import annotations

import re

from .text import PromptError, split_sentences
from .types import COMPONENTS, Component, Dissection, Sentence

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z ]{0,40})>")
_NAMES = {c.value: c for c in COMPONENTS}


class TagError(PromptError):
    """Malformed XML-tagged text; the message gives the position and the problem."""


def _blocks(tagged: str) -> list[tuple[Component | None, str, str]]:
    """Split tagged text into (component or None for untagged text, content, separator before it)."""
    blocks: list[tuple[Component | None, str, str]] = []
    pos = 0
    sep = ""
    open_tag: tuple[Component, int] | None = None
    for m in _TAG.finditer(tagged):
        closing, name = m.group(1) == "/", m.group(2)
        comp = _NAMES.get(name)
        if comp is None:
            if open_tag is None and not tagged[pos:m.start()].strip() and name.strip().title() != name.strip().lower():
                near = [c.value for c in COMPONENTS if c.value.lower()[:3] == name.lower()[:3]]
                if near or name[:1].isupper():
                    hint = f" (did you mean <{near[0]}>?)" if near else ""
                    raise TagError(f"unknown tag <{'/' if closing else ''}{name}> at character {m.start()}{hint}; "
                                   f"component tags are: {', '.join(c.value for c in COMPONENTS)}")
            continue  # a tag-like string inside content (code, HTML) is content
        if open_tag is None:
            if closing:
                raise TagError(f"closing tag </{name}> at character {m.start()} has no opening tag")
            outside = tagged[pos:m.start()]
            if outside.strip():
                blocks.append((None, outside.strip(), sep))
                sep = "\n"
            else:
                sep = outside
            open_tag = (comp, m.end())
        else:
            inner, start = open_tag
            if not closing:
                raise TagError(f"<{name}> at character {m.start()} opens inside <{inner.value}> (opened at "
                               f"character {start - len(inner.value) - 2}); tags cannot nest")
            if comp is not inner:
                raise TagError(f"</{name}> at character {m.start()} closes <{inner.value}>")
            blocks.append((comp, tagged[start:m.start()], sep))
            open_tag, pos, sep = None, m.end(), ""
    if open_tag is not None:
        comp, start = open_tag
        raise TagError(f"<{comp.value}> opened at character {start - len(comp.value) - 2} is never closed")
    rest = tagged[pos:]
    if rest.strip():
        blocks.append((None, rest.strip(), sep))
    return blocks


def parse_tagged(tagged: str, source: str = "gold") -> Dissection:
    """Parse XML-tagged text into a :class:`Dissection` of the untagged prompt."""
    blocks = _blocks(tagged)
    if not any(comp is not None for comp, _, _ in blocks):
        raise TagError("no component tags found (expected <Role>, <Directive>, <Additional Information>, "
                       "<Output Formatting> or <Examples>)")
    texts: list[str] = []
    labels: list[set[Component]] = []
    gaps: list[str] = []  # gaps[i]: white space after kept sentence i
    index: dict[str, int] = {}
    for comp, content, sep in blocks:
        if texts:
            gaps[-1] = sep if sep.strip() == "" and sep else "\n"
        prev: int | None = None
        prev_end = 0
        for s in split_sentences(content):
            gap = content[prev_end:s.start] if prev is not None else ""
            known = index.get(s.text)
            if known is None or comp is None or comp in labels[known]:
                texts.append(s.text)
                labels.append(set())
                gaps.append("\n")
                known = len(texts) - 1
                index.setdefault(s.text, known)
            if comp is not None:
                labels[known].add(comp)
            if prev is not None and known == prev + 1:
                gaps[prev] = gap
            prev, prev_end = known, s.end
    prompt = "".join(t + g for t, g in zip(texts, gaps)).rstrip()
    sentences = []
    pos = 0
    for t, g, lab in zip(texts, gaps, labels):
        sentences.append(Sentence(pos, pos + len(t), t, frozenset(lab)))
        pos += len(t) + len(g)
    return Dissection(prompt, tuple(sentences), (source,) * len(sentences))


def _runs(sentences: tuple[Sentence, ...], comp: Component) -> list[tuple[Sentence, Sentence]]:
    runs: list[tuple[Sentence, Sentence]] = []
    last = -2
    for i, s in enumerate(sentences):
        if comp in s.labels:
            runs[-1:] = [(runs[-1][0], s)] if i == last + 1 and runs else runs[-1:] + [(s, s)]
            last = i
    return runs


def render_tagged(dissection: Dissection) -> str:
    """Render as XML-tagged text, components in canonical order; unlabelled sentences follow untagged."""
    prompt = dissection.prompt
    parts = []
    for comp in COMPONENTS:
        runs = _runs(dissection.sentences, comp)
        if runs:
            pieces = [prompt[a.start:b.end] for a, b in runs]
            body = " ".join(pieces)
            expected = [s.text for s in dissection.sentences if comp in s.labels]
            if [s.text for s in split_sentences(body)] != expected:
                body = "\n".join(pieces)  # a space would merge two runs into one sentence
            parts.append(f"<{comp.value}>{body}</{comp.value}>")
    parts += [s.text for s in dissection.sentences if not s.labels]
    return "\n".join(parts)
