"""Pasted material the task works on, found by its shape rather than its words: a block between delimiter lines
("---", '\"\"\"', "<<<" … ">>>"), a quotation over several lines, a transcript (speaker turns, some speaker twice),
a JSON literal, log lines, a changelog, code or a diff pasted without a fence, a letter. Its sentences are the task's
input (Directive) whatever they say, so a pasted CV's "Led the migration" is not an instruction."""
from __future__ import annotations

import itertools
import re
from typing import Iterator, Sequence

from .cues import TOOL_SPEC

DELIMITER = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,}|~{3,}|\"\"\"|'''|<<<|>>>)\s*$")
#: A delimiter line that names the block: "--- DRAFT ---", "=== END OF EMAIL ===", "### BEGIN TRANSCRIPT ###".
_NAMED_DELIMITER = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,}|#{3,})\s*[A-Za-z][\w :'&.,-]{0,40}?\s*"
                              r"(?:-{3,}|={3,}|\*{3,}|#{3,})\s*$")
#: A speaker's turn: "Ana (PM): …", "[00:12] Raj: …", "[Mon 19:02] Ali: …", "Visitor: …", a deposition's "14:3  Q. …".
TURN = re.compile(r"^\s*(?:\[(?:\w{3} )?[\d:.]{4,12}\]\s*|\d{1,4}:\d{1,3}\s+)?"
                  r"(?:([A-Z][\w.'-]*(?:\s[A-Z][\w.'-]*){0,2})(?:\s*\([^)]{1,25}\))?:|(Q|A)\.)\s+\S")
#: A line of a log ("2025-04-02T03:14:07Z INFO …", "[12:03:44] ERROR …") or of a changelog ("- feat: …").
_RECORD = re.compile(r"^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[\d{2}:\d{2}:\d{2}\]|(?:INFO|WARN(?:ING)?|ERROR|"
                     r"DEBUG)\b|\d{1,2}/\d{1,2}(?:/\d{2,4})?\s+\S|"  # a dated row: "02/05 cash deposit £950"
                     r"(?:->\s*)?\w[\w ]*?\s+\(cost=\d|(?:Planning|Execution) Time:|"  # a query plan (EXPLAIN)
                     r"(?:[-*]\s+)?(?:feat|fix|chore|docs|refactor|perf|test|build|ci|style)(?:\([^)]*\))?!?:\s|"
                     r"[0-9a-f]{7,40}\s+\S|"  # a commit in a log: "a91f2c3 fix: handle an empty config file"
                     r"(?:npm|yarn|pnpm|pip|cargo|gradle|mvn)\s+(?:ERR!|WARN\b|error\b|warning\b))")
#: A compiler's or runtime's message, unmistakable on its own: "error[E0515]: cannot return …", "error TS18048: …",
#: "warning: this `if` has identical blocks", "Error [ERR_REQUIRE_ESM]: require() …", "fatal: [web-02]: FAILED!".
_DIAGNOSTIC = re.compile(r"^\s*[│|]?\s*(?:(?:error|warning)(?:\[[A-Z]?\d{2,5}\]|\s+[A-Z]{2,4}\d{3,5})?:\s+\S|"
                         r"(?:Error|Warning)\s+\[[A-Z][A-Z_]{2,}\]:\s|fatal:\s+\[)")
_OPEN_JSON = re.compile(r"^\s*[\[{]\s*$")
_CLOSE_JSON = re.compile(r"^\s*[\]}],?\s*$")
#: A JSON string, whose brackets are text: "\"name\": \"{first} {last}\"".
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def material_lines(texts: Sequence[str], has_cues: Sequence[bool]) -> set[int]:
    """Indices of the lines (``texts``: each line's first sentence; ``has_cues``: whether most of its sentences
    carry a cue) that are pasted material."""
    return _delimited(texts, has_cues) | _transcript(texts) | _json_literal(texts) | _records(texts) | \
        _quotation(texts) | _code(texts) | _quoted_reply(texts) | _diff(texts) | _letter(texts) | \
        _shell(texts, has_cues) | _ingredients(texts) | _grid(texts) | _references(texts) | _diagnostics(texts)


