// Colours, spacing and fonts: the look of ImQuiz in one place. Sizes are CSS pixels at text size
// 100%; `Metrics::px` scales a hand-written size by the learner's text-size setting, so no view
// writes a raw pixel number of its own.
#pragma once

#include "ui/glyph_set.h"
#include "ui/palette.h"

#include <imgui.h>

#include <string>

namespace imquiz::ui {

struct Metrics {
    float text_scale = 1.0f;        // learner's text-size setting (0.875 .. 1.5)
    float px(float css_pixels) const { return css_pixels * text_scale; }
    static constexpr float body_size = 18.0f;
    static constexpr float heading_size = 26.0f;
    static constexpr float small_size = 15.0f;
    static constexpr float content_max_width = 760.0f;
};

// The faces of one size, for Markdown texts (ui/rich_text.h). Until their files have come (they
// are fetched only for Markdown banks), or where one could not be had, each is the regular face.
struct Faces {
    ImFont* regular = nullptr;
    ImFont* bold = nullptr;
    ImFont* italic = nullptr;
    ImFont* bold_italic = nullptr;
    ImFont* mono = nullptr;
};

struct Fonts {
    ImFont* body = nullptr;
    ImFont* heading = nullptr;
    ImFont* small = nullptr;
    Faces body_faces, heading_faces, small_faces;
};

// The TrueType files: Noto Sans always; its bold, italic and bold italic and DejaVu Sans Mono
// once a Markdown bank has asked for them (empty until then).
struct FontFiles {
    const std::string* regular = nullptr;
    const std::string* bold = nullptr;
    const std::string* italic = nullptr;
    const std::string* bold_italic = nullptr;
    const std::string* mono = nullptr;
};

// Rebuilds the font atlas for this text scale and device pixel ratio: glyphs are rasterised at
// size * ratio and drawn at 1 / ratio, so text stays crisp at devicePixelRatio 2 and 3. Only the
// characters in `glyphs`: the others show as "?" until they are added and the atlas rebuilt.
// The files and the glyph set must outlive the atlas (they are not copied).
Fonts build_fonts(const FontFiles& files, const GlyphSet& glyphs, float text_scale, float device_pixel_ratio);

// ImGui's own style (spacing, rounding, colours of stock widgets) from our palette.
void apply_style(const Palette& palette, const Metrics& metrics);

}  // namespace imquiz::ui
