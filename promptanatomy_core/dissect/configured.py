"""Prompts written as configuration (YAML, JSON or TOML keys): each key's block takes the component its key names
("persona:" Role, "task:" Directive, "rules:" Additional Information, "response_format:" Output Formatting,
"examples:" Examples, "transcript:" the task's input)."""
from __future__ import annotations

import re

from ..types import Component
from .cues import INPUT_LABEL, PLACEHOLDER, REFERENCE, A, D, E, O, R, cues_of, heading_topic
from .reading import CONSULTED_NOUN, Sent

#: A key line: "persona:", "  - tone: warm", '  "task": "…",', 'output = "…"' (group "key", group "value").
_KEY_LINE = re.compile(r"^(?P<lead>\s*(?:-\s+)?)\"?(?P<key>[a-z][a-z0-9_-]*)\"?\s*(?::|(?<=\w)\s*=)"
                       r"(?:\s+(?P<value>\S.*)|\s*)$")
#: A TOML table: "[classifier]", "[[examples]]".
_TABLE = re.compile(r"^\s*\[\[?(?P<key>[a-z][\w.-]*)\]\]?\s*$")
#: A line of brackets only: "{", "},", "],".
_BRACKETS = re.compile(r"^\s*[\[\]{}(),]+\s*$")
#: A key that names the configured assistant itself.
_AGENT = re.compile(r"\b(?:agent|bot|assistant|router|classifier|app)$")
#: Keys whose words no heading uses for its section.
_KEY_TOPICS = {"job": D, "inputs": D, "speech": O, "voice": O, "greeting": O, "sign off": O, "traits": R}
#: A first line that only titles the file: "# support-bot.yaml — Ledgerly billing assistant", "---".
_TITLE = re.compile(r"^\s*(?:#.*|-{3,})$")


def _names_input(key: str) -> bool:
    """Whether a key names the task's input ("transcript", "user_message", "ticket")."""
    return bool(INPUT_LABEL.match(re.sub(r"[_-]+", " ", key).capitalize() + ":"))


def key_component(key: str) -> Component | None:
    """The component a configuration key names, None for a key that names none ("name", "model")."""
    words = re.sub(r"[_-]+", " ", key.rsplit(".", 1)[-1]).strip()
    if _AGENT.search(words):
        return None  # "voice_agent:", "[agent]": what holds the whole configuration names no part of it
    topic = _KEY_TOPICS.get(words) or heading_topic(words)
    if topic is not None:
        return topic
    if CONSULTED_NOUN.fullmatch(words.split()[-1]) or REFERENCE.search(words):
        return A  # "rules:", "context:", "knowledge_base:"
    return D if _names_input(words) else None  # "transcript: |", '"ticket": "{ticket_text}"': the task's input


def _configured(raw: list[str]) -> bool:
    """Whether the prompt is written as configuration from its start: its first line past a title is a key, and at
    least two keys name a component."""
    first = next((t for t in raw if not _BRACKETS.match(t) and not _TITLE.match(t)), "")
    if not (_KEY_LINE.match(first) or _TABLE.match(first)):
        return False  # most prompts stop here, before their other lines are read
    keys = [m["key"] for t in raw for m in [_KEY_LINE.match(t) or _TABLE.match(t)] if m]
    return len(keys) >= 3 and sum(key_component(k) is not None for k in keys) >= 2


def _wrapper(raw: list[str]) -> int | None:
    """The line of a key that holds the whole configuration ("moderation_task:" above every other key, indented):
    it names no component for what it holds."""
    keyed = [(li, m) for li, t in enumerate(raw) if (m := _KEY_LINE.match(t))]
    if not keyed or (keyed[0][1]["value"] or "{").strip() not in ("{", "["):
        return None
    first, key = keyed[0]
    inner = [t for t in raw[first + 1:] if t.strip() and not _BRACKETS.match(t)]
    return first if inner and all(len(t) - len(t.lstrip()) > len(key["lead"]) for t in inner) else None


