#!/usr/bin/env bash
# Regenerates the bundled font subsets (rust-core/app/fonts, OFL-1.1: see OFL.txt) from the
# Debian packages fonts-noto-cjk and fonts-noto-core with fontTools (pip install fonttools).
# Add a character here when a picture needs it: render::png refuses characters the subsets
# lack (PngError::MissingGlyph) and its test lists every glyph Banco draws.
# The library does not read these fonts: PNG pictures draw text with the outlines generated
# from them into rust-core/app/src/render/png/glyphs.rs. After changing a subset, regenerate
# that file (a test fails until it matches the fonts):
#   cargo run -p banco-app --example glyph_outlines
set -euo pipefail
cd "$(dirname "$0")"
pyftsubset /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc --font-number=2 \
  --text="仕俥傌兵卒士將帥炮相砲象車馬楚河漢界暗" --output-file=banco-cjk.otf \
  --name-IDs='*' --no-hinting --desubroutinize
pyftsubset /usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf \
  --unicodes="U+2654-265F" --output-file=banco-chess.ttf --no-hinting
pyftsubset /usr/share/fonts/truetype/noto/NotoSans-Bold.ttf \
  --unicodes="U+0020-007E" --output-file=banco-latin.ttf --no-hinting --layout-features=''
ls -l banco-*
