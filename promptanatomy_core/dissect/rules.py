"""The offline default dissector: cue phrases read in the context of the paragraph and section around them.

Each sentence first gets the components its own wording signals (its *cues*). Then context decides:

* a heading line ("## Output format", "Examples:", "Rules:") gives its component to the lines below it;
* an example block ("Here are some examples:", "Example 1 - Input: …") stays Examples to its end;
* the paragraph that carries the task input ("Now complete the question: …", a "Review: …" line, a code block under
  an instruction) is the Directive block: its other sentences describe the task, so they are Directive too, on top of
  what their own wording says (a role clause, a format rule, a constraint);
* a sentence with no cue of its own takes its paragraph's component, else the component of the sentence before it,
  else Additional Information (background).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..types import Component, Dissection, Sentence
from .base import Dissector, register

R, D, A, O, E = (Component.ROLE, Component.DIRECTIVE, Component.ADDITIONAL_INFORMATION,
                 Component.OUTPUT_FORMATTING, Component.EXAMPLES)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_LEAD = r"^[\s>*\-•#\d.)(]*"  # bullets, numbering and markdown emphasis before the words

ROLE = _rx(
    _LEAD + r"(?:(?:you are|you're)\s+(?!given\b|provided\b|asked\b|tasked\b|to\b|going\b|allowed\b|required\b|"
    r"expected\b|not\b|also\b|now\b|given\b|free\b|able\b|encouraged\b|supposed\b)"
    r"|as\s+(?:a|an|the|my|our)\s+(?!result\b|example\b|reminder\b|rule\b|first\b|last\b|final\b|bonus\b|"
    r"reference\b|default\b|fallback\b|whole\b)[\w\- ,]{0,120}?,\s*(?:you|your)\b"
    r"|act\s+(?:as|like)\b|pretend\s+(?:to be|you are)|imagine\s+(?:you are|you're|that you are)|"
    r"(?:assume|adopt|take on|play)\s+the\s+(?:role|persona|part)\b|your\s+(?:role|persona|identity)\s+is\b|"
    r"you\s+will\s+(?:act|serve|be acting|play)\s+as\b|you\s+(?:act|serve|work)\s+as\b|"
    r"(?:a|an)\s+[\w\- ,]{3,80}?\s+(?:like|such as)\s+(?:you|yourself)\b|i want you to act as\b|"
    r"you\s+(?:have|possess)\s+(?:extensive|deep|a deep|a profound|profound|years|decades|a wealth|broad|"
    r"a thorough|thorough|strong|expert|a strong)\b|you are (?:an?\s+)?(?:expert|specialist|adept|skilled|"
    r"proficient|experienced|seasoned)\b)"
)
#: Praise or expertise about "you": Role inside a role paragraph, background elsewhere.
ROLE_WEAK = _rx(_LEAD + r"(?:your\s+(?:expertise|experience|background|knowledge|skills?|ability|abilities|"
                r"understanding|proficiency|specialty|speciality|mastery|strength|familiarity|competence|"
                r"command|insight|deep knowledge|capacity)\b|you\s+(?:excel|specialize|specialise|are known|"
                r"have a (?:keen|knack|talent|gift))\b|with\s+(?:your|years of)\b)")

DIRECTIVE = _rx(
    _LEAD + r"(?:(?:please\s+|kindly\s+|now\s+|then\s+|first,?\s+|finally,?\s+|next,?\s+)?"
    r"(?:translate|write|generate|create|check|evaluate|determine|calculate|compute|find|identify|classify|"
    r"categori[sz]e|label|summari[sz]e|answer|review|explain|rewrite|rephrase|paraphrase|update|implement|fix|"
    r"debug|refactor|analy[sz]e|assess|decide|extract|list|convert|tell|describe|draft|compose|design|build|"
    r"develop|solve|complete|predict|detect|rate|score|rank|compare|correct|edit|proofread|improve|optimi[sz]e|"
    r"modify|change|revise|rework|adjust|tweak|incorporate|add|remove|delete|read|inspect|examine|verify|"
    r"validate|judge|figure out|work out|come up with|suggest|recommend|propose|plan|outline|brainstorm|"
    r"help|assist|guide|respond|reply|handle|process|parse|map|match|tag|annotate|select|choose|pick|count|"
    r"measure|estimate|sort|filter|clean|normali[sz]e|format|produce|return|give|provide|output|print|show|"
    r"make|turn|transform|prepare|simulate|play|continue|finish|tell)\b"
    r"|(?:your|the)\s+(?:main\s+|primary\s+)?(?:task|job|assignment|mission|objective)\s+(?:is|will be)\b"
    r"|you\s+(?:need|have|are asked|are required|will need|must|should|will|are going)\s+to\s+(?!ensure\b|"
    r"make sure\b|keep\b|remember\b|avoid\b|note\b|consider\b)"
    r"|you(?:'ll| will)\s+(?:be\s+)?(?:given|provided|receive|get|see)\b|you are (?:given|provided|asked|"
    r"tasked)\b|given\s+(?:a|an|the|two|some|this|these)\b|i\s+(?:need|want|would like)\b|"
    r"(?:can|could|would|will)\s+you\b|how\s+(?:can|do|could|would|should)\s+i\b|is there\b|what\s+(?:is|are|"
    r"would|should)\b|below is an? (?:instruction|task|question)\b|here is\s+(?:the|a|an|my)\s+(?:task|"
    r"question|text|code|review|input|document|article|email|message|problem))"
)
#: The task's own input ("Now complete the question: …", "Review: …", a fenced code block).
TASK_INPUT = _rx(r"(?:^|\s)(?:now complete the question|complete the question)\s*:|"
                 r"^\s*(?:review|text|question|input|sentence|document|article|passage|email|message|query|"
                 r"problem|code|tweet|post|paragraph|context|user(?: input| message| query)?|customer message|"
                 r"ticket|data|password|string|nums|s|n)\s*[:=]|^\s*\{[\w ]+\}\s*$|```")

OUTPUT = _rx(
    r"(?:^|\W)(?:output\b|outputs\b|respond\s+(?:only|with|in|using)\b|answer\s+(?:only|with|in)\b|"
    r"(?:reply|answer|respond)\s+(?:only\s+)?with\b|return\s+(?:only|just|the result|a json|json|an? (?:list|"
    r"array|object|number|string|integer))|returns?\s+'|(?:your|the)\s+(?:answer|response|output|reply|result|"
    r"translation|summary|script|code|report|email|story|poem)s?\s+(?:should|must|will|shall|needs to|has to)\s+"
    r"(?:be|contain|include|consist|start|end|follow|use|not exceed|stay)|(?:should|must)\s+be\s+(?:formatted|"
    r"presented|written|returned|structured|provided)\s+(?:in|as|according)|formatted\b|formatting\b|format\b|"
    r"json\b|yaml\b|xml\b|csv\b|markdown\b|bullet(?:ed)?\s*(?:points?|list)|numbered list|in a table\b|"
    r"(?:no more than|at most|under|fewer than|less than|up to|maximum of|max\.?|exactly|between)\s+\d+\s*"
    r"(?:-\s*\d+\s*)?(?:words?|sentences?|lines?|paragraphs?|bullets?|tokens?|items?)|"
    r"\b(?:one|two|three|four|five|single)\s+(?:word|sentence|line|paragraph)s?\b(?! of)|"
    r"label\s+it\b|mark\s+it\b|(?:as|with|either)\s+['\"][^'\"]{1,20}['\"]\s+or\s+['\"]|"
    r"(?:in|using)\s+(?:english|french|german|spanish|italian|chinese|japanese|plain language)\b|"
    r"\btone\b|well-structured|pep\s*8|style guide|do not (?:include|add|explain|output)|without (?:any )?"
    r"(?:explanation|commentary|preamble)|comments? explaining|start (?:your|the) (?:answer|response) with|"
    r"wrap\b|enclose\b|schema\b|keys?\b.{0,20}\bvalues?\b)"
)
INFO = _rx(_LEAD + r"(?:the\s+(?:goal|aim|purpose|task|tasks|material|content|context|input|text|data)\s+"
           r"(?:is|are|involves?|requires?|includes?|include|encompass(?:es)?|cover|covers|consists?)\b|"
           r"(?:these|the)\s+tasks?\b|your\s+(?:task|job)\s+is\s+to\s+either\b|ensure\b|make sure\b|be sure\b|focus\b|note\b|remember\b|keep in mind\b|"
           r"consider\b|assess if\b|determine if the answer is not only\b|always\b|never\b|avoid\b|"
           r"background\b|context\b|for (?:context|reference|background)\b|assume\b)|"
           r",\s*ensuring\s+that\b")

EXAMPLE = _rx(r"^[\s*#>\-]*(?:here (?:are|is) (?:some|a few|an?|several|two|three)?\s*(?:examples?|samples?|"
              r"demonstrations?)|(?:positive|negative)?\s*examples?\s*(?:\d+|[a-z])?\s*(?:[:\-–—(]|$)|"
              r"for example\s*[:,]|e\.g\.\s*:|sample\s+(?:input|output|answer|response)s?\s*:|"
              r"examples?\s+(?:of|for)\b.*:\s*$|(?:example|sample)\s*:|"
              r"(?:input|q|question|user|customer|text|review|sentence)\s*\d*\s*:.*\b(?:output|a|answer|"
              r"assistant|label|sentiment|category|translation)\s*\d*\s*:)")
HEADING = re.compile(r"^\s*(?:#{1,6}\s+.+|\*\*[^*]+\*\*:?|[A-Z][\w /&()'-]{0,48}:)\s*$")
HEADING_TOPICS: tuple[tuple[re.Pattern[str], Component], ...] = (
    (_rx(r"example|sample|demonstration|few.?shot|illustration"), E),
    (_rx(r"format|output|response|style|structure|answer|reply|tone|length|deliverable"), O),
    (_rx(r"role|persona|identity|who you are|about you|character|you are"), R),
    (_rx(r"task|instruction|objective|goal|what to do|steps?|request|question|job|input|mission"), D),
    (_rx(r"context|background|information|rules?|guidelines?|constraints?|notes?|policy|policies|facts|"
         r"knowledge|details|requirements?|data|resources?|audience|product|company|about"), A),
)


@dataclass
class _Sent:
    index: int
    text: str
    cues: set[Component]
    weak_role: bool
    task_input: bool


def cues_of(text: str) -> set[Component]:
    """The components a sentence's own wording signals (no context)."""
    found: set[Component] = set()
    head = text[:400]
    if ROLE.search(head):
        found.add(R)
    if EXAMPLE.search(head):
        found.add(E)
    if DIRECTIVE.search(head) and not INFO.match(head):
        found.add(D)
    if OUTPUT.search(head):
        found.add(O)
    if INFO.search(head):
        found.add(A)
    return found


