"""What a sentence's own wording says about its component (its *cues*), without context: persona phrasing is Role,
an instruction is Directive, a rule about the answer's form is Output Formatting, a demonstration is Examples, and
background facts and constraints are Additional Information. :mod:`.rules` reads these cues in the context of the
lines, headings and blocks around each sentence.
"""
from __future__ import annotations

import re

from ..types import Component
from . import languages, scripts
from .patterns import Folded

R, D, A, O, E = (Component.ROLE, Component.DIRECTIVE, Component.ADDITIONAL_INFORMATION,
                 Component.OUTPUT_FORMATTING, Component.EXAMPLES)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_LEAD = r"^[\s>*\-•#\d.)(]*"  # bullets, numbering and markdown before the words

#: "TL;DR" used as the verb of the task: "TL;DR this thread for me".
_TLDR = r"^\W*tl;?dr\s+(?:this|the|that|these|my)\b"

_TASK_VERBS = (
    r"translate|write|generate|create|check|evaluate|determine|calculate|compute|find|identify|classify|"
    r"categori[sz]e|label|summari[sz]e|answer|review|explain|rewrite|rephrase|paraphrase|update|implement|fix|"
    r"debug|refactor|analy[sz]e|assess|decide|extract|list|convert|tell|describe|draft|compose|design|build|"
    r"develop|solve|complete|predict|detect|rate|score|rank|compare|correct|edit|proofread|improve|optimi[sz]e|"
    r"modify|change|revise|rework|adjust|tweak|incorporate|inspect|examine|verify|validate|judge|figure out|"
    r"work out|come up with|suggest|recommend|propose|plan|outline|brainstorm|help|assist|guide|resolve|"
    r"handle|process|parse|annotate|select|choose|count|estimate|sort|clean|normali[sz]e|produce|prepare|"
    r"simulate|play|continue|finish|read|route|triage|screen|flag|moderate|teach|tutor|walk|convince|persuade|"
    r"investigate|research|diagnose|assign|split|merge|match|map|tag|grade|critique|think|standardi[sz]e|"
    r"reason|draw|sketch|plot|test|provide|give|produce|output|print|show|return|make|find out|narrate|"
    r"begin|start|rewrite|redact|normali[sz]e|localise|localize|name|suggest|interview|ask|chat|converse|mix|pull|"
    r"trace|indicate|turn|reply|respond|quiz|qualify|collect|gather|schedule|book|audit|reconcile|transcribe|"
    r"troubleshoot|interpret|forecast|organi[sz]e|fill in|fill out|anonymi[sz]e|pseudonymi[sz]e|de-?identify|"
    r"put together|pull together|tighten|shorten|condense|simplify|streamline|polish|"
    r"do (?:an?|these|this|some)(?= \w)|do these(?=,)|do the following\b|"  # "Do a Pareto analysis", "do these:"
    r"put (?:this|these|the following)(?:\s+[\w-]+){0,2}?\s+(?:in|into)\b|"  # "Put this into a table with …"
    r"base (?:it|them|this|that|these|each|(?:the|your) [\w-]+) on (?:these|this|the following)"  # "Base them on these
    # notes from our front desk:", not what the answer draws on ("Base your answers on NICE guidance.")
)
#: A system prompt that describes its assistant instead of addressing it: "This assistant answers support questions
#: from users of …", "The bot helps first-line agents …".
_DESCRIBES_ASSISTANT = (r"^\W*(?:this|the)\s+(?:assistant|bot|chatbot|agent|copilot)\s+(?:helps|answers|assists|"
                        r"supports|handles|guides|drafts|writes|reviews|triages)\b")
DESCRIBES_ASSISTANT = re.compile(_DESCRIBES_ASSISTANT, re.I)
#: "As a senior editor," / "As the admissions assistant for Carrow's office," / "As PeopleDesk, the HR assistant,".
_AS_PERSONA = (r"as\s+(?:(?:an?|the|my|our)\s+(?!result\b|example\b|reminder\b|rule\b|first\b|last\b|final\b|"
               r"bonus\b|reference\b|default\b|fallback\b|whole\b|consequence\b|start\b|starting\b|beginning\b|"
               r"next\b|side\b|quick\b|test\b)|"
               r"(?-i:[A-Z][\w'-]+)(?:\s+(?-i:[A-Z][\w'-]+)){0,2},\s+(?:an?|the|my|our)\s+)"
               r"(?:[\w\- ,'’&/]|\.(?=\w)){0,120}?,")  # "… who knows GEDCOM 5.5.1 well,"
#: The same persona opening a sentence, before the task it asks of itself.
_AS_PERSONA_FIRST = re.compile(r"^\W*" + _AS_PERSONA + r"\s*", re.I)
#: A persona introduced in the third person: "This is the system prompt for Nova, the support assistant …",
#: "Meet Nova, the …", "Nova is the in-app support assistant for …".
NAMED_PERSONA = re.compile(r"^\W*(?:(?i:this is the (?:system )?prompt for|meet)\s+([A-Z][\w'-]+)(?:\s+[A-Z][\w'-]+)?,"
                           r"\s+(?i:an?|the|our|your)\s|"
                           r"([A-Z][\w'-]+)\s+is\s+(?i:an?|the|our|your)\s+(?:[\w'-]+\s+){0,4}"
                           r"(?i:assistant|bot|chatbot|"
                           r"agent|companion|coach|tutor|guide|concierge|advis[eo]r|helper|persona|character|host|"
                           r"narrator)\b)")
ROLE = _rx(
    _LEAD + r"(?:(?:please|kindly|now|from now on|ok(?:ay)?|so|for the (?:next|rest of the) [^,.]{1,30}?),?\s+)?"
            r"(?:(?:you are|you're)\s+(?:now\s+)?(?:an?|the|my|our|"
            r"[\"“']?(?:[A-Z][\w.'-]+\s+){0,3}[A-Z][\w'-]+[\"”']?,|(?-i:[A-Z][\w-]+)['’]s|"  # "PawPantry's"
            r"(?-i:(?:[A-Z][\w.'-]+\s+){1,3}[\"“'][^\"”'\n]{1,20}[\"”']\s+[A-Z][\w'-]+),)\s+"  # 'Marisol "Saltjaw" Reyes,'
            r"(?!(?:list|set|copy(?!\s+(?:editor|writer|chief|desk)\b)|table|"
    r"number|summary|question|task|text|string|array|series|few|couple|lot|bit)\b(?![-‑]))|"
    + _AS_PERSONA + r"\s*(?:you|your|"
    r"(?:please\s+)?(?:" + _TASK_VERBS + r"|reply|respond))\b|"
    r"^\W*you\s+(?:write|manage|edit|curate|run)\s[^.]{0,80}\b(?:for|on behalf of)\b|"  # "You write alt text for …"
    r"act\s+(?:as|like)\b|pretend\s+(?:to be|you are|you're|ur|you'?re)\b|^\W*be\s+(?:my|our)\s+|"
    r"^\W*(?:please\s+)?be\s+(?:the|my|an?)\s+(?:[\w-]+\s+){0,2}(?:interviewer|manager|customer|client|"
    r"examiner|tutor|teacher|coach|recruiter|landlord|boss|patient|doctor|game master|narrator|villain|opponent|"
    r"investor|journalist|host|buyer|seller)\b|^\W*you(?:'ll| will)?\s+play\s+(?:everyone|everybody|all)\b|"
    r"^\W*you(?:'ll| will)?\s+play\s+(?-i:(?:(?:Mr|Mrs|Ms|Dr|Miss)\.?\s+)?[A-Z][\w'-]+),|"  # "You play Henrik, …"
    r"you(?:'ll| will)\s+be\s+(?:an?|my|the)\s+(?!(?:list|set|copy|few|couple|series|number)\b)|imagine\s+(?:you are|"
    r"you're|that you are)|"
    r"(?:assume|adopt|take on|play)\s+the\s+(?:role|persona|part)\b|your\s+(?:role|persona|identity)\s+is\b|"
    r"you\s+will\s+(?:act|serve|be acting|play)\s+as\b|you\s+(?:act|serve|work)\s+as\b|"
    r"(?:an?)\s+[\w\- ,]{3,80}?\s+(?:like|such as)\s+(?:you|yourself)\b|i want you to act as\b|"
    r"you\s+(?:have|possess)\s+(?:extensive|deep|a deep|a profound|profound|years|decades|a wealth|broad|"
    r"a thorough|thorough|strong|expert|a strong|helped (?:hundreds|thousands|dozens|many))\b|"
    r"you(?:'ve| have)\s+(?:coached|taught|mentored|trained|graded|reviewed|edited|guided)\s+(?:hundreds|thousands|"
    r"dozens|countless|many|\w+(?:\s+\w+)?\s+through)\b|"  # "You've coached beginners through their first 5K"
    r"you are (?:an?\s+)?(?:expert|specialist|adept|skilled|"
    r"proficient|experienced|seasoned|friendly|patient|helpful|knowledgeable)\b|"
    r"(?:du är|du er|jesteś|kamu adalah|anda adalah|kamu seorang|anda seorang|ты\s*[—–-]|вы\s*[—–-]|ты|вы)\s+"
    r"(?:en|ett|et|ei|seorang|opytn\w*|опытн\w*|[a-zа-яёåäøæöłśżźćńąę]{4,})\b|sen bir\b|"
    r"sen,?\s+[^.!?]{2,80}?s[ıiuü]n\s*[.!]?\s*$|"  # Turkish: "Sen, Ege Turizm'in müşteri asistanı Deniz'sin."
    r"(?:tu es|vous êtes|du bist|sie sind|eres|usted es|você é|sei|je bent|jij bent|u bent)\s+(?:(?:un|une|l'|le|la|"
    r"een|de|ein|eine|der|die|el|"
    r"uno|una|um|uma|o|a|il|lo)\s+|l'|[„\"“«]?[A-ZÀ-Ý][\w'-]+[“\"”»]?,|(?-i:(?:[A-ZÀ-Ý][\w'-]+\s+){1,3}[A-ZÀ-Ý][\w'-]+),)|"
    r"(?:du bist|sie sind)\s+(?-i:(?:[a-zäöüß]+e[nrs]?\s+)?[A-ZÄÖÜ][a-zäöüß]{3,})|"  # "Du bist (erfahrene) Texterin …"
    r"(?:eres|sei|você é|tu es|vous êtes|je bent)\s+[a-zà-ÿ]{4,}(?:/[a-z]{1,3}|\([a-z]{1,3}\)|·[a-z]{1,3})?\s+"
    r"(?:[a-zà-ÿ]+\s+)?"
    r"(?:de|di|da|do|dos|das|del|des|du|en|em|van|voor|per|para|pour|dans)\b|"  # "Eres redactor/a de …"
    r"\b(?:act[uú]a|act[uú]e|agis|agissez|agisci|agisca|comportati|atue|aja)\s+(?:como|comme|come)\b|"
    r"\b(?:verhalte dich|handle|tritt auf)\s+(?:wie|als)\b|\b(?:imagina|imagine|immagina|stell dir vor),?\s+"
    r"(?:que (?:eres|tu es|vous êtes|você é)|di essere|du bist|dass du)\b)"
)
#: Praise or expertise about "you": Role inside a role paragraph, background elsewhere.
ROLE_WEAK = _rx(_LEAD + r"(?:your\s+(?:expertise|experience|background|knowledge|skills?|ability|abilities|"
                r"understanding|proficiency|specialty|speciality|mastery|strength|familiarity|competence|"
                r"command|insight|capacity)\b|you\s+(?:excel|specialize|specialise|are known)\b)")

#: The task stated as what the model does with its input: "You take a transcript and output the key ideas".
_YOU_TAKE_AND = (r"^\W*you\s+(?:take|read|receive|get|are given)\b.{0,80}?\band\s+(?:then\s+)?(?:output|produce|write|"
                 r"return|create|extract|summari[sz]e|list|turn|classify|rewrite)\b")
#: A rewrite asked for by its effect: "make this sound less like chatgpt wrote it", "Can you make my email read …".
_MAKE_THIS_SOUND = (r"^\W*(?:(?:can|could) (?:you|u)\s+)?(?:please\s+)?make (?:this|my|the|these|our)\b"
                    r"(?:\s+[\w'-]+){0,4}\s+(?:sound|read|look|feel)\b")
#: The user announcing what they will hand over: "I'll paste the chapter", "Then I'm going to ask you a question".
_I_WILL_GIVE = (r"(?:then\s+)?i(?:'ll| will|'m going to| am going to) (?:type|give|send|paste|provide|tell|share|"
                r"describe|show|ask)\b")
#: A request in the first person: "I'd love help planning the route", "can you help me"; what the user wants of the
#: artefact: "I want it fixed by Monday", "I'd love the otter to have …", "The main ideas I want covered: …".
REQUEST = (r"\bi(?:'d| would) (?:love|like|appreciate)\s+(?:some\s+|your\s+)?help\b|"
           r"\bi (?:just\s+)?(?:want|need)\s+(?:it|her|him|them|the\s+(?:[\w-]+\s+){0,2}?\w+|[a-z]\w*)\s+"
           r"(?:to\s+\w+|fixed|done|sorted|ready|in writing|back|refunded|removed|cancell?ed)\b|"
           r"\bi(?:'d| would) love (?:the|my|it|her|him|them)\b(?:\s+[\w-]+)?\s+to\b|"
           r"\b(?:ideas|points|things|topics) i want (?:covered|included|mentioned)\b|^\W*what i(?:'d| would) like\s*:|"
           r"^\W*i(?:'m| am) getting (?:an? |this |the )?[\w.]*(?:error|exception)\b|"  # the user's problem
           r"\bi(?:'d| would) like (?:it|you|them) to\b|\b(?:can|could) (?:you|u) (?:please\s+|pls\s+)?help\b")
#: The user's first turn after a role-play set-up: "My first request is …", "My first action: …".
MY_FIRST = (r"my first\s+(?:[\w-]+\s+)?(?:command|request|question|sentence|word|query|instruction|action|prompt|"
            r"message|input|idea|topic|task|move|line|text|suggestion|statement|order|problem|"
            r"paragraph)s?\s*(?:is\b|:)")