def _diagnostics(texts: Sequence[str]) -> set[int]:
    """Each compiler or runtime message, even alone on its line."""
    return {i for i, t in enumerate(texts) if _DIAGNOSTIC.match(t)}


#: A request that points at the text right below it, whatever that text says: "Turn this wiki runbook into …".
_POINTS_AT = re.compile(r"\b(?:this|these|the following|below)\b", re.I)


def _delimited(texts: Sequence[str], has_cues: Sequence[bool]) -> set[int]:
    """Blocks between two delimiter lines whose lines are mostly without cues (a horizontal rule around a section of
    instructions is not material) or that the line above points at; three or more delimiters that title blocks of
    one kind ("--- Proposal 1: The Foundry ---", "--- Proposal 2: … ---", …) hold a block each, the last one up to a
    cue."""
    out: set[int] = set()
    marks = [i for i, t in enumerate(texts) if DELIMITER.match(t) or _NAMED_DELIMITER.match(t)]
    names = {_title_word(texts[i]) for i in marks}
    titles = len(marks) > 2 and len(names) == 1 and None not in names  # "Proposal 1: …", … "Proposal 3: …"
    if titles:
        last = marks[-1] + 1
        while last < len(texts) and not has_cues[last]:
            last += 1
        blocks = list(zip(marks, [*marks[1:], last]))
    else:
        blocks = list(zip(marks[::2], marks[1::2]))
    for a, b in blocks:
        inner = range(a + 1, b)
        named = bool(_NAMED_DELIMITER.match(texts[a]))  # "--- DRAFT ---" says what it holds: dialogue may ask
        pointed = a > 0 and bool(_POINTS_AT.search(texts[a - 1]))  # "Turn this wiki runbook into a checklist …"
        if inner and (pointed or sum(has_cues[i] for i in inner) * (2 if named else 3) <= len(inner)):
            out.update(range(a, b if titles else b + 1))  # a title's block ends where the next one starts
    return out


def _title_word(text: str) -> str | None:
    """The first word of the name a delimiter line gives its block ("--- Proposal 2: Aurora ---" → "proposal"); None
    for an unnamed delimiter and for one that ends a block ("=== END OF EMAIL ===")."""
    named = _NAMED_DELIMITER.match(text)
    word = re.search(r"[A-Za-z]+", text).group().lower() if named else None
    return None if word == "end" else word


def runs(flags: Sequence[bool]) -> Iterator[list[int]]:
    """The runs of consecutive indices whose flag is set: ``[F, T, T, F, T]`` → ``[1, 2]``, ``[4]``."""
    run: list[int] = []
    for i, flag in enumerate([*flags, False]):
        if flag:
            run.append(i)
        elif run:
            yield run
            run = []


#: A stamped turn of a chat log, whose speakers may be typed in lower case: "[10:05] marco: I'll join."
_STAMPED_TURN = re.compile(r"^\s*\[(?:\w{3} )?[\d:.]{4,12}\]\s*([a-z][\w.'-]*)(?:\s*\([^)]{1,25}\))?:\s+\S|"
                           # a chat export's line: "[Léa, 10:02] on part sur …"
                           r"^\s*\[([^\W\d][\w.'-]*(?:\s[^\W\d][\w.'-]*)?),?\s+\d{1,2}:\d{2}(?::\d{2})?"
                           r"(?:\s*[AP]M)?\]\s*\S")


#: A turn of a text thread pasted by one of its people, who are named by who they are to the user: "me: …", "him: …".
_PERSON_TURN = re.compile(r"^\s*(me|him|her|them|mum|mom|dad|boss|bf|gf|husband|wife|partner|roommate|flatmate|"
                          r"landlord|sister|brother|friend|coworker|colleague)\s*:\s+\S", re.I)


