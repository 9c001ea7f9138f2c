#include "app/preferences.h"

#include "app/app_internal.h"
#include "app/json_writer.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace imquiz::app {

namespace {

using json = nlohmann::ordered_json;  // the engine's JSON type: one parser in the wasm, not two

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
        // Non-throwing parse: a throw would abort the whole wasm module (exceptions are off).
        json settings = json::parse(*saved, nullptr, false);
        if (settings.is_object()) {
            auto text = [&](const char* name) {
                auto it = settings.find(name);
                return it != settings.end() && it->is_string() ? it->get<std::string>() : std::string();
            };
            language_set = language_from_code(text("language"), language);
            theme_from_name(text("theme"), prefs.theme);
            auto scale = settings.find("textScale");
            if (scale != settings.end() && scale->is_number()) prefs.text_scale = nearest_text_size(scale->get<float>());
        }
    }
    if (!language_set) language_set = language_from_code(platform::browser_language(), language);
    Language from_url;
    if (language_from_code(platform::url_parameter("lang"), from_url)) language = from_url;
    prefs.language = language;
    theme_from_name(platform::url_parameter("theme"), prefs.theme);
}

}  // namespace imquiz::app
