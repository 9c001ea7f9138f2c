#include "ui/glyph_set.h"

#include "engine/utf8.h"

namespace imquiz::ui {

namespace {
// Must stay in step with scripts/subset-font.sh (the glyphs the shipped font subset keeps).
struct Range {
    char32_t first, last;
};
constexpr Range font_ranges[] = {
    {0x0020, 0x007E},  // Basic Latin
    {0x00A0, 0x017F},  // Latin-1 Supplement, Latin Extended-A (Indonesian, Western European names)
    {0x0400, 0x045F},  // Cyrillic (Russian)
    {0x0490, 0x0491},  // Ґ ґ
    {0x2010, 0x2027},  // dashes, quotes ’ “ ”, bullet •, ellipsis …
    {0x2030, 0x203A},  // per mille, primes, angle quotes
    {0x20AC, 0x20AC},  // €
    {0x2116, 0x2116},  // №
    {0x2122, 0x2122},  // ™
    // not arrows or the minus sign: Noto Sans has none (they showed as "?")
};
constexpr char32_t font_last = 0x2122;

// Drawn by our views, not found in any screen's words: the separator "·", the list bullet "•",
// the back button's "‹", ImGui's ellipsis for clipped text "…", and the no-break space.
constexpr char32_t drawn_by_views[] = {0x00A0, 0x00B7, 0x2022, 0x2039, 0x2026};
}  // namespace

bool GlyphSet::font_has(char32_t c) {
    for (const Range& range : font_ranges)
        if (c >= range.first && c <= range.last) return true;
    return false;
}

GlyphSet::GlyphSet() : have_(font_last + 1, false) {
    for (char32_t c = 0x20; c <= 0x7E; ++c) have_[c] = true;
    count_ = 0x7E - 0x20 + 1;
    for (char32_t c : drawn_by_views) {
        have_[c] = true;
        ++count_;
    }
}

bool GlyphSet::add(std::string_view utf8) {
    bool grew = false;
    for (std::size_t i = 0; i < utf8.size();) {
        if (static_cast<unsigned char>(utf8[i]) < 0x80) {  // ASCII is always there
            ++i;
            continue;
        }
        char32_t c = decode_utf8(utf8, i);
        if (c > font_last || have_[c] || !font_has(c)) continue;
        have_[c] = true;
        ++count_;
        grew = true;
    }
    if (grew) ranges_stale_ = true;
    return grew;
}

const std::vector<std::uint16_t>& GlyphSet::ranges() const {
    if (!ranges_stale_) return ranges_;
    ranges_.clear();
    for (char32_t c = 0; c < have_.size(); ++c) {
        if (!have_[c]) continue;
        char32_t last = c;
        while (last + 1 < have_.size() && have_[last + 1]) ++last;
        ranges_.push_back(static_cast<std::uint16_t>(c));
        ranges_.push_back(static_cast<std::uint16_t>(last));
        c = last;
    }
    ranges_.push_back(0);
    ranges_stale_ = false;
    return ranges_;
}

}  // namespace imquiz::ui
