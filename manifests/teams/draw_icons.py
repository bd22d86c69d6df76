"""Draw the Teams app icons: `color.png` (192×192) and `outline.png` (32×32, white on transparent).

A speech bubble holding three lines of text, the last one ending in a citation mark: a question
answered from documents. Run `python manifests/teams/draw_icons.py` after changing it; the PNGs
are committed (Pillow is a dev dependency only).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
ACCENT = (31, 111, 120, 255)  # #1F6F78, the manifest's accentColor
WHITE = (255, 255, 255, 255)
SCALE = 8  # draw large, then shrink: smooth edges without a font or an SVG renderer


def _bubble(draw: ImageDraw.ImageDraw, size: int, *, width: int | None) -> None:
    """The bubble in a `size` square; filled white when `width` is None, else outlined."""
    left, top, right, bottom = size * 0.14, size * 0.18, size * 0.86, size * 0.70
    radius = size * 0.12
    tail = [(size * 0.30, bottom - 1), (size * 0.24, size * 0.86), (size * 0.46, bottom - 1)]
    if width is None:
        draw.rounded_rectangle((left, top, right, bottom), radius=radius, fill=WHITE)
        draw.polygon(tail, fill=WHITE)
        return
    draw.rounded_rectangle((left, top, right, bottom), radius=radius, outline=WHITE, width=width)
    draw.line([tail[0], tail[1], tail[2]], fill=WHITE, width=width, joint="curve")


def _lines(draw: ImageDraw.ImageDraw, size: int, colour: tuple[int, int, int, int], thickness: float) -> None:
    """Three text lines, the last shorter and followed by a small `[1]`-like citation block."""
    left = size * 0.26
    for row, length in enumerate((0.48, 0.40, 0.26)):
        y = size * (0.32 + row * 0.12)
        draw.rounded_rectangle((left, y, left + size * length, y + thickness), radius=thickness / 2, fill=colour)
    y, mark = size * 0.56, size * 0.58
    box = (mark, y - thickness * 0.6, mark + thickness * 1.6, y + thickness * 1.6)
    draw.rectangle(box, outline=colour, width=max(1, int(thickness * 0.45)))


def _outline_lines(draw: ImageDraw.ImageDraw, size: int, thickness: float) -> None:
    """Two text lines: at 32 pixels a third line and the citation mark blur together."""
    left = size * 0.30
    for row, length in enumerate((0.40, 0.26)):
        y = size * (0.34 + row * 0.16)
        draw.rectangle((left, y, left + size * length, y + thickness), fill=WHITE)


def draw_colour(size: int = 192) -> Image.Image:
    """The full-colour icon: a white bubble on the accent colour."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), ACCENT)
    draw = ImageDraw.Draw(image)
    _bubble(draw, big, width=None)
    _lines(draw, big, ACCENT, big * 0.05)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def draw_outline(size: int = 32) -> Image.Image:
    """The outline icon: white strokes on transparency only (Teams tints it)."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _bubble(draw, big, width=int(big * 0.07))
    _outline_lines(draw, big, big * 0.07)
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    # Every visible pixel white: only the alpha channel carries the shape.
    alpha = small.getchannel("A")
    white = Image.new("RGBA", (size, size), WHITE)
    white.putalpha(alpha)
    return white


def main() -> None:
    """Write both PNGs beside the manifest."""
    draw_colour().save(HERE / "color.png", optimize=True)
    draw_outline().save(HERE / "outline.png", optimize=True)


if __name__ == "__main__":
    main()
