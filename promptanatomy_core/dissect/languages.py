"""Cues in French, German, Spanish, Portuguese, Italian and Dutch, and (fewer) in Swedish, Danish, Norwegian,
Polish, Indonesian, Turkish, Russian and Vietnamese: the task verbs in the imperative (familiar and formal), requests,
statements of the task, and the words that speak of the answer's form. :mod:`.cues` reads them
beside the English ones; Role openers in these languages live with the English persona phrasing.
"""
from __future__ import annotations

import re

from .patterns import Folded

#: Function words English does not use: with an accented letter, the cheap test run before the patterns below.
_FOREIGN_WORDS = frozenset("""
le la les des une un est pour avec dans sur der die das und ist mit nicht ein eine einen bitte du los las una para
con por que del en il gli della che não uma com dos tu vous sie ich je yo io eu pas mots wörter palabras parole solo
sin sans ohne senza nur auf italiano español français deutsch
het een niet je jij jouw uw deze dit wat hoe waarom graag alsjeblieft alstublieft hieronder woorden zinnen nederlands
naar voor zijn wordt worden taal gebruik maak
questo questa questi queste nel nella sono esta este estos estas cette ces dieser diese dieses
pero al lo muy mais aux très sont ou auch oder aber
segue texto testo ecco aqui voici anbei abajo
alle alla allo agli dei degli delle nei nelle sulla dalla dalle ao aos pelo pela el au
och att är inte jag ikke jeg eller
yang untuk dengan saya aku tolong bisa bagaimana tidak kamu anda di ini itu dari juga
için nasıl ve bir bu ile gibi olarak
nie jest dla oraz tylko maksymalnie zdania osoba de als
""".split())
#: A letter of another alphabet or with a diacritic: Latin-1, Latin Extended-A (ł, ś, ş, ğ, ı), Cyrillic.
_ACCENT = re.compile(r"[À-ÖØ-öø-ÿĀ-žЀ-ӿ]")
_WORD = re.compile(r"[a-z]+")


def foreign(text: str) -> bool:
    """Whether ``text`` may be French, German, Spanish, Portuguese, Italian or Dutch (worth trying the patterns)."""
    return bool(_ACCENT.search(text)) or not _FOREIGN_WORDS.isdisjoint(_WORD.findall(text.lower()))


_LEAD = r"^[\s>*\-•#\d.)(¿¡\"«„“]*(?:(?:bitte|por favor|s'il (?:te|vous) plaît|per favore|und|et|y|e|dann|puis|luego|" \
        r"poi|ensuite|außerdem|también|aussi|anche|graag|alsjeblieft|alstublieft|daarna|ook|al final|por último|" \
        r"finalmente|à la fin|enfin|pour finir|am ende|zum schluss|zuletzt|alla fine|infine|no final|por fim|" \
        r"(?:per ogni|para cada|pour chaque|für jede[nrs]?|voor elke?|dla każdego|dla każdej)\s+\w+)[,\s]+)*"

