// Every screen of ImQuiz, at a glance. A view is a struct holding what only the view needs
// (scroll requests, focus), and a draw function that reads the app state and returns the
// learner's intent as an Action. Views never change AppState themselves.
#pragma once

#include "app/state.h"
#include "ui/widgets.h"

namespace imquiz::ui {

using app::Action;
using app::AppState;

// Quizzes from quizzes/index.json: title, description, count, languages, best score, Continue.
struct CatalogView {};
Action draw_catalog(CatalogView& view, const UiContext& ui, const AppState& state);

// One question: progress, prompt, answer cards or input, Check, feedback, explanation, Next.
struct QuestionView {
    std::size_t shown_question = static_cast<std::size_t>(-1);
    bool scroll_to_feedback = false;     // after Check, bring the verdict into view
    bool scroll_to_top = false;          // a new question starts at the top
};
Action draw_question(QuestionView& view, const UiContext& ui, const AppState& state);

// Score, pass/fail, time, every question with your answer and the right one; Retry, Review.
struct ResultsView {
    bool scroll_to_top = true;
    // Heights of the per-question panels, measured when drawn, so panels off screen are skipped:
    // an attempt may have thousands of questions. Valid for one attempt, language, size, width.
    std::vector<float> panel_heights;
    std::string panel_heights_key;
};
Action draw_results(ResultsView& view, const UiContext& ui, const AppState& state);

// Language, theme, text size; export and import of progress.
struct SettingsView {};
Action draw_settings(SettingsView& view, const UiContext& ui, const AppState& state);

// Shown while the catalog and the font arrive (the HTML spinner covers the very first moment).
Action draw_loading(const UiContext& ui, const AppState& state);

// A notice bar above the current screen (storage refused or full). Returns DismissNotice.
Action draw_notices(const UiContext& ui, const AppState& state);

struct Views {
    bool touch_dragged = false;  // this touch has scrolled: its release must not click
    CatalogView catalog;
    QuestionView question;
    ResultsView results;
    SettingsView settings;
};

// Draws the current screen in one full-window ImGui window; returns the learner's action.
// Keyboard shortcuts (1-9, Enter, Esc) are handled here too, so they work on every screen.
Action draw_screen(Views& views, const UiContext& ui, const AppState& state);

}  // namespace imquiz::ui
