"""Dissection accuracy per dissector: the four PACP datasets and two hand-labelled sets of other prompts.

Sentence-level accuracy counts sentences whose label set equals the gold one; prompt-level accuracy (the paper's)
counts prompts whose every sentence does. Gold comes from the XML tags; each dissector labels the gold sentences.

    python bench/dissect_accuracy.py                       # rules on everything
    python bench/dissect_accuracy.py --dissector llm --model local --limit 20
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from promptanatomy_core.accuracy import Accuracy, evaluate, load_gold_jsonl
from promptanatomy_core.datasets import find_pacp, load_pacp
from promptanatomy_core.dissect import get_dissector

HERE = Path(__file__).resolve().parent
#: Hand-labelled prompts unlike the datasets (bench/data/LABELLING.md says how and by whom). The sets marked "never
#: looked at" were never read by the rules' author (only their aggregate figures): the honest figures. The others were
#: used while writing the rules, most only after a first, blind measurement.
GOLD_SETS = {"custom (used in development)": HERE / "data/custom_prompts.jsonl",
             "held-out (dev after a first blind run)": HERE / "data/holdout_prompts.jsonl",
             "blind (dev after a first blind run)": HERE / "data/blind_prompts.jsonl",
             "fresh (dev after a first blind run)": HERE / "data/fresh_prompts.jsonl",
             "extra (development)": HERE / "data/extra_prompts.jsonl",
             "more (development)": HERE / "data/more_prompts.jsonl",
             "instruct (dev after a first blind run)": HERE / "data/instruct_prompts.jsonl",
             "library (dev after a first blind run)": HERE / "data/library_prompts.jsonl",
             "everyday (dev after a first blind run)": HERE / "data/everyday_prompts.jsonl",
             "systems (dev after a first blind run)": HERE / "data/systems_prompts.jsonl",
             "studio (dev after a first blind run)": HERE / "data/studio_prompts.jsonl",
             "chats (dev after a first blind run)": HERE / "data/chats_prompts.jsonl",
             "agents (dev after a first blind run)": HERE / "data/agents_prompts.jsonl",
             "harbor (dev after a first blind run)": HERE / "data/harbor_prompts.jsonl",
             "atlas (dev after a first blind run)": HERE / "data/atlas_prompts.jsonl",
             "meadow (dev after a first blind run)": HERE / "data/meadow_prompts.jsonl",
             "orchard (dev after a first blind run)": HERE / "data/orchard_prompts.jsonl",
             "delta (dev after a first blind run)": HERE / "data/delta_prompts.jsonl",
             "glade (dev after a first blind run)": HERE / "data/glade_prompts.jsonl",
             "willow (dev after a first blind run)": HERE / "data/willow_prompts.jsonl",
             "spruce (dev after a first blind run)": HERE / "data/spruce_prompts.jsonl",
             "reed (dev after a first blind run)": HERE / "data/reed_prompts.jsonl",
             "fern (dev after a first blind run)": HERE / "data/fern_prompts.jsonl",
             "tarn (dev after a first blind run)": HERE / "data/tarn_prompts.jsonl",
             "brook (dev after a first blind run)": HERE / "data/brook_prompts.jsonl",
             "heath (dev after a first blind run)": HERE / "data/heath_prompts.jsonl",
             "dune (dev after a first blind run)": HERE / "data/dune_prompts.jsonl",
             "mesa (dev after a first blind run)": HERE / "data/mesa_prompts.jsonl",
             "prairie (dev after a first blind run)": HERE / "data/prairie_prompts.jsonl",
             "quay (dev after a first blind run)": HERE / "data/quay_prompts.jsonl",
             "lagoon (dev after a first blind run)": HERE / "data/lagoon_prompts.jsonl",
             "sound (dev after a first blind run)": HERE / "data/sound_prompts.jsonl",
             "cliff (dev after a first blind run)": HERE / "data/cliff_prompts.jsonl",
             "estuary (dev after a first blind run)": HERE / "data/estuary_prompts.jsonl",
             "atoll (dev after a first blind run)": HERE / "data/atoll_prompts.jsonl",
             "geyser (dev after a first blind run)": HERE / "data/geyser_prompts.jsonl",
             "ravine (dev after a first blind run)": HERE / "data/ravine_prompts.jsonl",
             "steppe (dev after a first blind run)": HERE / "data/steppe_prompts.jsonl",
             "oasis (dev after a first blind run)": HERE / "data/oasis_prompts.jsonl",
             "basin (dev after a first blind run)": HERE / "data/basin_prompts.jsonl",
             "lake (dev after a first blind run)": HERE / "data/lake_prompts.jsonl",
             "gorge (dev after a first blind run)": HERE / "data/gorge_prompts.jsonl",
             "inlet (dev after a first blind run)": HERE / "data/inlet_prompts.jsonl",
             "creek (dev after a first blind run)": HERE / "data/creek_prompts.jsonl",
             "valley (dev after a first blind run)": HERE / "data/valley_prompts.jsonl",
             "bay (dev after a first blind run)": HERE / "data/bay_prompts.jsonl",
             "tor (dev after a first blind run)": HERE / "data/tor_prompts.jsonl",
             "brae (dev after a first blind run)": HERE / "data/brae_prompts.jsonl",
             "drumlin (dev after a first blind run)": HERE / "data/drumlin_prompts.jsonl",
             "marl (dev after a first blind run)": HERE / "data/marl_prompts.jsonl",
             "sedge (dev after a first blind run)": HERE / "data/sedge_prompts.jsonl",
             "scree (dev after a first blind run)": HERE / "data/scree_prompts.jsonl",
             "loch (dev after a first blind run)": HERE / "data/loch_prompts.jsonl",
             "fell (dev after a first blind run)": HERE / "data/fell_prompts.jsonl",
             "mull (dev after a first blind run)": HERE / "data/mull_prompts.jsonl",
             "ness (dev after a first blind run)": HERE / "data/ness_prompts.jsonl",
             "rill (dev after a first blind run)": HERE / "data/rill_prompts.jsonl",
             "holm (dev after a first blind run)": HERE / "data/holm_prompts.jsonl",
             "carr (dev after a first blind run)": HERE / "data/carr_prompts.jsonl",
             "sill (dev after a first blind run)": HERE / "data/sill_prompts.jsonl",
             "firth (dev after a first blind run)": HERE / "data/firth_prompts.jsonl",
             "kyle (dev after a first blind run)": HERE / "data/kyle_prompts.jsonl",
             "voe (dev after a first blind run)": HERE / "data/voe_prompts.jsonl",
             "lough (dev after a first blind run)": HERE / "data/lough_prompts.jsonl",
             "holt (dev after a first blind run)": HERE / "data/holt_prompts.jsonl",
             "shaw (dev after a first blind run)": HERE / "data/shaw_prompts.jsonl",
             "carse (dev after a first blind run)": HERE / "data/carse_prompts.jsonl",
             "haugh (dev after a first blind run)": HERE / "data/haugh_prompts.jsonl",
             "kloof (dev after a first blind run)": HERE / "data/kloof_prompts.jsonl",
             "vlei (dev after a first blind run)": HERE / "data/vlei_prompts.jsonl",
             "rincon (dev after a first blind run)": HERE / "data/rincon_prompts.jsonl",
             "bourn (dev after a first blind run)": HERE / "data/bourn_prompts.jsonl",
             "ria (dev after a first blind run)": HERE / "data/ria_prompts.jsonl",
             "cay (dev after a first blind run)": HERE / "data/cay_prompts.jsonl",
             "coulee (dev after a first blind run)": HERE / "data/coulee_prompts.jsonl",
             "arroyo (dev after a first blind run)": HERE / "data/arroyo_prompts.jsonl",
             "serac (dev after a first blind run)": HERE / "data/serac_prompts.jsonl",
             "loess (dev after a first blind run)": HERE / "data/loess_prompts.jsonl",
             "maar (dev after a first blind run)": HERE / "data/maar_prompts.jsonl",
             "horst (dev after a first blind run)": HERE / "data/horst_prompts.jsonl",
             "kipuka (dev after a first blind run)": HERE / "data/kipuka_prompts.jsonl",
             "hoodoo (dev after a first blind run)": HERE / "data/hoodoo_prompts.jsonl",
             "lahar (dev after a first blind run)": HERE / "data/lahar_prompts.jsonl",
             "moulin (dev after a first blind run)": HERE / "data/moulin_prompts.jsonl",
             "mogote (dev after a first blind run)": HERE / "data/mogote_prompts.jsonl",
             "polder (dev after a first blind run)": HERE / "data/polder_prompts.jsonl",
             "sinter (dev after a first blind run)": HERE / "data/sinter_prompts.jsonl",
             "zeugen (dev after a first blind run)": HERE / "data/zeugen_prompts.jsonl",
             "bornhardt (dev after a first blind run)": HERE / "data/bornhardt_prompts.jsonl",
             "kluft (dev after a first blind run)": HERE / "data/kluft_prompts.jsonl",
             "ait (dev after a first blind run)": HERE / "data/ait_prompts.jsonl",
             "swallet (dev after a first blind run)": HERE / "data/swallet_prompts.jsonl",
             "nubbin (dev after a first blind run)": HERE / "data/nubbin_prompts.jsonl",
             "karren (dev after a first blind run)": HERE / "data/karren_prompts.jsonl",
             "ponor (dev after a first blind run)": HERE / "data/ponor_prompts.jsonl",
             "palsa (dev after a first blind run)": HERE / "data/palsa_prompts.jsonl",
             "hum (dev after a first blind run)": HERE / "data/hum_prompts.jsonl",
             "reg (dev after a first blind run)": HERE / "data/reg_prompts.jsonl",
             "serir (dev after a first blind run)": HERE / "data/serir_prompts.jsonl",
             "tinaja (dev after a first blind run)": HERE / "data/tinaja_prompts.jsonl",
             "couloir (dev after a first blind run)": HERE / "data/couloir_prompts.jsonl",
             "drift (dev after a first blind run)": HERE / "data/drift_prompts.jsonl",
             "flysch (dev after a first blind run)": HERE / "data/flysch_prompts.jsonl",
             "ghyll (dev after a first blind run)": HERE / "data/ghyll_prompts.jsonl",
             "berm (dev after a first blind run)": HERE / "data/berm_prompts.jsonl",
             "levee (dev after a first blind run)": HERE / "data/levee_prompts.jsonl",
             "hummock (dev after a first blind run)": HERE / "data/hummock_prompts.jsonl",
             "spur (dev after a first blind run)": HERE / "data/spur_prompts.jsonl",
             "yazoo (dev after a first blind run)": HERE / "data/yazoo_prompts.jsonl",
             "gnamma (dev after a first blind run)": HERE / "data/gnamma_prompts.jsonl",
             "riegel (dev after a first blind run)": HERE / "data/riegel_prompts.jsonl",
             "cuvette (dev after a first blind run)": HERE / "data/cuvette_prompts.jsonl",
             "unseen (never looked at)": HERE / "data/unseen_prompts.jsonl",
             "sealed (never looked at)": HERE / "data/sealed_prompts.jsonl",
             "vault (never looked at)": HERE / "data/vault_prompts.jsonl",
             "crypt (never looked at)": HERE / "data/crypt_prompts.jsonl",
             "bunker (never looked at)": HERE / "data/bunker_prompts.jsonl",
             "quarry (never looked at)": HERE / "data/quarry_prompts.jsonl",
             "cellar (never looked at)": HERE / "data/cellar_prompts.jsonl",
             "attic (never looked at)": HERE / "data/attic_prompts.jsonl",
             "cavern (never looked at)": HERE / "data/cavern_prompts.jsonl",
             "burrow (never looked at)": HERE / "data/burrow_prompts.jsonl",
             "thicket (never looked at)": HERE / "data/thicket_prompts.jsonl",
             "grotto (never looked at)": HERE / "data/grotto_prompts.jsonl",
             "hollow (never looked at)": HERE / "data/hollow_prompts.jsonl",
             "marsh (never looked at)": HERE / "data/marsh_prompts.jsonl",
             "moor (never looked at)": HERE / "data/moor_prompts.jsonl",
             "bog (never looked at)": HERE / "data/bog_prompts.jsonl",
             "cove (never looked at)": HERE / "data/cove_prompts.jsonl",
             "ridge (never looked at)": HERE / "data/ridge_prompts.jsonl",
             "glen (never looked at)": HERE / "data/glen_prompts.jsonl",
             "fjord (never looked at)": HERE / "data/fjord_prompts.jsonl",
             "heron (never looked at)": HERE / "data/heron_prompts.jsonl",
             "pike (never looked at)": HERE / "data/pike_prompts.jsonl",
             "wren (never looked at)": HERE / "data/wren_prompts.jsonl",
             "knoll (never looked at)": HERE / "data/knoll_prompts.jsonl",
             "shoal (never looked at)": HERE / "data/shoal_prompts.jsonl",
             "tundra (never looked at)": HERE / "data/tundra_prompts.jsonl",
             "canyon (never looked at)": HERE / "data/canyon_prompts.jsonl",
             "summit (never looked at)": HERE / "data/summit_prompts.jsonl",
             "crater (never looked at)": HERE / "data/crater_prompts.jsonl",
             "isle (never looked at)": HERE / "data/isle_prompts.jsonl",
             "marina (never looked at)": HERE / "data/marina_prompts.jsonl",
             "glacier (never looked at)": HERE / "data/glacier_prompts.jsonl",
             "fen (never looked at)": HERE / "data/fen_prompts.jsonl",
             "spring (never looked at)": HERE / "data/spring_prompts.jsonl",
             "cape (never looked at)": HERE / "data/cape_prompts.jsonl",
             "bluff (never looked at)": HERE / "data/bluff_prompts.jsonl",
             "strait (never looked at)": HERE / "data/strait_prompts.jsonl",
             "plateau (never looked at)": HERE / "data/plateau_prompts.jsonl",
             "shore (never looked at)": HERE / "data/shore_prompts.jsonl",
             "pond (never looked at)": HERE / "data/pond_prompts.jsonl",
             "ledge (never looked at)": HERE / "data/ledge_prompts.jsonl",
             "dell (never looked at)": HERE / "data/dell_prompts.jsonl",
             "mire (never looked at)": HERE / "data/mire_prompts.jsonl",
             "spit (never looked at)": HERE / "data/spit_prompts.jsonl",
             "wadi (never looked at)": HERE / "data/wadi_prompts.jsonl",
             "gully (never looked at)": HERE / "data/gully_prompts.jsonl",
             "butte (never looked at)": HERE / "data/butte_prompts.jsonl",
             "esker (never looked at)": HERE / "data/esker_prompts.jsonl",
             "cirque (never looked at)": HERE / "data/cirque_prompts.jsonl",
             "talus (never looked at)": HERE / "data/talus_prompts.jsonl",
             "col (never looked at)": HERE / "data/col_prompts.jsonl",
             "karst (never looked at)": HERE / "data/karst_prompts.jsonl",
             "moraine (never looked at)": HERE / "data/moraine_prompts.jsonl",
             "bayou (never looked at)": HERE / "data/bayou_prompts.jsonl",
             "kame (never looked at)": HERE / "data/kame_prompts.jsonl",
             "scar (never looked at)": HERE / "data/scar_prompts.jsonl",
             "gill (never looked at)": HERE / "data/gill_prompts.jsonl",
             "beck (never looked at)": HERE / "data/beck_prompts.jsonl",
             "wold (never looked at)": HERE / "data/wold_prompts.jsonl",
             "skerry (never looked at)": HERE / "data/skerry_prompts.jsonl",
             "fjell (never looked at)": HERE / "data/fjell_prompts.jsonl",
             "kettle (never looked at)": HERE / "data/kettle_prompts.jsonl",
             "combe (never looked at)": HERE / "data/combe_prompts.jsonl",
             "arete (never looked at)": HERE / "data/arete_prompts.jsonl",
             "tombolo (never looked at)": HERE / "data/tombolo_prompts.jsonl",
             "bight (never looked at)": HERE / "data/bight_prompts.jsonl",
             "corrie (never looked at)": HERE / "data/corrie_prompts.jsonl",
             "gulch (never looked at)": HERE / "data/gulch_prompts.jsonl",
             "playa (never looked at)": HERE / "data/playa_prompts.jsonl",
             "swale (never looked at)": HERE / "data/swale_prompts.jsonl",
             "pingo (never looked at)": HERE / "data/pingo_prompts.jsonl",
             "polje (never looked at)": HERE / "data/polje_prompts.jsonl",
             "tepui (never looked at)": HERE / "data/tepui_prompts.jsonl",
             "sabkha (never looked at)": HERE / "data/sabkha_prompts.jsonl",
             "swash (never looked at)": HERE / "data/swash_prompts.jsonl",
             "bolson (never looked at)": HERE / "data/bolson_prompts.jsonl",
             "cuesta (never looked at)": HERE / "data/cuesta_prompts.jsonl",
             "hogback (never looked at)": HERE / "data/hogback_prompts.jsonl",
             "lunette (never looked at)": HERE / "data/lunette_prompts.jsonl",
             "yardang (never looked at)": HERE / "data/yardang_prompts.jsonl",
             "nunatak (never looked at)": HERE / "data/nunatak_prompts.jsonl",
             "barchan (never looked at)": HERE / "data/barchan_prompts.jsonl",
             "doline (never looked at)": HERE / "data/doline_prompts.jsonl",
             "machair (never looked at)": HERE / "data/machair_prompts.jsonl",
             "kopje (never looked at)": HERE / "data/kopje_prompts.jsonl",
             "sandur (never looked at)": HERE / "data/sandur_prompts.jsonl",
             "tafoni (never looked at)": HERE / "data/tafoni_prompts.jsonl",
             "caldera (never looked at)": HERE / "data/caldera_prompts.jsonl",
             "cenote (never looked at)": HERE / "data/cenote_prompts.jsonl",
             "oxbow (never looked at)": HERE / "data/oxbow_prompts.jsonl",
             "graben (never looked at)": HERE / "data/graben_prompts.jsonl",
             "tuya (never looked at)": HERE / "data/tuya_prompts.jsonl",
             "erg (never looked at)": HERE / "data/erg_prompts.jsonl",
             "bajada (never looked at)": HERE / "data/bajada_prompts.jsonl",
             "inselberg (never looked at)": HERE / "data/inselberg_prompts.jsonl",
             "fumarole (never looked at)": HERE / "data/fumarole_prompts.jsonl",
             "sastrugi (never looked at)": HERE / "data/sastrugi_prompts.jsonl",
             "pediment (never looked at)": HERE / "data/pediment_prompts.jsonl",
             "ventifact (never looked at)": HERE / "data/ventifact_prompts.jsonl",
             "guyot (never looked at)": HERE / "data/guyot_prompts.jsonl",
             "inlier (never looked at)": HERE / "data/inlier_prompts.jsonl",
             "lapies (never looked at)": HERE / "data/lapies_prompts.jsonl",
             "cwm (never looked at)": HERE / "data/cwm_prompts.jsonl",
             "strath (never looked at)": HERE / "data/strath_prompts.jsonl",
             "gilgai (never looked at)": HERE / "data/gilgai_prompts.jsonl",
             "outlier (never looked at)": HERE / "data/outlier_prompts.jsonl",
             "rand (never looked at)": HERE / "data/rand_prompts.jsonl",
             "hamada (never looked at)": HERE / "data/hamada_prompts.jsonl",
             "uvala (never looked at)": HERE / "data/uvala_prompts.jsonl",
             "scarp (never looked at)": HERE / "data/scarp_prompts.jsonl",
             "thufur (never looked at)": HERE / "data/thufur_prompts.jsonl",
             "aven (never looked at)": HERE / "data/aven_prompts.jsonl",
             "gour (never looked at)": HERE / "data/gour_prompts.jsonl",
             "vrulja (never looked at)": HERE / "data/vrulja_prompts.jsonl",
             "kavir (never looked at)": HERE / "data/kavir_prompts.jsonl",
             "kuppe (never looked at)": HERE / "data/kuppe_prompts.jsonl",
             "lido (never looked at)": HERE / "data/lido_prompts.jsonl",
             "motu (never looked at)": HERE / "data/motu_prompts.jsonl",
             "nullah (never looked at)": HERE / "data/nullah_prompts.jsonl",
             "alas (never looked at)": HERE / "data/alas_prompts.jsonl",
             "klint (never looked at)": HERE / "data/klint_prompts.jsonl",
             "dambo (never looked at)": HERE / "data/dambo_prompts.jsonl",
             "jokul (never looked at)": HERE / "data/jokul_prompts.jsonl",
             "blowhole (never looked at)": HERE / "data/blowhole_prompts.jsonl",
             "crevasse (never looked at)": HERE / "data/crevasse_prompts.jsonl",
             "skarn (never looked at)": HERE / "data/skarn_prompts.jsonl",
             "cuspate (never looked at)": HERE / "data/cuspate_prompts.jsonl"}


def _row(name: str, acc: Accuracy, seconds: float) -> str:
    return (f"{name:48s} {acc.prompts:6d} {acc.prompt_level:8.1%} {acc.sentences:7d} {acc.sentence_level:8.1%} "
            f"{seconds * 1000 / max(acc.prompts, 1):8.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dissector", default="rules")
    ap.add_argument("--model", default=None, help="model SPEC for the llm dissector")
    ap.add_argument("--limit", type=int, default=None, help="records per dataset (default: all)")
    ap.add_argument("--errors", type=int, default=0, help="show the N most common confusions per set")
    args = ap.parse_args(argv)
    options = {"model": args.model} if args.model else {}
    dissector = get_dissector(args.dissector, **options)
    sets = {name: [r.gold() for r in load_pacp(path)][: args.limit] for name, path in find_pacp().items()}
    for name, path in GOLD_SETS.items():
        if path.exists():
            sets[name] = [g for _, g in load_gold_jsonl(path)][: args.limit]
    if not sets:
        print("no datasets found (set PROMPTANATOMY_DATA_DIR)", file=sys.stderr)
        return 2
    print(f"dissector: {args.dissector}{' ' + args.model if args.model else ''}")
    print(f"{'set':48s} {'prompts':>6s} {'prompt%':>8s} {'sents':>7s} {'sent%':>8s} {'ms/prompt':>8s}")
    for name, gold in sets.items():
        start = time.perf_counter()
        acc = evaluate(dissector, gold)
        print(_row(name, acc, time.perf_counter() - start))
        for (g, p), n in acc.confusions.most_common(args.errors):
            print(f"      gold {g:4s} predicted {p:4s} x{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