#: Task verbs in the imperative, familiar and formal (a German formal imperative, "<verb>en Sie", is matched apart).
_IMPERATIVES = (
    # French
    "rédige rédigez écris écrivez corrige corrigez traduis traduisez résume résumez explique expliquez donne donnez "
    "fais faites propose proposez analyse analysez liste listez classe classez réponds répondez aide aidez crée créez "
    "génère générez identifie identifiez vérifie vérifiez compare comparez décris décrivez reformule reformulez "
    "calcule calculez trouve trouvez indique indiquez choisis choisissez évalue évaluez transforme transformez "
    "prépare préparez complète complétez suggère suggérez relis relisez inclus incluez mentionne mentionnez "
    "extrais extrayez organise organisez planifie planifiez demande demandez demande-lui demandez-lui remercie "
    "remerciez reconnais reconnaissez attribue attribuez justifie justifiez souligne soulignez regroupe regroupez "
    "ajoute ajoutez supprime supprimez réécris réécrivez "
    # German
    "schreib schreibe übersetze übersetz fasse fass erkläre erklär erstelle korrigiere gib hilf beantworte analysiere "
    "formuliere prüfe überprüfe nenne beschreibe vergleiche berechne finde bewerte ordne klassifiziere zeig zeige mach "
    "mache entwirf verfasse liste erwähne extrahiere organisiere plane frage sortiere bedanke entferne ergänze "
    "bereinige markiere begründe gruppiere ermittle identifiziere kürze überarbeite zähle schlage hebe betone "
    # Spanish
    "escribe escriba traduce traduzca resume resuma explica explique corrige corrija dame deme ayúdame ayúdeme "
    "redacta redacte haz haga genera genere analiza analice clasifica clasifique responde responda crea cree "
    "identifica identifique revisa revise compara compare describe describa calcula calcule encuentra encuentre "
    "indica indique elige elija evalúa evalúe prepara prepare completa complete sugiere sugiera enumera enumere "
    "incluye incluya menciona mencione extrae extraiga organiza organice planifica planifique ordena ordene pide "
    "pídele agradece agradezca destaca agrupa agrupe señala señale resalta resalte justifica justifique elimina "
    "añade añada reescribe reescriba "
    # Portuguese
    "escreva traduza resuma corrija redija faça gere analise classifique crie descreva calcule encontre escolha "
    "avalie sugira liste escreve traduz faz ajude-me ajuda-me ajude inclua mencione extraia organize planeje destaque "
    "peça pergunte "
    "explique agrupe aponte identifique elabore monte ordene revise reescreva reescreve "
    # Italian
    "scrivi traduci riassumi spiega correggi dammi aiutami redigi fai analizza rispondi identifica rivedi confronta "
    "descrivi calcola trova scegli valuta suggerisci elenca scriva traduca riassuma spieghi corregga includi menziona "
    "estrai organizza pianifica prepara crea genera chiedi chiedigli inizia ringrazia ordina aggiungi aggiunga riscrivi "
    # with the pronoun attached ("Hazme una simulación …", "Fammi un riassunto …", "Explique-moi …")
    "hazme escríbeme explícame explícamelo dime cuéntame mándame pásame corrígeme tradúceme fammi scrivimi spiegami "
    "dimmi correggimi traducimi suggeriscimi consigliami preparami trovami riscrivimi sugiéreme recomiéndame "
    "fais-moi écris-moi explique-moi dis-moi donne-moi aide-moi propose-moi "
    # Dutch
    "schrijf herschrijf vertaal vat maak geef leg help beantwoord analyseer corrigeer controleer vergelijk beschrijf "
    "bereken noem zoek kies beoordeel stel formuleer verbeter noteer vermeld sluit classificeer categoriseer sorteer "
    "orden markeer "
    # Swedish, Danish, Norwegian
    "skriv sammanfatta översätt förklara ge gör skapa lista beskriv jämför föreslå hjälp rätta korrigera analysera "
    "klassificera svara formulera beräkna räkna hitta välj planera granska läs kontrollera "
    "oppsummer opsummer oversett oversæt forklar gi giv lag lav sammenlign hjelp hjælp rett ret analyser beregn finn "
    "find velg vælg planlegg planlæg "
    # Polish
    "napisz podsumuj streść przetłumacz wyjaśnij daj zrób stwórz utwórz wymień opisz porównaj zaproponuj pomóż popraw "
    "przeanalizuj sklasyfikuj odpowiedz sformułuj oblicz znajdź wybierz zaplanuj przeczytaj sprawdź przeredaguj "
    "zredaguj dodaj wypisz przygotuj podziel wytłumacz przepisz ułóż wyodrębnij policz skróć oceń zaznacz "
    # Vietnamese
    "viết tóm tắt dịch giải thích liệt kê gợi ý sửa "
    # Indonesian
    "tulis tuliskan buat buatkan bikin bikinin ringkas ringkaskan rangkum terjemahkan jelaskan berikan kasih bantu "
    "bantuin perbaiki analisis klasifikasikan jawab hitung cari pilih rencanakan baca periksa cek susun tanyakan "
    "sebutkan tambahkan kelompokkan "
    # Turkish
    "yaz özetle çevir açıkla ver yap oluştur listele tanımla karşılaştır öner düzelt sınıflandır cevapla yanıtla "
    "hesapla bul seç planla oku hazırla "
    # Russian
    "напиши напишите перескажи переведи переведите объясни объясните дай дайте сделай сделайте создай создайте "
    "составь составьте перечисли опиши сравни предложи помоги помогите исправь исправьте проанализируй "
    "классифицируй ответь ответьте посчитай рассчитай найди выбери спланируй прочитай проверь подготовь "
    "отсортируй отсортируйте выведи выведите сгруппируй укажи укажите выдели перепиши сократи оцени приведи отвечай "
    "извлеки извлеките "
    "ссылайся "
    # more, each language in turn: French, German, Spanish, Portuguese, Italian, Dutch
    "lis lisez citez simplifie simplifiez améliore améliorez adaptez sépare séparez commencez mets mettez "
    "entschuldige biete setze füge lies stelle bringe sammle wandle übernimm "
    "lee lea pon ponga ofrece ofrezca ofrécele recomienda recomiende propón proponga convierte convierta "
    "quita quite agrega agregue mejora mejore adapta simplifica simplifique empieza empiece escríbelo hazlo dímelo "
    "cria sugere lê põe adiciona acrescenta transforma converte melhora mostra mostre reescreve inclui "
    "leggi metti inserisci raggruppa suddividi trasforma converti semplifica migliora proponi consiglia rendi "
    "zet lees voeg zorg eindig "
    # to think of, weigh, collect or check something: "Considera anche il tempo …", "Bedenk drie korte koppen …"
    "imagine imaginez invente inventez considère considérez überlege überleg considera inventa imagina piensa "
    "comprueba verifica raccogli illustra evidenzia controlla elabora immagina bedenk verzin"
).split()

