// WCAG AA contrast of every text/background pair the views draw, in every theme.
#include "ui/palette.h"

#include <catch2/catch.hpp>

using namespace imquiz::ui;

TEST_CASE("palette contrast") {
    SECTION("the contrast formula matches WCAG's reference values") {
        REQUIRE(contrast_ratio(rgb(0x000000), rgb(0xFFFFFF)) == Approx(21.0));
        REQUIRE(contrast_ratio(rgb(0x777777), rgb(0xFFFFFF)) == Approx(4.48).margin(0.01));
        REQUIRE(contrast_ratio(rgb(0x123456), rgb(0x123456)) == Approx(1.0));
    }
    struct Named {
        const char* name;
        Palette palette;
    };
    const Named palettes[] = {{"light", light_palette()},
                              {"dark", dark_palette()},
                              {"high contrast light", high_contrast_palette(false)},
                              {"high contrast dark", high_contrast_palette(true)}};
    for (const auto& [name, p] : palettes) {
        SECTION(std::string("text is readable in ") + name) {
            INFO(name);
            // Body and muted text on the page, on cards and on hovered cards.
            for (uint32_t surface : {p.background, p.surface, p.surface_hover, p.accent_soft}) {
                CHECK(contrast_ratio(p.text, surface) >= 4.5);
                CHECK(contrast_ratio(p.text_muted, surface) >= 4.5);
            }
            // Verdict colours on their own soft backgrounds and on cards.
            CHECK(contrast_ratio(p.correct, p.correct_soft) >= 4.5);
            CHECK(contrast_ratio(p.wrong, p.wrong_soft) >= 4.5);
            CHECK(contrast_ratio(p.correct, p.surface) >= 4.5);
            CHECK(contrast_ratio(p.wrong, p.surface) >= 4.5);
            // Button labels, and link-style buttons on the page.
            CHECK(contrast_ratio(p.on_accent, p.accent) >= 4.5);
            CHECK(contrast_ratio(p.on_accent, p.accent_hover) >= 4.5);
            CHECK(contrast_ratio(p.dark ? p.accent_hover : p.accent, p.background) >= 4.5);
            // The text on the soft verdict backgrounds (feedback under a choice).
            CHECK(contrast_ratio(p.text, p.correct_soft) >= 4.5);
            CHECK(contrast_ratio(p.text, p.wrong_soft) >= 4.5);
            // Non-text UI (borders of selected/right/wrong cards): WCAG 1.4.11 asks 3:1.
            CHECK(contrast_ratio(p.accent, p.surface) >= 3.0);
        }
    }
}

TEST_CASE("palette contrast: syntax colours of code") {
    struct Named {
        const char* name;
        Palette palette;
    };
    const Named palettes[] = {{"light", light_palette()},
                              {"dark", dark_palette()},
                              {"high contrast light", high_contrast_palette(false)},
                              {"high contrast dark", high_contrast_palette(true)}};
    const char* const kinds[] = {"keyword", "string",   "number",      "comment",  "function", "type",
                                 "builtin", "operator", "punctuation", "property", "variable", "constant"};
    for (const auto& [name, p] : palettes) {
        SECTION(std::string("every kind is readable on a code block in ") + name) {
            CodeColours colours = code_colours(p);
            for (std::size_t kind = 0; kind < colours.size(); ++kind) {
                INFO(name << ": " << kinds[kind] << " " << contrast_ratio(colours[kind], p.surface_hover) << ":1");
                // A code block's background, on the canvas (rich_text.cpp draws it surface_hover).
                CHECK(contrast_ratio(colours[kind], p.surface_hover) >= 4.5);
                // The mirror's panel behind its <pre> (rich.css's .tok-* carry these values).
                CHECK(contrast_ratio(colours[kind], p.surface) >= 4.5);
            }
        }
    }
    SECTION("each palette has its own set, and a keyword stands out from the plain text") {
        for (std::size_t a = 0; a < 4; ++a) {
            CHECK(code_colours(palettes[a].palette)[0] != palettes[a].palette.text);
            for (std::size_t b = a + 1; b < 4; ++b)
                CHECK(code_colours(palettes[a].palette) != code_colours(palettes[b].palette));
        }
    }
}
