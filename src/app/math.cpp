#include "app/math.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace imquiz::app {

namespace {

// The next line of `rest` (without its newline), consumed; nullopt at the end.
std::optional<std::string_view> next_line(std::string_view& rest) {
    if (rest.empty()) return std::nullopt;
    std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    return line;
}

// A finite number written out whole, as JavaScript writes one; nullopt for anything else.
std::optional<float> number(std::optional<std::string_view> text) {
    if (!text || text->empty() || text->size() > 32) return std::nullopt;
    std::string copy(*text);
    char* end = nullptr;
    double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
    return static_cast<float>(value);
}

// The viewBox is put into an attribute: four numbers, nothing that could close it.
bool plain_view_box(std::string_view text) {
    if (text.empty() || text.size() > 128) return false;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || c == '-' || c == '.' || c == ' ' || c == 'e')) return false;
    return true;
}

}  // namespace

std::optional<TypesetFormula> decode_math_answer(std::string_view answer) {
    std::string_view rest = answer;
    std::optional<std::string_view> kind = next_line(rest);
    TypesetFormula formula;
    if (kind == std::string_view("error")) {
        formula.error = std::string(rest.empty() ? std::string_view("TeX error") : rest);
        return formula;
    }
    if (kind != std::string_view("ok")) return std::nullopt;
    auto width = number(next_line(rest)), height = number(next_line(rest)), align = number(next_line(rest));
    std::optional<std::string_view> view_box = next_line(rest);
    if (!width || !height || !align || *width < 0 || *height < 0 || !view_box || !plain_view_box(*view_box) ||
        rest.empty())
        return std::nullopt;
    formula.ok = true;
    formula.width_ex = *width;
    formula.height_ex = *height;
    formula.vertical_align_ex = *align;
    formula.view_box = std::string(*view_box);
    formula.body = std::string(rest);
    return formula;
}

std::string formula_key(std::string_view tex, bool display) { return (display ? "D" : "I") + std::string(tex); }

std::string formula_svg(const TypesetFormula& formula, int pixel_width, int pixel_height) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(pixel_width) + "\" height=\"" +
           std::to_string(pixel_height) + "\" viewBox=\"" + formula.view_box +
           "\" preserveAspectRatio=\"none\" color=\"#ffffff\">" + formula.body + "</svg>";
}

const TypesetFormula* MathFormulas::find(std::string_view tex, bool display) const {
    return find(formula_key(tex, display));
}

const TypesetFormula* MathFormulas::find(std::string_view key) const {
    for (const auto& [formula_key, formula] : typeset)
        if (formula_key == key) return &formula;
    return nullptr;
}

std::string picture_key(std::string_view formula_key, int pixel_width, int pixel_height) {
    return std::string(formula_key) + "@" + std::to_string(pixel_width) + "x" + std::to_string(pixel_height);
}

const MathPicture* MathFormulas::picture(std::string_view key) const {
    for (const MathPicture& picture : pictures)
        if (picture.key == key) return &picture;
    return nullptr;
}

}  // namespace imquiz::app
