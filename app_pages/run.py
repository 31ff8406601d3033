"""Run: an experiment on this prompt (its dissection and the Perturb page's settings) or on a dataset, against the
sidebar's models: a dry-run estimate first, then a run stored in the run store, stage by stage, stoppable and
resumable, and a link to its results."""
import streamlit as st

from promptanatomy_core import glossary
from promptanatomy_core.experiment import DEFAULT_COMPONENTS, ExperimentError
from promptanatomy_core.perturb import COMPERTURB, PerturbError
from promptanatomy_core.scoring.criteria import criterion_names
from promptanatomy_core.store import RunBusyError
from promptanatomy_core.types import WHOLE_PROMPT
from ui import engine, models_sidebar, state
from ui import run as ui_run

MODE = "run.mode"
MODES = ("This prompt", "Dataset")
USE_PERTURB = "run.use_perturb"
COMPONENTS_PICK = "run.components"
STRATEGIES_PICK = "run.strategies"
N = "run.n"
SEED = "run.seed"
RATIO = "run.ratio"
KEEP = "run.keep_top"
KEEPS = ("none", "10%", "20%", "50%")
EXPECTED = "run.expected"
CRITERION = "run.criterion"
AUTO = "auto"
PATTERN = "run.pattern"
THRESHOLD = "run.threshold"
JUDGE = "run.judge"
SOURCE = "run.source"
UPLOAD = "run.upload"
PATH = "run.path"
UPLOAD_SOURCE = "Upload a file (CSV, JSONL, JSON)"
PATH_SOURCE = "A file on this machine"
COL_PROMPT = "run.col.prompt"
COL_TAGGED = "run.col.tagged"
COL_ANSWER = "run.col.answer"
NONE = "—"
LIMIT = "run.limit"
NAME = "run.name"
ESTIMATE = "run.estimate"
START = "run.start"
STOP = "run.stop"
RESUME_PICK = "run.resume_pick"
RESUME = "run.resume"


def _keep_top() -> float | None:
    keep = st.session_state[KEEP]
    return None if keep == "none" else int(keep.rstrip("%")) / 100


def _grid(components: list[str]) -> dict:
    """The page's own grid: components × strategies, n, seed, ratio, keep-top."""
    st.session_state[COMPONENTS_PICK] = [c for c in st.session_state[COMPONENTS_PICK] if c in components]
    c1, c2 = st.columns(2)
    c1.multiselect("Components", components, key=COMPONENTS_PICK,
                   help="\n\n".join(f"**{c}**: {glossary.COMPONENTS[c]}" for c in components))
    c2.multiselect("Strategies", list(COMPERTURB), key=STRATEGIES_PICK,
                   help="\n\n".join(f"**{s}**: {glossary.STRATEGIES[s]}" for s in COMPERTURB))
    c = st.columns(4)
    c[0].number_input("Variants per cell (n)", min_value=1, max_value=50, step=1, key=N)
    c[1].number_input("Seed", min_value=0, step=1, key=SEED)
    c[2].number_input("Ratio", min_value=0.01, max_value=1.0, step=0.05, format="%.2f", key=RATIO)
    c[3].selectbox("PPL filter: keep top", KEEPS, key=KEEP,
                   help="Scores every variant's perplexity on the embedded model (slow on CPU); results get rows "
                        "with and without the filter. none: no scoring.")
    return {"components": tuple(c for c in components if c in st.session_state[COMPONENTS_PICK]),
            "strategies": tuple(st.session_state[STRATEGIES_PICK]), "n": int(st.session_state[N]),
            "seed": int(st.session_state[SEED]), "ratio": float(st.session_state[RATIO]), "keep_top": _keep_top()}


def _perturb_grid(settings) -> dict:
    """The grid the Perturb page's settings describe (its cells' components and strategies, its baselines)."""
    cells = [c for c in settings.cells if c[0] != WHOLE_PROMPT]
    return {"components": tuple(dict.fromkeys(c for c, _ in cells)),
            "strategies": tuple(dict.fromkeys(s for _, s in cells)),
            "baselines": tuple(s for c, s in settings.cells if c == WHOLE_PROMPT), "n": settings.n,
            "seed": settings.seed, "ratio": settings.ratio, "keep_top": settings.keep_top if settings.score else None}


