"""Cues in Chinese and Japanese, which the word patterns of :mod:`.cues` and :mod:`.languages` cannot read (no spaces,
no word boundaries): a persona ("你是一位…老师", "あなたは…担当者です"), a request ("请…", "…してください", "…を求めよ"), a
prohibition ("不要…", "…しないでください"), the answer's form ("用表格", "300文字以内", "箇条書き") and an example label
("例：", "示例：")."""
from __future__ import annotations

import re

from ..types import Component

#: A Chinese or Japanese character (kana or a CJK ideograph).
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

_ROLE = re.compile(r"^\W*(?:你是|您是|作为一[名位个])|^\W*あなたは[^。、]{1,60}(?:です|だ|である)[。]?\s*$")
_REQUEST = re.compile(r"^\W*(?:请|請|帮我|幫我|麻烦|麻煩)|(?:ください|下さい|してほしい|お願いします|教えて|"
                      r"求めよ|答えよ|せよ|しなさい)[。！!]?\s*$|[？?]\s*$")
_PROHIBITION = re.compile(r"不要|请勿|請勿|禁止|不得|不能|只根据|只根據|しないでください|しないこと|のみ")
_FORM = re.compile(r"形式|フォーマット|箇条書き|番号付き|リストで|表で|表形式|文字以内|字以内|以内で|以内に|敬語|口調|"
                   r"日本語で|英語で|有効数字|JSON|用中文|中文回答|英文回答|列表|表格|编号|編號|不超过|不超過|格式|语气|"
                   r"語氣|简洁|簡潔|一行で|markdown|只输出|只輸出|只回复|只回覆|只返回|不要解释|不要解釋|だけを出力|のみを出力|"
                   r"説明は不要", re.I)
_EXAMPLE = re.compile(r"^\W*(?:例|例えば|示例|例子|例如|范例|範例)\s*[:：]")


def written_in_cjk(text: str) -> bool:
    """Whether ``text`` is mostly Chinese or Japanese (not an English sentence quoting "です/ます")."""
    if not CJK.search(text):  # the common case, cheaply
        return False
    return len(CJK.findall(text)) >= len(re.findall(r"[A-Za-z]", text))


def cues(text: str) -> set[Component]:
    """The components a Chinese or Japanese sentence's own wording signals."""
    if _EXAMPLE.match(text):
        return {Component.EXAMPLES}
    if _ROLE.match(text):
        return {Component.ROLE}
    if _FORM.search(text):
        return {Component.OUTPUT_FORMATTING}
    if _PROHIBITION.search(text):
        return {Component.ADDITIONAL_INFORMATION}
    if _REQUEST.search(text):
        return {Component.DIRECTIVE}
    return set()
