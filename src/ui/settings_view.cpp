#include "ui/views.h"

namespace imquiz::ui {

namespace {

// A row of mutually exclusive options drawn as buttons; wraps on narrow screens.
Action option_row(const UiContext& ui, const app::OptionGroupModel& group) {
    Action action;
    float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x;
    ImGui::PushID(group.id.c_str());
    for (std::size_t i = 0; i < group.options.size(); ++i) {
        const app::OptionModel& option = group.options[i];
        float width = ImGui::CalcTextSize(option.label.c_str()).x + ui.px(40);
        if (i > 0) {
            ImGui::SameLine();
            if (ImGui::GetCursorPosX() + width > right) ImGui::NewLine();
        }
        std::string id = group.id + ":" + std::to_string(i);
        if (button(ui, id.c_str(), option.label, option.selected ? ButtonKind::Primary : ButtonKind::Secondary, width) &&
            !option.selected)
            action = option.action;
    }
    ImGui::PopID();
    return action;
}

}  // namespace

Action draw_settings(SettingsView&, const UiContext& ui, const app::SettingsModel& model) {
    Action action = model_button(ui, model.back, 0.0f, "‹ ");
    text_wrapped(ui, ui.fonts.heading, model.heading, ui.palette.text);
    ImGui::Spacing();
    for (const auto& group : model.groups) {
        text_wrapped(ui, ui.fonts.body, group.legend, ui.palette.text);
        Action picked = option_row(ui, group);
        if (picked.kind != Action::Kind::None) action = picked;
        ImGui::Spacing();
    }
    text_wrapped(ui, ui.fonts.body, model.progress_heading, ui.palette.text);
    if (!model.storage_warning.empty()) text_wrapped(ui, ui.fonts.small, model.storage_warning, ui.palette.wrong);
    for (const auto& b : model.progress_buttons) {
        Action pressed = model_button(ui, b);
        if (pressed.kind != Action::Kind::None) action = pressed;
    }
    ImGui::Spacing();
    if (model.confirmation) {
        panel_begin(ui, "confirm-delete");
        text_wrapped(ui, ui.fonts.body, model.confirmation->question, ui.palette.text);
        ImGui::Spacing();
        Action confirm = model_button(ui, model.confirmation->confirm);
        ImGui::SameLine();
        Action cancel = model_button(ui, model.confirmation->cancel);
        panel_end(ui, ui.palette.wrong_soft, ui.palette.wrong);
        if (confirm.kind != Action::Kind::None) action = confirm;
        if (cancel.kind != Action::Kind::None) action = cancel;
    } else {
        for (std::size_t i = 0; i < model.delete_buttons.size(); ++i) {
            if (i < model.delete_titles.size() && !model.delete_titles[i].empty())
                text_wrapped(ui, ui.fonts.small, model.delete_titles[i], ui.palette.text_muted);
            Action pressed = model_button(ui, model.delete_buttons[i]);
            if (pressed.kind != Action::Kind::None) action = pressed;
        }
    }
    if (!model.import_message.empty()) text_wrapped(ui, ui.fonts.small, model.import_message, ui.palette.text);
    return action;
}

}  // namespace imquiz::ui