def _criterion(has_expected: bool) -> tuple[str, dict]:
    c1, c2 = st.columns(2)
    c1.selectbox("Success criterion", [AUTO] + criterion_names(), key=CRITERION,
                 format_func=lambda n: "auto (contains the expected answer, else differs from the clean answer)"
                 if n == AUTO else n,
                 help="An answer judged not correct is an attack success. differs: the perturbed prompt's answer "
                      "differs from the clean prompt's answer (no expected answer needed).")
    name = st.session_state[CRITERION]
    if name == AUTO:
        name = "contains" if has_expected else "differs"
    params: dict = {}
    if name == "regex":
        c2.text_input("Pattern (regular expression)", key=PATTERN)
        params["pattern"] = st.session_state[PATTERN]
    elif name in ("bleu", "differs"):
        c2.number_input("Threshold (empty: the default)", value=None, key=THRESHOLD,
                        help="bleu: 20 by default; differs: similarity 0.8 for long answers")
        if st.session_state[THRESHOLD] is not None:
            params["threshold"] = float(st.session_state[THRESHOLD])
    elif name == "judge":
        c2.text_input("Judge model SPEC", key=JUDGE, placeholder="openai:gpt-4o-mini")
        if st.session_state[JUDGE].strip():
            params["spec"] = st.session_state[JUDGE].strip()
    return name, params


def _prompt_mode():
    """(spec options, the dissection, offline SER) for this prompt, or None with guidance shown."""
    dissection = state.get_dissection()
    if dissection is None:
        st.info("There is no dissection yet. Dissect a prompt first (the run perturbs its components), or switch to "
                "**Dataset** to run over a dataset's instances.")
        st.page_link("app_pages/dissect.py", label="Go to Dissect", icon=":material/biotech:")
        return None
    st.caption(f"The dissected prompt · {len(dissection.prompt):,} characters · "
               f"{', '.join(c.value for c in dissection.components()) or 'no components'} · "
               f"{state.get_dissector() or 'unknown dissector'}")
    variants = state.get_variants(fresh_only=True)
    offline = True
    if variants is not None:
        st.toggle("Use the Perturb page's settings", key=USE_PERTURB,
                  help="Its cells, n, seed, ratio and filter; the run makes the same seeded variants again.")
    if variants is not None and st.session_state[USE_PERTURB]:
        s = variants.result.settings
        grid = _perturb_grid(s)
        offline = s.offline_ser
        st.caption(f"From the Perturb page: {len(s.cells)} cell(s) · n={s.n} · seed {s.seed} · ratio {s.ratio:g} · "
                   + ("no PPL filter" if grid["keep_top"] is None else f"keep top {grid['keep_top']:.0%}"))
    else:
        present = [c.value for c in dissection.components()] + [DEFAULT_COMPONENTS[-1]]
        grid = _grid([c for c in DEFAULT_COMPONENTS if c in present])
    st.text_input("Expected answer (optional)", key=EXPECTED,
                  help="Empty: the criterion compares each answer with the clean prompt's answer.")
    expected = st.session_state[EXPECTED].strip() or None
    criterion, params = _criterion(expected is not None)
    return {**grid, "criterion": criterion, "criterion_params": params}, dissection, offline, expected


