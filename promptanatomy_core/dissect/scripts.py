"""Cues in languages the word patterns of :mod:`.cues` and :mod:`.languages` cannot read: Chinese and Japanese (no
spaces, no word boundaries), Korean (a request is a verb ending), Arabic and Hindi. Per script: a persona ("你是一位…老师",
"あなたは…担当者です", "당신은 …입니다", "أنت …", "आप एक … हैं"), a request ("请…", "…してください", "…써 주세요", "لخص …",
"… लिखो"), a prohibition ("不要…", "…하지 마세요", "لا …", "… मत …"), the answer's form ("用表格", "300文字以内", "500자 이내",
"في فقرة واحدة", "200 शब्दों") and an example label ("例：", "예:", "مثال:", "उदाहरण:")."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..types import Component


@dataclass(frozen=True)
class Script:
    """The cue patterns of the languages written in one script."""
    letters: re.Pattern[str]
    role: re.Pattern[str]
    request: re.Pattern[str]
    prohibition: re.Pattern[str]
    form: re.Pattern[str]
    example: re.Pattern[str]


_CJK = Script(
    letters=re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),  # kana or a CJK ideograph
    role=re.compile(r"^\W*(?:你是|您是|作为一[名位个])|^\W*あなたは[^。、]{1,60}(?:です|だ|である)[。]?\s*$"),
    request=re.compile(r"^\W*(?:请|請|帮我|幫我|麻烦|麻煩)|(?:ください|下さい|してほしい|お願いします|教えて|"
                       r"求めよ|答えよ|せよ|しなさい)[。！!]?\s*$|[？?]\s*$"),
    prohibition=re.compile(r"不要|请勿|請勿|禁止|不得|不能|只根据|只根據|しないでください|しないこと|のみ|省いて|^\W*(?:如果|若|遇到)|"
                           r"場合(?:は|に|には)"),
    form=re.compile(r"形式|フォーマット|箇条書き|番号付き|リストで|表で|表形式|文字以内|字以内|以内で|以内に|敬語|口調|"
                    r"日本語で|英語で|有効数字|JSON|用中文|中文回答|英文回答|列表|表格|编号|編號|不超过|不超過|格式|语气|"
                    r"語氣|简洁|簡潔|一行で|markdown|只输出|只輸出|只回复|只回覆|只返回|不要解释|不要解釋|だけを出力|"
                    r"のみを出力|説明は不要|回复要求|回答要求|输出要求|回复格式|称呼", re.I),
    example=re.compile(r"^\W*(?:(?:例|示例|例子|范例|範例)\s*\d+\s*[:：]?\s*$|(?:例|例えば|示例|例子|例如|范例|範例)\s*[:：])"))
_KOREAN = Script(
    letters=re.compile(r"[\uac00-\ud7af]"),  # Hangul syllables
    role=re.compile(r"^\W*(?:당신은|너는|넌)\s[^.?!]{1,80}(?:입니다|이다|야|이야)[.!]?\s*$"),
    request=re.compile(r"^\W*다음은|(?:주세요|줘|주십시오|하세요|하십시오|해라|바랍니다|부탁(?:해|합니다|드립니다)|"
                       r"될까요|있을까요|나요|까요)[.!?]?\s*$|[?？]\s*$"),
    prohibition=re.compile(r"마세요|말아\s?주세요|말\s?것|지\s?마|금지|만\s?사용|하지\s?않"),
    form=re.compile(r"표로|자\s?이내|글자|단어\s?이내|문장\s?이내|문장으로|존댓말|반말|목록|번호를|형식|JSON|"
                    r"마크다운|한국어로|영어로", re.I),
    example=re.compile(r"^\W*(?:예시|예)\s*\d*\s*[:：]|^\W*예시\s*\d+\s*$"))
_ARABIC = Script(
    letters=re.compile(r"[\u0600-\u06ff]"),
    role=re.compile(r"^\W*(?:أنت|انت)\s"),
    request=re.compile(r"^\W*(?:مهمتك|دورك)\s|"
                       r"^\W*(?:من فضلك\s+|رجاء\s+)?(?:لخص|اكتب|ترجم|اشرح|صحح|أجب|اجب|اقترح|حلل|صنف|قارن|استخرج|"
                       r"أعد|اعد|ساعدني|أعطني|اعطني|حدد|اذكر|ضع|رتب|راجع|هل يمكنك)\b|[؟?]\s*$"),
    prohibition=re.compile(r"^\W*(?:لا|تجنب|يمنع|ممنوع|إذا|اذا|لو)\s"),
    form=re.compile(r"فقرة|\d+\s*(?:كلمة|كلمات)|جمل|نقاط|جدول|بالعربية|بالإنجليزية|الفصحى|JSON|قائمة", re.I),
    example=re.compile(r"^\W*(?:مثال|أمثلة)\s*[:：]"))
_HINDI = Script(
    letters=re.compile(r"[\u0900-\u097f]"),  # Devanagari
    role=re.compile(r"^\W*(?:आप|तुम)\s+(?:एक\s+)?[^।.]{1,80}?\s(?:हैं|हो)(?:[\s,।.]|$)|^\W*आपको\s[^।]*\sअनुभव\s"),
    request=re.compile(r"(?:लिखो|लिखिए|लिखें|बताओ|बताइए|बताएं|बताएँ|समझाओ|समझाइए|करो|कीजिए|करें|दो|दीजिए|दें|"
                       r"बनाओ|बनाइए|सुझाओ|सुझाइए)\s*[।.!]?\s*$|[?]\s*$"),
    prohibition=re.compile(r"\bमत\b|\bन\s+करें\b|\bनहीं\s+करना\b|\bकभी\s+न\b|^\W*(?:अगर|यदि)\s"),
    form=re.compile(r"शब्दों|वाक्यों|बिंदुओं|तालिका|सरल\s+हिंदी|औपचारिक|अंग्रेज़ी\s+में|JSON|सूची", re.I),
    example=re.compile(r"^\W*(?:उदाहरण)\s*[:：]"))
_SCRIPTS = (_CJK, _KOREAN, _ARABIC, _HINDI)
#: Any letter of those scripts: the cheap test for the common case, a prompt in a Latin or Cyrillic alphabet.
_ANY = re.compile(r"[\u0600-\u06ff\u0900-\u097f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
#: Arabic's short vowels and shadda, which a writer may add or leave out ("لخّص" is "لخص").
_HARAKAT = re.compile(r"[\u064b-\u0652]")


def script_of(text: str) -> Script | None:
    """The script ``text`` is mostly written in, if one of those above (not an English sentence quoting "です")."""
    if not _ANY.search(text):
        return None
    latin = len(re.findall(r"[A-Za-z]", text))
    return next((s for s in _SCRIPTS if len(s.letters.findall(text)) >= max(latin, 1)), None)


#: Where one sentence of a script ends inside what the splitter keeps as one ("。", "！", "？").
_FULL_STOP = re.compile(r"(?<=[。！？])")


def cues(text: str, script: Script) -> set[Component]:
    """The components a sentence in ``script`` signals by its own wording; several sentences the splitter kept as
    one do both jobs when one asks for a task and another for the form ("请写一条 SQL，…。只输出 SQL，不要解释。"),
    and describe the persona when the first gives it ("あなたは…秘書です。ビジネス敬語に精通しています。")."""
    found = _cues(text, script)
    pieces = [part for part in _FULL_STOP.split(text) if part.strip()]
    if len(pieces) < 2:
        return found  # one sentence: read once
    parts = [_cues(part, script) for part in pieces]
    if parts[0] == {Component.ROLE}:
        return parts[0]
    both = {Component.DIRECTIVE, Component.OUTPUT_FORMATTING}
    return found | both if all(any(c in part for part in parts) for c in both) else found


def _cues(text: str, script: Script) -> set[Component]:
    """The components one sentence in ``script`` signals by its own wording."""
    text = _HARAKAT.sub("", text)
    if script.example.match(text):
        return {Component.EXAMPLES}
    if script.role.match(text):
        return {Component.ROLE}
    if script.form.search(text):
        return {Component.OUTPUT_FORMATTING}
    if script.prohibition.search(text):
        return {Component.ADDITIONAL_INFORMATION}
    if script.request.search(text):
        return {Component.DIRECTIVE}
    return set()
