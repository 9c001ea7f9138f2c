#include "app/preferences.h"

#include "app/app_internal.h"
#include "engine/json/writer.h"

#include "engine/json/reader.h"

#include <cmath>

namespace imquiz::app {

namespace {

constexpr const char* settings_key = "settings";

}  // namespace

const char* theme_name(ThemeChoice theme) {
    switch (theme) {
    case ThemeChoice::Light: return "light";
    case ThemeChoice::Dark: return "dark";
    default: return "system";
    }
}

bool theme_from_name(const std::string& name, ThemeChoice& out) {
    if (name == "light") { out = ThemeChoice::Light; return true; }
    if (name == "dark") { out = ThemeChoice::Dark; return true; }
    if (name == "system") { out = ThemeChoice::System; return true; }
    return false;
}

float nearest_text_size(float scale) {
    if (!std::isfinite(scale)) return 1.0f;
    float best = 1.0f;
    for (const TextSize& size : text_sizes)
        if (std::fabs(size.scale - scale) < std::fabs(best - scale)) best = size.scale;
    return best;
}

void save_preferences(AppState& state) {
    JsonWriter w;
    w.begin_object();
    w.key("version").integer(1);
    w.key("language").string(language_code(state.preferences.language));
    w.key("theme").string(theme_name(state.preferences.theme));
    w.key("textScale").number(state.preferences.text_scale);
    w.end_object();
    platform::storage_set(settings_key, w.take());
}

void load_preferences(AppState& state) {
    Preferences& prefs = state.preferences;
    Language language = Language::English;
    bool language_set = false;
    if (auto saved = platform::storage_get(settings_key)) {
        // The engine's own reader: it cannot throw, and it is the one JSON parser in the wasm.
        JsonReadResult read = read_json(*saved, settings_key, LoadLimits{});
        if (read.document) {
            const JsonValue& settings = read.document->root();
            auto text = [&](const char* name) -> std::string {
                const JsonValue* value = find_field(settings, name);
                auto string = value ? as_string(*value) : std::nullopt;
                return string ? std::string(*string) : std::string();
            };
            language_set = language_from_code(text("language"), language);
            theme_from_name(text("theme"), prefs.theme);
            const JsonValue* scale = find_field(settings, "textScale");
            if (auto number = scale ? as_number(*scale) : std::nullopt)
                prefs.text_scale = nearest_text_size(static_cast<float>(*number));
        }
    }
    if (!language_set) language_set = language_from_code(platform::browser_language(), language);
    Language from_url;
    if (language_from_code(platform::url_parameter("lang"), from_url)) language = from_url;
    prefs.language = language;
    theme_from_name(platform::url_parameter("theme"), prefs.theme);
}

}  // namespace imquiz::app
