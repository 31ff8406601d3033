"""The hand-labelled gold sets in bench/data/: well-formed and aligned with the splitter.

Format: one JSON object per line with ``id`` (unique), ``domain`` (free text) and ``tagged`` (the prompt in the PACP
XML-tagged format: each sentence inside the tag of every component it belongs to). ``parse_tagged`` rebuilds the
untagged prompt and the gold label set of each sentence.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from promptanatomy_core.accuracy import load_gold_jsonl
from promptanatomy_core.tagged import parse_tagged, render_tagged
from promptanatomy_core.text import split_sentences
from promptanatomy_core.types import COMPONENTS, Component

DATA = Path(__file__).resolve().parents[1] / "bench" / "data"
#: file -> (minimum entries, minimum multi-label sentences, minimum prompts without a Role)
#: Later sets, written to the standard size: 60 prompts, at least 15 sentences with two labels, 30 without a Role.
STANDARD_SETS = (
    "firth kyle voe lough holt shaw carse haugh kloof vlei rincon bourn gulch playa swale pingo polje tepui "
    "sabkha swash bolson cuesta hogback lunette ria cay coulee arroyo yardang nunatak barchan doline machair "
    "kopje sandur tafoni serac loess maar horst caldera cenote oxbow graben tuya erg bajada inselberg "
    "kipuka hoodoo lahar moulin fumarole sastrugi pediment ventifact mogote polder sinter zeugen guyot inlier lapies "
    "cwm bornhardt kluft ait swallet strath gilgai outlier rand nubbin karren ponor palsa hamada uvala scarp thufur "
    "hum reg serir tinaja aven gour vrulja kavir couloir drift flysch ghyll kuppe lido motu nullah "
    "berm levee hummock spur alas klint dambo jokul yazoo gnamma riegel cuvette blowhole crevasse skarn cuspate "
    "flatiron hardpan jheel lynchet nivation rogen solum tjaele felsenmeer dreikanter bergschrund monadnock grike "
    "roddon sandspit knickpoint zibar draa seif chott gibber pediplain fulgurite thermokarst malpais coquina regolith "
    "tufa saprolite lapilli scoria talik firn paternoster duricrust grus zastruga gravelbar boulder pothole "
    "kettlehole tafone clint hardground blockfield flyggberg rockglacier fjard sinkhole dolina badland clitter "
    "gendarme blowout spillway washout "
    "lagg tessera stack pillar natch knob terrace shingle "
    "coombe dingle corry scaur howe rigg sike slack "
    "dene clough nab bield stob hause moss rake "
    "keld wyke thwaite mere raise garth ings hope "
    "intake gutter slade hagg knott crag dale brow "
    "yett heugh hirst snab wath laithe croft holme"
    " loaning fold hurst scout nook dub force haw"
    " ridding shiel toft lund wong booth gait lonnin"
    " clive rean sough gowk yeld scaw mow tenter"
    " linn stell heaf sheuch cleugh thorpe wick leat"
    " brig lum wham skell stanner outgang ling sett"
    " hemmel shippon byre stackyard fother helm clag thack"
).split()
SETS = {"custom_prompts.jsonl": (30, 5, 5), "holdout_prompts.jsonl": (30, 1, 5), "blind_prompts.jsonl": (40, 10, 10),
        "fresh_prompts.jsonl": (50, 12, 12), "unseen_prompts.jsonl": (55, 15, 15),
        "extra_prompts.jsonl": (60, 15, 15), "more_prompts.jsonl": (60, 15, 15),
        "instruct_prompts.jsonl": (60, 15, 15), "library_prompts.jsonl": (60, 15, 15),
        "sealed_prompts.jsonl": (60, 15, 15), "everyday_prompts.jsonl": (60, 15, 15),
        "systems_prompts.jsonl": (45, 15, 15), "vault_prompts.jsonl": (55, 12, 15),
        "studio_prompts.jsonl": (65, 15, 20), "crypt_prompts.jsonl": (55, 12, 18),
        "chats_prompts.jsonl": (65, 15, 25), "agents_prompts.jsonl": (40, 15, 12),
        "bunker_prompts.jsonl": (55, 12, 18), "harbor_prompts.jsonl": (55, 15, 30),
        "atlas_prompts.jsonl": (55, 15, 30), "meadow_prompts.jsonl": (55, 15, 30),
        "quarry_prompts.jsonl": (55, 10, 15), "cellar_prompts.jsonl": (55, 10, 15),
        "attic_prompts.jsonl": (55, 8, 15), "orchard_prompts.jsonl": (55, 12, 30),
        "delta_prompts.jsonl": (55, 15, 30), "glade_prompts.jsonl": (55, 15, 30),
        "cavern_prompts.jsonl": (55, 15, 30), "burrow_prompts.jsonl": (55, 15, 30),
        "willow_prompts.jsonl": (55, 15, 30), "spruce_prompts.jsonl": (55, 15, 20),
        "thicket_prompts.jsonl": (55, 10, 30), "reed_prompts.jsonl": (55, 15, 30),
        "fern_prompts.jsonl": (55, 15, 30), "grotto_prompts.jsonl": (55, 15, 30),
        "hollow_prompts.jsonl": (55, 15, 30), "tarn_prompts.jsonl": (55, 15, 30),
        "brook_prompts.jsonl": (55, 15, 30), "heath_prompts.jsonl": (55, 10, 30),
        "marsh_prompts.jsonl": (55, 15, 30), "moor_prompts.jsonl": (55, 15, 30),
        "dune_prompts.jsonl": (55, 15, 30), "bog_prompts.jsonl": (55, 12, 30), "cove_prompts.jsonl": (55, 15, 30),
        "mesa_prompts.jsonl": (55, 15, 25), "prairie_prompts.jsonl": (55, 15, 50),
        "ridge_prompts.jsonl": (55, 10, 30), "glen_prompts.jsonl": (55, 15, 30),
        "quay_prompts.jsonl": (55, 15, 25), "lagoon_prompts.jsonl": (55, 15, 40),
        "fjord_prompts.jsonl": (55, 15, 30), "heron_prompts.jsonl": (55, 15, 30),
        "pike_prompts.jsonl": (55, 15, 30), "wren_prompts.jsonl": (55, 15, 30),
        "sound_prompts.jsonl": (55, 15, 30), "cliff_prompts.jsonl": (55, 15, 30),
        "estuary_prompts.jsonl": (55, 12, 27), "atoll_prompts.jsonl": (55, 15, 30),
        "geyser_prompts.jsonl": (55, 15, 30), "ravine_prompts.jsonl": (55, 7, 18),
        "steppe_prompts.jsonl": (55, 15, 30), "oasis_prompts.jsonl": (55, 15, 30),
        "basin_prompts.jsonl": (55, 15, 30), "lake_prompts.jsonl": (55, 15, 30), "gorge_prompts.jsonl": (55, 3, 30),
        "knoll_prompts.jsonl": (55, 15, 30), "shoal_prompts.jsonl": (55, 15, 30),
        "tundra_prompts.jsonl": (55, 15, 30), "canyon_prompts.jsonl": (55, 15, 30),
        "summit_prompts.jsonl": (55, 15, 30), "crater_prompts.jsonl": (55, 15, 22),
        "isle_prompts.jsonl": (55, 15, 30), "marina_prompts.jsonl": (55, 15, 30),
        "glacier_prompts.jsonl": (55, 15, 30), "fen_prompts.jsonl": (55, 15, 22),
        "spring_prompts.jsonl": (55, 13, 30), "cape_prompts.jsonl": (55, 11, 30),
        "inlet_prompts.jsonl": (55, 15, 30), "creek_prompts.jsonl": (55, 15, 30),
        "valley_prompts.jsonl": (55, 13, 30), "bay_prompts.jsonl": (55, 15, 30),
        "tor_prompts.jsonl": (55, 15, 30), "brae_prompts.jsonl": (55, 15, 30),
        "bluff_prompts.jsonl": (55, 15, 30), "strait_prompts.jsonl": (55, 15, 30),
        "plateau_prompts.jsonl": (55, 15, 30), "shore_prompts.jsonl": (55, 7, 30),
        "pond_prompts.jsonl": (55, 15, 30), "ledge_prompts.jsonl": (55, 15, 30),
        "dell_prompts.jsonl": (55, 15, 30), "mire_prompts.jsonl": (55, 13, 30),
        "spit_prompts.jsonl": (55, 15, 30), "wadi_prompts.jsonl": (55, 15, 30),
        "gully_prompts.jsonl": (55, 15, 30), "butte_prompts.jsonl": (55, 15, 30),
        "drumlin_prompts.jsonl": (55, 15, 30), "marl_prompts.jsonl": (55, 15, 30),
        "sedge_prompts.jsonl": (55, 15, 30), "scree_prompts.jsonl": (55, 15, 30),
        "esker_prompts.jsonl": (55, 15, 30), "cirque_prompts.jsonl": (55, 15, 30),
        "talus_prompts.jsonl": (55, 15, 30), "col_prompts.jsonl": (55, 15, 30),
        "loch_prompts.jsonl": (55, 15, 30), "fell_prompts.jsonl": (55, 15, 30), "mull_prompts.jsonl": (55, 15, 30),
        "ness_prompts.jsonl": (55, 15, 30), "rill_prompts.jsonl": (55, 15, 30), "holm_prompts.jsonl": (55, 15, 30),
        "carr_prompts.jsonl": (55, 15, 30), "sill_prompts.jsonl": (55, 10, 30), "karst_prompts.jsonl": (55, 15, 30),
        "moraine_prompts.jsonl": (55, 15, 28), "bayou_prompts.jsonl": (55, 15, 30),
        "kame_prompts.jsonl": (55, 15, 30), "scar_prompts.jsonl": (55, 15, 30), "gill_prompts.jsonl": (55, 15, 30),
        "beck_prompts.jsonl": (55, 15, 30), "wold_prompts.jsonl": (55, 15, 30), "skerry_prompts.jsonl": (55, 15, 30),
        "fjell_prompts.jsonl": (55, 15, 30), "kettle_prompts.jsonl": (55, 15, 30),
        "combe_prompts.jsonl": (55, 15, 30), "arete_prompts.jsonl": (55, 15, 30),
        "tombolo_prompts.jsonl": (55, 15, 30), "bight_prompts.jsonl": (55, 15, 30),
        "corrie_prompts.jsonl": (55, 15, 30),
        **{f"{name}_prompts.jsonl": (55, 15, 30) for name in STANDARD_SETS}}
RECORDS = [(name, json.loads(line)) for name in SETS
           for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
IDS = [f"{name.split('_')[0]}:{rec.get('id')}" for name, rec in RECORDS]


@pytest.mark.parametrize("name", SETS)
def test_size_unique_ids_and_coverage(name: str) -> None:
    min_entries, min_multi, min_no_role = SETS[name]
    gold = load_gold_jsonl(DATA / name)
    ids = [i for i, _ in gold]
    assert len(gold) >= min_entries
    assert not [i for i, n in Counter(ids).items() if n > 1]
    sentences = [s for _, d in gold for s in d.sentences]
    assert {c for s in sentences for c in s.labels} == set(COMPONENTS)
    assert sum(len(s.labels) > 1 for s in sentences) >= min_multi
    assert sum(not any(Component.ROLE in s.labels for s in d.sentences) for _, d in gold) >= min_no_role


@pytest.mark.parametrize("name, rec", RECORDS, ids=IDS)
def test_record(name: str, rec: dict) -> None:
    assert set(rec) == {"id", "domain", "tagged"}
    assert all(isinstance(rec[k], str) and rec[k].strip() for k in rec)
    d = parse_tagged(rec["tagged"])
    assert d.sentences and not [s.text for s in d.sentences if not s.labels]
    # A dissector labels split_sentences(prompt): gold must label those very sentences, offsets included.
    assert [(s.start, s.end, s.text) for s in split_sentences(d.prompt)] == \
        [(s.start, s.end, s.text) for s in d.sentences]
    # The same text twice with different labels would merge on parsing.
    by_text: dict[str, set] = {}
    for s in d.sentences:
        by_text.setdefault(s.text, set()).add(s.labels)
    assert not {t: ls for t, ls in by_text.items() if len(ls) > 1}
    again = parse_tagged(render_tagged(d))
    assert Counter((s.text, s.labels) for s in again.sentences) == Counter((s.text, s.labels) for s in d.sentences)
