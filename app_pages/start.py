"""Start: paste or pick a prompt, see what the one-button analysis will send and how long it should take, press
**Analyse** and watch dissection → perturbations → answers → heatmaps, stage by stage; stop at any time."""
import html
import itertools

import streamlit as st

from promptanatomy_core import glossary, report
from promptanatomy_core.store import RunBusyError
from promptanatomy_core.text import MAX_PROMPT_CHARS
from ui import components, engine, models_sidebar, quick, state
from ui import results as ui_results
from ui import run as ui_run

AREA = "start.prompt"
EXAMPLE = "start.example"
EXPECTED = "start.expected"
SAMPLES = "start.samples"
MAX_TOKENS = "start.max_tokens"
SEED = "start.seed"
ANALYSE = "start.analyse"
STOP = "start.stop"


def _on_example() -> None:
    title = st.session_state.get(EXAMPLE)
    if title:
        st.session_state[AREA] = engine.example_prompts()[title]
        state.set_prompt(st.session_state[AREA])


def _dissection(prompt: str, box):
    """The current dissection when it is this prompt's (hand edits kept), else a new one by the sidebar's dissector
    (a model dissector's answers counted in a progress bar in ``box``, so Stop can interrupt it)."""
    current = state.get_dissection()
    if current is not None and current.prompt == prompt:
        return current, state.get_dissector()
    name, model, timeout = state.dissector_setting()
    label = engine.dissector_label(name, model)
    bar = box.empty()
    result = engine.dissect(prompt, name, model, timeout, lambda done, total: bar.progress(
        done / max(total, 1), text=f"{label}: {done} of {total} sentence questions answered"))
    state.set_dissection(result.dissection, label)
    components.model_problems(result)
    return result.dissection, label


def _draw(box, p: quick.Partial, tag: str) -> None:
    """The partial (or final) results of a run into the container ``box`` (``tag``: unique per draw in a run)."""
    with box.container():
        if p.frame.empty:
            st.caption(f"Run #{p.run_id}: {p.responses} of {p.requests} answered · waiting for the clean prompt's "
                       f"answer before judging.")
            return
        flt = report.default_filter(p.frame)
        for mod in report.models(p.frame):
            cols = st.columns(2)
            for col, metric in zip(cols, report.METRICS):
                col.plotly_chart(report.heatmap_figure(p.frame, mod, metric, flt), width="stretch",
                                 key=f"start.heat.{tag}.{mod}.{metric}")


def _analyse(prompt: str, models: list, settings: quick.QuickSettings, expected: str | None) -> None:
    """Dissect → perturb and filter → send → judge, each stage in the status box, the heatmaps drawn below it as
    the answers land. Stopping (any click) interrupts at the next answer; the run store keeps what landed."""
    status_area, live = st.container(), st.empty()
    draws = itertools.count()
    with status_area, st.status("Analysing…", expanded=True) as box:
        box.write("**1 · Dissecting** the prompt into components…")
        try:
            dissection, label = _dissection(prompt, box)
        except Exception as exc:  # noqa: BLE001 - a bad prompt or a failing model: a message, never a traceback
            box.update(label="Dissection failed", state="error")
            st.error(components.error_message(exc))
            return
        parts = ", ".join(c.value for c in dissection.components()) or "no component"
        box.write(f"Dissected by {label}: {len(dissection.sentences)} sentences · {parts}.")
        box.write(f"**2 · Perturbing** every component × strategy ({settings.candidates} candidates a cell) and "
                  f"keeping the {settings.keep_top:.0%} with the highest perplexity ratio…")
        spec = quick.quick_spec(dissection, label, state.dissection_key(dissection), models, settings, expected)
        bar = box.progress(0.0, text="Perturbing…")
        try:
            planned = ui_run.make_plan(spec, offline_ser=True, dissection=dissection,
                                       progress=lambda stage, done, total: bar.progress(
                                           done / max(total, 1), text=ui_run.plan_progress_text(stage, done, total)))
            runners = ui_run.build_runners(models)
        except Exception as exc:  # noqa: BLE001 - missing WordNet, a model that cannot load, a missing key
            box.update(label="Cannot run", state="error")
            st.error(f"Cannot run the analysis: {exc}")
            return
        sizes = planned.plan.sizes()
        box.write(f"{sizes['variants']} variants made; {len(planned.plan.requests)} requests to send "
                  f"({planned.estimate.total['cache_hits']} already in the cache).")
        box.write("**3 · Asking** the model(s) — the heatmaps below fill in as the answers land…")
        answers = box.progress(0.0, text="Sending…")
        draw = quick.throttled(lambda p: _draw(live, p, f"live{next(draws)}"))
        key = state.dissection_key(dissection)

        def progress(ev) -> None:
            if ev.run_id is not None and st.session_state.get(quick.LAST, {}).get("run_id") != ev.run_id:
                st.session_state[quick.LAST] = {"run_id": ev.run_id, "dissection_key": key}
            if ev.stage == "request":
                answers.progress(ev.done / max(ev.total, 1), text=f"{ev.model}: {ev.done} of {ev.total} answered")
            else:
                answers.progress(1.0, text=f"**4 · Judging**: {ev.done} of {ev.total}")
            draw(ev)

        try:
            out, last_error = ui_run.start(planned, runners, spec.name, progress)
        except RunBusyError as exc:
            ui_run.not_started(box, exc)
            return
        except Exception as exc:  # noqa: BLE001 - the store keeps what finished; the run shows as interrupted
            box.update(label="The run stopped", state="error")
            st.error(f"The run stopped ({type(exc).__name__}): {exc}. What finished is stored; press Analyse to "
                     f"carry on.")
            return
        st.session_state[quick.LAST] = {"run_id": out.run_id, "dissection_key": key, "settled": True}
        problem = f" · {out.errors} request(s) failed (last: {last_error})" if out.errors else ""
        box.update(label=f"Done: run #{out.run_id} · {out.answered} answered now, {out.already} before{problem}",
                   state="error" if out.errors else "complete", expanded=False)
    live.empty()


