#!/usr/bin/env bash
# Renders the SVG sources into the PNGs the app embeds (Qt shows PNGs without its SVG plugin,
# which a minimal Qt install lacks). Needs ImageMagick. Run after changing an SVG here.
set -euo pipefail
cd "$(dirname "$0")"
for s in 16 32 48 64 128 256; do
    convert -background none -density 300 sluice.svg -resize "${s}x${s}" "sluice-$s.png"
done
# Navigation icons: drawn at 24, shown at 20, rendered at 40 for high-DPI screens.
for f in nav/*.svg; do
    convert -background none -density 600 "$f" -resize 40x40 "${f%.svg}.png"
done