#: What the artefact asked for must do or hold: "The chorus should come back to the image of …", "The headnote must
#: state the court, …" (not its form: "should be …", "must start with …", nor people: "The customer must …").
_ARTEFACT_SPEC = (r"^\W*(?:(?:it|they|at least \w+|some)\s+(?=should|must|has|have|needs|need)|"
                  r"(?:the|this|each|every|at least \w+|some)\s+)"
                  r"(?!(?:user|customer|client|reader|student|team|staff|patient|caller|guest|member|employee|people|"
                  r"person|parent|visitor|assistant|agent|model|bot|contestant|player|participant|candidate|applicant|"
                  r"developer|programmer|author|writer|child|children|kid)s?\b)"
                  r"(?:[\w-]+\s+){0,2}?"
                  r"(?:needs?\s+(?:a|an|one|two|three|\d+|its own|their own)\s|"  # "Each region needs a name, …"
                  r"(?:should|must|has to|have to|needs to|need to)(?:\s*:\s*$|\s+(?:also\s+)?(?:be about\b|"
                  r"(?!(?:be|not|never|only|use|sound|start|end|begin|stay|follow|fit|read|take|see|validate|look|feel|"
                  r"match|avoid|go|appear|say)\b)[a-z]{3,})))")  # and "The script should:" above its steps
#: A want after what the user says of themselves: "I'm applying for the job below and need a cover letter."
_AND_NEED = (r"\b(?:i|we)\b[^.;]{0,120}?\b(?:and|so)\s+(?:i\s+|we\s+)?need\s+(?:an?|some|\d+|the)\s+"
             r"(?!(?:lot|bit|little|few)\b)|"
             r"\b(?:and|so)\s+(?:i|we)\s+need\s+(?:it|them)\s+(?:for|under|by)\s+(?:\d|~)")  # "… I need it for 10"
#: A question that asks for something after what the user says, in the same sentence: "my grandma turns 90 on
#: saturday, can u write a short poem …", "… deploys take forever, how do i get this Dockerfile smaller?".
_THEN_ASKS = (r",\s*(?:so\s+|and\s+|but\s+)?(?:can|could|would)\s+(?:you|u)\s+(?:please\s+|pls\s+)?(?!be\b)[a-z]{3,}\b|"
              r",\s*(?:so\s+|but\s+)?(?:how|what|why|which)\s+(?:do|can|should|would)\s+(?:i|we)\b[^,.;]*\?\s*$|"
              r"^(?!\W*(?:if|when|whenever|once|after|before|unless|where|for|at|in case|as soon as)\b)[^.]*?,\s*"
              r"(?:so\s+|pls\s+|please\s+)?(?:write|draft|make|give|create)\s+(?:me\s+)?(?:an?|one|the|some|\d+)\s|"
              r"^(?!\W*(?:if|when|whenever|once|after|before|unless|where)\b)[^.]*?,\s*(?:so\s+|and\s+)?"  # "I paste
              r"(?:please|pls)\s+(?:tell|explain|check|help|advise|let)\s+(?:me|us)\b")  # the log, please tell me …"
#: A want of ideas or names: "need band names!!", "We need slogans for a flyer."
_NEED_IDEAS = (r"(?:(?:we|i)\s+(?:also\s+|really\s+|just\s+)?)?need\s+(?:[\w-]+\s+){0,2}(?:ideas|help|advice|"
               r"suggestions|tips|recommendations|names|slogans|taglines|titles|jokes|puns|captions|headlines|"
               r"lyrics)\b")
DIRECTIVE = Folded(
    _LEAD + r"(?:(?:ok(?:ay)?|so|hey|hi|well|oh)[,!]*\s+(?:so,?\s+)?)?(?:(?:(?:based on|from|using|with|for|in|after|"
            r"once|"
    r"looking at)\b[^,.]{0,80},\s*)?"
    r"(?:please\s+|kindly\s+|now\s+|then\s+|first,?\s+|finally,?\s+|next,?\s+|also\s+|just\s+)?"
    r"(?:" + _TASK_VERBS + r")\b|give\s+me\b|let'?s\s+(?:think|work|reason|solve|do|play|try|practi[sc]e|start|begin|"
    r"go through|walk through)\b"
    r"|" + _TLDR +
    r"|(?:your|the)\s+(?:main\s+|primary\s+|first\s+|only\s+)?(?:task|job|assignment|mission|objective|goal|purpose|"
    r"aim)\s+"
    r"(?:is|will be)\b"
    r"|you(?:'ll| will) be \w+ing\b(?! (?:given|provided|shown|asked)\b)"  # "You'll be cleaning the raw export …"
    r"|you\s+(?:help|assist|answer|handle|support|guide|review|translate|moderate|triage|parse|extract|classify|"
    r"route|grade|score|resolve|summari[sz]e|tag|label|screen|convert|generate)\b|" + _YOU_TAKE_AND
    + r"|(?:each|every)\s+(?:question|item|ad|post|email|slide|card|option|answer|tweet|headline|title|idea)\s+"
    r"(?:needs?|should|must)\b"
    r"|i(?:\s+(?:want|need|would like)|'d like)\s+(?:to\s+)?know\b|" + _MAKE_THIS_SOUND
    + r"|you(?:'re| are)\s+(?:now\s+)?(?:grading|reviewing|evaluating|judging|scoring|rating|marking|checking|"
    r"screening|triaging|moderating|classifying|labell?ing|tagging|extracting|summari[sz]ing|translating|drafting|"
    r"writing|answering|helping|editing|proofreading|auditing|comparing)\b"
    r"|(?:the|this)\s+(?:assistant|model|bot|chatbot|agent|ai|system)\s+(?:should|must|will|is to|needs to)\s+"
    r"(?:" + _TASK_VERBS + r")\b|" + _DESCRIBES_ASSISTANT + r"|"
    r"(?:goal|task|objective|mission|your job)\s*:\s*(?:" + _TASK_VERBS + r")\b"
    r"|you\s+(?:need|have|are asked|are required|will need|must|should|will|are going)\s+to\s+(?:" + _TASK_VERBS +
    r")\b|you(?:'ll| will)\s+(?:be\s+)?(?:given|provided|receive|get|see)\b|you are (?:given|provided|asked|"
    r"tasked)\b|given\s+(?:an?|the|two|some|this|these)\b|i(?:\s+(?:need|want|would like)|'d like)\s+(?:you\s+to\b|to\b|"
    r"an?\s|some\s|\d|(?:one|two|three|four|five)\s|[a-z]{3,}s\s+(?:for|that|which|to|of|in|on|about|with)\b|"
    r"the\s|[a-z]{3,}\s+(?:for|that|which|in)\b)|i\s+(?:need|want)\s*:|"
    + _NEED_IDEAS + r"|"
    r"(?:can|could|would|will)\s+(?:you|u)\b|how\s+(?:can|do|could|would|should)\s+i\b|"
    r"below is an? (?:instruction|task|question)\b|"
    + _I_WILL_GIVE + r"|" +
    MY_FIRST + r"|need\s+(?:\d+|an?|some)\s)|" + REQUEST +
    r"|(?<!\bsay )(?<!\bsaying )(?<!\bsay that )"  # not what to tell the customer: "say you'll check with the salon"
    r"\byou(?:'ll| will)\s+(?:first\s+|then\s+)?(?:" + _TASK_VERBS + r")\b|\bwhat does (?:it|this|that) mean\b|"
    r"\blet'?s think step by step\b|" + _AND_NEED + r"|" + _THEN_ASKS + r"|"
    r"\b(?:should|must|needs? to|has to)\s+(?:also\s+)?(?:mention|include|cover|tell|offer|feature|highlight|"
    r"contain)\b|" + _ARTEFACT_SPEC + r"|\bwhat should (?:i|we) (?:do|change)\b|"
    r"\bhow (?:do|can|should) i (?:fix|solve|resolve|stop|get rid of)\b|"
    r"\b(?:received|sent|submitted|forwarded|wrote|posted)\s+(?:us\s+|me\s+)?(?:the|this|a|an)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:below|attached)\b|"  # the input's arrival: "A resident has sent the message below through …"
    r"^\W*(?:please\s+)?(?:go|read|look|work)\s+(?:through|over)\s+"
    r"(?:each|every|all|the|these|my|this|them|those|it)\b|"
    r"^\W*for (?:each|every)\s+(?:[\w-]+\s+){0,3}?(?:suggest|give|write|list|explain|add|provide|rate|score|"
    r"propose|identify|note|mark)\b|"  # "For each flagged item suggest a revised version."
    r"^\W*(?:please\s+)?scale\s+(?:this|the|my|our|it|these|them|up|down)\b|"  # "Scale this recipe from 4 to 10 …"
    r"^\W*(?:the\s+)?(?:distractors|wrong (?:answers|options|choices)|incorrect (?:answers|options|choices))\s+"
    r"(?:should|must|need to|have to)\b|"  # what a quiz's wrong options must be: "Distractors should be plausible …"
    r"^\W*for (?:each|every) [\w' -]{1,40}:\s*$|"  # "For each customer request:" above the steps to take
    r"^\W*(?:an?\s+)?(?:regex|regular expression|formula|one-liner|cron expression|sql query|bash script)\s+(?:to|for|"
    r"that)\s"  # "regex to pull the 5 digit zip out of …", "regex for uk postcodes pls"
)
#: Common verbs in the imperative; a sentence opening with one, followed by an object or a particle, is an instruction.
_IMPERATIVE_VERBS = frozenset("""
chat converse mix thank acknowledge apologise apologize say congratulate reassure backfill add combine settle draw praise
anonymise anonymize pseudonymise pseudonymize
brainstorm invent compose craft tally pitch condense price raise
accept account act adapt address advise aggregate align allocate alert analyse analyze annotate announce answer apply
approve archive argue arrange ask assemble assess assign assist attach audit augment avoid balance begin bold book break
brief build bundle calculate call cancel capture categorise categorize check choose cite clarify classify clean clear
close cluster collect combine comment compare compile complete compose compress compute condense confirm connect
consider consolidate construct contact continue contrast convert convince copy correct count cover craft create critique
crop cross cut debug decide declare decline decode decompose deduplicate define delete deliver derive describe design
detect determine develop diagnose dig discuss dispatch display distinguish distribute document double-check draft draw
drop edit elaborate eliminate email emphasise emphasize enable encode encourage end enforce engage enhance enrich
ensure enter enumerate escalate estimate evaluate examine exclude execute expand explain explore export express extend
extract fetch figure file fill filter finalise finalize find finish fix flag flatten focus follow forecast format
forward frame gather generate give grade greet group guess guide handle help highlight identify ignore illustrate
implement import improve include incorporate index infer inform insert inspect interpret introduce investigate invite
indicate itemise itemize join judge justify keep label leave link list locate log look make map mark mask match measure
mention
merge migrate minimise minimize mirror model moderate modify monitor name narrate negotiate normalise normalize note
notify number observe obtain offer omit open optimise optimize order organise organize outline output paraphrase parse
perform pick place plan play point polish populate port predict prefer prepare present preserve prevent prioritise
prioritize process produce program proofread propose protect prove provide publish pull put quantify query question
quiz quote rank rate read reason recap recommend reconcile record redact redirect reduce refactor refer reference refine
reformat reformulate refuse reject relate remind remove rename render reorder rephrase replace reply report represent
request research reshape resolve respond restate restructure retrieve return reuse reveal review revise rewrite rewrite
rhyme rotate round route run sanitise sanitize save scan schedule score screen search select send separate sequence set
share shorten show sign simplify simulate sketch skip solve sort specify spell split standardise standardize start
state stay stop store stress structure study submit suggest summarise summarize supply support swap synthesise
synthesize tabulate tag tailor take talk teach tell test think tidy tighten trace track train transcribe transform
translate treat
triage trim troubleshoot try turn tweak type underline understand unify update upgrade use validate verify visualise
visualize walk warn weigh weight word work wrap write
""".split())
_IMPERATIVE_NEXT = re.compile(r"^(?:the|a|an|this|that|these|those|each|every|all|any|some|your|my|our|their|its|it|"
                              r"them|me|us|him|her|one|two|three|four|five|six|seven|eight|nine|ten|\d+|up|out|down|"
                              r"through|in|on|at|to|for|with|by|from|about|only|just|no|not|clearly|briefly|carefully|"
                              r"concisely|step|whether|if|how|what|why|when|where|which|who|between|back|over|again|"
                              r"it's|yourself|exactly|both|either|each)\b", re.I)

_EXCEPTION = re.compile(r"(?:an?\s+)?\w*(?:Error|Exception)\b")  # "Raise ValueError for an unknown code."


def is_imperative(text: str) -> bool:
    """True if ``text`` opens with a verb in the imperative ("Narrate the next scene", "Leave a key empty")."""
    m = re.match(r"^[\s>*\-•#\d.)(]*(?:(?i:after|once|before|for each|for every|at the (?:end|start|beginning|top|"
                 r"bottom)|every)\b[^,.]{0,80},\s*)?(?:(?i:please|"
                 r"kindly|now|then|also|first|finally|next|always|never|do not|don't|just|instead),?\s+)?"
                 r"([A-Za-z][a-z\-]+)(?:[ ,:]+(.*))?$", text, re.S)
    if not m or m.group(1).lower() not in _IMPERATIVE_VERBS or \
            re.match(r"\s*:\s*\{", text[m.end(1):]):  # "Plan: {plan_name}": a field, not "Plan a trip"
        return False
    rest = (m.group(2) or "").strip()
    if m.group(1).lower() == "raise":
        return bool(_EXCEPTION.match(rest))
    return not rest or bool(_IMPERATIVE_NEXT.match(rest)) or rest[:1] in "\"'“‘`{[(" or m.group(1).lower() in {
        "summarise", "summarize", "translate", "classify", "explain", "describe", "write", "list", "draft", "narrate",
        "rewrite", "extract", "generate", "compute", "calculate", "refactor", "redact", "identify", "compare", "cover",
        "thank", "apologise", "apologize", "include", "consider", "suggest", "recommend", "mention", "highlight",
        "prioritise", "prioritize", "evaluate", "assess", "normalise", "normalize", "verify", "propose", "encourage",
        "reassure", "acknowledge", "emphasise", "emphasize", "justify", "categorise", "categorize", "analyse",
        "analyze", "paraphrase", "rephrase", "simplify", "proofread", "condense", "shorten", "clarify", "interpret",
        "diagnose", "deduplicate", "tabulate", "enumerate", "troubleshoot", "investigate", "examine", "determine",
        "distinguish", "infer", "predict", "invent", "optimise", "optimize", "validate", "transcribe", "praise",
        "anonymise", "anonymize", "add", "append", "prepend"}