#: Imperatives that ask for the reply's form rather than a task ("Réponds uniquement …", "Dame la lista …").
_FORM_VERBS = frozenset("réponds répondez responde responda rispondi dame deme dammi gib donne donnez geef sluit "
                        "termine terminez termina beende отвечай отвечайте".split())
#: "Write in …" opens the form, not the task: "Schreibe in der Du-Form …", "Escribe en un tono cercano".
_WRITE_IN = (r"(?!(?:schreib|schreibe|écris|écrivez|escribe|escriba|escreva|scrivi|schrijf)\s+"
             r"(?:in|en|em|con|mit|met)\s)")


def _verbs(words: set[str] | list[str]) -> str:
    """An alternation of ``words``, longest first ("écrivez" before "écris"), ending where the word ends."""
    return r"(?:" + "|".join(sorted(set(words), key=len, reverse=True)) + r")(?=[\s,:])"


#: A sentence that opens with a task verb: with a form cue it does both jobs ("Schreibe … mit etwa 80 Wörtern").
TASK_FIRST = re.compile(_LEAD + _WRITE_IN + r"(?:" + _verbs(set(_IMPERATIVES) - _FORM_VERBS) +
                        r"|(?:réponds|répondez|responde|"
                        r"responda|rispondi|antworte)\s+(?:aux|a las|a los|às|aos|alle|ai|auf)\s+(?:\w+\s+)?(?:questions|"
                        r"demandes|preguntas|consultas|perguntas|dúvidas|domande|richieste|fragen|anfragen)\b)", re.I)

