"""PromptAnatomy Studio — the Streamlit entry point: page config, shared sidebar, navigation over pages/."""
import streamlit as st

from ui import components

st.set_page_config(page_title="PromptAnatomy Studio", page_icon=":material/biotech:", layout="wide")
components.inject_css()

page = st.navigation([
    st.Page("pages/dissect.py", title="Dissect", icon=":material/biotech:", default=True),
])
components.settings_sidebar()
page.run()