#: An input label: "Review: …", "Text: {input}", "Article:", "Resident's complaint:", "Now complete the question: …";
#: not notes marked internal ("Case notes (internal):"), which are consulted.
INPUT_LABEL = _rx(r"^(?![^:]*\binternal\b)[\s*>\-]*(?:now\s+complete\s+the\s+question|"
                  r"(?:(?:the|my|our|their|this|his|her)\s+)?"
                  r"(?:customer|user|student|patient|client|member|candidate|essay|product|source|original|bug|spec|"
                  r"artwork|incident|support|sales|survey|follow[ -]up|[a-z]+['’]s|[a-z]+(?=\s+(?:log|logs|transcript|"
                  r"thread|chat)\s*:))?\s*(?:working|solution|attempt|"
                  r"submission|work|listing|review|text|question|problem|input|sentence|document|article|passage|"
                  r"abstract|email|message|query|request|tweet|post|paragraph|context|transcript|records?|rows?|data|"
                  r"clauses?|changes|diff|code|snippet|strings|résumé|resume|cv|ticket|issue(?: title| body)?|"
                  r"tickets|reviews|messages|emails|comments|thread|"
                  r"complaint|comment|story|essay|password|string|list|nums|table|log|logs|conversation|chat|dialogue|"
                  r"report|error|traceback|stack trace|excerpt|dictation|(?:meeting|call|session|interview|discharge|"
                  r"clinical|case|"
                  r"my|our)\s+notes?|notes(?=\s*:\s*\S)|description|statement|claim|source|target|word|term|topic|"
                  r"season|subject|theme|premise|"
                  r"title|url|file|season|product|recipe|item|items|search results|documents|invoice(?: text)?|"
                  r"user|customer|human|latin text|english|french|german|spanish|s|n|(?:product|order|item|event|job|"
                  r"booking|trip) details|specs|specifications|sheet|commits|options|"
                  r"(?:draft|original|current|existing|candidate|(?:student|trainee|learner|pupil)(?:['’]s)?)\s+"
                  r"(?:answer|reply|response)|"
                  r"(?:reply|response|answer|completion|summary|translation|version|output)"
                  r"(?=\s*(?:#?\d{1,2}|(?-i:[A-D]))\s*[:=])|"  # candidates a judge compares: "Response A:", "Reply 2:"
                  r"draft|letter|pitch|(?:wire |body )?copy|extract|press release|synopsis|script|"
                  r"x|" + languages.INPUT_WORDS + r")(?:(?:\s*#?\d+|\s+(?-i:[A-Z]))\b)?\s*(?:\([^)]{1,60}\)\s*)?"
                  r"(?:[–—]\s*[^:\n]{1,60}?)?)"
                  r"\s*[:=：]")
#: A file name or path as a label ("backup.sh:", "/var/log/backup.log:", "crontab:"): the file's content follows.
FILE_LABEL = re.compile(r"^\s*(?:[\w.~-]*/)*[\w-]+\.(?:sh|py|js|ts|go|rs|java|rb|php|c|cpp|h|log|txt|json|ya?ml|csv|"
                        r"sql|"
                        r"md|conf|ini|toml|xml|html|css)\s*(?:\([^()\n]{1,40}\)\s*)?:?\s*$|^\s*crontab\s*:\s*$")
#: An XML-style opening tag on its own line: ``<question>``.
OPENING_TAG = re.compile(r"^\s*<([^\W\d][\w\- ]{0,40})>\s*$")  # "<context>", also "<背景>"
PLACEHOLDER = re.compile(r"\{[^\W\d][\w ]*\}|\{\{[\w ]+\}\}|<<[\w ]+>>|\[[A-Z_]{3,}\]")
#: Inside a long line: the task's input or the announcement of the task.
TASK_IN_LINE = _rx(r"now complete the question\s*:|```|below is an instruction that describes a task")
OPEN_SLOT = re.compile(r"^\s*(?:#{1,6}\s*)?[A-Z][\w ;'-]{0,30}:\s*$")
QUESTION = re.compile(r"\?[\"')\]]*\s*$")

#: Reasoning asked for before the answer's own line: "Reason briefly, then state the answer after '####'" is form.
_REASON_THEN_ANSWER = _rx(r"^[^.]*?\b(?:reason|reasoning|working|think|explain)\b[^.]*?\bthen\b[^.]*?\b(?:answer|"
                          r"letter|band|verdict|label|score)\b")
#: The form of the material judged or reviewed, not of the answer: "style and length don't matter", "Do not comment
#: on formatting; black handles that", "Ignore pure formatting issues".
_FORM_AS_TOPIC = _rx(r"\b(?:style|formatting|format|length|tone|politeness|whitespace)(?: issues)?\b[^.;]{0,30}"
                     r"\b(?:do|does)\s*(?:n't|not)\s+(?:matter|count|affect)\b|"
                     r"\b(?:ignore|comment on|flag|nitpick)\s+(?:\w+\s+){0,2}?(?:formatting|style|whitespace)\b")


#: Names a translation leaves in English: "Keep product and vendor names (Navan, FlowDesk) in English.", "Ignore product
#: names that will stay in English".
_NAMES_UNTRANSLATED = _rx(r"^\W*(?:keep|leave|ignore)\b[^.]{0,40}\bnames?\b[^.]{0,60}\bin english\b")
#: Where a story or a game opens, which is its content: "Start with Ada arriving at the Blue Heron", "Begin the game
#: with the player waking up in a cryo pod".
_STORY_START = r"(?!\s+the (?:player|party|hero|heroes|characters?|group|detective)\s+\w+ing\b)"
#: The same opening on a character named ("Start with Ada arriving at the Blue Heron"), which needs the case.
_NAMED_STORY_START = re.compile(r"^\W*(?i:start|begin|open)\s+(?i:the \w+\s+)?(?i:with)\s+[A-Z][a-z]+\s+\w+ing\b")
#: A size counted in the answer's units: "under a page", "to three items max", "a maximum of 6 phrases".
_SIZE = (r".*\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a|single)(?:\s+[\w-]+)?\s+"
         r"(?:pages?|lines?|items?|bullets?|paragraphs?|characters?|phrases?|points?|sides?)\b|.*\bmax(?:imum)?\b")