DIRECTIVE = re.compile(
    _LEAD + r"(?:(?:à partir d[eu']s?|en te basant sur|anhand|basándote en|a partir d[eo]s?|in base a|untuk|para|"
    r"pour|per|um|om)[^,.]{0,80},\s*)?"
    + _verbs(_IMPERATIVES) + r"(?!\s+(?:que|dass|che)\b)|"
    r"^\W*(?:bitte\s+)?[A-ZÄÖÜ][a-zäöüß]+en Sie\b|"  # "Schreiben Sie …", "Übersetzen Sie …"
    r"\b(?:peux-tu|pouvez-vous|pourrais-tu|pourriez-vous|j'ai besoin d|je voudrais|je veux|j'aimerais|aide-moi|"
    r"aidez-moi|kannst du|können sie|könntest du|könnten sie|ich brauche|ich hätte gern|ich möchte|hilf mir|"
    r"puedes|podrías|podría usted|necesito|me ayudas|ayúdame|me gustaría|quisiera|"
    r"você pode|podes|poderia|preciso|me ajuda|gostaria|"
    r"puoi|potresti|ho bisogno|vorrei|mi aiuti|mi (?:correggi|traduci|scrivi|spieghi|fai|riassumi)|"
    r"me (?:passa|diz|explica|ajuda|manda)|kun je|kunt u|kan je|kan jij|zou je|zou u|ik wil|ik zou graag|help me|"
    r"ik heb (?:\w+ ){1,4}nodig|kan du|kunne du|kan ni|jag behöver|jeg har brug for|jeg trenger|"
    r"czy możesz|możesz|potrzebuję|pomóż mi|tolong|bisa(?:kah)? (?:kamu|anda)|minta|yardım eder misin|"
    r"yapabilir misin|можешь|можете|помоги мне|мне нужн\w|нужно|ich brauche (?:\w+ ){0,2}hilfe|tugas(?:mu| anda))\b|"
    r"^\W*(?:tu|votre|ton|ta|deine|ihre|su|sua|seu|il tuo|la tua)\s+(?:objectif|tâche|mission|aufgabe|ziel|"
    r"objetivo|tarea|misión|tarefa|missão|compito|obiettivo|taak|opdracht|doel|trabajo|travail|arbeit|lavoro|"
    r"trabalho|job)\s*(?:(?:est|ist|es|é|è|is)\b|:)|"
    r"^\W*(?:(?:твоя|ваша)\s+(?:задача|цель|работа)|görev(?:in|iniz)|nhiệm vụ của bạn)\b|"
    r"^\W*(?:du\s+(?:beantwortest|hilfst|unterstützt|berätst)|(?:tu|vous)\s+(?:aides|aidez|réponds|répondez)|"
    r"(?:je|jij|u)\s+(?:helpt|beantwoordt|ondersteunt)|"
    r"(?:tú\s+)?(?:ayudas|respondes|atiendes)\s|(?:tu\s+)?(?:aiuti|rispondi)\s|"
    r"você\s+(?:ajuda|responde|classifica|analisa|revisa|escreve|traduz|resume|avalia))|"
    r"^\W*(?:die|der|das|la|le|el|o|a|il|lo|l'|les|los|las|het|de|mein|meine|ma|mi|minha|il mio|la mia)\s*"
    r"(?:[\w-]+\s+)?(?:e-?mail|correo|mail|text|texte|texto|testo|tekst|brief|lettre|carta|lettera|courrier|"
    r"zusammenfassung|antwort|réponse|respuesta|resposta|risposta|antwoord|"
    r"résumé|resumen|resumo|riassunto|samenvatting|test|quiz|prüfung|examen|esame|fiaba|geschichte|histoire|historia|"
    r"história|storia|verhaal|beitrag|artikel|article|artículo|artigo|articolo|nachricht|message|mensaje|mensagem|"
    r"messaggio|bericht|rapport|informe|relatório|rapporto|verslag|rede|discours|discurso|discorso|toespraak|gedicht|"
    r"poème|poema|poesia|lied|chanson|canción|canção|canzone|einladung|invitation|invitación|convite|invito|"
    r"uitnodiging|anzeige|annonce|anuncio|anúncio|annuncio|advertentie|beschreibung|description|descripción|descrição|"
    r"descrizione|beschrijving|lektion|leçon|lección|lição|lezione|stunde|cours|clase|aula|verifica|fiche|ficha|"
    r"scheda|übung|exercice|ejercicio|exercício|esercizio|oefening|werkblatt|post|caption|légende|leyenda|legenda|"
    r"didascalia)\s+(?:[\w-]+\s+)?(?:soll|sollte|muss|doit|devrait|deve|dovrebbe|debe|debería|moet|zou moeten)\s+\w|"
    r"\b(?:özetle|çevir|yaz|açıkla|ver|yap|oluştur|listele|karşılaştır|öner|düzelt|hesapla|bul|seç|hazırla)"
    r"(?:ın|in|un|ün|iniz|ınız)?\s*[.!]?\s*$",  # Turkish puts the verb last: "Bu metni özetle."
    re.I)

