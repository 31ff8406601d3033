"""PromptAnatomy Studio — the Streamlit entry point: page config, shared sidebar, navigation over app_pages/.

The pages live in ``app_pages/``, not ``pages/``: while a folder named ``pages`` exists beside this file, Streamlit
(1.67) treats the first run of a server process (and every AppTest run) as an old-style multipage app, and a link
straight to a page (``/dissect``) then runs that page without this file: no sidebar, no CSS, no wide layout.

Pages never call ``st.stop()``: the sidebar's "Your analysis" block is drawn after the page, so that it shows what
the page just did, and a stopped script would leave it out.
"""
import streamlit as st

from ui import components, models_sidebar

st.set_page_config(page_title="PromptAnatomy Studio", page_icon=":material/biotech:", layout="wide")
components.inject_css()

page = st.navigation([
    st.Page("app_pages/start.py", title="Start", icon=":material/rocket_launch:", default=True),
    st.Page("app_pages/dissect.py", title="Dissect", icon=":material/biotech:"),
    st.Page("app_pages/perturb.py", title="Perturb", icon=":material/shuffle:"),
    st.Page("app_pages/run.py", title="Run", icon=":material/play_arrow:"),
    st.Page("app_pages/results.py", title="Results", icon=":material/grid_on:"),
    st.Page("app_pages/about.py", title="About the method", icon=":material/menu_book:"),
])
flow = st.sidebar.container()  # filled after the page ran, so that it shows what the page just did
components.settings_sidebar()
models_sidebar.models_sidebar()
page.run()
with flow:
    components.flow_sidebar()
