"""Lane colours for the pictures: neighbouring lanes far apart, no two lanes of a wave alike.

16 hues stepped by 7/16 of the circle (lane i and i+1 differ by 157.5 degrees of hue, i and
i+2 by 45), and a different lightness for each group of 16 lanes, so lanes 0 and 16 share a
hue but not a colour and all 64 lanes of a wave have distinct colours. Every colour is light
enough for black text.
"""

from __future__ import annotations

import colorsys

HUES = 16
HUE_STEP = 7  # coprime with 16: the 16 hues are all visited
LIGHTNESS = (0.78, 0.64, 0.84, 0.70)  # per group of 16 lanes
SATURATION = 0.9


def lane_rgb(lane: int) -> tuple[int, int, int]:
    """The colour of `lane` as 0..255 RGB."""
    hue = (lane * HUE_STEP) % HUES / HUES
    light = LIGHTNESS[(lane // HUES) % len(LIGHTNESS)]
    r, g, b = colorsys.hls_to_rgb(hue, light, SATURATION)
    return round(r * 255), round(g * 255), round(b * 255)


def lane_colour(lane: int) -> str:
    """The colour of `lane` as #rrggbb."""
    return "#{:02x}{:02x}{:02x}".format(*lane_rgb(lane))