def _last_run() -> None:
    """The results of this session's last one-button run (partial when it was stopped), with where to go next."""
    last = st.session_state.get(quick.LAST)
    if last is None:
        return
    try:
        if last.get("settled"):
            p = quick.partial(last["run_id"])
        else:  # just stopped: its execution may still be storing the answers in flight (once per run)
            with st.spinner("Stopping: storing the answers in flight…"):
                p = quick.settled(last["run_id"], timeout=60.0)
            last["settled"] = True
    except Exception as exc:  # noqa: BLE001 - a deleted run or a store that cannot be opened
        st.caption(f"The last analysis (run #{last['run_id']}) cannot be shown: {exc}")
        return
    st.divider()
    st.subheader(f"Results · run #{p.run_id}")
    current = state.get_dissection()
    if state.run_stale(last):
        st.warning("These results belong to an earlier version of the prompt or of its labels: press **Analyse** "
                   "to analyse the current one.")
    if p.status != "done":
        st.warning(f"Stopped: {p.responses} of {p.requests} answers kept ({p.status}). Press **Analyse** to carry "
                   f"on: only what is missing is sent.")
    if p.errors:
        st.error(f"{p.errors} request(s) failed: they count in no cell (a provider error is never an attack success).")
    if current is not None and state.dissection_key(current) == last["dissection_key"]:
        components.legend()
        components.highlighted(current)
    _draw(st.empty(), p, "last")
    if not p.frame.empty:
        flt = report.default_filter(p.frame)
        for mod in report.models(p.frame):
            st.markdown(f"**Most fragile on {html.escape(mod)}**")
            st.markdown(ui_results.ranking_markdown(p.frame, flt, mod))
    c = st.columns(3)
    if c[0].button("Drill down in Results", key="start.results", icon=":material/grid_on:",
                   on_click=ui_run.show_in_results, args=(p.run_id,)):
        st.switch_page(ui_run.RESULTS_PAGE)
    c[1].page_link("app_pages/dissect.py", label="Edit the labels (Dissect)", icon=":material/biotech:")
    c[2].page_link("app_pages/run.py", label="Choose the grid yourself (Run)", icon=":material/play_arrow:")


st.title("PromptAnatomy Studio")
st.caption("Which part of your prompt breaks, on which model — and how badly. Paste a prompt (or pick an example) "
           "and press **Analyse**: it is dissected into components, each component is perturbed five ways, every "
           "variant goes to the sidebar's models, and the heatmaps show the attack success rate (ASR) and ProSA's "
           "prompt sensitivity (PSS) per component × perturbation.")
