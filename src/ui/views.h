// Every screen of ImQuiz, at a glance. A view is a struct holding what only the view needs
// (scroll requests, measured heights), and a draw function that lays out the screen model
// (app/screen_model.h: every text, state and action already decided) and returns the learner's
// intent as an Action. Views never change the app's state, and decide nothing the model says.
#pragma once

#include "app/screen_model.h"
#include "ui/widgets.h"

namespace imquiz::ui {

using app::Action;
using app::ScreenModel;

// Quizzes from quizzes/index.json: title, description, count, languages, best score, Continue.
struct CatalogView {};
Action draw_catalog(CatalogView& view, const UiContext& ui, const app::CatalogModel& model);

// One question: progress, prompt, answer cards or input, Check, feedback, explanation, Next.
struct QuestionView {
    std::string shown_question;          // key of the question last drawn
    bool scroll_to_feedback = false;     // after Check, bring the verdict into view
    bool scroll_to_top = false;          // a new question starts at the top
    bool focus_answer = false;           // a new typed question takes the keyboard (UiContext::draw_text_fields)
    std::string picked_item;             // ordering, tap-tap: the item picked up, "" none
    bool popup_open = false;             // a matching item's list of answers is open (Esc closes it)
    bool popup_was_open = false;         // it was at the last frame (closed by this frame's Esc)
    bool confirm_shown = false;          // exam: the submit confirmation was scrolled into view
};
Action draw_question(QuestionView& view, const UiContext& ui, const app::QuestionModel& model);

// Score, pass/fail, time, every question with your answer and the right one; Retry, Review.
struct ResultsView {
    bool scroll_to_top = true;
    // Heights of the per-question panels, measured when drawn, so panels off screen are skipped:
    // an attempt may have thousands of questions. Valid for one attempt, language, size, width.
    std::vector<float> panel_heights;
    std::string panel_heights_key;
    float measured_sum = 0;      // of the panel heights measured so far (> 0)
    int measured_count = 0;
};
Action draw_results(ResultsView& view, const UiContext& ui, const app::ResultsModel& model);

// Language, theme, text size; export and import of progress.
struct SettingsView {};
Action draw_settings(SettingsView& view, const UiContext& ui, const app::SettingsModel& model);

// Shown while the catalog and the font arrive (the HTML spinner covers the very first moment).
Action draw_loading(const UiContext& ui, const ScreenModel& model);

// A notice bar above the current screen (storage refused or full).
Action draw_notice(const UiContext& ui, const app::NoticeModel& notice);

// One image full size over the screen: its alt text, Close, the picture (scrolling both ways
// when it is bigger than the screen).
Action draw_picture_viewer(const UiContext& ui, const app::PictureViewerModel& viewer,
                           const std::vector<app::PictureModel>& pictures);

struct Views {
    bool touch_dragged = false;  // this touch has scrolled: its release must not click
    app::Screen last_screen = app::Screen::Loading;
    CatalogView catalog;
    QuestionView question;
    ResultsView results;
    SettingsView settings;
};

// Draws the current screen in one full-window ImGui window; returns the learner's action.
// Esc is handled here (the model says what it does on each screen).
Action draw_screen(Views& views, const UiContext& ui, const ScreenModel& model);

}  // namespace imquiz::ui