OUTPUT = Folded(
    r"^\W*keep\b(?=" + _SIZE + r")|"  # "Keep it factual and under a page."
    r"[,;.]\s+(?:and\s+)?keep it (?:short|brief|friendly|casual|simple|chatty|light|professional|polite|formal|"
    r"informal|warm|upbeat|fun|punchy|concise|tight|plain|neutral|positive|calm|clear|snappy)\b|"  # "…, keep it short"
    r"^\W*use iso(?:[- ]?8601)?\b|^\W*\"?[a-z]+(?:_[a-z]+)*\"? must be (?:one of|either)\b|"  # "Use ISO dates."
    r"\b(?:needs|need|must have|should have) the (?:keys|fields)\b|"  # "Each object needs the keys …"
    r"^\W*use (?:24-hour|12-hour)\b|"  # "Use 24-hour times."
    r"^\W*(?:please\s+)?(?:write|draft|create|give me|generate|compose)\s+(?:me\s+)?an?\s+(?:\d+|one|two|three)[-‑–]"
    r"(?:word|page|line|paragraph|sentence)\b|"  # "Write a 150-word game recap …", "Draft a one-page memo …"
    r"^\W*(?:give|show|express|report|present) (?:all )?(?:the )?(?:percentages|numbers|figures|amounts|prices|times|"
    r"dates|values|totals) (?:rounded|to|in|as|with)\b|^\W*number (?:every|each|all) \w+|^\W*start numbering\b|"
    r"^\W*return\s+(?:the|your)\s+(?:whole|full|same|complete|entire|edited|adapted|redacted|corrected|updated|"
    r"rewritten|translated|cleaned)\b|^\W*return\s+the\s+[\w-]+(?:\s+[\w-]+)?\s+only\b|"  # "Return the whole module."
    r"^\W*put\s+(?:the|your|each|all|every|them|it)\b(?![^.]*\binto\s+(?:one of|these|the following)\b)|"  # where a
    # part goes ("Put the answer key at the end."), not the classes it sorts into
    r"^\W*write (?:it |them |everything |your \w+ |the \w+ )?(?:in|for|using)\b|\baddress (?:the|each) \w+ directly\b|"
    r"^\W*refer to\b.{0,40}\b(?:by|as)\b|" + _REASON_THEN_ANSWER.pattern + "|"
    r"^\W*(?:structure|sections|headings|columns|layout)\s*:\s*(?!\d)\S|^\W*(?:fields|keys)\s*:\s*[^,.]+,|"
    r"^\W*(?:tono|toon|stil|estilo|stile|ton\s?(?=:)|"
    r"register|registre|registro)\s*:\s*\S|"  # "Tono: cercano", "Ton : …"
    r"^\W*(?:use|follow)\s+(?:the|this|a|these)\s+(?:\w+\s+)?(?:structure|layout|outline)\b|"
    r"^\W*(?:do not|don't|never|avoid)\s+(?:(?:use|using|include|including|add|adding|put|list)\s+)?(?:any\s+)?"
    r"(?:more than \w+ )?(?:exclamation marks?|emojis?|hashtags?|markdown|bullet points?|bullets|headings?|headers?|"
    r"tables?|code|preamble|greetings?|sign-?offs?|numbering|anything (?:else|after|before)|requirements)\b|"
    r"^\W*just (?:give|send|list|show|write|return|paste|tell me (?!what|why|how|whether|which|if))\b|"  # bare
    r"^\W*(?:just|only) the (?:names?|numbers?|code|answer|list|json|sql|query|result|table|translation|"
    r"formula|command|regex)\b|\bat most \d+ (?:rows|columns|items|bullets|options|points)\b|"
    r"^\W*(?:short|brief|quick) (?:answer|reply|version)\b|\bmake (?:it|them) (?:any )?(?:longer|shorter)\b|"
    r"\b(?:lines?|words?|sentences?|paragraphs?|characters|chars|bullets|items|pages) max\b|"
    r"\b\d+\s+(?:slides|pages|tweets|bullets|items|points|emojis|hashtags|questions|options|steps|cards)\s+max\b|"
    r"\bno exclamation (?:marks?|points?)\b|"
    r"^\W*short and (?:to the point|sweet|simple)\b|"
    r"^\W*(?:make|put|turn) (?:it|this|them) (?:in(?:to)? )?an? (?:table|list|bulleted list|checklist)\b|"
    r"\b(?:about|around|under|max) \d+ (?:minutes?|seconds?) (?:when |to be )?(?:read|spoken|said)\b|"
    r"\b(?:can|could|to) (?:read|say|sing) (?:it |out loud |aloud )?in (?:about |under )?(?:\d+|one|two|three|five|ten) "
    r"(?:minutes?|seconds?)\b|\btake (?:about |around |roughly )?\d+ (?:minutes?|seconds?) to (?:say|read|sing)\b|"
    r"\b(?:should|must) (?:feel|read as)\b|"
    r"\bin (?:italics|quotation marks|bold)\b|\bunder (?:a |the )?(?:heading|header)\b|\bunder [\"“]|"
    r"\bas a timeline\b|\bin the (?:greeting|subject line|sign-?off)\b|"
    r"^\W*label (?:the|each|both|all) (?:\w+ )?(?:parts?|sections?|columns?|answers?|steps?)\b|"
    r"\buse (?:euros|dollars|pounds|metric|imperial|celsius|fahrenheit)\b|"
    r"\btable with (?:the )?(?:columns|categories|rows|headers)\b|\bemojis?\b|thousands? separators?\b|"
    r"\bwith (?:a )?(?:headers?|sub-?headings?|section headers)\b|\bwrite:\s*[\"“]|"
    r"\b(?:no more than|at most)\s+(?:one|two|three|four|five|\d+)\s+(?:questions?|exclamation marks?)\s+per\b|"
    r"^\W*(?:please\s+)?(?:give|present|express|write|state|report|return|provide)\s+(?:me\s+)?(?:your|the)\s+"
    r"(?:final\s+)?(?:answers?|results?|output|numbers?|values?)\s+(?:as|in|to)\b|"  # "Give the answer as a fraction."
    r"^\W*(?:(?:and|also|please)\s+)*show\s+(?:me\s+)?(?:the|your|each|a)\s+(?:[\w-]+\s+){0,3}?(?:calculations?|"
    r"formulas?|workings?|maths?|steps?|conversion factors?|derivation|reasoning)\b|"  # "Show the formula you used"
    r"^\W*(?:(?:and|also|please)\s+)*show\s+how\s+the\s+\w+\s+cancel\b|"
    r"(?:^|\W)(?:output\b|outputs\b|respond\s+(?:only|with|in|using)\b|answer\s+(?:only|with|in)\b|"
    r"(?:reply|answer|respond)\s+(?:only\s+)?with\b(?!\s+(?:what|how|whatever|why)\b)|^\W*reply\s+in\b|"
    r"return\s+(?:only|just|the result|a json|json|an?\s+(?:single\s+)?"
    r"(?:list|array|object|number|string|integer|file|table))|returns?\s+'|"
    r"(?:your|the|each)\s+(?:answer|response|output|reply|result|translation|summary|script|code|report|email|story|"
    r"poem|letter|plan|recipe|description|message|explanation)s?\s+(?:should|must|shall|needs to|has to)\s+"
    r"(?:be|consist|start|end|follow|use|not exceed|stay)\b|"
    r"(?:should|must)\s+be\s+(?:formatted|presented|written|returned|structured|provided)\s+(?:in|as|according)|"
    r"formatted\b|formatting\b|\bformat\b|json\b|yaml\b|xml\b|csv\b|markdown\b|bullet(?:ed|s)?\b\s*(?:points?|list)?|"
    r"numbered (?:list|steps|sections)|\blanguage (?:\w+ )?(?:plain|simple)\b|in a (?:\w+\s+)?table\b|code block|"
    r"(?:no more than|at most|under|fewer than|less than|up to|maximum of|max\.?|exactly|between|within|in)\s+\d+"
    r"\s*(?:[-–]\s*\d+\s*|and\s+\d+\s+)?(?:words?|sentences?|lines?|paragraphs?|bullets?|tokens?|items?)|"
    r"\b(?:of|be|in|to)\s+(?:at most|under|no more than|fewer than|up to)\s+\d+\s+(?:characters|chars)\b|"
    r"\b(?:one|two|three|four|five|single|short)[\s-]+(?:word|sentence|line|paragraph)s?\b(?! of)|"
    r"\bup to (?:two|three|four|five|six|seven|eight|nine|ten)\s+(?:\w+\s+)?(?:words|sentences|items|bullets|"
    r"keyphrases|keywords|points|tags|ideas)\b|"
    r"(?:under|fewer than|less than|about|around|roughly|approximately|to about)\s+\d[\d,]*\s+(?:characters|words|"
    r"sentences|lines)|reading level|comma-separated|\bno code\b|"
    r"label\s+it\b|mark\s+it\b|(?:(?<!such )as|with|either)\s+['\"][^'\"]{1,20}['\"]\s+or\s+['\"]|"
    r"(?:in|using)\s+(?:english|french|german|spanish|italian|chinese|japanese|plain language)\b|"
    r"\btone\b|(?<!\w-)\bstyle\b|well-structured|pep\s*8|first person|third person|do not (?:explain|output)\b|"
    r"(?:do not|don'?t|never) (?:include|add|use|write)\s+(?:any\s+)?(?:explanations?|commentary|preamble|notes?|"
    r"text|markdown|emojis?|headings?|code fences|(?:all\s+)?caps|the whole)\b|"
    r"without (?:any )?(?:explanation|commentary|preamble)|comments? explaining|"
    r"(?:start|begin|end|sign|close|finish|conclude)\s+(?:your|the|every|each)?\s*"
    r"(?:answer|response|reply|email|letter)?\s*"
    r"(?:with|off)\b" + _STORY_START + r"|"
    r"sign (?:off|the)|title\b(?!\s+(?:for|of)\b|\s*=)|wrap\b|enclose\b|"
    # not "heading straight for the kitchen"
    r"(?:sub-?)?headings?\b(?!\s+(?:straight|back|home|out|off|into|towards)\b)|"
    r"schema\b(?<!database schema)(?<!postgresql schema)(?<!postgres schema)(?<!sql schema)(?<!mysql schema)"
    r"(?<!bigquery schema)(?<!db schema)(?<!\.schema)(?<!warehouse schema)(?<!given schema)"
    r"(?!\s+(?:of|change|changes|migration)\b|\.\w)|"  # not a database's: "a new Postgres schema"
    r"(?<!got )(?<!get )(?<!getting )(?<!come )(?<!came )round (?:the|to)\b|\bround (?:\w+ ){1,2}to the nearest\b|"
    r"wrapped\b|"
    r"decimal places?|on (?:its|their) own line|per line|one per line|structure (?:the|your)|"
    r"organi[sz]e (?:the|your)|(?:in|with) the (?:form|format)|keys?\b.{0,20}\bvalues?\b|syllable|"
    r"^\W*(?:cite|quote)\s+(?:an?|the|your|each|every|one|two)\b|\bwrite\s+[\"'“]|"
    r"\bexplanations?\b|\buse null\b|"
    r"^\W*use\s+(?:\"[^\"]{1,20}\"|“[^”]{1,20}”|n/?a|none|unknown)\s+(?:for|where|when|if|in|to)\b|"
    r"^\W*leave\b[^.]{0,30}\b(?:empty|blank|null)\b|"
    r"plain text|"
    r"second person|present tense|past tense|latex\b|\bin\s+(?:british|american|us|uk|brazilian|european|canadian)\s+"
    r"(?:english|portuguese|spanish|french)\b|\bmax(?:imum)?\.?\s+\d+\s*(?:characters|chars|words|sms|texts?|"
    r"messages?|hashtags?|emojis?|lines|bullets)\b|"
    r"^\W*(?:vibe|tone|style|voice|register)\s*[=:]|(?:start|begin|end|finish|close)\s+(?:your|the|every|"
    r"each)\s+\w+\s+with\b" + _STORY_START + r"|"
    r"^\W*an?\s+(?:table|list|bulleted list|numbered list)\b|\b(?:give|send|return|show)\s+me\s+(?:just|only)\b|"
    r"^\W*keep\b.{0,40}\b(?:short|brief|concise|succinct|sentences?|words|lines|paragraphs?)\b|"
    r"\b(?:formal|informal|neutral|casual|polite|respectful|plain|professional|conversational)\W+(?:\w+\W+)?"
    r"register\b|\bon the (?:first|last|top) line\b|"  # "Use a formal, respectful register", "… on the first line"
    r"^\W*(?:show|present|lay out|set out|lay (?:it|them) out|give|list)\s+(?:it|them|the \w+|each \w+|everything)\s+"
    r"as\s+(?:an?\s+|one\s+|two\s+|three\s+|four\s+|five\s+|six\s+)?(?:[\w-]+\s+){0,2}(?:lists?|tables?|sections?|"
    r"bullets?|paragraphs?|columns?|headings)\b|"  # "Show the groups as headed lists."
    r"^\W*(?:open|start|begin)\s+with\s+(?:the|a|an|one)\s+(?:single\s+)?(?:[\w-]+\s+){0,2}(?:number|figure|fact|"
    r"statistic|stat|quote|question|line|sentence|hook)\b|"  # "Open with the single most striking number."
    r"^\W*(?:please\s+)?(?:write|draft|compose)\s+(?:me\s+)?an?\s+(?:short,?\s+|brief,?\s+)?(?:polite|formal|friendly|"
    r"warm|firm|professional|casual|informal)\b|"  # "Write a polite, point-by-point response …": its register
    r"^\W*(?:start|begin|end|finish|close|open)\s+(?:every|each|all|your|the first)\s+(?:\w+\s+)?(?:reply|replies|"
    r"message|messages|response|responses|answer|answers)\b|"
    r"^\W*(?:make|keep) (?:it|them|the (?:letter|email|reply|message|post|tone|response|note|text|answer))\s+"
    r"(?:\w+\s+){0,3}?(?:funny|warm|playful|friendly|formal|casual|gentle|upbeat|"
    r"polite|professional|light|lighthearted|serious|fun|punchy|snappy|sweet|witty|cheerful|neutral|heartfelt|"
    r"informal|conversational|simple|plain|chatty|relaxed|skimmable|scannable)\b|"
    r"\b(?:in|within|under|to|of)\s+\d+\s+(?:characters|chars)\b|(?:brand|writing|narrative)\s+voice\b|"
    r"\bsounds?\s+(?:more\s+|less\s+|a (?:bit|little)\s+)?(?:professional|diplomatic|formal|informal|casual|friendly|"
    r"polite|confident|calm(?:er)?|natural|human|warm(?:er)?|firm|neutral|persuasive|fluent|nicer|kinder)\b|"
    r"\blike (?:i'?m|i am) (?:a |an )?(?:\d+|five|ten|first[- ]year|beginner|kid|child)\b|"
    r"\bin (?:plain|simple|normal|everyday) words\b|\binto formal\b|\bformal business english\b|"
    r"\bsignificant figures\b|\\boxed\b|\bsi units\b|^\W*use (?:an? )?\w+ as (?:the )?decimal separators?\b|"
    r"(?:^\W*use|\b(?:in|with|using)) (?:the )?(?:in)?formal (?:form of address\b|[\"“]?(?:usted|sie|vous|du|tu|"
    r"você|ty|vy|jij)\b)|\b(?:include|add|with|keep)\s+(?:a\s+|the\s+|one\s+)?header row\b|"
    r"^\W*use (?:really |very |only )?(?:simple|plain|everyday|short) words\b|"
    r"\bavoid\s+(?:the\s+)?(?:words?|phrases?|terms?|expressions?)\b|\b(?:british|american|us|uk)\s+spelling\b|"
    r"(?:use|with)\s+(?:exactly\s+)?(?:these|the following)\s+"
    r"(?:sections|headings|keys|columns)\b|^[\s\-*•]*[a-z]+(?:_[a-z0-9]+)+\s*\((?:string|str|number|int|integer|"
    r"float|bool|boolean|date|datetime|list|array|object|iso)\b|prefixed\b|^\W*write\s+like\b|^\W*number\s+(?:the|"
    r"each|them)\b|\bas\s+[ymdhs]{2,4}(?:[-/:.][ymdhs]{2,4})+\b|reading (?:age|grade)|^\W*length\s*:|"
    r"\b\d+\s*(?:to|-|–)\s*\d+\s+(?:words|sentences|characters|lines|bullets)\b|^\W*cite\b.*\bas\b|"
    r"(?:reply|respond|answer|say|output|print|return|write)\s+(?:with\s+)?(?:only\s+|just\s+|exactly:?\s*)?[\"“\[]|"
    r"^\W*(?:reply|respond|answer)\s+as\b|^\W*no\s+(?:tables?|emojis?|hashtags?|markdown|bullets?|lists?|headings?|"
    r"quotes|quotation marks|trailing|preamble|exclamation marks?)\b|^\W*phrase\s+(?:each|every|the|it|them|your)\b|"
    r"^\W*use full sentences\b|^\W*make (?:it|them) sound\b|"
    r"^\W*(?:write|structure|lay out|set out|format) (?:it|them|this|each \w+) as\b|"
    r"^\W*write (?:the|each|every|your) \w+ the way\b|"
    r"\b(?:at most|no more than|up to) \w+ \w+ per (?:reply|message|answer|response|turn)\b|"
    r"\b(?:our|your|the)\s+voice\s+is\b|\bsame length\b|"
    r"(?:reply|respond|answer|write)\s+in\s+the\s+(?:same\s+)?language\b|\b(?:formal|informal|casual|polite|"
    r"plain|simple)\s+(?:english|german|french|spanish|italian|portuguese|dutch|japanese|chinese|language|"
    r"register)\b|^\W*use\s+[\"“'][^\"”']{1,20}[\"”'],|"
    r"\bas\s+an?\s+(?:table|(?:bulleted|numbered|comma-separated|single)\b|list\b)|(?:in|"
    r"using)\s+(?:the\s+)?(?:(?:user|customer|reader|"
    r"student|patient|client)'s|their|the same|your)\s+language|"
    r"\b(?:answer|reply|respond|say)\s+(?:with\s+)?(?:just\s+|only\s+)?[\"'“]?(?:yes|true)[\"'”]?\s+or\s+[\"'“]?"
    r"(?:no|false)\b|^\W*(?:yes|true)\s+or\s+(?:no|false)\W*$|\bonly\s+the\s+(?:number|letter|label|name|"
    r"final answer|result|query|sql|word|score|category)\b|separated by (?:commas?|semicolons?|spaces?|new ?lines?|"
    r"tabs?)|\b(?:not|dont|don't|no)\b[^.]{0,15}\b(?:too|overly)\s+(?:long|short|wordy|lengthy)\b|\b(?:one of|"
    r"choose from|pick from)\s*:|"
    r"^\W*be\s+(?:direct|concise|brief|blunt|succinct|terse|warm|friendly|welcoming|polite|encouraging|"
    r"professional|formal|casual)\b|^\W*(?:sound|speak|talk)\s+(?:like|human|natural|warm|friendly|casual|formal|"
    r"relaxed|in\s+(?:short|plain|simple))\b|^\W*go\s+(?P<go>\w+)\s+by\s+(?P=go)\b|"
    r"rhyme scheme|(?:^|[,;]\s*)\W*rhyming\b|\b(?:should|must|has to|needs to) rhyme\b|\bslant rhymes?\b|"
    r"\brhyming lines\b|"
    r"\bmark\s+(?:the|each)\s+\w+(?:\s+\w+)?\s+with\b|\bone per (?:message|reply|turn)\b|"
    r"\b(?:keep|use) the same language\b|\b(?:at once|in one go)\b|"
    r"^\W*only\s+(?:return|output|give|reply|respond|answer|print|show)\b|"
    r"<(?P<tag>\w+)>\s*</(?P=tag)>|"
    r"^[^.]*?\b(?:put|wrap|write|give|place|enclose|return|output|respond|answer|reply|provide)\b[^.]{0,60}"
    r"\bin\s+<\w+>\s*tags?\b|"
    r"like i'?m (?:five|5|a (?:child|kid))|\beli5\b|so (?:that )?an? \d+-year-old\b|"
    r"for a (?:general|lay|non-technical) audience|\b(?:score|rating|"
    r"scale(?!\s+(?:this|it|that|these|the|my|our|up|down)\b))\b[^.]{0,40}\bfrom\s+\d+\b[^.]{0,30}\bto\s+\d|"
    r"\b(?:number|letter|label|word|score) only\b|\bin (?:its|their|the) original language\b|"
    r"\b(?:be|set (?:it |them )?to|return|use)\s+(?:null|an empty (?:array|list|string|object))\b|"
    r"\b(?:reply|respond|answer|say)(?: exactly)?\s*:\s*[\"“]|"
    r"\bcite (?:the|each|every|at most|at least|your|sources|\d)|"
    r"\b(?:put|name|cite|give|list|show|mark|add)\b[^.]{0,60}\bin (?:square |round )?(?:brackets|parentheses)\b|"
    r"\b(?P<unit>piece|clause|section|point|item) by (?P=unit)\b|"
    r"\buse\s+(?:the|this|a|an|our|my)\s+(?:[^.]{0,40}\s)?(?:table|template|layout)\b(?!\s+(?:below\s+|above\s+)?to\s+"
    r"(?:answer|work|calculate|check|decide|convert|look|find|figure|price|estimate|grade|score|assess|judge|"
    r"classify|match|pick|choose|determine)\b)|"  # not "Use this conversion table to answer …": consulted
    r"\bblank line\b|\bno titles?\b|^\W*sign\s+it\b|\bdon'?t (?:explain|output)\b|\ba short list\b|"
    r"\bin the (?:first|last|opening|final) (?:sentence|line|paragraph)\b|^\W*(?:end|finish|close) on\b|"
    r"^\W*(?:please\s+)?(?:give me|make(?: me)?|make it|put it in|format it as)\s+an?\s+(?:short\s+|simple\s+|"
    r"printable\s+)?checklist\b|^\W*make\s+(?:about|around|roughly|at least|at most)\s+\d+\s+\w+\W*$|"
    r"^\W*(?:do ?n[o']?t|do not|never)\s+make (?:it|them)\s+(?:sound\s+)?(?:too\s+|overly\s+)?(?:aggressive|formal|"
    r"casual|long|pushy|salesy|cheesy|stiff|robotic|rude|harsh|emotional)\b|"
    r"\bas an?\s+(?:short\s+|simple\s+)?checklist\b|\bnot an essay\b|\bstep-by-step (?:answer|list|guide)\b|"
    r"^\W*(?:end|finish|close|wrap up) by \w+ing\b|^\W*group (?:it|them|the \w+) by\b|"
    r"^\W*\d+\s+(?:lines|words|sentences|paragraphs|bullets|verses)\W*$|\bopener\b|\b(?:should|must)\s+sound\b|"
    r"\bnot\s+(?:too\s+|overly\s+)?(?:preachy|cheesy|corny|cringe|cringey|salesy|pushy|stiff|sappy|gushy|smarmy)\b|"
    r"\b(?:double|single) quotes\b|\bnumbered citations\b|\b\d+\s+characters\s+or\s+(?:fewer|less)\b|"
    r"^\W*limit (?:it|them|the \w+) to \d+\b|\b(?:no|any) (?:extra|additional) text\b|^\W*lead with\b|"
    r"\bnumber them\b|\bkeep the (?:original )?order\b|"
    r"^\W*(?:please\s+)?show\b[^.]{0,40}\bstep by step\b|"  # the working shown (not "Think step by step": the task)
    r"^\W*(?:funny|warm|light|lighthearted|casual|friendly|playful|heartfelt|upbeat|cheeky|sweet|witty|gentle|"
    r"professional|formal|firm|polite|calm)(?:\s+(?:but|and)|,\s*(?:but\s+)?not)\b|"
    r"\b(?:british|american|australian|canadian|us|uk)\s+(?:english|spelling)\b|\bno abbreviations\b|"
    r"^\W*(?:speak|talk|write|reply|respond|answer)\s+(?:in|with)\s+(?:an?\s+)?(?:[\w-]+[\s,]+){0,4}(?:way|voice|"
    r"accent|manner|register)\b|\b(?:plain|simple|big|easy|short)(?:,\s*\w+)?\s+words\b|\b(?:tick|check)-?box(?:es)?\b|"
    r"\bshort (?:steps|sentences|paragraphs)\b|\buse (?:the )?(?:sections|headings|headers)\b|"
    r"\bno (?:intro|introduction|outro)\b|"
    r"^\W*aim for (?:about |around |roughly )?\d|^\W*no more than \d+ \w+(?: per \w+)?\W*$|^\W*one \w+ per \w+\b|"
    r"^\W*group (?:\w+ ){0,2}under\b|^\W*group (?:\w+ ){0,2}into [\"“]|^\W*group (?:\w+ ){1,2}by\b|"
    r"^\W*sign (?:it |off )?(?:as|from)\b|^\W*firma(?:la|lo)?\s+(?:come|como|con)\b|^\W*lay (?:it|them|this) out\b|"
    r"^\W*(?:use|speak|write|reply|answer)\b[^.]{0,20}\b(?:mexican|latin american|european|brazilian|castilian|spain|"
    r"swiss|canadian|australian)\s+(?:spanish|"
    r"portuguese|french|german|english)\b|"
    r"^\W*keep (?:the|all|any)\s+(?:[\w-]+\s+){0,2}(?:numbering|structure|headers?|keys|formatting|line breaks|"
    r"paragraph breaks|layout|timecodes|timestamps|rhythm|diction|blurbs?)\b|"
    r"^\W*be\s+(?:kind|gentle|constructive|balanced|firm|firmer|tactful|diplomatic|empathetic|reassuring|respectful|"
    r"upbeat|critical but)\b|"
    r"\b(?:palabras|lenguaje|linguagem|palavras|linguaggio|parole|langage|mots|taal|woorden)\s+(?:sencill|simpl|"
    r"semplic|eenvoudig|f[aá]cil)|\b(?:einfache[nr]?|eenvoudige|gewone)\s+(?:sprache|worte|wörter|taal|woorden)\b|"
    r"\b(?:sin tecnicismos|sin jerga|sem (?:jargão|termos técnicos)|sans jargon|senza (?:gergo|termini tecnici|"
    r"tecnicismi)|ohne (?:fach)?jargon|ohne \w*deutsch|zonder jargon)\b|"
    r"^\W*(?:do not|don't|never)\s+(?:be\s+)?(?:lecture|preach|moralis|moraliz|grovel|over-?apologi|snarky|sarcastic|"
    r"condescending|patronising|patronizing|preachy)|"
    r"^\W*(?:code|json|sql|text|formula|query|regex|numbers?) only\s*(?:[,.;+!]|$)|^\W*just the [\w-]+\s*(?:[,.!]|$)|"
    r"^\W*(?:an?\s+)?(?:table|list|bullets?|checklist),?\s+(?:please|pls|plz)\b|^\W*step by step\b|"
    r"^\W*(?:show|explain)\s+(?:the|your|me the)\s+(?:math|maths|calculations?|working|workings|steps)\b|"
    r"\bpages?\s+(?:max|maximum)\b|"
    r"^\W*separate (?:\w+ ){0,3}with (?:a |an )?(?:comma|semicolon|pipe|slash|"
    r"new ?line|space|tab)|^\W*keep (?:it|them|this) to\b|^\W*expand (?:all |any )?abbreviations\b|"
    r"\b(?:\d+|one|two|three|four|five|ten|a few)[- ]minutes?\b[^.]{0,20}\b(?:spoken|to read|read aloud|to say|"
    r"out loud|when spoken|of speech)\b|"
    r",\s*numbered\b|\bkeep\b[^.]{0,30}\bin the (?:original|same) order\b|"
    r"\b\d+[- ](?:second|minute)s?\s+(?:[\w-]+\s+){0,2}(?:intro|script|speech|toast|monologue|pitch|"
    r"voiceover|read)\b(?!\s+with\b)|\b(?:about|around|roughly|under|at most)\s+\d+\s+pages?\b|"  # spoken length
    r"^\W*(?:no|with(?:out)? a|include no) header row\b|^\W*(?:\d+|one|two|three|four|five|six) (?:verses|stanzas|"
    r"lines|bullets|bullet points|sentences|paragraphs),|^\W*not too (?:formal|informal|casual|long|short|stiff|"
    r"salesy|chatty)\b|^\W*aim for (?:about |around |roughly )?(?:one|two|three|four|five|ten|a)\b[^.]{0,15}"
    r"\b(?:minutes?|words|lines|pages?|sentences)\b|^\W*must be (?:short|brief|concise)\b|"
    r"^\W*put everything in (?:one|a single) (?:file|message|block)\b|"
    r"^\W*[\"'`]?[a-z]+(?:_[a-z]+)*[\"'`]? (?:must|should) be (?:true or false|a (?:short )?(?:phrase|number|string|"
    r"list|boolean)|numbers?\b))",  # '"paid" must be true or false.', "appeal_grounds should be a short phrase"
    r"\b(?:YYYY|YY|MM|DD|HH|mm|ss)(?:[-/:.T ](?:YYYY|YY|MM|DD|HH|mm|ss))+\b",  # a date format: "YYYY-MM-DD"
)
#: A list of answers to choose from: capitalised ("… as Positive, Negative or Mixed"), or all the sentence says
#: ("Answer entailment, contradiction or neutral.").
OPTIONS = re.compile(r"\b(?:as|into|with)\s+(?:either\s+)?[A-Z][\w-]*(?:,\s*[A-Z][\w-]*)*,?\s+or\s+[A-Z][\w-]*|"
                     r"^\W*(?i:answer|reply|respond)\s+(?:[\w-]+,\s+)+[\w-]+,?\s+or\s+[\w-]+\.?\s*$")