def _transcript(texts: Sequence[str]) -> set[int]:
    """Runs of at least three speaker turns in which some speaker speaks twice; a "System:" turn is the prompt's own
    instructions, not part of the exchange."""
    turns = [None if re.match(r"\s*system\s*:", t, re.I) else TURN.match(t) or _STAMPED_TURN.match(t) or
             _PERSON_TURN.match(t) for t in texts]
    out: set[int] = set()
    for run in runs([m is not None for m in turns]):
        speakers = [next(filter(None, turns[i].groups())) for i in run]  # a name, "Q" or "A"
        if len(run) >= 3 and len(set(speakers)) < len(speakers):
            out.update(run)
    return out


#: The cells of a row pasted without a markdown table's outer bars are split by " | " ("1 | 1.62 | 0.41", empty cells
#: too), by tabs ("0.112\t12.41"), or, in a CSV row, by commas with no space after them ("2024-03-04,AWS EMEA,-312.19").
_CSV_BREAK = re.compile(r",(?! )")
#: A line of figures aligned by spaces: a label, two or more spaces, an amount ("Cost of sales     (191,640)").
_FIGURE_ROW = re.compile(r"\s*\S.*?\S {2,}[$€£]?\s*\(?-?\d[\d,.]*\)?%?\s*")
#: The gap between two cells of a row aligned with spaces: "12  any             10.1.5.20".
_SPACED_CELLS = re.compile(r"\S {2,}(?=\S)")
#: A quoted CSV cell, whose commas and spaces are the cell's text.
_QUOTED_CELL = re.compile(r'"[^"\n]*"')


def _cell_breaks(text: str) -> int:
    """How many cell breaks a pasted row has; 0 for a line that is no such row (a markdown table row is read
    elsewhere)."""
    if text.lstrip().startswith("|"):
        return 0
    if " | " in text:
        return text.count("|")
    if "  " in text.strip() and (_FIGURE_ROW.fullmatch(text) or len(_SPACED_CELLS.findall(text.strip())) >= 3):
        return 1  # "Gross profit     92,473", "12  any   10.1.5.20    HTTPS": columns aligned with spaces
    row = _QUOTED_CELL.sub('""', text.strip())  # '5,2024-05-03,"great quality, fast shipping"': three cells
    commas = len(_CSV_BREAK.findall(row))
    if commas == 1 and not re.search(r"\s", row):
        return 1  # "2025-05-01,412": a two-column row has no space at all
    semicolons = row.count(";")
    if semicolons >= 2 and not re.search(r"; \S", row):
        return semicolons  # "1001;Müller GmbH;80331;12.450,00": a European CSV row
    cells = row.split(", ")  # "Mon 3 Jun, 09:00, -16, KT": short cells with figures, comma and space apart
    if len(cells) >= 4 and re.search(r"\d", row) and not row.endswith(".") and \
            all(len(cell.split()) <= 3 for cell in cells):
        return len(cells) - 1
    return text.count("\t") or (commas if commas >= 2 and ", " not in row else 0)


def _grid(texts: Sequence[str]) -> set[int]:
    """Runs of at least three rows with the same number of cells (tab- or bar-separated, or at least three
    comma-separated cells)."""
    cells = [_cell_breaks(t) for t in texts]
    out: set[int] = set()
    for run in runs([n > 0 for n in cells]):
        for _, group in itertools.groupby(run, key=lambda i: cells[i]):
            rows = list(group)
            if len(rows) >= 3:
                out.update(rows)
    return out


def _json_literal(texts: Sequence[str]) -> set[int]:
    """From a line that only opens a JSON object or array to the line that only closes it, unless it lists function
    specs (tools the model may call: background, not material)."""
    return {i for block in _json_blocks(texts) if not _function_spec(texts, block) for i in block}


def _function_spec(texts: Sequence[str], block: range) -> bool:
    """Whether a JSON block specifies functions the model may call, on one line each or spread over several."""
    return bool(TOOL_SPEC.search(" ".join(texts[j].strip() for j in block)))


