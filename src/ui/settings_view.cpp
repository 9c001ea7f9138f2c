#include "ui/views.h"

#include <cmath>
#include <cstdio>

namespace imquiz::ui {

namespace {

// A row of mutually exclusive options drawn as buttons; wraps on narrow screens.
template <typename T>
bool option_row(const UiContext& ui, const char* id, const std::vector<std::pair<T, std::string>>& options,
                T current, T& chosen) {
    bool changed = false;
    float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x;
    ImGui::PushID(id);
    for (std::size_t i = 0; i < options.size(); ++i) {
        const auto& [value, label] = options[i];
        float width = ImGui::CalcTextSize(label.c_str()).x + ui.px(40);
        if (i > 0) {
            ImGui::SameLine();
            if (ImGui::GetCursorPosX() + width > right) ImGui::NewLine();
        }
        std::string button_id = std::string(id) + ":" + std::to_string(i);
        if (button(ui, button_id.c_str(), label, value == current ? ButtonKind::Primary : ButtonKind::Secondary, width)) {
            chosen = value;
            changed = value != current;
        }
    }
    ImGui::PopID();
    return changed;
}

}  // namespace

Action draw_settings(SettingsView&, const UiContext& ui, const AppState& state) {
    Action action;
    if (button(ui, "back", std::string("‹ ") + ui.str(Str::Back), ButtonKind::Quiet))
        action.kind = Action::Kind::CloseSettings;
    text_wrapped(ui, ui.fonts.heading, ui.str(Str::Settings), ui.palette.text);
    ImGui::Spacing();

    text_wrapped(ui, ui.fonts.body, ui.str(Str::Language), ui.palette.text);
    std::vector<std::pair<Language, std::string>> languages;
    for (int i = 0; i < static_cast<int>(Language::Count); ++i)
        languages.emplace_back(static_cast<Language>(i), language_native_name(static_cast<Language>(i)));
    Language language = state.preferences.language;
    if (option_row(ui, "language", languages, state.preferences.language, language)) {
        action.kind = Action::Kind::SetLanguage;
        action.language = language;
    }
    ImGui::Spacing();

    text_wrapped(ui, ui.fonts.body, ui.str(Str::Theme), ui.palette.text);
    ThemeChoice theme = state.preferences.theme;
    if (option_row<ThemeChoice>(ui, "theme",
                                {{ThemeChoice::System, ui.str(Str::ThemeSystem)},
                                 {ThemeChoice::Light, ui.str(Str::ThemeLight)},
                                 {ThemeChoice::Dark, ui.str(Str::ThemeDark)}},
                                state.preferences.theme, theme)) {
        action.kind = Action::Kind::SetTheme;
        action.theme = theme;
    }
    ImGui::Spacing();

    text_wrapped(ui, ui.fonts.body, ui.str(Str::TextSize), ui.palette.text);
    // Stored as a scale; offered as the percentages people know from browser zoom.
    std::vector<std::pair<int, std::string>> sizes = {{88, "88%"}, {100, "100%"}, {113, "113%"}, {125, "125%"}, {150, "150%"}};
    int current = static_cast<int>(std::lround(state.preferences.text_scale * 100));
    if (current == 113 || current == 112) current = 113;
    if (current == 87 || current == 88) current = 88;
    int chosen = current;
    if (option_row(ui, "text-size", sizes, current, chosen)) {
        action.kind = Action::Kind::SetTextScale;
        action.number = chosen == 88 ? 0.875f : chosen == 113 ? 1.125f : static_cast<float>(chosen) / 100.0f;
    }
    ImGui::Spacing();

    text_wrapped(ui, ui.fonts.body, ui.str(Str::Progress), ui.palette.text);
    if (!state.storage_persistent) text_wrapped(ui, ui.fonts.small, ui.str(Str::StorageUnavailable), ui.palette.wrong);
    if (button(ui, "export", ui.str(Str::ExportProgress), ButtonKind::Secondary)) action.kind = Action::Kind::ExportProgress;
    if (button(ui, "import", ui.str(Str::ImportProgress), ButtonKind::Secondary)) action.kind = Action::Kind::ImportProgress;
    if (!state.import_message.empty()) text_wrapped(ui, ui.fonts.small, state.import_message, ui.palette.text);
    return action;
}

}  // namespace imquiz::ui