def _dataset_source() -> str | None:
    """The chosen dataset file's path, or None (with guidance)."""
    found = engine.dataset_files()
    st.selectbox("Dataset", list(found) + [UPLOAD_SOURCE, PATH_SOURCE], key=SOURCE,
                 help=f"-PA datasets in {engine.dataset_dir()}, or a file of your own with a column mapping.")
    source = st.session_state[SOURCE]
    if source in found:
        return found[source]
    if source == UPLOAD_SOURCE:
        upload = st.file_uploader("File", type=["csv", "tsv", "jsonl", "ndjson", "json"], key=UPLOAD)
        if upload is None:
            st.info("Upload a CSV, JSONL or JSON file with one instance a row, or pick a -PA dataset.")
            return None
        saved = st.session_state.get("pa.run.upload_file")
        if not saved or saved[0] != (upload.name, upload.size, upload.file_id):
            saved = ((upload.name, upload.size, upload.file_id), ui_run.save_upload(upload.name, upload.getvalue()))
            st.session_state["pa.run.upload_file"] = saved
        return saved[1]
    st.text_input("Path", key=PATH, placeholder="/data/my_prompts.jsonl")
    if not st.session_state[PATH].strip():
        st.info("Give the path of a CSV, JSONL or JSON file, or pick a -PA dataset.")
        return None
    return st.session_state[PATH].strip()


def _dataset_mode():
    path = _dataset_source()
    if path is None:
        return None
    mapping = {"prompt": None, "tagged": None, "answer": None}
    if st.session_state[SOURCE] in (UPLOAD_SOURCE, PATH_SOURCE):
        try:
            columns = ui_run.columns_of(path)
        except (OSError, ValueError) as exc:
            st.error(f"Cannot read {path}: {exc}")
            return None
        if "context_output" not in columns:
            if not columns:
                st.error(f"{path}: no columns found (a CSV needs a header row; JSON lines need objects).")
                return None
            st.caption("Column mapping: which column holds what.")
            for key in (COL_PROMPT, COL_TAGGED, COL_ANSWER):
                if st.session_state.get(key) not in [NONE] + columns:
                    st.session_state.pop(key, None)
            c = st.columns(3)
            c[0].selectbox("Prompt column (plain text)", [NONE] + columns, key=COL_PROMPT,
                           index=1 + columns.index("prompt") if "prompt" in columns else 1)
            c[1].selectbox("Tagged column (XML tags; wins over the prompt)", [NONE] + columns, key=COL_TAGGED)
            c[2].selectbox("Answer column", [NONE] + columns, key=COL_ANSWER,
                           index=1 + columns.index("answer") if "answer" in columns else 0)
            mapping = {k: (st.session_state[key] if st.session_state[key] != NONE else None)
                       for k, key in (("prompt", COL_PROMPT), ("tagged", COL_TAGGED), ("answer", COL_ANSWER))}
            if mapping["prompt"] is None and mapping["tagged"] is None:
                st.error("Choose the prompt column or the tagged column: the instances' text comes from one of them.")
                return None
    st.number_input("Instances (the first N)", min_value=1, max_value=10_000, step=1, key=LIMIT)
    from promptanatomy_core.dataset_input import DatasetInputError

    try:
        instances = ui_run.read_dataset(path, limit=int(st.session_state[LIMIT]), **mapping)
    except DatasetInputError as exc:
        st.error(f"The dataset cannot be read with this mapping: {exc}")
        return None
    st.caption(f"{len(instances)} instance(s) · {sum(i.expected is not None for i in instances)} with an expected "
               f"answer")
    grid = _grid(list(DEFAULT_COMPONENTS))
    criterion, params = _criterion(any(i.expected is not None for i in instances))
    return {**grid, "criterion": criterion, "criterion_params": params}, instances


def _progress(box):
    bar = box.progress(0.0, text="Starting…")

    def update(ev) -> None:
        label = {"request": "Requests", "judge": "Judging"}.get(ev.stage, ev.stage)
        box.update(label=f"{label}: {ev.done} of {ev.total}")
        bar.progress(min(ev.done / max(ev.total, 1), 1.0), text=f"{label} · {ev.model}: {ev.done} of {ev.total}")

    return update


def _finish(out, last_error, dissection_key: str | None = None) -> None:
    """Keep the outcome for the page and the sidebar (``dissection_key``: the dissection a prompt run came from)."""
    st.session_state[ui_run.LAST] = {"run_id": out.run_id, "status": out.status, "answered": out.answered,
                                     "already": out.already, "errors": out.errors, "judged": out.judged,
                                     "error": last_error, "dissection_key": dissection_key}
    st.session_state.pop(ui_run.PLAN, None)