#: The answer's form: tone and register, length, lists, the reply's language, format.
OUTPUT = Folded(
    r"\b(?:le|un|du|einen|ein|den|der|im|el|il|um|o)\s+(?:ton|tono|tom)\b|\btono\b|(?:^|[,;]\s*)ton\s+\w+|\bstil\b|"
    r"\bestilo\b|\bstile\b|vouvoiement|tutoiement|vouvoie|tutoie|sie-form|du-form|\bper (?:du|sie)\b|"
    r"\b(?:duzen|siezen)\b|"
    r"\bmit\s+[„\"“]?(?:du|sie)[“\"]?\s+an\b|"
    r"de usted\b|\btutea|"
    r"\b(?:en|auf|in|em|in het)\s+(?:français|anglais|espagnol|allemand|deutsch|englisch|französisch|spanisch|español|"
    r"inglés|francés|alemán|português|inglês|italiano|inglese|nederlands|engels|duits|frans)\b|"
    r"^\W*(?:sluit (?:\w+ )?af met|termine[sz]? (?:par|avec)|termina(?: \w+){0,2} con|beende (?:\w+ )?mit|"
    r"finaliza con|conclu[iy]\w* con|commence[sz]? par|commencez par|empieza con|comienza con|beginne mit|"
    r"inizia con|começa com|begin met)\b|"  # how the reply starts or ends: "Termine par un mot d'encouragement."
    r"\b(?:un|una|el|um|o|einen|ein|den|een|le|il)\s+(?:título|titre|titel|titolo)\b|"  # "Ponle un título …"
    r"\b(?:frases (?:cortas|curtas|breves|simples|sencillas)|phrases (?:courtes|simples)|kurzen? sätzen?|"
    r"einfachen? sätzen?|frasi (?:brevi|semplici)|(?:párrafos|parágrafos) (?:cortos|curtos)|paragraphes courts|"
    r"kurzen? absätzen?)\b|"
    r"\b(?:estrofas?|strofe|strofa|strophen?|versos|versi|rima|rime|puce)\b|"  # a poem's form
    r"\bgebruik\s+[\"'“]?(?:u|je|jij)\b|\bна\s+[«\"]?(?:вы|ты)\b|\b(?:структура|формат)\s+ответа\b|"
    r"^\W*firmal[ao]\b|\b(?:en|em|in)\s+(?:html|json|markdown|csv)\b|"
    r"\b(?:sencill(?:o|a|amente)|simplement|semplicemente)\b|\bnull\b|"  # "Explícamelo sencillo", "mets null"
    r"\b(?:in modo|de forma|de manera|de manière|auf)\s+(?:schematic[oa]|sintetic[oa]|concis[oa]|concise|breve|"
    r"brève|esquemática|sachliche)\b|\bsenza troppe\b|"
    r"\b(?:soll|sollte|muss)\b.{0,40}\b(?:höflich|förmlich|formell|locker|sachlich)\b|"
    r"\b(?:en gras|en italique|in fett|en negrita|in grassetto|em negrito)\b|"  # "Indiquez les changements en gras."
    r"\b(?:nicht zu|pas trop|no demasiado|non troppo|niet te)\s+(?:lang|long|largo|lungo|longo)\b|"
    r"^\W*bitte\s+(?:formell|kurz|knapp|höflich|sachlich)\b|\bschritt für schritt erklär|"
    r"^\W*(?:bitte\s+)?schritt für schritt\b|"
    r"^\W*(?:bitte\s+)?als\s+(?:\w+\s+)?(?:liste|tabelle|checkliste|stichpunkte|aufzählung|fließtext)\b|"
    r"\beinfachem\s+deutsch\b|\b(?:duze|sieze)\b|^\W*antworte\s+(?:bitte\s+)?(?:kurz|knapp|freundlich|sachlich)\b|"
    r"^\W*que\s+(?:suene|sea|quede)\s+(?:más\s+)?(?:profesional|formal|cercan[oa]|amable|informal|seri[oa]|"
    r"divertid[oa]|breve|cort[oa])\b|\b(?:en|in|em|como)\s+(?:una|uma|un|einer)\s+lista\b|\bcasillas\b|"
    r"\b(?:escreva|escribe|escriba|écris|écrivez|schreib|schreibe|scrivi|schrijf)\s+[\"'“«„]|"  # escreva "Sem prazos"
    r"^\W*(?:schreib|schreibe)\s+(?:\w+\s+)?(?:sachlich|locker|förmlich|formell|freundlich|knapp)\b|"
    r"\b(?:passos curtos|pasos cortos|kurzen schritten|petites étapes)\b|\bformato\b|"
    r"\b(?:en|in|em|como)\s+(?:una|uma|un|einer)\s+(?:tabla|tabella|tabela|tabelle)\b|"
    r"\b(?:paragrafi numerati|párrafos numerados|parágrafos numerados|paragraphes numérotés|nummerierte)\b|"
    r"\b(?:linguaggio chiaro|lenguaje claro|linguagem clara|langage clair|klare sprache)\b|"
    r"\bhoud het (?:zakelijk|kort|informeel|formeel|vriendelijk)\b|^\W*nummerier|"
    r"\b(?:korte|eenvoudige) zinnen\b|\b(?:eenvoudige|begrijpelijke) taal\b|\btaalniveau\b|"
    r"\bspreek (?:de \w+ )?aan met\b|\b(?:u|je)-vorm\b|\bopsomming\w*\b|"
    r"\b(?:\d+|deux|trois|quatre|cinq|zwei|drei|vier|fünf|dos|tres|cuatro|cinco|duas|três|quatro|due|tre|quattro|"
    r"cinque|twee|drie|vier|vijf|iki|üç|dört|beş|dwa|dwóch|trzy|trzech|pięć|pięciu|двух|трёх|трех|пяти)\s+"
    r"(?:mots|phrases|paragraphes|lignes|wörter|wörtern|sätze|sätzen|absätze|zeilen|zdań|zdania|słów|wyrazów|"
    r"punktów|cümle|kelime|madde|слов|предложени\w*|абзац\w*|пункт\w*|kata|kalimat|paragraf|poin|từ|câu|"
    r"palabras|frases|"
    r"párrafos|líneas|palavras|parágrafos|linhas|parole|frasi|paragrafi|righe|puces|stichpunkte|stichpunkten|"
    r"woorden|zinnen|alinea's|regels|"
    r"schritte|pasos|étapes|passos|passaggi|punti)\b|"
    r"\b(?:pas plus de|au maximum|maximum|höchstens|maximal|máximo|no más de|no máximo|al massimo|massimo|"
    r"hoogstens|maximaal|niet meer dan|не длиннее|не больше|przekraczać)\s+\d+|"
    r"^\W*(?:podaj|zwróć|napisz|odpowiedz)\s+(?:wyłącznie|tylko)\b|\b(?:yorum|açıklama) ekleme\b|\bkısa tut\b|"
    r"\bhitap et\b|\b(?:resmi|samimi) bir (?:\w+ )?dil\w*|\bоформ(?:ляй|ляйте|и|ите)\b|\ble registre\b|"
    r"\bregistre (?:formel|soutenu|familier|courant)\b|\bregistro (?:formal|informal|coloquial|neutro)\b|"
    r"\b\d+\s+(?:mots|wörter|palabras|palavras|parole)\s+(?:max|maximum|maximal|máximo|massimo)\b|"
    r"liste à puces|liste numérotée|stichpunkte|aufzählung|viñetas|pasos numerados|lista numerada|tópicos|"
    r"\b(?:in einfachen worten|en termes simples|con palabras sencillas|in parole semplici|em palavras simples|"
    r"en (?:langage|français) simple|in einfacher sprache|en lenguaje sencillo)\b|"
    r"elenco puntato|elenco numerato|elenchi puntati|\ben lista\b|\b(?:lignes|mots|phrases) (?:au )?maximum\b|"
    r"\bpierwsz\w+ osob\w+|\b(?:als|en|como|in|em) (?:tabelle|tabla|tabella|tabela)\b|"
    r"\b(?:sans|sin|ohne|senza|sem)\s+(?:commentaires?|comentarios?|kommentare?|commenti|comentários|explications?|"
    r"explicaci(?:ón|ones)|erklärungen?|spiegazion[ei]|explicaç(?:ão|ões)|comillas|guillemets|anführungszeichen)\b|"
    r"\b(?:réponds|répondez|responde|responda|antworte|antworten sie|rispondi|risponda)\s+(?:\w+\s+)?(?:uniquement|"
    r"seulement|nur|solo|solamente|únicamente|apenas|soltanto|ausschließlich|exclusivement|exclusivamente|"
    r"esclusivamente)\b|"
    r"^\W*(?:solo|seulement|uniquement|nur|soltanto|apenas|únicamente)\s+(?:la|le|el|die|den|das|il|o|a|les|los|las)\s|"
    # Swedish, Danish, Norwegian, Polish, Indonesian, Turkish, Russian
    r"\bpunktlist\w*|\b(?:högst|max|maks|maksimalt|maximalt|najwyżej|maksymalnie|maksimal|en fazla|не более|"
    r"максимум)\s+\d+|\b(?:på|po)\s+(?:svenska|engelska|dansk|norsk|engelsk|polsku|angielsku)\b|"
    r"\btabel(?:l|la|i)?\b|\btabeli\b|w formie\b|wypunktowa\w*|"
    r"\b(?:dalam|pakai|gunakan|dengan) bahasa (?:indonesia|inggris|santai|baku|formal)\b|"
    r"\bpoin-poin\b|\bsantai\b|\bsingkat\b|\bakapit\w*|\btytuł\w*|\bngắn gọn\b|\blịch sự\b|\btablo\w*|madde madde|\btürkçe\b|\bingilizce\b|\bв (?:виде )?таблиц\w*|"
    r"списк\w*|\bна (?:русском|английском)\b|\bкратк\w*|\bстил\w*|\bтон\w*",
)

