// The characters the font atlas holds: ASCII, what our own views draw around a bank's words, and
// every character the screens have shown so far, not all 469 the font subset has. Rasterising the
// whole subset at three sizes took 0.3 s of a phone's first question, and the Markdown faces 0.8 s
// more once they came (docs/benchmark.md, "The atlas"); a quiz's screens use a few dozen.
// ImGui-free, so that the unit tests can hold it to account.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace imquiz::ui {

class GlyphSet {
public:
    GlyphSet();
    // Adds the characters of `utf8` the font has; true when any was new (the atlas is then stale).
    bool add(std::string_view utf8);
    bool contains(char32_t c) const { return c < have_.size() && have_[c]; }
    std::size_t size() const { return count_; }
    // ImGui's glyph ranges: inclusive pairs, then a 0; valid until the next add().
    const std::vector<std::uint16_t>& ranges() const;
    // Whether the shipped font subset has a glyph for `c` (scripts/subset-font.sh keeps these).
    static bool font_has(char32_t c);

private:
    std::vector<bool> have_;
    std::size_t count_ = 0;
    mutable std::vector<std::uint16_t> ranges_;
    mutable bool ranges_stale_ = true;
};

}  // namespace imquiz::ui