#: A task that sorts its items into classes ("Classify each log line into one of: CRITICAL, ERROR, NOISE.") and the
#: classes it names.
_SORTS_INTO = re.compile(r"^\W*(?:please\s+)?(?:classify|label|categori[sz]e|sort|tag)\b", re.I)
_CLASSES = re.compile(r"\b(?:one of|choose from|pick from)\s*:.*", re.I)
#: A format word naming the task's material, not the answer's form: "the CSV below", "the schema provided".
_MATERIAL = _rx(r"\b(?:the|this|that|these|attached)\s+(?:json|yaml|xml|csv|markdown|schema)\b"
                r"(?!\s+(?:format|schema|structure|template|shape|layout|skeleton)\b)|"  # "into this JSON structure:"
                r"\bschema\s+(?:below|above|provided|given)\b|"
                r"\bstyle\s+(?:issues|problems|errors|violations|nits)\b|"  # what a review looks for, not the form
                r"\b(?:profiler?|profiling|command|program|console|terminal|test|build|compiler|query|script|tool|cli|"
                r"shell)\s+output\b|"  # what a program printed: "profile output below"
                r"\bin the (?:same )?style (?:of|as) (?:the|these|this|my|our) examples?\b|"  # the examples' style
                r"\b[\w-]+\.(?:csv|json|xml|ya?ml|md)\b|"  # a file: "saves the result as clean.csv"
                r"\b(?:these|my|the following)\s+(?:[\w-]+\s+){0,2}bullet(?:\s+point)?s\b")  # "Rewrite these CV …"
#: The answer slot of a demonstration or query written on one line: "Input: … Output: …".
_SLOT = _rx(r"(?<=\S)\s+(?:output|answer)\s*:(?=\s|$)")
#: Background and constraints: conditions, prohibitions, facts about the task.
INFO = _rx(_LEAD + r"(?:you\s+(?:cannot|can't|can not|are not able to|aren't able to)\s+(?!help\b)\w|"
           r"the\s+(?:goal|aim|purpose|task|tasks|material|content|context|input|text|data|reader|"
           r"audience|user|customer|student|project|team|company|policy|school|class)\s+(?:is|are|involves?|"
           r"requires?|includes?|include|encompass(?:es)?|cover|covers|consists?|has|have|will|was|were|"
           r"prohibits)\b|(?:these|the)\s+tasks?\b|your\s+(?:task|job)\s+is\s+to\s+either\b|ensure\b|"
           r"make sure (?:your|that your|you|it)\b|focus on \w+ing\b|be sure\b|note\b|remember\b|keep in mind\b|"
           r"consider\b|always\b|never\b|"
           r"avoid\b|do not\b|don't\b|ignore\b|"
           r"keep\b(?!\s+(?:track|a running|score)\b)(?!.*\b(?:words?|sentences?|short|brief|concise)\b)"
           r"(?!" + _SIZE + r")|if\b|"
           r"when\b(?!\s+(?:is|are|does|do|did|will|would|should|can|could|was|were)\b[^.!]*\?\s*$)|"  # not a question
           r"leave\b(?!.*\b(?:empty|blank|null)\b)|"  # "Leave out small talk", "Leave the original file untouched"
           r"unless\b|only (?:count|use|consider|include)\b|use only\b(?!.*\b(?:below|following)\b)|prefer\b|"
           r"treat\b|judge\b(?!\s+(?:whether|which|if|how)\b)|"
           r"(?:verify|check)\b(?!\s+(?:this|these|my|it)\b|[^.]{0,60}\b(?:below|attached)\b).{0,80}\bbefore\b|"
           r"before\b[^,]{1,60},(?!\s*(?:think|reason|plan)\b)|"
           r"stay\b|background\b|for (?:context|reference|background)\b|assume\b|"
           r"(?:our|my|their|his|her)\s+\w+|we\s+|i'm\s|i am\s|there (?:is|are)\b|it should\b)|"
           r",\s*ensuring\s+that\b")

EXAMPLE_START = _rx(r"^[\s*#>\-]*(?:[\w ]{0,40}?\b(?:that|which) (?:have |has )?(?:did|worked|performed) well\b|"
                    r"[^.]{0,60}\b(?:as a guide to|as an example of|for inspiration)\b|"
                    r"here(?:'s| is) (?:one|an? \w+) (?:that )?(?:i|we) (?:already )?(?:have|wrote|liked|loved|used|"
                    r"made)\b|here are (?:a few|some|two|three|four|five|several|\d+) (?:\w+ )?(?:that |which )?"
                    r"(?:i|we|you) (?:already |really )?(?:like|love|have|wrote|liked|loved|used|made)\b|"
                    r"here are (?:a few|some|two|three|four|five|several|\d+) (?:\w+ )?(?:that |which )?(?:i|we)"
                    r"(?:'ve| have| were|'re| are)? (?:been |really |always )?(?:happy|pleased|proud) (?:with|of)\b|"
                    r"here(?:'s| is) (?:the|a|our|my) (?:style|kind of thing|vibe|tone|sort of thing) "
                    r"(?:(?:i'm|i am|we're|we are) (?:after|going for|looking for)|"
                    r"(?:i|we) (?:usually |normally |always )?(?:use|like|love|want|go for))\b|"
                    r"here(?:'s| is) (?:the|a) (?:kind|sort|type) of (?:thing|\w+) (?:i|we) (?:like|love|want|mean)\b|"
                    r"here(?:'s| are| is)\b[^.]{0,60}\b(?:so (?:that )?you get the idea|to give you (?:an|the) idea|"
                    r"to show (?:you )?(?:the|my|our) (?:vibe|style|tone|voice))\b|"
                    r"here(?:'s| are| is)\b[^.]{0,60}\bfor (?:the |a )?(?:tone|style|vibe|voice|feel)\b\s*:?\s*$|"
                    r"[^.]{0,80}?\bso (?:that )?you can (?:match|copy|follow|see) (?:the|my|our) (?:style|tone|format|"
                    r"voice)\b|"
                    r"[^.]{0,60}?\b(?:should|must|would) (?:behave|work|look) like this\s*:\s*$|"
                    r"[^.]{0,80}?\bso (?:that )?you (?:get|know|hear|pick up) (?:my|our) "
                    r"(?:voice|style|tone)\b[^.]*:\s*$|"
                    r"here(?:'s| are| is) (?:some|a few|an?|several|two|three)?\s*(?:examples?|"
                    r"samples?|demonstrations?)|here(?:'s| is| are) [^.:]{0,40}\bin (?:our|my) (?:voice|style|tone)\b|"
                    r"here'?s how (?:i|we)(?:'ve| have)? (?:been )?(?:labell?ing|labell?ed|tagging|tagged|"
                    r"classifying|classified|writing|answering) (?:them|these|those|it)\b|"
                    r"[^.]{0,80}\b(?:in the style of|like) (?:these|the following)\s*:\s*$|"
                    r"(?:positive|negative)?\s*examples?\s*(?:\d+|[a-z])?\s*"
                    r"(?:[:\-–—(]|$)|example\s+\w+\s*:|for example\s*[:,]|sample\s+(?:input|output|answer|"
                    r"response|reply)s?\s*:|examples?\s+(?:of|for)\b.*:\s*$|"
                    r"(?:input|q|question|user|text|sentence)\s*\d*\s*:.*\b(?:output|a|answer|assistant|"
                    r"label)\s*\d*\s*:"
                    r"\s*\S)")
