#include "ui/views.h"

#include "ui/progress_pictures.h"
#include "ui/rich_text.h"

namespace imquiz::ui {

namespace {

// The app's name on the left, Settings on the right.
Action header_with_settings(const UiContext& ui, const std::string& title, const app::ButtonModel& settings) {
    float column = ImGui::GetContentRegionAvail().x;
    float start_x = ImGui::GetCursorPosX();
    ImGui::PushFont(ui.fonts.heading);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopFont();
    float width = ui.fonts.body->CalcTextSizeA(ui.fonts.body->FontSize * ImGui::GetIO().FontGlobalScale, 1e9f, 0,
                                               settings.label.c_str()).x + ui.px(40);
    ImGui::SameLine(start_x + column - width);
    return model_button(ui, settings, width);
}

void take(Action& action, Action pressed) {
    if (pressed.kind != Action::Kind::None) action = std::move(pressed);
}

}  // namespace

Action draw_catalog(CatalogView&, const UiContext& ui, const app::CatalogModel& model) {
    Action action = header_with_settings(ui, model.heading, model.settings);
    ImGui::Spacing();

    if (!model.error.empty()) {
        panel_begin(ui, "catalog-error");
        text_wrapped(ui, ui.fonts.body, model.error_title, ui.palette.wrong);
        text_wrapped(ui, ui.fonts.small, model.error, ui.palette.text);
        panel_end(ui, ui.palette.surface, ui.palette.wrong);
    } else if (!model.empty.empty()) {
        text_wrapped(ui, ui.fonts.body, model.empty, ui.palette.text_muted);
    }
    if (!model.not_found.empty()) {
        panel_begin(ui, "quiz-not-found");
        text_wrapped(ui, ui.fonts.body, model.not_found_title, ui.palette.text);
        text_wrapped(ui, ui.fonts.small, model.not_found, ui.palette.text_muted);
        panel_end(ui, ui.palette.surface, ui.palette.border);
        ImGui::Spacing();
    }

    if (model.review) {
        const app::ReviewAcrossModel& review = *model.review;
        panel_begin(ui, "review-across");
        text_wrapped(ui, ui.fonts.heading, review.heading, ui.palette.text);
        text_wrapped(ui, ui.fonts.body, review.text, review.review ? ui.palette.text : ui.palette.text_muted);
        if (review.review) {
            ImGui::Spacing();
            take(action, model_button(ui, *review.review));
        }
        panel_end(ui, ui.palette.surface, ui.palette.border);
        ImGui::Spacing();
    }

    for (std::size_t i = 0; i < model.cards.size(); ++i) {
        const app::CardModel& card = model.cards[i];
        ImGui::PushID(static_cast<int>(i));
        panel_begin(ui, "bank");
        switch (card.status) {
        case app::CardModel::Status::Loading:
            text_wrapped(ui, ui.fonts.body, card.title, ui.palette.text);
            text_wrapped(ui, ui.fonts.small, card.standing, ui.palette.text_muted);
            break;
        case app::CardModel::Status::FetchFailed:
        case app::CardModel::Status::Invalid:
            text_wrapped(ui, ui.fonts.body, card.title, ui.palette.wrong);
            text_wrapped(ui, ui.fonts.small, card.url, ui.palette.text_muted);
            for (const auto& problem : card.problems)
                text_wrapped(ui, ui.fonts.small,
                             card.status == app::CardModel::Status::Invalid ? "• " + problem : problem, ui.palette.text);
            break;
        case app::CardModel::Status::Ready:
            text_wrapped(ui, ui.fonts.heading, card.title, ui.palette.text);
            if (card.description_rich) {
                Action link = rich_text(ui, "description", *card.description_rich, TextSize::Body, ui.palette.text_muted);
                if (link.kind != Action::Kind::None) action = link;
            } else if (!card.description.empty()) {
                text_wrapped(ui, ui.fonts.body, card.description, ui.palette.text_muted);
            }
            text_wrapped(ui, ui.fonts.small, card.meta, ui.palette.text_muted);
            for (const auto& problem : card.problems)  // TeX errors: the bank plays, the author is told
                text_wrapped(ui, ui.fonts.small, "• " + problem, ui.palette.wrong);
            if (card.has_best) badge(ui, card.standing, ui.palette.correct, ui.palette.correct_soft);
            else badge(ui, card.standing, ui.palette.text_muted, ui.palette.surface_hover);
            if (card.progress) {
                ImGui::Spacing();
                progress_meter(ui, *card.progress);
            }
            ImGui::Spacing();
            break;
        }
        for (std::size_t b = 0; b < card.buttons.size(); ++b) {
            if (b > 0) ImGui::SameLine();
            take(action, model_button(ui, card.buttons[b]));
        }
        panel_end(ui, ui.palette.surface, ui.palette.border);
        ImGui::PopID();
        ImGui::Spacing();
    }
    return action;
}

}  // namespace imquiz::ui
