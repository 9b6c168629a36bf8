"""The QR code of a room's join link, drawn here (segno), so the big screen needs no network."""

from __future__ import annotations

import io

import segno


def join_qr_svg(link: str) -> bytes:
    """An SVG QR code of `link` that scales to any size (a viewBox, no width or height)."""
    code = segno.make(link, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", omitsize=True, border=2, dark="#000", light="#fff", title=link)
    return out.getvalue()