def _value_component(text: str, value: str, persona: bool) -> Component | None:
    """What a line under no component's key says by its value: a slot is a field a task works from ("product_name:
    {product_name}") but an assistant's setting ("timezone: {user_timezone}"); else the value's one cue, if any."""
    value = value.strip("\"', ")
    said = {D} if PLACEHOLDER.fullmatch(value) and not REFERENCE.search(text.replace("_", " ")) and not persona \
        else cues_of(value)
    return next(iter(said)) if len(said) == 1 else None


def label_configured_prompt(lines: list[list[Sent]], labels: dict[int, set[Component]], raw: list[str]) -> None:
    """In a prompt written as configuration, each line takes the component of the outermost key above it, by
    indentation, that names one (``raw``: each line as typed); a nested key keeps its block's component unless it
    opens examples. A line under no such key keeps what the rules made of it, except the assistant's "name: …" (Role),
    and a bare container ("assistant:", "[moderation]", "{") takes the component of the line below it."""
    if not _configured(raw):
        return
    # an assistant's settings ("timezone: {user_timezone}") are background, a task's fields its input
    persona = any(key_component(m["key"]) is R for t in raw if (m := _KEY_LINE.match(t)))
    wrapper = _wrapper(raw)
    stack: list[tuple[int, Component | None, str]] = []  # (indentation, component, key) of the open keys
    waiting: list[int] = []  # containers that take the component of the next line
    literal: tuple[int, str] | None = None  # the block scalar ("persona: >", "snippet = '''") lines are inside
    for li, line in enumerate(lines):
        text = raw[li]
        indent = len(text) - len(text.lstrip())
        key, table = _KEY_LINE.match(text), _TABLE.match(text)
        if literal is not None and literal[1] in "|>" and indent <= literal[0]:
            literal = None  # the YAML block scalar ends where the indentation falls back
        if literal is not None:  # "Dana: OK, looks like everyone's here." inside "transcript: |" is no key
            key = table = None
            literal = None if literal[1] not in "|>" and literal[1] in text else literal  # TOML's closing quotes
            comp: Component | None = stack[-1][1] if stack else None
        elif table:
            stack = [(-1, key_component(table["key"]), table["key"])]
            comp = stack[0][1]
        elif _BRACKETS.match(text):
            comp = stack[-1][1] if stack else None
        elif key:
            depth = len(key["lead"])
            while stack and stack[-1][0] >= depth:
                stack.pop()
            parent, own = stack[-1][1] if stack else None, None if li == wrapper else key_component(key["key"])
            comp = own if parent is None or own is E else parent
            if comp is None and key["key"] == "name" and re.match(r"[\"']?[A-Z]", key["value"] or ""):
                comp = R  # "name: IDCheck Helper" at the top of an assistant's configuration
            stack.append((depth, comp, key["key"]))
            marker = (key["value"] or "").strip().rstrip("-+").strip(",")
            if marker in ("|", ">", "'''", '"""'):
                literal = (depth, marker)
        else:
            depth = indent + 1 if text.lstrip().startswith("- ") else indent
            while stack and stack[-1][0] >= depth:
                stack.pop()
            comp = stack[-1][1] if stack else None
        if comp is None and (key and not key["value"] or table or _BRACKETS.match(text)):
            waiting.append(li)
            continue
        if comp is None and key and len(line) == 1:
            comp = _value_component(text, key["value"], persona)
        for lj in waiting:
            labels.update((m.index, set(labels[line[0].index]) if comp is None else {comp}) for m in lines[lj])
        waiting = []
        own_words = comp is D and key is None and bool(stack) and not _names_input(stack[-1][2])
        if comp is not None:  # the task's instructions may hold a rule or a demand on the form in their own words
            labels.update((m.index, set(m.cues) if own_words and m.cues in ({A}, {O}) else {comp}) for m in line)