def _execute(planned, models, name, dissection_key: str | None) -> None:
    try:
        runners = ui_run.build_runners(models)
    except Exception as exc:  # noqa: BLE001 - a missing key or a bad SPEC: the message says which
        st.error(f"Cannot start: {exc}")
        return
    st.button("Stop", key=STOP, icon=":material/stop:",
              help="Stops after the answers in flight; what finished stays stored and the run can be resumed.")
    with st.status("Running the experiment…", expanded=True) as box:
        try:
            out, last_error = ui_run.start(planned, runners, name, _progress(box))
        except RunBusyError as exc:  # the plan stays: Start again once the other execution is done
            ui_run.not_started(box, exc)
            return
        except Exception as exc:  # noqa: BLE001 - the store keeps what finished; the run shows as interrupted
            box.update(label="Failed", state="error")
            st.error(f"The run stopped ({type(exc).__name__}): {exc}. What finished is stored; resume it below.")
            st.session_state.pop(ui_run.PLAN, None)
            return
        box.update(label=f"Run #{out.run_id}: {out.status}", state="complete" if not out.errors else "error")
    _finish(out, last_error, dissection_key)


def _estimate(planned) -> None:
    est, sizes = planned.estimate, planned.plan.sizes()
    t = est.total
    m = st.columns(5)
    m[0].metric("Requests", t["requests"])
    m[1].metric("To send", t["to_send"])
    m[2].metric("Cache hits", t["cache_hits"])
    m[3].metric("Input tokens", sum(e.input_tokens for e in est.models))
    m[4].metric("Dollars", "unknown" if t["dollars"] is None else f"≤ ${t['dollars']:.4f}",
                help="An upper bound: every answer as long as max tokens. Unknown: a model without a price.")
    hint = ui_run.time_hint(est)
    st.caption(f"Estimate: {sizes['instances']} instance(s) · {sizes['variants']} variant(s) + {sizes['clean']} clean "
               f"prompt(s) × {sizes['models']} model(s) · {sizes['skipped_cells']} cell(s) skipped"
               + (f" · local model time: {hint}" if hint else "")
               + (f" · carries on stored run #{planned.run_id} (only what it lacks)" if planned.run_id else ""))


st.title("Run an experiment")
st.caption("Perturb the prompt's components, send every variant to the sidebar's models, judge the answers and keep "
           "everything in the run store. The estimate comes first; nothing is sent before **Start**.")
state.keep_widgets({MODE: MODES[0], USE_PERTURB: True, COMPONENTS_PICK: list(DEFAULT_COMPONENTS),
                    STRATEGIES_PICK: ["SCI", "WOD"], N: 1, SEED: 0, RATIO: 0.1, KEEP: "none", EXPECTED: "",
                    CRITERION: AUTO, PATTERN: "", JUDGE: "", PATH: "", LIMIT: 5, NAME: ""})
st.radio("Run on", MODES, key=MODE, horizontal=True)

models = models_sidebar.selected_models()
spec = error = None
dissection, offline = None, True
if st.session_state[MODE] == MODES[0]:
    chosen = _prompt_mode()
    if chosen is not None:
        options, dissection, offline, expected = chosen
else:
    chosen = _dataset_mode()
    if chosen is not None:
        options, instances = chosen
if chosen is not None:
    st.text_input("Run name (optional)", key=NAME)
    if not models:
        st.warning("No model is selected: pick one under **Models** in the sidebar (`local` is the embedded one).")
    else:
        first = models[0]
        settings = {"models": tuple(m.spec for m in models), "max_tokens": first.max_tokens,
                    "temperature": first.temperature, "system_mode": first.system_mode,
                    "name": st.session_state[NAME].strip()}
        st.caption(f"Models: {', '.join(settings['models'])} · max tokens {first.max_tokens} · temperature "
                   f"{first.temperature:g} · sent as {first.system_mode} (the first model's settings)")
        try:
            if dissection is not None:
                spec = ui_run.prompt_spec(dissection, state.get_dissector(), state.dissection_key(dissection),
                                          expected, **options, **settings)
            else:
                from promptanatomy_core.experiment import ExperimentSpec

                spec = ExperimentSpec(instances=tuple(instances), **options, **settings)
            spec.criterion_object()
        except (ExperimentError, ValueError) as exc:
            spec = None
            st.error(f"Cannot run with these settings: {exc}")