def _heading_component(text: str) -> Component | None:
    if not HEADING.match(text):
        return None
    for pattern, comp in HEADING_TOPICS:
        if pattern.search(text):
            return comp
    return None


def _paragraphs(prompt: str, sentences: tuple[Sentence, ...]) -> list[list[int]]:
    """Group sentence indices into paragraphs: sentences on one line, or a block of lines without a blank one."""
    groups: list[list[int]] = []
    for i, s in enumerate(sentences):
        if i and "\n" not in prompt[sentences[i - 1].end:s.start]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _own(s: _Sent) -> set[Component]:
    """A sentence's labels from its own words, with role wins over the incidental cues inside a role clause."""
    cues = set(s.cues)
    if R in cues:
        cues -= {A, O, E}
        if not re.search(r",\s*(?:you\s+(?:must|need|should|will)|tasked|responsible|determining|checking|"
                         r"verifying|evaluating|assessing|deciding)\b", s.text[:300], re.I):
            cues.discard(D)
    if E in cues:
        return {E}
    if D in cues and A in cues and not re.search(r",\s*ensuring\s+that\b", s.text[:400], re.I):
        cues.discard(A)
    if O in cues and D in cues and re.match(r"^\W*(?:output|(?:answer|respond|reply|return|output)\s+only|only\s+(?:answer|respond|reply|return|output))\b", s.text, re.I):
        return {O}
    return cues