def _json_blocks(texts: Sequence[str]) -> Iterator[range]:
    """The JSON literals laid out over lines: from a line that only opens one to the closing line that balances it
    ("]," inside closes a nested list, not the literal)."""
    start: int | None = None
    depth = 0
    for i, t in enumerate(texts):
        if start is None and _OPEN_JSON.match(t):
            start, depth = i, 1
        elif start is not None:
            bare = _JSON_STRING.sub('""', t)
            depth += bare.count("{") + bare.count("[") - bare.count("}") - bare.count("]")
            if _CLOSE_JSON.match(t) and depth <= 0:
                yield range(start, i + 1)
                start = None


#: The types a schema sketch gives its fields, in JSON and in YAML.
_TYPE_NAMES = r"string|number|integer|int|float|boolean|bool|array|object|date|datetime"
#: A field of a JSON schema sketch: a key whose value is a type ("invoice_number": string, "due": "YYYY-MM-DD" | null)
#: or a slot the model fills (guidance's "name": "{{gen 'name'}}").
_TYPED_FIELD = re.compile(r"\"[\w ]+\"\s*:\s*(?:\[?\s*\"?(?:" + _TYPE_NAMES + r"|null|YYYY-MM-DD)\b|\[?\{\s*$|\[\s*$|"
                          r"\"?\{\{~?\s*(?:gen|select)\b|"
                          r"\"[^\"]*\"\s*\|\s*\"|"  # a list of a type ("[string]"), a choice ("green" | "amber")
                          r"\"\"\s*(?:[,}\]]|$))")  # a field left empty to fill in: '"mood": "",'


#: A JSON literal on one line, and a key in it.
_ONE_LINE_JSON = re.compile(r"^\s*[\[{].*[\]}],?\s*$")
_JSON_KEY = re.compile(r"\"[\w ]+\"\s*:")


def json_schema_lines(texts: Sequence[str], last_texts: Sequence[str]) -> set[int]:
    """The JSON literals that sketch the answer's shape (most fields typed, not filled in): Output Formatting, not
    material (``texts``: each line's first sentence, ``last_texts``: its last)."""
    out: set[int] = set()
    for block in _json_blocks(texts):
        inner = [texts[i] for i in block[1:-1] if not _CLOSE_JSON.match(texts[i])]
        if inner and sum(bool(_TYPED_FIELD.search(t)) for t in inner) * 2 >= len(inner) and \
                not _function_spec(texts, block):  # function specs: see _json_literal
            out.update(block)
    for i, t in enumerate(texts):  # a schema on one line: '{"athlete_id": string, "sleep_hours": number, …}'
        if _ONE_LINE_JSON.match(t) and len(_TYPED_FIELD.findall(t)) * 2 >= max(2, len(_JSON_KEY.findall(t))) and \
                not _function_spec(texts, range(i, i + 1)):
            out.add(i)
    return out | _yaml_schema(texts, last_texts)


#: A YAML field typed rather than filled in: "- name: string", "trigger: one of [balance_below, …]", "rules:".
_YAML_FIELD = re.compile(r"^\s*(?:-\s+)?[a-z_][\w-]*:\s*(?:$|(?:" + _TYPE_NAMES + r"|list|one of)\b)", re.I)
#: A YAML line of any value: "account: string or \"any\"", "threshold: 200".
_YAML_LINE = re.compile(r"^\s*(?:-\s+)?[a-z_][\w-]*:(?:\s|$)")


def _yaml_schema(texts: Sequence[str], last_texts: Sequence[str]) -> set[int]:
    """A run of four or more YAML fields under a label naming a schema ("Schema:", "Use this YAML shape:", "The API
    expects YAML with these fields:" after the task on its line), most of them typed: the answer's shape."""
    out: set[int] = set()
    i = 1
    while i < len(texts):
        end = i
        while end < len(texts) and _YAML_LINE.match(texts[end]):
            end += 1
        typed = sum(bool(_YAML_FIELD.match(t)) for t in texts[i:end])
        named = re.search(r"\b(?:schema|shape|format|structure|(?P<fields>fields|keys))\b[^:]{0,20}:\s*$",
                          last_texts[i - 1], re.I)
        if end - i >= 4 and typed * 3 >= (end - i) * 2 and named:  # a label naming the fields may hold the task too
            out.update(range(i if named["fields"] or texts[i - 1] != last_texts[i - 1] else i - 1, end))
        i = max(end, i + 1)
    return out