if spec is not None:
    planned = st.session_state.get(ui_run.PLAN)
    current = planned is not None and planned.key == ui_run.spec_key(spec)
    b1, b2, _ = st.columns([1, 1, 3])
    if b1.button("Estimate", key=ESTIMATE, icon=":material/calculate:",
                 help="Perturb (and score) the prompts and count what would be sent and cost; sends nothing."):
        with st.status("Planning: dissecting and perturbing…", expanded=False) as box:
            bar = box.progress(0.0)
            try:
                planned = ui_run.make_plan(
                    spec, offline_ser=offline, dissection=dissection,
                    progress=lambda stage, done, total: bar.progress(
                        done / max(total, 1), text=ui_run.plan_progress_text(stage, done, total)))
            except (ExperimentError, PerturbError, ValueError, RuntimeError) as exc:
                box.update(label="Planning failed", state="error")
                st.error(f"Cannot plan this run: {exc}")
                planned = None
            else:
                box.update(label="Planned", state="complete")
                st.session_state[ui_run.PLAN] = planned
                current = True
    if current:
        _estimate(planned)
        if b2.button("Start", key=START, type="primary", icon=":material/play_arrow:"):
            _execute(planned, models, spec.name,
                     state.dissection_key(dissection) if dissection is not None else None)
    else:
        b2.button("Start", key=START, type="primary", icon=":material/play_arrow:", disabled=True,
                  help="Estimate first: the estimate shows what Start will send.")

last = st.session_state.get(ui_run.LAST)
if last is not None:
    run_id = last["run_id"]
    text = (f"Run #{run_id}: {last['status']} · {last['answered']} answered now, {last['already']} before, "
            f"{last['judged']} judged")
    if last["errors"]:
        st.error(f"{text} · {last['errors']} request(s) failed (last: {last['error']}). Start again to retry them.")
    elif last["status"] == "done":
        st.success(text)
    else:
        st.warning(text + " · interrupted: resume it below.")
    if state.run_stale(last):
        st.warning(f"Run #{run_id} was made from an earlier version of the prompt or of its labels: its results do "
                   f"not describe the current dissection. Estimate and Start again for that.")
    if st.button("Open in Results", key="run.open_results", icon=":material/grid_on:",
                 on_click=ui_run.show_in_results, args=(run_id,)):
        st.switch_page(ui_run.RESULTS_PAGE)

stopped = ui_run.interrupted_runs()
if stopped:
    with st.expander(f"Interrupted runs ({len(stopped)})"):
        by_id = {r.id: r for r in stopped}
        st.selectbox("Run", list(by_id), key=RESUME_PICK,
                     format_func=lambda i: f"#{i} · {by_id[i].name} · {by_id[i].responses} of {by_id[i].requests} "
                                           f"answered")
        if st.button("Resume", key=RESUME, icon=":material/replay:",
                     help="Sends only what the run lacks, with the sidebar's keys."):
            info = by_id[st.session_state[RESUME_PICK]]
            try:
                runners = ui_run.build_runners(ui_run.run_models(tuple(info.spec.get("models", ())), models))
            except Exception as exc:  # noqa: BLE001
                st.error(f"Cannot resume: {exc}")
            else:
                with st.status(f"Resuming run #{info.id}…", expanded=True) as box:
                    try:
                        out, last_error = ui_run.resume_run(info.id, runners, _progress(box))
                    except RunBusyError as exc:
                        ui_run.not_started(box, exc)
                    except Exception as exc:  # noqa: BLE001
                        box.update(label="Failed", state="error")
                        st.error(f"The run stopped ({type(exc).__name__}): {exc}. What finished is stored.")
                    else:
                        _finish(out, last_error)
                        st.rerun()
