// The formulas of Markdown banks ($...$, $$...$$) as the math module typeset them: what the
// canvas draws, the page protocol publishes and the bank's card reports. The engine only finds
// them (BankLoadResult::formulas); MathJax, in the platform's math module, typesets them when a
// bank that has some is read. A formula not typeset (yet, or ever) shows as its TeX.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace imquiz::app {

struct TypesetFormula {
    bool ok = false;
    std::string error;              // !ok: why, in MathJax's words (or the module's limits)
    // ok: the size MathJax gave, in ex of the text it stands in, and how far below the
    // baseline its bottom is (the SVG's vertical-align, negative: below).
    float width_ex = 0, height_ex = 0, vertical_align_ex = 0;
    std::string view_box;           // the SVG's viewBox
    std::string body;               // the SVG's content, drawn in currentColor
};

// The module's answer (platform::typeset_math): "ok", width, height, vertical-align, viewBox
// and the SVG's content on lines of their own, or "error" and the message. Anything else (a
// torn or foreign answer) is nullopt: the formula then stays TeX, the app goes on.
std::optional<TypesetFormula> decode_math_answer(std::string_view answer);

// The key a formula is kept under: its TeX and whether it is display math.
std::string formula_key(std::string_view tex, bool display);

// A stand-alone SVG of the formula, `pixel_width` x `pixel_height`, in white: drawn into a
// texture and tinted with the text's colour, one texture serves every palette.
std::string formula_svg(const TypesetFormula& formula, int pixel_width, int pixel_height);

// A typeset formula drawn into a texture at one size (device pixels), by the platform.
struct MathPicture {
    std::string key;                // formula_key, "@", the size: picture_key
    int request = 0;                // the decode on its way; 0 once answered
    std::uint32_t texture = 0;      // 0: not there (yet, or it could not be drawn)
    bool failed = false;
    int last_used = 0;              // the frame that last drew it
};
// What a frame of the canvas wanted and did not have.
struct WantedMathPicture {
    std::string key;
    std::string svg;                // formula_svg
    int width = 0, height = 0;
};
std::string picture_key(std::string_view formula_key, int pixel_width, int pixel_height);

struct MathFormulas {
    // By formula_key, in the order typeset. A list, not a map: a bank has tens of formulas, and
    // every byte of code here is downloaded by learners of plain banks too.
    std::vector<std::pair<std::string, TypesetFormula>> typeset;
    bool asked = false;             // a bank with formulas asked for the module
    bool unavailable = false;       // it failed to load, or this platform has none: TeX stays
    // The textures of formulas at the sizes the canvas drew them (few at a time: a list).
    std::vector<MathPicture> pictures;
    int frame = 0;                  // frames drawn, for letting go of pictures no frame draws
    const TypesetFormula* find(std::string_view tex, bool display) const;
    const TypesetFormula* find(std::string_view key) const;
    const MathPicture* picture(std::string_view key) const;
};

}  // namespace imquiz::app
