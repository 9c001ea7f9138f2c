#include "ui/palette.h"

#include <algorithm>
#include <cmath>

namespace imquiz::ui {

Palette light_palette() {
    return {
        rgb(0xF4F6FA), rgb(0xFFFFFF), rgb(0xEEF1F8), rgb(0xCDD3E0),
        rgb(0x1B2232), rgb(0x4A5468),
        rgb(0x3451C7), rgb(0x2A43A8), rgb(0xFFFFFF), rgb(0xE8EDFC),
        rgb(0x17692E), rgb(0xE3F3E7), rgb(0xB0241B), rgb(0xFCE9E7),
        false,
    };
}

Palette dark_palette() {
    return {
        rgb(0x15171C), rgb(0x1F232B), rgb(0x272C36), rgb(0x3B4250),
        rgb(0xE8EBF2), rgb(0xAAB2C2),
        rgb(0x8EA6FF), rgb(0xA9BBFF), rgb(0x0E1526), rgb(0x26304D),
        rgb(0x6BD98A), rgb(0x17301F), rgb(0xFF958C), rgb(0x3A1F1E),
        true,
    };
}

Palette high_contrast_palette(bool dark) {
    if (dark) {
        return {
            rgb(0x000000), rgb(0x000000), rgb(0x1A1A1A), rgb(0xFFFFFF),
            rgb(0xFFFFFF), rgb(0xE0E0E0),
            rgb(0xFFE14D), rgb(0xFFEC8A), rgb(0x000000), rgb(0x33300F),
            rgb(0x7DFF9B), rgb(0x002B0C), rgb(0xFF9A92), rgb(0x330400),
            true,
        };
    }
    return {
        rgb(0xFFFFFF), rgb(0xFFFFFF), rgb(0xF0F0F0), rgb(0x000000),
        rgb(0x000000), rgb(0x262626),
        rgb(0x0033AA), rgb(0x002280), rgb(0xFFFFFF), rgb(0xE0E8FF),
        rgb(0x0B5A1E), rgb(0xE0F5E6), rgb(0x9E0F06), rgb(0xFDE4E1),
        false,
    };
}

// In CodeKind's order: keyword, string, number, comment, function, type, builtin, operator,
// punctuation, property, variable, constant.
CodeColours code_colours(const Palette& palette) {
    // The high-contrast palettes are the ones with pure black or pure white text.
    bool high_contrast = palette.text == rgb(0x000000) || palette.text == rgb(0xFFFFFF);
    if (high_contrast && palette.dark)
        return {rgb(0xE2B8FF), rgb(0x7DFF9B), rgb(0xFFC48A), rgb(0xD0D0D0), rgb(0xA8C8FF), rgb(0x7DF0F5),
                rgb(0xFFB0DA), rgb(0xFFFFFF), rgb(0xE0E0E0), rgb(0xFFB0A8), rgb(0xFFE14D), rgb(0xFFC48A)};
    if (high_contrast)
        return {rgb(0x6A0DAD), rgb(0x0B5A1E), rgb(0x8A3A00), rgb(0x3D3D3D), rgb(0x0033AA), rgb(0x005A62),
                rgb(0x7A1A55), rgb(0x000000), rgb(0x262626), rgb(0x9E0F06), rgb(0x5C3A00), rgb(0x8A3A00)};
    if (palette.dark)
        return {rgb(0xD0A8FF), rgb(0x8FD19E), rgb(0xF5B27A), rgb(0x9AA3B5), rgb(0x8EB4FF), rgb(0x6FD3D8),
                rgb(0xF08FC0), rgb(0xC5CCDA), rgb(0xAAB2C2), rgb(0xFF9E94), rgb(0xE6C07B), rgb(0xF5B27A)};
    return {rgb(0x8A2BB5), rgb(0x1E6B32), rgb(0xA0461B), rgb(0x5E6778), rgb(0x2F52C4), rgb(0x00707A),
            rgb(0x9A3A6E), rgb(0x4A5468), rgb(0x4A5468), rgb(0xB0241B), rgb(0x7A4E00), rgb(0xA0461B)};
}

namespace {
double channel(uint32_t value) {
    double c = value / 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double luminance(uint32_t color) {
    return 0.2126 * channel(color & 0xFF) + 0.7152 * channel((color >> 8) & 0xFF) +
           0.0722 * channel((color >> 16) & 0xFF);
}
}  // namespace

double contrast_ratio(uint32_t a, uint32_t b) {
    double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace imquiz::ui
