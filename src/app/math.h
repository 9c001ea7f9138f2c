// The formulas of Markdown banks ($...$, $$...$$) as the math module typeset them: what the
// canvas draws, the page protocol publishes and the bank's card reports. The engine only finds
// them (BankLoadResult::formulas); MathJax, in the platform's math module, typesets them when a
// bank that has some is read. A formula not typeset (yet, or ever) shows as its TeX.
#pragma once

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

struct MathFormulas {
    // By formula_key, in the order typeset. A list, not a map: a bank has tens of formulas, and
    // every byte of code here is downloaded by learners of plain banks too.
    std::vector<std::pair<std::string, TypesetFormula>> typeset;
    bool asked = false;             // a bank with formulas asked for the module
    bool unavailable = false;       // it failed to load, or this platform has none: TeX stays
    const TypesetFormula* find(std::string_view tex, bool display) const;
    const TypesetFormula* find(std::string_view key) const;
};

}  // namespace imquiz::app