HEADING = re.compile(r"^\s*(?:#{1,6}\s+[^\n]*[^\W\d_][^\n]*|\*\*[^*]+\*\*:?|[A-Z][\w /&()'-]{0,40}:|"
                     r"\[[A-Z][\w /&()'-]{0,40}\]|\[[^\x00-\x7f][^\]\n]{0,30}\]|<[^\W\d][\w\- ]{0,40}>)\s*$")
#: A closing XML-style tag on its own line: the end of the section its opening tag began.
CLOSING_TAG = re.compile(r"^\s*</[^\W\d][\w\- ]{0,40}>\s*$")
#: A heading that names material the model consults rather than the input it works on.
REFERENCE = Folded(r"\b(?:reference|context|background|evidence|(?:chat |conversation )?history|conversation so far|"
                r"\{\{?\s*tools\s*\}|you have access to|"
                r"\w*profile\w*\s*\}|(?:order|patient|account|customer|member|student|client|employee|guest|"
                r"tenant) record|key[ _]facts|"
                r"(?:user|customer|member|patient|student|client|learner|player)(?:'s)?\s+"
                r"profile(?=\s*(?:\([^)]*\)\s*)?:?\s*$)|"
                r"(?:account|order|spending) summary|current (?:url|page|state|date)|"
                r"knowledge|polic(?:y|ies)|glossary|schema|documents|retrieved|official (?:solution|answer)|"
                r"model answer|answer key|expected answer|ground truth|\w*lookup\w*|account data|"
                r"excerpts|passages|snippets|sources|search results|price list|faqs?|rúbrica|criterios|"
                r"critères|kriterien|criteri|critérios|"
                r"catalog(?:ue)?(?!\s+(?:description|entry|text|copy))|"
                r"about (?:the|us)|consult (?:this|these|it|them))\b")
#: A markdown title naming the assistant: "# Nurse Line Assistant — Halden Health", "# Procurement Concierge".
ASSISTANT_TITLE = _rx(r"^#{1,2}\s.*\b(?:assistant|master|agent|bot|companion|coach|tutor|concierge|advisor|adviser|"
                      r"copilot|dispatcher|writer|mentor|buddy|simulator|reviewer|narrator|summari[sz]er|planner|"
                      r"helper|moderator|scheduler|triager|drafter|translator|screener)"
                      r"\s*(?:(?:[—–|:-]|\s+for\b)\s*[^—–|-]*)?$|"
                      r"^#{1,2}\s+\w[\w' ]{0,30}?\s*[—–:|-]\s*system (?:prompt|instructions)\b")  # "# StatDesk – system prompt"
HEADING_TOPICS: tuple[tuple[re.Pattern[str], Component], ...] = (
    (_rx(r"what (?:you|we|i) (?:don'?t|do not|never|won'?t|can'?t|cannot|must not|shouldn'?t) (?:do|handle|help with|"
         r"cover|answer)\b|\bwhat not to do\b|\bdon'?ts\b|"
         r"\b(?:you can|to) (?:rely on|refer to|look up)\b"), A),  # "## What you don't do": the limits, rules;
    # "## Procedures you can rely on": what is consulted
    (_rx(r"questions? to (?:answer|address|cover)|key questions|^\W*(?:(?:my|our|the|your) )?questions\W*$"), D),
    (_rx(r"how to (?:respond|reply|speak|talk|write|sound|answer)\b|\bresponding\b|\bhow \w+ (?:talks|speaks|sounds)\b|"
         r"how you (?:talk|speak|sound|write|reply|respond|answer)\b|"
         r"\bfinal (?:summary|message|answer|report)\b"), O),
    (_rx(r"\bprocedures?\b|\bfinishing\b|how to handle (?:a|the|each|every) (?:request|ticket|call|case)|"
         r"\brunning the (?:game|session|call)\b|how the game works|how to play\b"), D),
    (_rx(r"how to (?:behave|handle)"), A),
    (_rx(r"^[\W\d]*(?!.*\b(?:items|points|aspects|areas|factors|criteria|rules|standards|requirements|checks) to\b)"
         r"(?:[\w'-]+ ){0,3}?[\w'-]+ to (?:review|translate|summari[sz]e|check|grade|classify|edit|rewrite|"
         r"analy[sz]e|evaluate|fix|moderate|score|proofread|assess|audit|triage|label|categori[sz]e|rank|sort|"
         r"process|reply to|respond to)\s*:?\s*$"), D),  # "## Entries to check", "Claims to triage:"
    (_rx(r"\b(?:example|sample|demonstration|few.?shot|illustration)|^\W*(?:should|must)(?: not|n't)? match\W*$"), E),
    (_rx(r"^\W*(?!(?:your|the|final|expected|desired|required|json|csv|markdown|yaml|xml|then|rules for the)\b)"
         r"(?:[\w().-]+ ){1,3}output\s*:\s*$"), D),  # "EXPLAIN ANALYZE output:", "Plan output:": what was pasted
    (_rx(r"\b(?:format|output|response|style|structure|answer|reply|tone|length|deliverable)(?!s\W*$)|^\W*form\W*$|"
         r"^\W*(?:use this |the )?template\W*$|\b(?:required|report|memo|document)\s+sections\b|"
         r"^\W*(?:output |required |table )?fields\W*$|"
         r"\bfields? notes\b|\bnotes on (?:the )?fields\b|\bfield (?:descriptions|rules|definitions)\b"), O),
    (_rx(r"\brole\b|persona|identity|who you are|about you|\bcharacter|you are|" + ASSISTANT_TITLE.pattern), R),
    (_rx(r"\b(?:regulat\w+|compliance|legal|safety)\b"), A),
    (_rx(r"what to (?:include|cover|ask|collect|mention|extract|write|draft|find|record|pull out|help with)\b|"
         r"\b(?:details|information|info|things|questions|topics) to (?:collect|gather|ask|capture|cover|include)\b|"
         r"\bfields to (?:extract|fill|capture|collect)\b|\bwhat (?:the|your) \w+ (?:must|should) (?:do|cover|contain|"
         r"include)\b|^\W*(?:what )?(?:(?:it|this|the \w+) )?(?:must|should) (?:include|cover|mention|contain)\W*$|"
         r"\b(?:things|points) (?:(?:it|you|this|to) )?(?:(?:must|should) )?(?:cover|include|mention)\W*$"), D),
    (_rx(r"\b(?:task|instruction|objective|goal|purpose|workflow|what to do|steps?\b|your job|mission|"
         r"what you (?:can|should|will) do|"
         r"what (?:i|we) (?:need|want)|responsibilities|requirements|specification)"), D),
    (_rx(r"\bvoice\b|communication|citations?|presentation|presenting"), O),
    (_rx(r"what you (?:can |should |will )?(?:do|help with|handle)|how to work|\bscope\b|"
         r"^\W*(?:what|things) to (?:look for|check|review|assess|evaluate|flag|focus on|look at)\W*$"), D),
    (languages.OUTPUT_HEADING, O),
    (languages.EXAMPLE_HEADING, E),
    (languages.ROLE_HEADING, R),
    (languages.TASK_HEADING, D),
)
#: A key and its value: "Đánh giá: …", "Резюме:", a key with a note on it: "Phosphorus (P): 18 mg/kg".
_KEY = re.compile(r"^[\s*>\-]*([A-ZÀ-ÖØ-ÞĐА-ЯЁ][\w '’-]{0,30}?(?:\s*\([^()\n]{1,30}\))?)\s*:\s*(.*)$", re.S)


#: A line of SQL (or another language that shouts its keywords): no instruction, whatever its first word.
CODE_LINE = re.compile(r"^\s*(?:CREATE|SELECT|INSERT|UPDATE|DELETE|ALTER|DROP|WITH)\s+[A-Z(*]")
#: A tool's signature and description: "- `list_tables()`: returns table names", "get_weather(city, date): …",
#: "- `bash`: run a command".
TOOL_LINE = re.compile(r"^[\s\-*•]*(?:`?(?:[A-Za-z]\w*[_.][\w.]*\([^()]*\)|[A-Za-z]\w*\((?:[^(),]*,[^()]*)?\))`?"
                       r"\s*(?:[:\-–—]|->)|`[a-z_]\w*`\s*:\s+[a-z])")  # not "fix(auth): …", a commit subject
#: A function-calling spec: {"name": "search_flights", "description": …}.
TOOL_SPEC = re.compile(r"\"name\"\s*:\s*\"[^\"]+\"\s*,\s*\"description\"\s*:")
#: A markdown table row.
TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
#: A row of pasted data: a markdown table row or comma-separated values.
DATA_ROW = re.compile(TABLE_ROW.pattern + r"|^[^,\n]*(?:,[^,\s][^,\n]*|,){3,}$")
#: An introduction of material: the task's input (Directive), or reference material (Additional Information).
INTRO = _rx(_LEAD + r"(?:in this task,?\s*)?(?:here(?:'s| is| are)|here (?:it|they) (?:is|are)\s*:\s*$|"
                    r"(?:attached )?below (?:is|are)|"
                    r"attached (?:is|are)\b|the following (?:is|are)|"
                    r"you (?:are|will be) (?:given|provided|shown)|you(?:'ll| will) (?:see|receive|get)\b|"
                    r"i(?:'ve| have) (?:pasted|copied)\b|i'?m pasting\b|"
                    r"(?:the|our|my|their|his|her)\s+(?:[\w'’-]+\s+){0,4}?(?:is|are)\s+(?:listed\s+|pasted\s+|"
                    r"included\s+|copied\s+)?below(?:,\s*one (?:per|a) line)?\s*[.:]?\s*$)")  # "Our SOP is below."
#: What the model will be given, told as the setting rather than pointing at it: "You will be shown a customer
#: message and a reply written by a support agent.", "You are given a ticket submitted by an employee." (with a colon,
#: "You will be given the ticket:", it points; the datasets' "You are given a question and an answer.", "You are given
#: a password and you need to …" and "In this task, you will be given …" are the task).
_WILL_GET = _rx(_LEAD + r"you(?:(?:'ll| will) (?:be (?:given|provided|shown)|see|receive|get)\b|"
                r"(?: are|'re|'ve been| have been) (?:given|provided|shown)\b(?![^.]*\b(?:need|must|have) to\b)"
                r"(?=[^.]{0,60}\b(?:from|sent|submitted|written|posted|(?:of|by) (?:a|an|the|our|your))\b))")
#: The same at a sentence's end: "… keep restarting, here's what i see:", "The form asks:", "Nella bolletta c'è
#: scritto:", "This is their online menu:", "The transcription looks like this:".
_INTRO_END = re.compile(r",\s*here(?:'s| is) what (?:i|we)(?:'ve| have)? (?:see|get|got|have)\b[^.:]*:?\s*$|"
                        r"\b(?:says|said|reads|asks|states|c'è scritto|dice|dit|steht|diz)\s*:\s*$|"
                        r"^(?!\W*\*\*)[^:]*\b(?:wrote|writes)\s*:\s*$|"  # "Reviewer 2 wrote:", not "**Gavin_R** wrote:"
                        r"\b(?:pasted (?:from|out of)|sent (?:me|us) this|posted this|getting this|"
                        r"under review)\b[^.]*:\s*$|"
                        r"^\W*this is (?:the|my|our|their|his|her)\b[^.:]{0,60}:\s*$|\blooks? like this\s*:\s*$", re.I)

#: A prohibition: a rule, unless what it forbids is a matter of form (below).
PROHIBITION = re.compile(r"^[\W\d]*(?:avoid|do not|don't|dont|never|no need to)\b", re.I)
#: What a prohibition of form forbids: "Do not wrap the JSON in Markdown", "Never use emojis", "Don't make it too long".
_FORM_WORDS = re.compile(r"\b(?:markdown|json|emojis?|hashtags?|any code|exclamation|caps|capital letters|bold|"
                         r"italics?|lists?|bullets?|"
                         r"bullet points|headings?|headers?|explanations?|explain (?:your|each|why|what|how)|"
                         r"commentary|comments?|notes|preamble|sign-?offs?|greetings?|before or after|"
                         r"code ?(?:fence|block)s?|fences?|abbreviations|symbols|too long|longer|exceed|"
                         r"more than \w+ (?:\w+ )?(?:words|sentences|lines|items|paragraphs|requirements|exclamation|"
                         r"formula|question)s?|one (?:action|question)|at once|percentages|raw json|urls|links|"
                         r"formatting|tables?|numbered|start (?:with|your|the)|end with|outside the|"
                         r"anything (?:else|after|before)|whole (?:files|conversation)|summary|"
                         r"repeat (?:the|your) (?:question|prompt|post|input|text)|read out|quotation marks|"
                         r"quotes around|make it \w+|lecture|preach|moralis\w*|moraliz\w*|grovel|over-?apologi\w*|"
                         r"snarky|sarcastic|condescending|patronising|patronizing|preachy)\b", re.I)
#: A condition whose outcome is only an output convention: a field set to a value, a literal written or returned
#: ("If a role's end date is "present", set "end" to null.", "If the answer makes no claims, return {…}.").
_CONDITIONAL_CONVENTION = re.compile(
    r"^\W*(?:if|when|where|whenever|in case)\b[^,]{3,120},\s*(?:\w+\s+){0,2}?(?:set|put|write|return|output|mark|"
    r"leave|fill|record|enter)\b[^.;]*?(?:\bnull\b|\bempty\b|\bblank\b|\bunknown\b|\bN/?A\b|\bNR\b|\[\]|\{|"
    r"\ba (?:dash|hyphen|question mark|zero)\b|"
    r"\"[^\"]{1,40}\"|'[^']{1,40}'|“[^”]{1,40}”|\b(?-i:[A-Z_]{3,})\b|\b\w+_\w+\b)", re.I)
#: What the assistant may answer, a rule however it speaks of answering: "Only answer questions about …", "Only answer
#: from the policy extracts".
_SCOPE = _rx(r"^\W*only\s+(?:answer|respond to|reply to|help with)\s+(?:questions|requests|queries|topics|from)\b")


#: A label or an opening tag in front of an instruction: "Definition: In this task, you are given …", "Step 2: …",
#: "SYSTEM: You are …", "<task>Check each claim …".
_DEFINITION = _rx(r"^\W*(?:(?:task\s+)?definition|step\s+\d{1,2}|system(?: prompt)?|(?:your\s+)?task|instructions?|"
                  r"request|goal|objective|constraints?|requirements?|role|persona)\s*(?:[:.)]|\s[-–—])\s*(?=\S)|"
                  r"^\s*<[^\W\d][\w\-]{0,40}>\s*(?=\S)")