#: A line that opens a quotation it does not close: '"12.1 Neither party …', 'Mensaje: «Hola chicas!!'.
_QUOTES = {"\"": "\"", "“": "”", "„": "“", "«": "»"}  # opening mark: its closing mark
#: The marks that open a quotation, as a character class.
OPENING_QUOTE = "[" + "".join(_QUOTES) + "]"
_RATING = r"(?:[★☆⭐]{1,5}\s*)?"  # stars before a quoted review: '★☆☆☆☆ "Late again …"'
_OPENS_QUOTE = re.compile(r"^\s*(?:[A-Z][\w ]{0,20}:\s*|" + _RATING + ")" + OPENING_QUOTE)


def _quotation(texts: Sequence[str]) -> set[int]:
    """A quotation over several lines (a pasted letter, clause or message in quotation marks), from the line that
    opens it to the line that closes it, at most 40 lines; or a long line that is a quotation from end to end."""
    out: set[int] = set()
    i = 0
    while i < len(texts):
        m = _OPENS_QUOTE.match(texts[i])
        if m:
            opening = m.group(0)[-1]
            closing = _QUOTES[opening]
            rest = texts[i][m.end():]
            if closing not in rest:
                end = next((j for j in range(i + 1, min(len(texts), i + 40)) if closing in texts[j]), None)
                if end is not None:
                    out.update(range(i, end + 1))
                    i = end
            elif re.match(_RATING + re.escape(opening), texts[i]) and len(texts[i].strip()) > 60 and \
                    texts[i].rstrip().endswith(closing):
                out.add(i)  # a whole paragraph pasted on one line in quotation marks: '"4.7 The Tenant shall …"'
        i += 1
    return out


#: A line of code pasted without a fence: a definition or statement, or (weaker) a line ending in ";" or "{", a
#: closing brace, an indented body line.
_CODE = re.compile(r"^\s*(?:def |class |async def |import \w|from [\w.]+ import |function \w|const \w|let \w|var \w|"
                   r"\$\w+\s*(?:=|\.=|\[)|<\?php|\?>\s*$|echo\s|foreach\s*\(|raise\s+\w+|\"[\w.-]+\"\s*=\s*\"|"
                   r"[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_]\w*)*\s*=\s*[\w.]+\(|[a-z_]\w*(?:\.[a-z_]\w*)+\(|"
                   r"public |private |#include|return\b[^.]*$|(?:if|for|while|elif|with)\b.*:$|else:|try:|"
                   r"except\b.*:$|(?:FROM|RUN|CMD|COPY|ADD|WORKDIR|ENV|EXPOSE|ENTRYPOINT|ARG|HEALTHCHECK)\s+\S|"
                   r"(?:Private |Public )?(?:Sub|Function) \w+\(|Dim \w+ As |End (?:Sub|Function|If|With)\b|"  # VBA
                   r"For \w+ = .+ To |Next \w*\s*$|[A-Z][A-Z0-9]*_[A-Z0-9_]+=\S|"  # and a .env's "MAIL_HOST=smtp…"
                   r"@[\w.]+\(|[a-z][\w-]*(?:\.[\w-]+)+\s*=\s*\S+\s*$)")  # a decorator, "spark.executor.cores=5"
#: A line of code only among others: a statement's end, a closing brace, an indented line, a file's name above it.
_CODE_WEAK = re.compile(r"[;{]\s*$|^\s*}\s*$|^(?: {4}|\t)\s*\S|"
                        r"^\s*[\w.-]*\.(?:env|ya?ml|json|toml|ini|cfg|conf|py|js|ts|sh|bas)\s*:?\s*$")