state.keep_widgets({SAMPLES: quick.QuickSettings.samples, MAX_TOKENS: quick.QuickSettings.max_tokens,
                    SEED: quick.QuickSettings.seed, EXPECTED: ""})

left, right = st.columns([3, 2], gap="large")
with right:
    examples = engine.example_prompts()
    st.selectbox("Example prompt", list(examples), key=EXAMPLE, index=None, placeholder="Pick an example",
                 on_change=_on_example)
    with st.expander("Budget", icon=":material/tune:"):
        st.number_input("Variants sent per cell", min_value=1, max_value=10, step=1, key=SAMPLES,
                        help="After the 20% perplexity filter: 2 sends the top 2 of 10 candidates per cell.")
        st.number_input("Answer length (max tokens)", min_value=4, max_value=2048, step=16, key=MAX_TOKENS,
                        help="Longer answers take longer on the embedded model (CPU).")
        st.number_input("Seed", min_value=0, step=1, key=SEED, help="The same seed makes the same variants.")
        st.text_input("Expected answer (optional)", key=EXPECTED,
                      help="With it, an answer fails when it does not contain the expected answer; without it, when "
                           "it differs from the clean prompt's answer.")
    st.caption("Components: " + " · ".join(f"**{c}**" for c in glossary.COMPONENTS),
               help="\n\n".join(f"**{c}**: {t}" for c, t in glossary.COMPONENTS.items()))
    st.caption("Strategies: " + " · ".join(f"**{s}**" for s in glossary.STRATEGIES),
               help="\n\n".join(f"**{s}**: {t}" for s, t in glossary.STRATEGIES.items()))
    st.page_link("app_pages/about.py", label="How the method works", icon=":material/menu_book:")

with left:
    if AREA not in st.session_state:
        st.session_state[AREA] = state.get_prompt()
    prompt = st.text_area("Prompt", key=AREA, height=260,
                          placeholder="Paste a prompt here, or pick an example on the right.")
    state.set_prompt(prompt)
    models = models_sidebar.selected_models()
    settings = quick.QuickSettings(samples=int(st.session_state[SAMPLES]),
                                   max_tokens=int(st.session_state[MAX_TOKENS]), seed=int(st.session_state[SEED]))
    expected = st.session_state[EXPECTED].strip() or None
    ready = bool(prompt.strip()) and len(prompt) <= MAX_PROMPT_CHARS and bool(models)
    if not models:
        st.warning("No model is selected: pick one under **Models** in the sidebar (`local` is the embedded one).")
    elif not prompt.strip():
        st.info("Paste a prompt or pick an example, then press **Analyse**.")
    elif len(prompt) > MAX_PROMPT_CHARS:
        st.error(f"The prompt has {len(prompt):,} characters; the limit is {MAX_PROMPT_CHARS:,}.")
    else:
        current = state.get_dissection()
        try:
            preview = current if current is not None and current.prompt == prompt else engine.dissect(
                prompt, "rules", "").dissection  # the rules dissector is instant: the count follows the typing
            count = quick.dry_count(preview, state.dissection_key(preview), settings,
                                    tuple(m.spec for m in models))
        except Exception as exc:  # noqa: BLE001 - e.g. unbalanced tags or a prompt the splitter refuses
            st.error(components.error_message(exc))
            ready = False
        else:
            hint = quick.time_estimate(count, settings)
            time_text = f" · local model time: {hint}" if hint else ""
            each = (f"to {models[0].spec}" if len(models) == 1 else
                    f"{count.requests_per_model} to each of {', '.join(m.spec for m in models)}")
            st.markdown(f"**Will send {count.requests:,} request(s)** {each}: {count.cells} cells × "
                        f"{settings.samples} variant(s) + the clean prompt, after scoring {count.candidates:,} "
                        f"candidates{time_text}.",
                        help="Counted before anything runs; answers already in the cache are not sent again.")
    b1, b2, _ = st.columns([1, 1, 3])
    go = b1.button("Analyse", type="primary", key=ANALYSE, icon=":material/play_arrow:", disabled=not ready,
                   width="stretch")
    stop = b2.empty()
    if go:
        stop.button("Stop", key=STOP, icon=":material/stop:", width="stretch",
                    help="Stops at the next answer; the answers that landed stay stored and Analyse carries on from "
                         "them.")

if go:
    _analyse(prompt, models, settings, expected)
    stop.empty()
_last_run()
