"""Dissect: paste, upload or pick a prompt, label each sentence with its components, fix labels by hand, download."""
import streamlit as st

from promptanatomy_core.datasets import DatasetError
from promptanatomy_core.tagged import TagError
from promptanatomy_core.text import MAX_PROMPT_CHARS, PromptError, validate_prompt
from ui import components, engine, state

AREA = "dissect.prompt_area"
UPLOAD = "dissect.upload"
EXAMPLE = "dissect.example"
DATASET = "dissect.dataset"
RECORD = "dissect.record"
FLASH = "dissect.flash"


def _load(text: str, gold: state.GoldExample | None = None) -> None:
    st.session_state[AREA] = text
    state.set_prompt(text)
    state.set_gold(gold)


def _flash(message: str) -> None:
    st.session_state.setdefault(FLASH, []).append(message)


def _on_upload() -> None:
    file = st.session_state.get(UPLOAD)
    if file is not None:
        try:
            _load(validate_prompt(file.getvalue()))
        except PromptError as exc:
            _flash(f"Cannot use the file {file.name}: {exc}")


def _on_example() -> None:
    title = st.session_state.get(EXAMPLE)
    if title:
        _load(engine.example_prompts()[title])


def _on_record(path: str) -> None:
    index = int(st.session_state.get(RECORD, 0))
    try:
        record = engine.dataset(path).record(index)
        gold = record.gold()
    except (DatasetError, TagError, OSError) as exc:
        _flash(f"Cannot load record {index}: {exc}")
    except KeyError as exc:
        _flash(f"Cannot load that record: {exc.args[0]}")
    else:
        _load(gold.prompt, state.GoldExample(record.dataset, record.index, record.answer, gold))


def _use_gold(gold: state.GoldExample) -> None:
    state.set_dissection(gold.dissection, "gold")


st.title("Dissect a prompt")
st.caption("Split a prompt into its components — **Role**, **Directive**, **Additional Information**, "
           "**Output Formatting**, **Examples** — sentence by sentence.")

for message in st.session_state.pop(FLASH, []):
    st.error(message)

left, right = st.columns([3, 2], gap="large")
with right:
    upload_tab, example_tab, dataset_tab = st.tabs(["Upload", "Examples", "Datasets"])
    with upload_tab:
        st.file_uploader("A .txt or .md file", type=["txt", "md"], key=UPLOAD, on_change=_on_upload)
    with example_tab:
        examples = engine.example_prompts()
        st.selectbox("Example prompt", list(examples), key=EXAMPLE)
        st.button("Load example", key="dissect.load_example", on_click=_on_example)
    with dataset_tab:
        files = engine.dataset_files()
        if not files:
            st.caption(f"No datasets found. Put the PACP `*.json` files in `{engine.dataset_dir()}` "
                       "or set `PROMPTANATOMY_DATA_DIR` to their folder.")
        else:
            name = st.selectbox("Dataset", list(files), key=DATASET, index=None, placeholder="Choose a dataset")
            if name:
                try:
                    ds = engine.dataset(files[name])
                except DatasetError as exc:
                    st.error(str(exc))
                else:
                    skipped = (f"; {len(ds.skipped)} skipped (error strings without component tags)"
                               if ds.skipped else "")
                    st.caption(f"{len(ds.records)} of {ds.total} records usable{skipped}.")
                    st.number_input("Record index", min_value=0, max_value=max(ds.total - 1, 0), step=1, key=RECORD)
                    st.button("Load record", key="dissect.load_record", on_click=_on_record, args=(files[name],))

with left:
    if AREA not in st.session_state:  # widget state is dropped while another page is shown: restore it
        st.session_state[AREA] = state.get_prompt()
    prompt = st.text_area("Prompt", key=AREA, height=300,
                          placeholder="Paste a prompt here, upload a file, or load an example.")
    state.set_prompt(prompt)

    name, model, timeout = state.dissector_setting()
    label = engine.dissector_label(name, model)
    b1, b2 = st.columns([1, 4], vertical_alignment="center")
    run = b1.button("Dissect", type="primary", key="dissect.run", width="stretch")
    b2.caption(f"Dissector: **{label}** (change it in the sidebar) · {len(prompt):,} of "
               f"{MAX_PROMPT_CHARS:,} characters")
    if run:
        uses_model = name in engine.MODEL_DISSECTORS
        slow = " A local model on CPU can take tens of seconds." if uses_model else ""
        stop = b1.empty()
        if uses_model:
            stop.button("Stop", key="dissect.stop", icon=":material/stop:", width="stretch",
                        help="Stops after the batch in flight; the answers that landed are cached, so Dissect "
                             "carries on from them.")
        bar = st.empty()

        def progress(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text=f"{label}: {done} of {total} sentence questions answered")

        try:
            with st.spinner(f"Dissecting with {label}…{slow}", show_time=True):
                result = engine.dissect(prompt, name, model, timeout, progress)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a message, never a traceback
            st.error(components.error_message(exc))
        else:
            state.set_dissection(result.dissection, label)
            components.model_problems(result)
        finally:
            stop.empty()
            bar.empty()

gold_box = st.container()  # filled at the end, when hand edits of this run are applied

base = state.get_base_dissection()
if base is None:
    st.info("Paste a prompt (or load one), then press **Dissect**.")
else:
    st.divider()
    if state.is_stale():
        st.warning("The prompt changed after it was dissected: the labels below belong to the earlier text. "
                   "Press **Dissect** again.")
    view = st.container()
    st.subheader("Labels by sentence")
    st.caption("Tick or untick a component (R Role, D Directive, AI Additional Information, OF Output Formatting, "
               "EX Examples) to relabel a sentence by hand; its source becomes *manual*.")
    current = components.label_editor(base, key=f"dissect.editor.{state.dissection_version()}")
    if current != state.get_dissection():
        state.update_dissection(current)
    with view:
        edited = " · edited by hand" if "manual" in current.source_list else ""
        st.subheader(f"Components · {state.get_dissector()}{edited}")
        components.legend()
        components.highlighted(current)
        s1, s2 = st.columns([3, 1], gap="large")
        with s1:
            components.summary_table(current)
        with s2:
            components.downloads(current, state.get_dissector())

if (gold := state.get_gold()) is not None:
    with gold_box.expander(f"Gold labels: {gold.dataset}, record {gold.index}"):
        st.caption(f"Expected answer: {gold.answer}")
        components.gold_agreement(state.get_dissection(), gold.dissection)
        if st.toggle("Show the gold labels", key="dissect.show_gold"):
            components.highlighted(gold.dissection)
            st.button("Use the gold labels as the dissection", key="dissect.use_gold", on_click=_use_gold,
                      args=(gold,))
