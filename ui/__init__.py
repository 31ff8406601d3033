"""Streamlit helpers shared by the pages: session state (state), cached engine wrappers (engine), widgets
(components), and pure presentation code (highlight, summary). The engine, promptanatomy_core, never imports this."""