#: The special tokens of chat templates (ChatML, Llama 2 and 3, Gemma, Phi): a turn's role, or nothing to read.
_CHAT_MARKER = re.compile(r"<\|(?:im_start|start_header_id)\|>\s*(\w+)\s*(?:<\|end_header_id\|>)?|<\|(system|user|"
                          r"assistant)\|>|<start_of_turn>(\w+)|<\|[a-z_]+\|>|<end_of_turn>|</?s>|\[/?INST\]|<</?SYS>>|"
                          r"\{\{~?[#/](?:system|user|assistant)~?\}\}|"  # guidance's {{#user~}} … {{~/user}}
                          r"^\s*</?(?:system|system_prompt)>\s*$|"  # a line that only opens or closes the system part
                          r"^\s*\[((?i:system|user|assistant|human))\]\s+(?=\S)")  # "[user] aim lab, 1600 dpi"
_TURN_LABEL = {"user": "User: ", "human": "User: ", "assistant": "Assistant: ", "model": "Assistant: "}


#: A line wrapped in one XML-style element: "<comment>{comment}</comment>", "<question>How do I …?</question>".
_INLINE_ELEMENT = re.compile(r"^\s*<([A-Za-z_][\w-]{0,40})(?:\s[^<>]*)?>([^<>]*)</\1>\s*$")


def without_chat_markers(text: str) -> str:
    """``text`` as the rules read it: a turn marker becomes its label ("<|im_start|>user" → "User:"), other special
    tokens ("<|im_end|>", "[INST]", "<<SYS>>", guidance's "{{#user~}}") vanish, a line of markers only becomes empty,
    and a line wrapped in one element reads as a field ("<comment>{comment}</comment>" → "Comment: {comment}")."""
    if "<" not in text and "[" not in text and "{{" not in text:
        return text
    element = _INLINE_ELEMENT.match(text)
    if element:
        return f"{element.group(1).replace('_', ' ').capitalize()}: {element.group(2).strip()}"
    return _CHAT_MARKER.sub(lambda m: _TURN_LABEL.get(next((g for g in m.groups() if g), "").lower(), ""),
                            text).strip()


#: A chat question typed without its mark: "why am i getting this error", "how do i undo my last commit".
_BARE_QUESTION = _rx(r"(?:^|[?!]\s+)\W*(?:why (?:am|is|are|does|do|did|can't|won't|isn't|doesn't) |"
                     r"how (?:do|can|should) (?:i|we) |what (?:am|are|do|should|can) (?:i|we) |"
                     r"what(?:'s|’s|s| is) (?:the|a|an|wrong|on|my|\d)|"
                     r"what (?:does|do|did) (?:this|that|these|it|my)\b|"
                     r"(?:is|are|was|does|did|should|would) (?:this|these|that|"
                     r"it|my|there)\b|am i |which \w+(?: \w+)? (?:do|should|can) (?:i|we) )[^.!?:]*$|"
                     r",\s*(?:so\s+|but\s+|and\s+)?(?:how|where|when) (?:do|can|should|would) (?:i|we) [^.!?:]*$|"
                     r"(?:,|\b(?-i:[a-z]+))\s+(?:what (?:do|should|can) i do|am i (?:covered|allowed|eligible|entitled|"
                     r"right|wrong|supposed))\b[^.!?:]*$")
#: A question the user typed before more words in lower case, which the splitter keeps in one sentence: "which of
#: these two dog foods is better for my collie? she's a bit overweight".
_QUESTION_RUN_ON = _rx(r"^\W*(?:(?:ok|okay|so|hey|hi|quick q\w*)[\s,!-]+)*(?:what|which|how|why|when|where|who|whats|"
                       r"is|are|does|do|did|can|could|would|should|will)\b[^?]{0,200}\?+\s+[a-z]")
#: A request after the background it gives: "me and 3 friends rented a cabin, help me figure out who owes who".
_HELP_ME = _rx(r",\s*(?:pls\s+|please\s+|can you\s+)?help me\s+(?:to\s+)?[a-z]+")
#: A user pointing at what they paste next: "docker compose keeps failing with this:", "I have a sheet like this:".
_SHOWS_THIS = _rx(r"\b(?:fail\w*|crash\w*|says?|said|looks?|get|got|getting|returns?|shows?|throws?|have|has|"
                  r"gives?)\s+(?:me\s+)?(?:\w+\s+){0,2}(?:like|with)\s+this\s*:\s*$")
#: A schema or tables announced for the model to consult: "Given the following SQL schema:".
_GIVEN_SCHEMA = _rx(r"^\W*given (?:the following|these|this) (?:\w+ ){0,2}(?:schema|tables?|database)\b[^.]*:\s*$")
#: The answer's shape shown below: "Use this schema:", "Fill this schema exactly:", "Below is the output format you
#: must follow …".
_FORM_SHOWN = _rx(r"^\W*(?:use|follow|fill(?: in)?|return|give|output)\s+(?:exactly\s+|strictly\s+)?"
                  r"(?:this|the following)\s+(?:json |yaml |xml |output )?"
                  r"(?:schema|format|template|shape|structure)(?: exactly)?\s*:|"
                  r"^\W*(?:below|here) is the (?:output|answer|response) (?:format|template|schema)\b")
#: A persona given as a field: "Role: Senior UX researcher", "Persona - a patient maths tutor".
_PERSONA_LABEL = _rx(r"^\W*(?:role|persona|character|identity)\s*(?::|\s[-–])\s*\S")


def opens_material(text: str) -> bool:
    """Whether ``text`` introduces material in English: "Here is the ticket:", "The form asks:"."""
    return bool(INTRO.match(text) or text.rstrip().endswith(":") and _INTRO_END.search(text))


def _introduces(text: str, foreign: bool) -> bool:
    """Whether ``text`` introduces material ("Here is the ticket:", and when ``foreign``, "Hier ist ein Ticket:")."""
    return bool(opens_material(text) or foreign and languages.INTRO.search(text))


#: A slot that the application fills with the answer's form: "{format_instructions}", "{{ output_schema }}".
FORM_SLOT = re.compile(r"\{\{?\s*\w*(?:format|schema)\w*\s*\}\}?", re.I)


#: The user's own material named in the task ("proofread my email"): it follows, with no cue of its own.
MY_MATERIAL = re.compile(r"\bmy (?:[\w-]+ )?(?:email|e-mail|message|text|essay|letter|code|draft|paragraph|cv|resume|"
                          r"résumé|post|story|poem|notes|list|lists)\b", re.I)


#: The material the answer may draw on, named and nothing asked of it: "Use only the help-centre articles below.",
#: "Use the documentation chunks below as your only source of truth." (not a form: "Use the template below.").
_USE_ONLY = _rx(r"^\W*(?:please\s+)?(?:use|rely on|refer to|consult|draw on)\s+(?:only\s+)?(?:the|these|this|our)\s+"
                r"(?!(?:[\w-]+\s+){0,3}?(?:format|template|structure|layout|schema|keys|style|examples?|items)\b)"
                r"(?:[\w-]+\s+){0,5}?(?:below|above|provided|(?:given|supplied|listed|quoted) (?:below|above))"
                r"(?:\s+as (?:your|the) (?:only |sole )?(?:source|reference|basis)\b[^.;]*)?(?:\s+to answer)?"
                r"\s*(?:[.;]|$)")


def cues_of(text: str) -> set[Component]:
    """The components a sentence's own wording signals (no context)."""
    found = _own_cues(text)
    if not found & {D, A} and _YOUR_JOB.match(text):
        return {D}  # "Your job is to sub-edit the copy that follows, applying the house style.": the task itself
    return found


def _own_cues(text: str) -> set[Component]:
    """:func:`cues_of` before the task stated as the model's job has its say."""
    if FORM_SLOT.fullmatch(text.strip()) or _ELLIPSIS_SLOT.match(text):
        return {O}  # "{output_format}", "MEDS: ...": a slot of the answer's form
    script = scripts.script_of(text[:400])
    if script is not None:
        return scripts.cues(text[:400], script)
    head = _INPUT_ARRIVES.sub("", _DEFINITION.sub("", text[:400]))  # "When the user gives you a draft, rewrite it"
    persona = _PERSONA_LABEL.match(text)
    if persona and not cues_of(text[persona.end() - 1:]) - {R}:
        return {R}  # "Role: Senior UX researcher", "Character: Marta, a tavern keeper"
    if CODE_LINE.match(head):
        return set()
    if TOOL_LINE.match(head) or TOOL_SPEC.search(head):
        return {A}  # "- `search(query)`: returns …", a JSON function spec: a tool the model may call
    if head.rstrip().endswith(":") and re.search(r"\b(?:criteria|rubric)\b|\b(?:these|the following) (?:rules|"
                                                 r"policies|guidelines|constraints)\b", head, re.I):
        return {A}  # "Judge on these criteria:", "Follow these rules:": what the model consults
    if _GIVEN_SCHEMA.match(head):
        return {A}  # "Given the following SQL schema:": what the model consults
    if _FORM_SHOWN.match(head):
        return {O}  # "Use this schema:", "Below is the output format you must follow …": the answer's shape
    kv = key_value(head)
    if kv and kv[1] and len(kv[0].split()) <= 3 and REFERENCE.search(kv[0]) and not OUTPUT.search(kv[0]) and \
            not QUESTION.search(head) and "```" not in head:
        return {A}  # "Return policy: items can be returned within 30 days": a record consulted, no instruction
    if FOR_CONTEXT.match(head) or _REFERENCE_LABEL.match(head):
        return {A}  # "For context, we do still want to renew …", "Reference (EYFS framework, ratios):"
    if _DATA_FILTER.match(head):
        return {D}  # "Only count orders with status 'completed'.": which rows the query or count takes, the task
    if _USE_ONLY.match(head):
        return {A}  # "Use only the excerpt below to answer.": the material the answer may draw on, a rule
    if head.rstrip().endswith(":") and CONDITIONS_BELOW.search(head) and is_imperative(head):
        return {A}  # "Escalate to a human agent when:" above the cases: a rule
    persona = _AS_PERSONA_FIRST.match(head)
    if persona and is_imperative(head[persona.end():]):
        return {R, D}  # "As a UX researcher, group these interview snippets into themes."
    foreign = languages.foreign(head)  # worth trying the patterns of other languages
    if _introduces(head, foreign) and not EXAMPLE_START.search(head):
        return {A} if REFERENCE.search(head) and not MY_MATERIAL.search(head) or \
            re.search(r"\b(?:rules|guidelines|constraints|facts)\b", head, re.I) \
            or _WILL_GET.match(head) and not head.rstrip().endswith(":") else {D}
    found: set[Component] = set()
    if ROLE.search(head) or NAMED_PERSONA.match(head):
        found.add(R)
    if EXAMPLE_START.search(head):
        found.add(E)
    rhetorical = re.match(r"^\W*(?:why|what if)\b", head, re.I) and len(head.split()) > 2 and \
        not re.search(r"\b(?:i|my|we|our|this)\b", head, re.I)  # "Why does this job fail?", "Why?": the user's question
    if DIRECTIVE.search(head) and not _VERB_NAMED_FIELD.match(head) or is_imperative(head) or \
            (QUESTION.search(head) and not rhetorical) or \
            _BARE_QUESTION.search(head) or _HELP_ME.search(head) or _SHOWS_THIS.search(head) or \
            _QUESTION_RUN_ON.match(head) or \
            foreign and languages.DIRECTIVE.search(head):
        found.add(D)
    classes = _SORTS_INTO.match(head)  # the classes a task sorts into are its content, not the answer's form
    if OUTPUT.search(head) and OUTPUT.search(_SLOT.sub(" ", _MATERIAL.sub(" ", _CLASSES.sub(" ", head) if classes
                                                                  else head))) or \
            OPTIONS.search(head) and not classes or foreign and languages.OUTPUT.search(head) or \
            _TEXT_AROUND.search(head):
        found.add(O)
    if INFO.search(head) or foreign and languages.CONDITION.match(head):
        found.add(A)
    if re.match(CLOSING_CONTENT, head, re.I) or foreign and languages.CLOSING_CONTENT.match(head):
        found |= {D, O}
    if O in found and _FORM_AS_TOPIC.search(head):
        found = (found - {O, D}) | {A}  # "Style and length do not affect the score": a rule of judging, not the form
    if O in found and _SCOPE.match(head):
        found = (found - {O}) | {A}  # "Only answer questions about Acme products.": the scope, a rule
    if O in found and not foreign and PROHIBITION.match(head) and not _FORM_WORDS.search(head):
        found = (found - {O}) | {A}  # "Don't explain the mystery yet.", "Do not change the author's style": a rule
    if O in found and _NAMES_UNTRANSLATED.match(head):
        found = (found - {O, D}) | {A}  # "Keep product names (CloudVault, SyncPro) in English.": what not to translate
    if O in found and _NAMED_STORY_START.match(head):
        found = (found - {O}) | {D}
    if _CONDITIONAL_CONVENTION.match(head):
        found = (found - {A, D}) | {O}  # "If the amount is not stated, set estimated_amount to null.": a convention
    if O in found and re.match(r"^\W*(?:why|how come)\b", head, re.I) and QUESTION.search(head):
        found.discard(O)  # 'Why does this return "[object Object]10"?' asks about the material, not for a form
    if not found and _ASKED_PLEASE.match(head):
        found = {D}  # "quick voyage estimate please.", "Sprint 42 summary for stakeholders, please.": asked for
    if foreign and found == {D} and languages.NEGATION.search(" ".join(head.split()[:4])):
        return {A}  # "Nenne keine Preise, die …", "No inventes datos": a prohibition is a rule
    return _resolve(found, head, foreign)


#: A label over what is consulted, however long its note: "Reference (EYFS statutory framework, ratios):".
_REFERENCE_LABEL = re.compile(r"^\W*reference\b[^:\n]{0,80}:\s*$", re.I)
#: A field of the answer left as an ellipsis to fill in: "MEDS: ...", "Subject: …".
_ELLIPSIS_SLOT = re.compile(r"^[\s\-*/]*[^\s:][^:\n]{0,39}:\s*(?:\.\.\.|…)\s*$")
#: Nothing around the answer's data: "Don't add any text before or after the YAML.", "No prose outside the JSON."
_TEXT_AROUND = _rx(r"\b(?:text|prose|commentary|anything|nothing)\s+(?:\w+\s+)?(?:before|after|outside|around)\s+"
                   r"(?:the|your)\s+(?:json|yaml|csv|xml|code|array|object|table)\b")