@register("rules")
class RulesDissector(Dissector):
    """Cue- and context-aware rules; no model, no network."""

    def _label(self, prompt: str, sentences: tuple[Sentence, ...]) -> Dissection:
        infos = [_Sent(i, s.text, cues_of(s.text), bool(ROLE_WEAK.search(s.text[:200])),
                       bool(TASK_INPUT.search(s.text))) for i, s in enumerate(sentences)]
        labels: dict[int, set[Component]] = {}
        section: Component | None = None
        in_examples = False
        previous: set[Component] = set()
        for para in _paragraphs(prompt, sentences):
            members = [infos[i] for i in para]
            first = members[0]
            heading = _heading_component(first.text) if len(members) == 1 else None
            if heading is not None:
                section, in_examples = heading, heading is E
                labels[first.index] = {heading} | (_own(first) & {D} if heading is D else set())
                previous = labels[first.index]
                continue
            if E in first.cues and R not in first.cues:
                in_examples = True
            elif in_examples and (first.cues - {E, D}) and not section is E:
                in_examples = False
            if in_examples:
                for m in members:
                    labels[m.index] = {E}
                previous = {E}
                continue
            para_comp = self._paragraph_component(members, section)
            for m in members:
                own = _own(m)
                if m.weak_role and not own:
                    own = {R} if para_comp is R else {A}
                if para_comp is not None:
                    got = {para_comp} | own
                    if para_comp is R:
                        got -= {D} if D not in _own(m) or R not in own else set()
                else:
                    got = own or (previous & {R, D, A, O}) or {A}
                labels[m.index] = got
                previous = got
        return Dissection.from_labels(prompt, sentences, labels, self.name)

    @staticmethod
    def _paragraph_component(members: list[_Sent], section: Component | None) -> Component | None:
        """The component a whole paragraph belongs to, if it has one."""
        if section is not None and section is not E:
            return section
        own = [_own(m) for m in members]
        if R in own[0] and all(not (o - {R, A}) or m.weak_role for o, m in zip(own[1:], members[1:])):
            return R
        directives = sum(D in o for o in own)
        if directives and len(members) >= 2 and (any(m.task_input for m in members) or
                                                 (len(members) >= 3 and directives >= 2)):
            return D
        if len(members) >= 2 and not own[0] & {R, D, E} and sum(bool(o & {R, D, E}) for o in own) <= 1:
            return A
        return None
