// The colours of ImQuiz, free of ImGui so the contrast rules can be unit-tested natively.
// Colours are packed like ImGui's ImU32 (IM_COL32: 0xAABBGGRR).
#pragma once

#include "engine/rich_text.h"

#include <array>
#include <cstdint>

namespace imquiz::ui {

enum class ThemeChoice { System, Light, Dark };

// WCAG AA: every text colour has at least 4.5:1 contrast on the surfaces it is drawn on
// (tests/unit/test_ui_palette.cpp checks each pair).
struct Palette {
    uint32_t background;
    uint32_t surface;          // cards
    uint32_t surface_hover;
    uint32_t border;
    uint32_t text;
    uint32_t text_muted;
    uint32_t accent;           // primary buttons, selection, focus
    uint32_t accent_hover;
    uint32_t on_accent;        // text on accent
    uint32_t accent_soft;      // selected card background
    uint32_t correct;          // text and icons for "right"
    uint32_t correct_soft;     // background of a right answer
    uint32_t wrong;
    uint32_t wrong_soft;
    bool dark;
};

Palette light_palette();
Palette dark_palette();
Palette high_contrast_palette(bool dark);

// Syntax colours of code blocks, one per CodeKind (engine/rich_text.h), for the palette they
// are drawn with; each has at least 4.5:1 on the code block's background (surface_hover), and
// web/app.css gives the mirror's .tok-* classes the same values (its backgrounds are further
// from them still).
using CodeColours = std::array<uint32_t, static_cast<std::size_t>(CodeKind::Count)>;
CodeColours code_colours(const Palette& palette);

// 0xRRGGBB as written in design tools -> packed colour.
constexpr uint32_t rgb(uint32_t hex, uint32_t alpha = 255) {
    return ((hex >> 16) & 0xFF) | (((hex >> 8) & 0xFF) << 8) | ((hex & 0xFF) << 16) | (alpha << 24);
}

// WCAG 2.1 contrast ratio of two opaque colours (1..21).
double contrast_ratio(uint32_t a, uint32_t b);

}  // namespace imquiz::ui