#: New content asked for to close the answer: "Termine par une petite morale en une phrase.", "Al final añade una
#: lista de tareas", "Schließe mit einer kurzen Übungsaufgabe ab." (a closing line or signature is form alone).
CLOSING_CONTENT = re.compile(r"^\W*(?:termine[sz]?\s+par\s+une?\b(?!\s+(?:ligne|signature|mention|mot)\b)|"
                             r"termina\s+con\s+una?\b(?!\s+(?:línea|linea|firma)\b)|"
                             r"schlie(?:ß|ss)e?\s+mit\s+einer?\b|"
                             r"(?:alla fine|al final|no final|à la fin|am ende),?\s+(?:aggiungi|elenca|dammi|scrivi|"
                             r"añade|agrega|dame|escribe|incluye|sugiere|sugere|sugira|adiciona|escreve|inclui|ajoute|"
                             r"liste|donne|propose|füge|nenne|noch)\b)", re.I)

#: A condition opening a sentence: what it asks is a rule for that case ("Wenn ein Kunde …, frage nach …").
CONDITION = re.compile(r"^[\s>*\-•\d.)]*(?:wenn|falls|sofern|si|s'il|cuando|quando|caso|indien|jeśli|jeżeli|"
                       r"gdy|если|когда|eğer|nếu|khi|jika|kalau|apabila|bila)\b", re.I)

