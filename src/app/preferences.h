// What the learner chose in Settings, and the options Settings offers: one list each, read by
// every rendering through the screen model.
#pragma once

#include "app/strings.h"

#include <string>

namespace imquiz::app {

enum class ThemeChoice { System, Light, Dark };

struct Preferences {
    Language language = Language::English;
    ThemeChoice theme = ThemeChoice::System;
    float text_scale = 1.0f;        // one of text_sizes
};

const char* theme_name(ThemeChoice theme);    // "system", "light", "dark"
bool theme_from_name(const std::string& name, ThemeChoice& out);

// The text sizes offered, stored as a scale and shown as the percentages people know from
// browser zoom.
struct TextSize {
    float scale;
    const char* label;
};
inline constexpr TextSize text_sizes[] = {{0.875f, "88%"}, {1.0f, "100%"}, {1.125f, "113%"}, {1.25f, "125%"}, {1.5f, "150%"}};
// The offered size nearest to `scale` (a saved or page-sent value may be anything).
float nearest_text_size(float scale);

}  // namespace imquiz::app