def _code(texts: Sequence[str]) -> set[int]:
    """Runs of at least two lines of code with a definition or statement among them (an unfenced snippet)."""
    code = [bool(_CODE.search(t) or _CODE_WEAK.search(t)) for t in texts]
    return {i for run in runs(code) if len(run) >= 2 and not texts[run[0]].startswith((" ", "\t")) and
            any(_CODE.search(texts[j]) for j in run) for i in run}


#: The header of a unified diff or of one of its hunks: "diff --git a/x b/x", "@@ -41,7 +41,9 @@".
_DIFF_HEAD = re.compile(r"^\s*(?:diff --git |@@ -\d+(?:,\d+)? \+\d+)")
#: A line of a diff: added, removed or context lines, hunk and file headers (a bullet of prose ends it).
_DIFF_LINE = re.compile(r"^(?![-*] [A-Z][a-z])(?:[+\- ]|@@ |diff |index |--- |\+\+\+ |\\ No newline)")


def _diff(texts: Sequence[str]) -> set[int]:
    """A unified diff pasted without a fence, from its first header to its last diff or code line."""
    out: set[int] = set()
    for i, t in enumerate(texts):
        if _DIFF_HEAD.match(t) and i not in out:  # a hunk header inside a diff already taken belongs to it
            j = i
            while j < len(texts) and (j == i or _DIFF_LINE.match(texts[j]) or _CODE.search(texts[j]) or
                                      _CODE_WEAK.search(texts[j]) or _DIFF_HEAD.match(texts[j])):
                out.add(j)
                j += 1
    return out


#: The greeting that opens a letter or an email: "Hi Mark,", "Dear Ms Patel,", "Gentile Studio Rossi,".
_SALUTATION = re.compile(r"^\s*(?i:hi|hello|hey|dear|good (?:morning|afternoon|evening|day)|bonjour|bonsoir|madame|"
                         r"monsieur|guten (?:tag|morgen|abend)|moin|servus|buongiorno|buonasera|buenos días|"
                         r"buenas tardes|bom dia|boa tarde|goedendag|goedemorgen|"
                         r"to whom it may concern|to whoever|"
                         r"hallo|liebe|lieber|sehr geehrte[rs]?|hola|estimad[oa]s?|querid[oa]s?|ciao|gentile|"
                         r"egregi[oa]|caro|cara|olá|prezad[oa]s?|beste|geachte)\b"
                         r"(?:[^.!?{}\n]|(?<=\b(?:Dr|Mr|Ms|Sr|St))\.|(?<=\b(?:Mrs|Sra|Dra))\.|(?<=\bProf)\.){0,50},\s*$")
#: The close of a letter: a sign-off ("Best,", "Kind regards") or the sender's name on its own ("Elena").
_SIGN_OFF = re.compile(r"^\s*(?:(?i:best|kind regards|regards|thanks|thank you|many thanks|cheers|sincerely|"
                       r"yours sincerely|best wishes|warm regards|cordialement|bien à vous|mit freundlichen grüßen|"
                       r"viele grüße|liebe grüße|grüße|gruß|saludos|un saludo|un abrazo|atentamente|cordiali saluti|"
                       r"distinti saluti|un saluto|atenciosamente|abraços|met vriendelijke groet|groetjes|hoogachtend|"
                       r"bises|bien cordialement)\b(?:[^.!?]|(?<=\b[A-Z])\.){0,30}|"  # "Gruß, J. Albers"
                       r"[A-Z][\w'-]+(?: [A-Z][\w'-]+){0,2}(?: \([^()]{1,40}\))?)\s*$")  # "Ann Roe (account 4001)"


def _letter(texts: Sequence[str]) -> set[int]:
    """A letter or an email pasted as it is: from its greeting to its sign-off and the name under it."""
    out: set[int] = set()
    for i, t in enumerate(texts):
        if not _SALUTATION.match(t) or i in out:
            continue
        end = next((j for j in range(i + 1, min(i + 40, len(texts))) if _SIGN_OFF.match(texts[j])), None)
        if end is not None:
            name_below = end + 1 < len(texts) and re.fullmatch(r"\s*[A-Z][\w'-]+(?: [A-Z][\w'.-]+){0,2}\s*",
                                                               texts[end + 1])
            out.update(range(i, end + 2 if name_below else end + 1))
    return out