#: A negation: an instruction that holds one is a rule ("Nenne niemals Preise …", "Ne propose pas …").
NEGATION = re.compile(r"\b(?:niemals|nie|nicht|keine?[nmrs]?|jamais|ne|pas|nunca|no|nada|mai|non|nooit|niet|geen|"
                      r"aldrig|inte|ikke|nigdy|jangan|tidak|asla|никогда|не)\b", re.I)

#: Headings of a section on the persona, the task and the demonstrations ("## Rolle", "## Aufgabe", "Ejemplos:").
ROLE_HEADING = re.compile(r"\b(?:rolle|rôle|rol|rola|роль|ruolo|papel|personnage|personaje|personaggio|chi sei|"
                          r"wer du bist|qui es-tu|quién eres|quem (?:você é|és)|kim(?:sin| olduğun)|vai trò|角色|役割|"
                          r"역할|الدور|भूमिका|peran)\b", re.I)
TASK_HEADING = re.compile(r"\b(?:aufgaben?|auftrag|tâches?|mission|tareas?|tarefas?|compiti|compito|objectif|"
                          r"objetivo|obiettivo|"
                          r"anweisungen|consignes|instrucciones|istruzioni|instruções|taak|opdracht|instructies|"
                          r"déroulement|ablauf|procedimiento|procedura|zadanie|задача|задание|инструкци\w*|görev\w*|"
                          r"nhiệm vụ|tugas|任务|任務|要求|タスク|指示|依頼内容|과제|작업|지시|مهمت\w*|कार्य|"
                          r"cosa fai|was du tust|ce que tu fais|qué haces|o que (?:você )?faz|ce que tu dois faire|"
                          r"lo que (?:debes|tienes que) hacer|was du tun sollst|cosa devi fare|"
                          r"o que (?:você )?deve fazer)\b",
                          re.I)
EXAMPLE_HEADING = re.compile(r"\b(?:beispiele?|exemples?|ejemplos?|esempi|esempio|exemplos?|voorbeelden|przykład\w*|"
                             r"пример\w*|örnek\w*|ví dụ|contoh|أمثلة|مثال|उदाहरण)\b|示例|例子|范例|例文|^\W*例|예시",
                             re.I)

