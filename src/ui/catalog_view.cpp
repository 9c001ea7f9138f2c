#include "ui/views.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace imquiz::ui {

namespace {

// "ImQuiz" on the left, Settings on the right. Shared by the catalog and settings screens.
bool header_with_settings(const UiContext& ui, const char* title) {
    float column = ImGui::GetContentRegionAvail().x;
    float start_x = ImGui::GetCursorPosX();
    ImGui::PushFont(ui.fonts.heading);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    std::string label = ui.str(Str::Settings);
    float width = ui.fonts.body->CalcTextSizeA(ui.fonts.body->FontSize * ImGui::GetIO().FontGlobalScale, 1e9f, 0,
                                               label.c_str()).x + ui.px(40);
    ImGui::SameLine(start_x + column - width);
    return button(ui, "settings", label, ButtonKind::Quiet, width);
}

void bank_meta_line(const UiContext& ui, const app::BankSlot& slot) {
    char count[64];
    std::snprintf(count, sizeof count, ui.str(Str::QuestionsCount), static_cast<int>(slot.question_count));
    std::string line = count;
    line += "  ·  ";
    for (std::size_t i = 0; i < slot.bank->languages.size(); ++i) {
        std::string code = slot.bank->languages[i];
        for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        line += (i ? " " : "") + code;
    }
    text_wrapped(ui, ui.fonts.small, line, ui.palette.text_muted);
}

}  // namespace

Action draw_catalog(CatalogView&, const UiContext& ui, const AppState& state) {
    Action action;
    const std::string language = state.language_code();
    if (header_with_settings(ui, ui.str(Str::AppName))) action.kind = Action::Kind::OpenSettings;
    ImGui::Spacing();

    if (!state.catalog_error.empty()) {
        panel_begin(ui, "catalog-error");
        text_wrapped(ui, ui.fonts.body, ui.str(Str::CouldNotLoad), ui.palette.wrong);
        text_wrapped(ui, ui.fonts.small, state.catalog_error, ui.palette.text);
        panel_end(ui, ui.palette.surface, ui.palette.wrong);
    } else if (state.banks.empty()) {
        text_wrapped(ui, ui.fonts.body, ui.str(Str::CatalogEmpty), ui.palette.text_muted);
    }
    if (!state.wanted_quiz.empty() && state.opened_wanted_quiz && state.active_bank < 0) {
        bool known = false;
        for (const auto& slot : state.banks) known = known || slot.id == state.wanted_quiz;
        if (!known) {
            panel_begin(ui, "quiz-not-found");
            text_wrapped(ui, ui.fonts.body, ui.str(Str::QuizNotFound), ui.palette.text);
            text_wrapped(ui, ui.fonts.small, "quiz=" + state.wanted_quiz, ui.palette.text_muted);
            panel_end(ui, ui.palette.surface, ui.palette.border);
            ImGui::Spacing();
        }
    }

    for (std::size_t i = 0; i < state.banks.size(); ++i) {
        const app::BankSlot& slot = state.banks[i];
        ImGui::PushID(static_cast<int>(i));
        panel_begin(ui, "bank");
        switch (slot.state) {
        case app::BankSlot::State::Loading:
            text_wrapped(ui, ui.fonts.body, slot.id.empty() ? slot.url : slot.id, ui.palette.text);
            text_wrapped(ui, ui.fonts.small, ui.str(Str::LoadingQuiz), ui.palette.text_muted);
            break;
        case app::BankSlot::State::FetchFailed:
        case app::BankSlot::State::Invalid: {
            bool invalid = slot.state == app::BankSlot::State::Invalid;
            text_wrapped(ui, ui.fonts.body, invalid ? ui.str(Str::InvalidBank) : ui.str(Str::CouldNotLoad),
                         ui.palette.wrong);
            text_wrapped(ui, ui.fonts.small, slot.url, ui.palette.text_muted);
            if (invalid) {
                int shown = 0;
                for (const auto& d : slot.diagnostics) {
                    if (d.severity != Diagnostic::Severity::Error) continue;
                    if (++shown > 8) break;  // the rest: quizc validate lists them all
                    text_wrapped(ui, ui.fonts.small, "• " + format_diagnostic(d), ui.palette.text);
                }
            } else {
                text_wrapped(ui, ui.fonts.small, slot.fetch_error, ui.palette.text);
            }
            if (button(ui, ("retry-load:" + slot.id).c_str(), ui.str(Str::RetryLoad), ButtonKind::Secondary)) {
                action.kind = Action::Kind::RetryLoad;
                action.bank = static_cast<int>(i);
            }
            break;
        }
        case app::BankSlot::State::Ready: {
            const Bank& bank = *slot.bank;
            text_wrapped(ui, ui.fonts.heading, bank.text(bank.title, language), ui.palette.text);
            const std::string& description = bank.text(bank.description, language);
            if (!description.empty()) text_wrapped(ui, ui.fonts.body, description, ui.palette.text_muted);
            bank_meta_line(ui, slot);
            if (slot.progress.best_percent) {
                char best[64];
                std::snprintf(best, sizeof best, ui.str(Str::BestScore),
                              static_cast<int>(std::lround(*slot.progress.best_percent)));
                badge(ui, best, ui.palette.correct, ui.palette.correct_soft);
            } else {
                badge(ui, ui.str(Str::NotTakenYet), ui.palette.text_muted, ui.palette.surface_hover);
            }
            ImGui::Spacing();
            bool in_progress = slot.progress.attempt_in_progress.has_value();
            std::string id = "open:" + slot.id;
            if (button(ui, id.c_str(), ui.str(in_progress ? Str::Continue : Str::Start), ButtonKind::Primary)) {
                action.kind = Action::Kind::OpenQuiz;
                action.bank = static_cast<int>(i);
            }
            if (in_progress) {
                ImGui::SameLine();
                std::string over = "start-over:" + slot.id;
                if (button(ui, over.c_str(), ui.str(Str::StartOver), ButtonKind::Secondary)) {
                    action.kind = Action::Kind::StartOver;
                    action.bank = static_cast<int>(i);
                }
            }
            break;
        }
        }
        panel_end(ui, ui.palette.surface, ui.palette.border);
        ImGui::PopID();
        ImGui::Spacing();
    }
    return action;
}

}  // namespace imquiz::ui