def _quoted_reply(texts: Sequence[str]) -> set[int]:
    """Runs of at least two lines quoted with ">" (a pasted email or issue), with the lines that continue them."""
    quoted = [t.lstrip().startswith(">") for t in texts]
    out = {i for run in runs(quoted) if len(run) >= 2 for i in run}
    for i in sorted(out):  # "> We reviewed the mockups … disappointed." + "The homepage feels cluttered …"
        j = i + 1
        while j < len(texts) and j not in out and j + 1 < len(texts) and quoted[j + 1] and texts[j].strip():
            out.add(j)
            j += 1
    return out


def _records(texts: Sequence[str]) -> set[int]:
    """Runs of at least two log or changelog lines."""
    return {i for run in runs([bool(_RECORD.match(t)) for t in texts]) if len(run) >= 2 for i in run}


#: A command typed at a shell prompt ("$ kubectl get pods -n prod"), and what a program prints: columns, errors.
_COMMAND = re.compile(r"^\s*\$ \S")
_PRINTED = re.compile(r"\S {2,}\S|^\s*(?:[\w.]*(?:Error|Exception|Warning)\b|Traceback\b|fatal:|error:)")


def _shell(texts: Sequence[str], has_cues: Sequence[bool]) -> set[int]:
    """A shell session: each command line with what it printed below it (lines without cues, or shaped as output)."""
    out: set[int] = set()
    for i, t in enumerate(texts):
        if _COMMAND.match(t):
            out.add(i)
            j = i + 1
            while j < len(texts) and not _COMMAND.match(texts[j]) and (not has_cues[j] or _PRINTED.search(texts[j])):
                out.add(j)
                j += 1
    return out


#: A quantity with its unit at the start of a line: "- 2 cups flour", "200 g de lardons", "1/2 tsp salt".
_QUANTITY = re.compile(r"^\s*(?:[-*•]\s*)?(?:\d+(?:[.,/]\d+)?|½|¼|¾)\s*(?:g|kg|mg|ml|cl|dl|l|oz|lbs?|cups?|tbsp|tsp|"
                       r"tablespoons?|teaspoons?|pinch(?:es)?|cloves?|cans?|tins?|slices?|eggs?|œufs?|huevos?|eier)\b",
                       re.I)


def _ingredients(texts: Sequence[str]) -> set[int]:
    """A list of ingredients or quantities pasted to work on: a run of list lines (or of lines) at least three of
    which start with a quantity and its unit."""
    quantity = [bool(_QUANTITY.match(t)) for t in texts]
    listed = [q or bool(re.match(r"\s*[-*•]\s", t)) for q, t in zip(quantity, texts)]
    return {i for run in runs(listed) if sum(quantity[j] for j in run) >= 3 for i in run}


#: A bibliographic reference: "Hattie, J., & Timperley, H. (2007).", "Bandura A. (1977), …", "…, 77(1), 81–112.".
_REFERENCE_ENTRY = re.compile(r"^\W*[A-Z][\w'’-]+,?\s+(?:[A-Z]\.\s?){1,3}(?:[,&(]|and\b)|\(\d{4}[a-z]?\)[.,]|"
                              r", \d+\(\d+\),? (?:pp?\. ?)?\d+[–-]\d+|\bdoi\.org/|\bpp\. ?\d+[–-]\d+")


def _references(texts: Sequence[str]) -> set[int]:
    """A reference list pasted as it is: at least two entries in a row (author and initials, a year in brackets,
    volume(issue), pages or a DOI)."""
    entries = [len(t) < 400 and bool(_REFERENCE_ENTRY.search(t)) for t in texts]  # an entry is short
    return {i for run in runs(entries) if len(run) >= 2 for i in run}