#: Headings of a section on the answer's form.
OUTPUT_HEADING = re.compile(r"\b(?:estilo|stil|style|styl|стиль|формат|formato|format|ton|tono|antwortformat|réponse|"
                            r"antwortstil|schreibstil|tonalität|tonalité|"
                            r"respuesta|risposta|resposta|stijl|opmaak|antwoord|odpowied\w*|ответ\w*|yanıt\w*|"
                            r"cevap\w*|üslup|الأسلوب|التنسيق|शैली|gaya|come rispondi|wie du antwortest|"
                            r"comment (?:tu )?répond\w*|cómo respond\w*|como respond\w*)\b|"
                            r"回复要求|回答要求|输出要求|输出格式|输出字段|回复格式|格式|出力形式|回答形式|出力|형식|답변|말투", re.I)

#: A label in Chinese, Japanese or Korean alone on its line: "参考示例：", "出力形式：", "예시:".
CJK_LABEL = re.compile(r"^\W*[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af][^\s:：]{0,15}\s*[:：]\s*$")

#: An introduction of the material the task works on: "Voici le texte :", "Hier ist ein Ticket:", "Aquí tienes …".
INTRO = re.compile(_LEAD + r"(?:voici|voilà|hier (?:ist|sind)|anbei|aquí (?:está|están|tienes|va)|a continuación|"
                   r"(?:te|le|os) (?:copio|pego|paso)|je (?:te|vous) (?:copie|colle)|ti (?:copio|incollo)|"
                   r"(?:te|lhe) (?:copio|colo|mando)|"
                   r"ecco|qui (?:c'è|trovi)|aqui (?:está|estão|vai)|segue|hier is|hierbij)\b|"
                   r"^\W*(?:hier|aquí|aqui)\s+(?:die|der|das|den|meine?|unsere?|el|la|los|las|mi|mis|o|a|os|as)\s"
                   r"[^:]{0,40}:\s*$|\b(?:ci-dessous|unten|"
                   r"abajo|a continuación|qui sotto|abaixo|hieronder|folgende[nrs]?\s+\w+|(?:é|es|è) (?:esta|este|"
                   r"questa|questo)|(?:est|sont) la suivante|les suivant(?:e?s)?)\s*:?\s*$", re.I)

#: Labels of the material the task works on ("Produktdaten:", "Mensaje: «…»", "Texte :"), joined into the English
#: input labels of :mod:`.cues`.
INPUT_WORDS = (
    "texte|avis|commentaire|données|phrase|paragraphe|courriel|recette|produit|entrée|"  # French
    "artikel|frage|nachricht|bewertung|kommentar|daten|produktdaten|satz|absatz|dokument|rezept|eingabe|"  # German
    "texto|artículo|pregunta|mensaje|reseña|comentario|datos|código|frase|párrafo|documento|correo|receta|"  # Spanish
    "entrada|producto|"
    "artigo|pergunta|mensagem|avaliação|comentário|dados|parágrafo|receita|produto|"  # Portuguese
    "testo|articolo|domanda|messaggio|recensione|commento|dati|codice|paragrafo|ricetta|prodotto|"  # Italian
    "tekst|brief|vraag|bericht|recensie|gegevens|zin|alinea|invoer|"  # Dutch
    "wiadomość|opinia|pytanie|treść|"  # Polish
    "haber|metin|yorum|mesaj|soru|"  # Turkish
    "текст|резюме|письмо|отзыв|статья|сообщение|вопрос|описание|"  # Russian
    "teks|ulasan|pesan|berita|pertanyaan|deskripsi|"  # Indonesian
    "văn bản|câu hỏi|tin nhắn|bài viết|"  # Vietnamese
    "النص|الوصف|الرسالة|السؤال|المقال|"  # Arabic
    "पाठ|प्रश्न|संदेश|"  # Hindi
    "[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af ]{0,8}(?:描述|原文|内容|消息|メッセージ|メモ|文字起こし|笔记|本文|記事|"
    "邮件|メール|评论|レビュー|질문|메시지|내용|본문)")  # Chinese, Japanese, Korean, after what they qualify

#: Words that point at the material: "questo paragrafo", "esta receta", "cette lettre", "dieser Text".
POINTER = re.compile(r"\b(?:questo|questa|questi|queste|este|esta|estos|estas|esse|essa|cette|ces|dieser|diese|"
                     r"dieses|diesen|folgende[nr]?|seguente|siguiente|seguinte|suivante?|deze|dit|hieronder|"
                     r"volgende|onderstaande?|ci-dessous|untenstehende[nrs]?|nedan|nedenfor|följande|poniższ\w*|"
                     r"następując\w*|berikut|aşağıdaki|ниже|следующ\w*)\b",
                     re.I)
