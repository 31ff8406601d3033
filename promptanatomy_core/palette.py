"""How the five components are told apart everywhere: a short text badge and an Okabe–Ito colour (colour-blind safe;
hue is never the only cue, the badge always comes with it). The app's CSS (``assets/components.css``) uses the same
colours, with darker or lighter shades for the light and dark themes; plots use these base colours, which keep a
contrast of at least 3:1 on both the light and the dark background."""
from __future__ import annotations

from .types import Component

BADGES: dict[Component, str] = {
    Component.ROLE: "R",
    Component.DIRECTIVE: "D",
    Component.ADDITIONAL_INFORMATION: "AI",
    Component.OUTPUT_FORMATTING: "OF",
    Component.EXAMPLES: "EX",
}

COLOURS: dict[Component, str] = {
    Component.ROLE: "#0072B2",
    Component.DIRECTIVE: "#D55E00",
    Component.ADDITIONAL_INFORMATION: "#009E73",
    Component.OUTPUT_FORMATTING: "#CC79A7",
    Component.EXAMPLES: "#E69F00",
}