#: A field whose key opens with a verb, filled in: "Start date: 10/02", "Return time: 5pm", "Check-out date: 3 May".
_VERB_NAMED_FIELD = _rx(r"^\W*(?:[a-z]+(?:[ -][a-z]+)?[ -](?:date|time|day|name|number|no|type|status|location|"
                        r"address|total|amount|price|rate|id|code|reference|level|results?|score|count|mileage|"
                        r"reading)s?|start|finish|rate|score|count)\s*:\s*\S")  # "Start: 9am"
#: A thing asked for by name and "please", no verb: "quick voyage estimate please.", "Six-word stories, please." (not
#: "No hashtags please.", a rule).
_ASKED_PLEASE = _rx(r"^\W*(?!no\b|not\b|without\b)(?:[^\s.?!:;]+\s+){0,4}[^\s.?!:;,]+,?\s+please\W*$")
#: Which records a count or query takes, by a value: "Only count hives whose status is 'active'.", "Only include
#: cities with at least 100 rides.", "Only include reps on the "Enterprise" team." (not "Only include papers you are
#: confident exist", a rule of honesty).
_DATA_FILTER = _rx(r"^\W*only\s+(?:count|include)\s+(?:[\w-]+\s+){1,3}?(?:whose|where|with|from|on|in)\b[^.;]*"
                   r"(?:['\"‘“]|\d|\b(?:true|false)\b)")
#: The end of a line announcing the conditions listed below it: "… when:", "Escalate if ANY of these is true:",
#: "Reject a joke if it:".
CONDITIONS_BELOW = _rx(r"\b(?:when|if|whenever|unless|in these cases|in any of these cases)(?:\s+(?:any|all|one|none|"
                       r"at least \w+)\s+of\s+(?:these|the following)(?:\s+\w+)?\s+(?:is|are)\s+true|"
                       r"\s+(?:it|they|the \w+)(?:\s+(?:is|are|has|have|does|do))?)?\s*:\s*$")
#: The task stated as the model's job: "Your job is to …", "**Your job:** moderate a game of Werewolf".
_YOUR_JOB = _rx(r"^\W*(?:\*\*)?your (?:job|task|role|goal|mission)(?: in [^:]{0,30})?(?:\*\*)?(?: is to\b|:\s*\S)")
#: A sentence the user marks as background: "For context, …", "fyi the courier lost it …", "Some context: …".
FOR_CONTEXT = _rx(r"^\W*(?:for (?:some )?context|some context|fyi|for your information)\b")
#: A sentence that is the request though it also speaks of background: "My first request is …", "I'll paste …",
#: "We need slogans …", "You'll first read …", "I'd like some help …".
_REQUEST_FIRST = _rx(r"^\W*(?:" + MY_FIRST + r"|" + _I_WILL_GIVE + r"|" + _NEED_IDEAS + r")|" + _AND_NEED + "|" +
                     _THEN_ASKS + "|"
                     r"\byou(?:'ll| will)\s+(?:first\s+)?(?:" + _TASK_VERBS + r")\b|" + REQUEST)
#: What the artefact asked for must do, as a whole sentence or a heading ("The script should:").
_ARTEFACT_SPEC_RX = _rx(_ARTEFACT_SPEC)


def _resolve(cues: set[Component], text: str, foreign: bool) -> set[Component]:
    """Settle competing cues within one sentence (``foreign``: it may be in another language, as cues_of found)."""
    if E in cues:
        return {E}
    if R in cues:
        role_and_task = re.match(r"^\W*(?:" + _AS_PERSONA + r"|you are\b[^;.]{0,120};|"
                                 r"(?:please\s+|i want you to\s+)?(?:act as|pretend (?:you're|you are|to be))\b"
                                 r"[^;.]{0,120}?\band)\s*(?:please\s+)?(?:" +
                                 _TASK_VERBS + r"|reply|respond)\b", text, re.I)
        return {R, D} if role_and_task else {R}
    if O in cues:
        if _SETTING_FACT.match(text):
            return {A}  # "The team follows PEP 8 …": a fact about the setting, however much it speaks of style
        return {D, O} if D in cues and (_TASK_FIRST.match(re.sub(r"^\s*\d{1,2}[.)]\s+", "", text)) or
                                        languages.TASK_FIRST.match(text) or
                                        AND_TELLS.search(text) or languages.CLOSING_CONTENT.match(text)) and \
            not _REASON_THEN_ANSWER.search(text) else {O}
    if D in cues and A in cues:
        if _REQUEST_FIRST.search(text):
            return {D}
        if re.search(r",\s*ensuring\s+that\b", text, re.I):
            return {D, A}  # the task, with a constraint on it
        if re.match(r"^\W*it should\b", text, re.I) and _ARTEFACT_SPEC_RX.match(text):
            return {D}  # "It should make the audience almost sympathise with her.": what the piece must do
        return {A} if INFO.match(text) or foreign and languages.CONDITION.match(text) else {D}
    return cues


#: Content asked for in a second clause of a sentence on the form: "… as a table and tell me how many boards to buy",
#: "…, and tell them the deposit will be refunded", "… then explain in plain language …", "Present it as a table, then
#: add a short paragraph I can use …" (not "…, then give your recommendation …", the task's answer placed).
AND_TELLS = _rx(r"\b(?:and|then)\s+(?:also\s+)?(?:tell|explain|suggest|recommend)\s+"
                r"(?:me|us|them|him|her|in|why|how|what|whether|if|which)\b|"
                r",\s*then\s+(?:add|list|write|include)\s+(?:an?\s+|one\s+|two\s+|three\s+|some\s+|any\s+)?"
                r"(?:[\w-]+\s+){0,3}?(?:paragraph|sentences?|recommendation|summary|note|explanation|anything|"
                r"suggestions?|tips|ideas|risks|questions)\b")
#: "When the user gives you …", "When a site manager sends you …", "When I paste …": the arrival of the input,
#: which the task then works on (not "When I type END", a signal, nor "When a rep pastes …", a case).
_INPUT_ARRIVES = _rx(r"^\W*(?:when|once|whenever)\s+(?:(?:users|someone|(?:an?|the)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
                     r"(?:gives?|sends?|pastes?|provides?|shares?|submits?|uploads?|types?)\s+you|(?:i|we)\s+"
                     r"(?:give|send|paste|provide|share|submit|upload)(?:\s+you)?)\b[^,.]{0,80},\s*")
#: A statement about the team or codebase the task happens in.
_SETTING_FACT = _rx(r"^\W*(?:the|our)\s+(?:team|repository|repo|project|codebase|company|service)\s+(?:follows|uses|"
                    r"prefers|requires|is|has)\b")
#: New content asked for to close the answer, which also places it: "Finish with one recommendation for …".
CLOSING_CONTENT = (r"^\W*(?:then\s+)?(?:finish|end|close|conclude)\s+with\s+an?\s+"  # "End with a short P.S. about …",
                    r"(?!(?:[\w-]+\s+){0,2}?(?:line|question|number|sign-?off|signature|verdict)\b)|"  # not a last line
                    r"^\W*(?:then\s+)?(?:(?:(?:finish|end|close|conclude)\s+with|after\s+the\s+\w+,\s*add)\s+"
                    r"(?:an?\s+|the\s+)?(?:[\w–-]+\s+){0,3}?(?:summary|recommendation|rating|call to action|targets|"
                    r"tips|briefing|note|estimate|list of|corrected|revised|fixed)\b|"
                    # placed after the answer's main part: "After the code, explain your changes …", "Under the
                    # table, list any decisions …", "After the lyrics, add two or three sentences explaining …"
                    r"(?:after|below|under|beneath|following) (?:the|your|each|that|this|it|them)\b[^,]{0,40},\s*"
                    r"(?!\w+\s+(?:(?:the|its|their|any)\s+)?(?:\w+\s+)?(?:ids?|sources?|citations?|references?)\b)"
                    r"(?:(?:explain|list|summari[sz]e|suggest|recommend|flag|name|note)\b|(?:add|give|include|write|"
                    r"provide|offer|state|put|append)\s+(?:[\w–-]+\s+){0,5}?(?:summary|recommendation|rating|tips|"
                    r"note|notes|estimate|list|explanation|sentences?|questions?|misconceptions|ideas|options|"
                    r"alternatives|risks|changes|mistakes|steps|paragraph|assessment|verdict|score)\b))")
#: A sentence that opens with a task verb whose object is the task itself, not the answer's form, perhaps after what
#: it works from ("From the safety data sheet extract below, pull out …").
_TASK_FIRST = _rx(_LEAD + r"(?:(?:from|using|based on) (?:the|this|these|my|our)\b[^,.]{0,80},\s*)?"
                  r"(?:(?:please|now|first,?|then)\s+)?(?!(?:write|format|return|reply|respond|answer|use|"
                  r"keep|give|make|add|include|structure|organi[sz]e|sign|end|start|begin|round|cite|output|"
                  r"print|show|provide|produce|present|express|limit|wrap|put|follow|list them|"
                  r"(?:finish|close) (?:by|with))\b)"
                  r"(?:" + _TASK_VERBS + r")\b|^\W*given\b|^\W*(?:please\s+)?put (?:this|these|the following)\b|"
                  + _TLDR + r"|" + _YOU_TAKE_AND + r"|"
                  r"^\W*(?:please\s+)?answer\s+(?:the|this|these|each|every|my)\s+(?:[\w-]+\s+){0,2}"
                  r"(?:questions?|quer(?:y|ies))\b|" + _MAKE_THIS_SOUND + r"|"
                  r"^\W*(?:can|could|would) (?:you|u) (?:please\s+)?(?:write|draft|make|create|compose|explain|"
                  r"summari[sz]e|rewrite|turn)\b|^\W*(?:your|the)\s+(?:task|job)\s+is\s+to\s+(?:" + _TASK_VERBS +
                  r")\b|^\W*(?:check|evaluate|assess|determine|decide)\b.*"
                  r"\b(?:and|then)\s+(?:return|label|mark|classify|output)|"
                  r"^\W*(?:please\s+)?(?:write|create|draft|compose|generate|produce)\s+an?\s+"
                  r"(?!(?:brief|short|single|one|few)\b(?![-‑–]))|"
                  r"^\W*(?:please\s+)?(?:write|draft|compose)\s+an?\s+(?:brief|short)\s+(?:story|poem|essay|article|"
                  r"blog post|post|email|letter|speech|script|song|bio|scene|tale|fable|play)\b|"
                  + CLOSING_CONTENT + r"|"
                  r"^\W*(?:(?:please|can you|could you|pls)\s+)?(?:give|make|show|send)\s+me\s+(?:like\s+)?"
                  r"(?:\d+|an?|the|one|two|three|four|five|six|seven|eight|nine|ten|some)\s+"  # the content asked for
                  r"(?!(?:[\w-]+\s+){0,2}(?:answer|list|checklist|recommendation|version|back)\b)"
                  r"(?![^.]*\b(?:first|then|just|only)\b)|"
                  r"^\W*(?:please\s+)?write\s+(?:the|this|this week's|our|my)\s+"  # "Write the product page copy …"
                  r"(?!(?:answer|response|reply|output|result|names?|reasoning|final|feedback|explanation)\b|"
                  r"\w+\s+as\b)")


#: A task to answer the material that follows: "Reply to this tweet:", "Answer these questions:".
_ANSWER_THIS = _rx(r"^\W*(?:reply|respond|answer)\s+(?:to\s+)?(?:this|these|the following)\s+(?!(?:format|template|"
                   r"structure|way|schema)\b)\w")


def heading_component(text: str) -> Component | None:
    """The component a heading line announces, A for other headings, None if not a heading."""
    if languages.CJK_LABEL.match(text) and not INPUT_LABEL.match(text):
        return heading_topic(text)  # "参考示例：", "出力形式："; a label that names no part is no heading ("王经理您好：")
    if not HEADING.match(text) or INPUT_LABEL.match(text) or _SHOWS_THIS.search(text) or \
            _introduces(text, languages.foreign(text)):  # "Here is the ticket:", "Hier ist ein Ticket:"
        return None
    if len(text.split()) > 4 and DIRECTIVE.match(text) and re.search(r"\b(?:this|these|my|the following|below)\b",
                                                                     text, re.I) or _ANSWER_THIS.match(text):
        return None  # "Help me reply to this email from a client:", "Reply to this tweet:": the task, pointing
    if re.match(r"\s*#{1,6}\s*(?:reference|background|context)\s*[:\-–—]", text, re.I) or _REFERENCE_LABEL.match(text):
        return A  # "# Reference: release requirements": what it names is consulted, whatever its topic
    topic = heading_topic(text.replace("_", " "))
    if topic is not None:
        return topic
    if _ARTEFACT_SPEC_RX.match(text):
        return D  # "The script should:" above the steps it must take
    if re.match(r"\s*#{1,6}\s", text) and REFERENCE.search(text):
        return A  # "## Reference (oral, per dose)" names what is consulted; it orders nothing
    # "Use exactly these sections:", "Return JSON that follows this schema:" is an instruction
    if re.match(r"\s*#{1,6}\s", text) and is_imperative(re.sub(r"^\s*#+\s*", "", text).rstrip(": ")) and \
            cues_of(text) == {D} and not re.search(r"\b(?:when|if|unless)\s*:?\s*$", text, re.I):
        return D  # "## Help the seller with" over the list of what the assistant does
    if re.search(r"\b(?:with|on|for|to|about|by|from|into)\s*:\s*$", text) and D in cues_of(text):
        return None  # "Help customers with:" above its items: a task that ends on a preposition is no heading
    return None if is_imperative(text.rstrip(": ")) or DIRECTIVE.match(text) and O in cues_of(text) else A


def title_component(text: str) -> Component | None:
    """The component a bare title line names by its topic ("Your job", "Procedure", "Style"), None for any other."""
    if not re.fullmatch(r"[A-Z][\w'&/ -]{0,40}", text.strip()) or len(text.split()) > 4:
        return None
    return heading_topic(text) or (A if REFERENCE.search(text) else None)  # "FAQ", "Reference material"


def heading_topic(text: str) -> Component | None:
    """The component a heading's words name ("## Output format" → Output Formatting), None if they name none."""
    return next((comp for pattern, comp in HEADING_TOPICS if pattern.search(text)), None)


def key_value(text: str) -> tuple[str, str] | None:
    m = _KEY.match(text)
    return (m.group(1).strip().lower(), m.group(2).strip()) if m else None
