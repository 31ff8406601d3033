"""A small stored run for the report and Results page tests, written through the run store's own API (what
``experiment.execute`` writes: dissections, clean prompts and variants with their edits, requests, responses,
judgments, one provider error). The judgments follow a fixed pattern, so every cell's counts are known."""
from __future__ import annotations

from promptanatomy_core.models.base import ChatResponse, TokenProb
from promptanatomy_core.store import RunStore

PROMPT = ("You are a careful <script>alert(1)</script> medical researcher.\n"
          "Read the abstract and answer the question with yes, no or maybe.\n"
          "Answer with one word.")
COMPONENTS = ("Role", "Directive", "CRT")
STRATEGIES = ("SCI", "WOD")
INSTANCES = ("a", "b")
SEEDS = (0, 1)


def fails(model: str, component: str, strategy: str, seed: int, instance: str) -> bool:
    """Which variants' answers are wrong: Directive always under WOD and for seed 1 under SCI; Role only for
    instance b under SCI with model m2; CRT never."""
    if component == "Directive":
        return strategy == "WOD" or seed == 1
    if component == "Role":
        return model.endswith("m2") and strategy == "SCI" and instance == "b"
    return False


def first_token_prob(wrong: bool, seed: int | None, instance: str, instances=INSTANCES) -> float:
    """The scripted probability of the answer's first token (``probabilities=True``): wrong answers are decoded
    unsurely (0.35, 0.45 by seed), right ones surely (0.95 for the first instance, 0.05 less for each next one)."""
    if wrong:
        return 0.35 + 0.1 * (seed or 0)
    return 0.95 - 0.05 * list(instances).index(instance)


def _edit(component: str, strategy: str, seed: int) -> tuple[int, int, str]:
    word = {"Role": "careful", "Directive": "abstract", "CRT": "one"}[component]
    start = PROMPT.index(word)
    if strategy == "WOD":
        return start, start + len(word) + 1, ""
    return start + 1 + seed, start + 1 + seed, "#"


def make_run(store: RunStore, name: str = "demo run", models=("scripted:m1", "scripted:m2"), prompt: str = PROMPT,
             shift: int = 0, error: bool = True, keep_top: float | None = None, probabilities: bool = False,
             instances=INSTANCES) -> int:
    """A finished run of ``models`` over two instances × COMPONENTS × STRATEGIES × two seeds (n=2, no PPL filter).
    ``shift``: 1 flips Directive × SCI to always correct (a second, "after" run). ``keep_top``: stored as the spec's
    perplexity filter, with the seed-0 variants as the kept ones. ``probabilities``: responses carry token
    probabilities (a white-space token, then the answer's first token with :func:`first_token_prob`, then ".");
    without, no token probabilities (as from an OpenAI-compatible server without logprobs). ``instances``: their
    ids."""
    spec = {"instances": [{"id": i, "prompt": prompt, "tagged": "", "expected": "yes"} for i in instances],
            "models": list(models), "components": list(COMPONENTS), "strategies": list(STRATEGIES), "baselines": [],
            "n": 2, "ratio": 0.1, "seed": 0, "keep_top": keep_top, "send_dropped": True, "system_mode": "user",
            "temperature": 0.0, "max_tokens": 8, "criterion": "contains", "criterion_params": {},
            "dissector": "rules", "name": name}
    run_id = store.create_run(name, spec, status="running")
    variants, pos = [], 0
    for i in instances:
        store.save_dissection(run_id, i, list(instances).index(i), prompt, "yes", {"sentences": []})
        variants.append({"variant_id": f"{i}|clean", "instance_id": i, "position": pos, "component": "clean",
                         "strategy": "clean", "seed": None, "text": prompt, "edits": [], "is_clean": True})
        pos += 1
        for c in COMPONENTS:
            for s in STRATEGIES:
                for seed in SEEDS:
                    a, b, rep = _edit(c, s, seed)
                    variants.append({"variant_id": f"{i}|{c}|{s}|{seed}", "instance_id": i, "position": pos,
                                     "component": c, "strategy": s, "seed": seed,
                                     "text": prompt[:a] + rep + prompt[b:], "edits": [[a, b, rep]],
                                     "ppl": 10.0 + seed, "ppl_ratio": 1.0 + 0.1 * seed + 0.01 * pos,
                                     "kept": None if keep_top is None else seed == 0})
                    pos += 1
    store.save_variants(run_id, variants)
    reqs = [{"key": f"{m}|{v['variant_id']}", "variant_id": v["variant_id"], "model": m, "messages_hash": "h",
             "params": {}, "position": k} for k, (m, v) in enumerate((m, v) for m in models for v in variants)]
    ids = store.ensure_requests(run_id, reqs)
    for r in reqs:
        v = next(x for x in variants if x["variant_id"] == r["variant_id"])
        rid = ids[r["key"]]
        if error and r["model"] == models[0] and v["variant_id"] == "a|CRT|SCI|1":
            store.save_error(run_id, rid, "HTTP 500: scripted failure")
            continue
        if v.get("is_clean"):
            wrong = False
        else:
            wrong = fails(r["model"], v["component"], v["strategy"], v["seed"], v["instance_id"])
            if shift and v["component"] == "Directive" and v["strategy"] == "SCI":
                wrong = False
        text = "No." if wrong else "Yes."
        tokens = ()
        if probabilities:
            tokens = (TokenProb("\n", 0.2), TokenProb(text[:-1], first_token_prob(wrong, v["seed"], v["instance_id"],
                                                                                 instances)), TokenProb(".", 0.99))
        store.save_response(rid, ChatResponse(text=text, tokens=tokens, input_tokens=20, output_tokens=2))
        store.save_judgment(rid, not wrong, None, "expected answer not found" if wrong else "contains 'yes'",
                            "contains")
    store.set_status(run_id, "done")
    return run_id


def timed_batches(store: RunStore, batches, in_speed: float, out_speed: float, model: str = "local",
                  cached: bool = False) -> int:
    """A finished run of ``model`` whose answers were timed as the runner times a batch backend's: each batch
    (a list of ``(input_tokens, output_tokens)``) took ``Σ input / in_speed + Σ output / out_speed`` seconds, and
    every answer in it records that wall time divided by the batch's size. ``cached``: the answers came from the
    response cache. Returns the run's id."""
    prompt = "Answer yes or no."
    run_id = store.create_run("timed", {"models": [model]}, status="running")
    store.save_dissection(run_id, "i0", 0, prompt, None, {"sentences": []})
    store.save_variants(run_id, [{"variant_id": "i0|clean", "instance_id": "i0", "position": 0, "component": "clean",
                                  "strategy": "clean", "seed": None, "text": prompt, "edits": [], "is_clean": True}])
    rows = [(b, k, tokens) for b, batch in enumerate(batches) for k, tokens in enumerate(batch)]
    ids = store.ensure_requests(run_id, [{"key": f"{b}.{k}", "variant_id": "i0|clean", "model": model,
                                          "messages_hash": f"h{b}.{k}", "params": {}, "position": n}
                                         for n, (b, k, _) in enumerate(rows)])
    for b, batch in enumerate(batches):
        wall = sum(i for i, _ in batch) / in_speed + sum(o for _, o in batch) / out_speed
        for k, (i, o) in enumerate(batch):
            store.save_response(ids[f"{b}.{k}"], ChatResponse(text="Yes.", input_tokens=i, output_tokens=o,
                                                               latency=wall / len(batch), cached=cached))
    store.set_status(run_id, "done")
    return run_id
